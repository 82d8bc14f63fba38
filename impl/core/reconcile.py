"""Payloads (R7): deltas joined per channel, offers made to the payload kernel.

A channel (``state.Channel``) holds the deltas of one streamed value and the value
chosen so far.  ``offer`` hands one offer to the payload kernel: which cell applies
is ``model.payload.payload_key`` (the same function the proofs run with Z3 terms), and
the kernel says keep or take.  ``snapshot_arrives`` records the snapshot's values as
offers (a ghost for the invariants); ``align_parts`` gives streamed parts the
positions the item puts them at.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from responses_oracle.model.catalogue import ChannelKind, ChannelLocation
from responses_oracle.model.ops import PYTHON
from responses_oracle.model.payload import payload_key, realigned_parts
from responses_oracle.model.vocabulary import Code, PayloadAction, PayloadSource

from .context import StepContext
from .state import Channel, Entry


def attach(entry: Entry, channel: Channel) -> Channel:
    """The entry's channel for ``channel``'s key, attaching ``channel`` on first use.

    Routing looks channels up without creating them (a late event must leave its entry
    as it was); an effect that writes attaches the channel first.
    """
    if channel.attached:  # the entry's own: no lookup (its key hashes an enum in Python)
        return channel
    held = entry.channels.setdefault((channel.kind, channel.index), channel)
    held.attached = True
    return held


def channel(entry: Entry, kind: ChannelKind, index: int) -> Channel:
    """The entry's channel ``kind[index]``, created on first use."""
    key = (kind, index)
    found = entry.channels.get(key)
    if found is None:
        found = entry.channels[key] = Channel(kind, index, attached=True)
    return found


def append_delta(step: StepContext, channel: Channel, value: str | None) -> None:
    """Append a delta (an empty one is nothing); past the limit, report once and drop."""
    if not value:
        return
    channel.delta_chars += len(value)
    limit = step.limits.max_channel_chars
    if channel.delta_chars > limit:
        if channel.delta_chars - len(value) <= limit:
            step.note(
                Code.LIMIT_EXCEEDED,
                f"channel {channel.kind.value}[{channel.index}] passed "
                f"{limit} characters; later deltas dropped",
            )
        return
    channel.deltas.append(value)


def offer(step: StepContext, channel: Channel, value: str | None, source: PayloadSource) -> None:
    """Make one offer: the joined deltas first (as their own offer), then it."""
    if channel.deltas:
        joined = "".join(channel.deltas)
        channel.deltas.clear()
        offer(step, channel, joined, PayloadSource.DELTAS)
    held_value = channel.value
    held, relation = payload_key(PYTHON, held_value, value)
    if value:
        channel.any_nonempty, channel.last_nonempty = True, value
    decision = step.kernels.payload(held, relation)
    if decision.code is not None:
        step.note(
            decision.code,
            f"{channel.kind.value}[{channel.index}] from {source.value}: "
            f"held {clip(held_value)}, offered {clip(value)}",
        )
    if decision.action is PayloadAction.TAKE:
        channel.value, channel.source = value, source


def offer_item_payloads(
    step: StepContext, entry: Entry, item: Mapping[str, Any], source: PayloadSource
) -> None:
    """Offer every channel value a done or snapshot item carries."""
    for location in entry.spec.channels:
        values = item_channel_values(item, location)
        if location.array is not None:
            align_parts(step, entry, location.channel, [index for index, _ in values])
        for index, value in values:
            offer(step, channel(entry, location.channel, index), value, source)


def snapshot_arrives(step: StepContext, entry: Entry, item: Mapping[str, Any]) -> None:
    """The first snapshot item of an entry: its values are offers (a ghost).

    The snapshot is reconciliation, not a late event (R3), so its values count as
    offers for ``empty_never_erases`` and ``latest_nonempty_wins`` whether or
    not the entry's lifecycle row offers them — a row that skips the snapshot
    (AxonHub's reported bug) is then a visible violation, not a silent loss.
    """
    if entry.in_snapshot:
        return
    entry.in_snapshot = True
    for location in entry.spec.channels:
        values = item_channel_values(item, location)
        if location.array is not None:
            align_parts(step, entry, location.channel, [index for index, _ in values])
        for index, value in values:
            if value:
                found = channel(entry, location.channel, index)
                found.any_nonempty, found.last_nonempty = True, value


def align_parts(step: StepContext, entry: Entry, kind: ChannelKind, positions: list[int]) -> None:
    """Give streamed parts the positions the item puts them at.

    Bedrock Mantle streams a message's only text part at ``content_index`` 1 while
    its items hold it at position 0; without this the text would appear twice.
    Streamed parts whose index the item does not use take, in order, the item's
    positions that no streamed part has (``model.payload.realigned_parts``, which the
    refinement reads too).
    """
    streamed = [index for (k, index) in entry.channels if k is kind]
    for old, new in realigned_parts(streamed, positions):
        moved = entry.channels.pop((kind, old))
        moved.index = new
        entry.channels[(kind, new)] = moved
        step.note(
            Code.PART_REALIGNED,
            f"{kind.value} part streamed at index {old} is at position {new} in the item",
        )


def clip(value: str | None) -> str:
    """``value`` for a diagnostic: quoted, cut at 40 characters."""
    if value is None:
        return "nothing"
    return repr(value) if len(value) <= 40 else repr(value[:37] + "...")


def _container(item: Mapping[str, Any], path: tuple[str, ...]) -> Mapping[str, Any] | None:
    node: Any = item
    for key in path:
        node = node.get(key) if isinstance(node, Mapping) else None
    return node if isinstance(node, Mapping) else None


def item_channel_values(
    item: Mapping[str, Any], location: ChannelLocation
) -> list[tuple[int, str | None]]:
    """The (part index, value) pairs a wire item carries for one channel location."""
    container = _container(item, location.container)
    if container is None:
        return []
    if location.array is None:
        if location.field is None or location.field not in container:
            return []
        value = container.get(location.field)
        return [(0, value if isinstance(value, str) else None)]
    parts = container.get(location.array)
    if not isinstance(parts, list):
        return []
    found: list[tuple[int, str | None]] = []
    for index, part in enumerate(parts):
        if location.part_type is None:
            if isinstance(part, str):
                found.append((index, part))
        elif isinstance(part, Mapping) and part.get("type") == location.part_type:
            value = part.get(location.field or "")
            found.append((index, value if isinstance(value, str) else None))
    return found
