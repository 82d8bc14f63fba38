"""The execution context of one event: state, kernels, the event, what it raised.

Every driver module takes a ``StepContext``.  It holds no rule: it raises diagnostics
(``note``) and answers the three identity maps of R4 — which entries a wire id names,
which entry holds a ``call_id`` in a kind's namespace — which is how the classifiers'
facts are read off the state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from responses_oracle.model.recordkit import record
from responses_oracle.model.vocabulary import Code, EntryState, ItemKind

from .events import Event
from .state import Diagnostic, Entry, ResponseState


@record(frozen=True, slots=True)
class ReducerLimits:
    """Bounds on what one response may make the reducer hold (hostile input)."""

    max_entries: int = 100_000
    """Entries admitted per response; more items are dropped with ``limit_exceeded``."""
    max_channel_chars: int = 64 * 1024 * 1024
    """Characters of deltas per channel; more are dropped with ``limit_exceeded``."""


DEFAULT_LIMITS = ReducerLimits()
"""The limits used unless the caller gives others."""


def nonempty(value: Any) -> str | None:
    """``value`` if it is a non-empty string, else None (how item keys are read)."""
    return value if isinstance(value, str) and value else None


def said(value: object) -> str:
    """How a diagnostic's text shows a key's value: quoted as Python quotes it, and
    ``absent`` for one the event did not carry (never Python's ``None``)."""
    return "absent" if value is None else repr(value)


class StepContext:
    """The execution context of one event.

    ``tracing`` says whether a ``StepTrace`` will be read; only then is ``decision``
    (a summary for people) formatted, and ``raised`` (the event's diagnostics),
    ``entry`` and ``before`` (the entry it moved, and from where) kept.  ``cached``
    says whether a routed event may read its cell from the response's route cache
    (``ResponseState.routes``); only ``step`` decides every route anew, which is how
    ``tests/core/test_fast_path.py`` checks the cache against the model.  ``learn`` is
    the ``item_id`` a routed event offers its entry (``Effect.LEARN_ITEM_ID``;
    ``learned`` when it names the entry already) and ``route_code`` the routing cell's
    diagnostic, raised only when the id is learned.
    """

    __slots__ = (
        "before",
        "cached",
        "decision",
        "entry",
        "event",
        "kernels",
        "learn",
        "learned",
        "limits",
        "raised",
        "route_code",
        "state",
        "tracing",
    )

    def __init__(
        self,
        state: ResponseState,
        kernels: Any,
        limits: ReducerLimits,
        event: Event | None,
        tracing: bool = False,
        cached: bool = True,
    ) -> None:
        self.state = state
        self.kernels = kernels
        self.limits = limits
        self.event = event
        self.tracing = tracing
        self.cached = cached
        self.raised: list[Diagnostic] = []
        self.decision = ""
        self.entry: Entry | None = None
        self.before: EntryState | None = None
        self.learn: str | None = None
        self.learned = False
        self.route_code: Code | None = None

    # -- diagnostics -----------------------------------------------------------------

    def note(self, code: Code, detail: str, with_event: bool = False) -> None:
        """Raise ``code`` for the current event (carrying it when ``with_event``)."""
        event = self.event
        diagnostic = Diagnostic(
            code,
            event.index if event is not None else None,
            event.sequence_number if event is not None else None,
            detail,
            event.payload if with_event and event is not None else None,
        )
        if self.tracing:
            self.raised.append(diagnostic)
        self.state.diagnostics.append(diagnostic)

    # -- identity maps (R4) ------------------------------------------------------------

    def named_by(self, item_id: str | None) -> Sequence[int]:
        """The entries ``item_id`` names (its aliases), in naming order."""
        if not item_id:
            return ()
        key = self.state.interner.find(item_id)
        return self.state.aliases.get(key, ()) if key is not None else ()

    def add_alias(self, entry: Entry, item_id: str) -> None:
        """``item_id`` names ``entry`` from now on (aliases are never removed)."""
        aliases = self.state.aliases
        key = self.state.interner.intern(item_id)
        owners = aliases.get(key)
        if owners is None:
            aliases[key] = [entry.ordinal]
        elif entry.ordinal not in owners:
            owners.append(entry.ordinal)
        else:
            return
        entry.given_ids.append(item_id)
        self.state.routes.clear()  # the cells cached from the id's old aliases

    def holder(self, kind: ItemKind, call_id: str | None) -> Sequence[int]:
        """The entry holding ``call_id`` in the namespace of ``kind`` (none or one)."""
        if not call_id:
            return ()
        key = self.state.interner.find(call_id)
        space = self.kernels.namespace(kind)
        ordinal = self.state.call_ids.get((space, key)) if key is not None else None
        return (ordinal,) if ordinal is not None else ()

    def bind_call_id(self, entry: Entry, call_id: str) -> None:
        """``call_id`` names ``entry`` in its kind's namespace from now on."""
        key = self.state.interner.intern(call_id)
        space = self.kernels.namespace(entry.spec.kind)
        self.state.call_ids.setdefault((space, key), entry.ordinal)
