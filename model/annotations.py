"""What a progress event adds to a part of its item: annotations, from the events alone.

``response.output_text.annotation.added`` carries one annotation (a citation: a
``url_citation``, ``file_citation``, ``container_file_citation``…) of one ``output_text``
part of a message, at ``annotation_index``.  A message whose ``output_item.done`` never
comes (cut off, or a gateway that sends none) would lose its citations if the reducer
only read them off the finished item; so each such event adds its annotation to the
part it names, and a part that a ``done`` item or the snapshot carries in full still
replaces what the events built (the item is the fuller account, R7).

The event is a progress event (``model/catalogue.py``): routed like a payload event
(R5) and accepted by an entry exactly when the lifecycle table accepts ``PROGRESS``,
that is while the entry is open (``lifecycle.OPEN_STATES``); a late one changes
nothing (``late_event``).

Evidence: the pydantic-ai cassettes ``test_openai_include_raw_annotations_streaming``
(``annotation.added`` with ``annotation_index`` 0 before ``content_part.done`` lists the
same annotation), the vercel/ai web and file search fixtures; openai-python's
``ResponseOutputTextAnnotationAddedEvent`` (``annotation``, ``annotation_index``,
``content_index``, ``item_id``, ``output_index``); Open Responses keeps the older name
``response.output_text_annotation.added``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .catalogue import ChannelKind


@dataclass(frozen=True, slots=True)
class PartAddition:
    """Where a progress event's value goes: which part, which array, at which position."""

    channel: ChannelKind
    """The channel whose part receives the value."""
    part_index: str
    """The event field naming the part (``content_index``)."""
    part_type: str
    """The part's type, for a part no ``content_part.added`` opened."""
    array: str
    """The part's array the value goes into."""
    value: str
    """The event field holding the value."""
    position: str
    """The event field giving its position in the array; a position past the end (or
    none) appends, one inside replaces (the same annotation sent again)."""


_ANNOTATION = PartAddition(
    channel=ChannelKind.TEXT,
    part_index="content_index",
    part_type="output_text",
    array="annotations",
    value="annotation",
    position="annotation_index",
)

PART_ADDITIONS: Final[dict[str, PartAddition]] = {
    "response.output_text.annotation.added": _ANNOTATION,
    "response.output_text_annotation.added": _ANNOTATION,
}
"""Progress event types whose value is added to a part of their entry."""
