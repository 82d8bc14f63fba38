"""What a progress event adds to a part of its item: annotations, from the events alone.

``response.output_text.annotation.added`` carries one annotation (a citation: a
``url_citation``, ``file_citation``, ``container_file_citation``…) of one ``output_text``
part of a message, at ``annotation_index``.  A message whose ``output_item.done`` never
comes (cut off, or a gateway that sends none) would lose its citations if the reducer
only read them off the finished item; so each such event adds its annotation to the
part it names, and a part that a ``done`` item or the snapshot carries in full still
replaces what the events built (the item is the fuller account, R7).

Which fields of the event are read, and which channel's part receives the value, is
``PART_ADDITIONS``, keyed by the event's wire type (``AdditionType``).  Where the value
goes in the part's array is ``PART_MERGE``, its cell picked by ``position_view`` from
the event's ``annotation_index``: inside the array it replaces the element there (the
same annotation sent again), past the end or without a position it is appended.  Both
tables are in ``ModelTables``, decided by the ``reads_addition`` and ``merge_part``
kernels, and proved by the contract ``part_additions`` (``proofs/responses_z3.py``),
which is stated over the wire event: its type and its fields, read through
``PART_ADDITIONS``, so a cell that reads the wrong field or the wrong channel is
refuted.

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

from collections.abc import Callable
from enum import Enum
from typing import Final

from .catalogue import ChannelKind
from .ops import Fact, Ops, Value
from .recordkit import NamedTuple


class AdditionType(Enum):
    """The ``type`` of a progress event that adds a value to a part, on the wire: the
    finite domain of those types (the member's value is the wire string).  The key of
    ``PART_ADDITIONS``."""

    ANNOTATION_ADDED = "response.output_text.annotation.added"
    """The API's name (openai-python's ``ResponseOutputTextAnnotationAddedEvent``)."""
    ANNOTATION_ADDED_OLDER = "response.output_text_annotation.added"
    """Open Responses' older name for the same event."""


ADDITION_TYPES: Final[dict[str, AdditionType]] = {member.value: member for member in AdditionType}
"""The wire strings of ``AdditionType``: an event of any other type adds nothing."""


class AdditionField(Enum):
    """The fields of a part addition event a ``PartAddition`` can read (the member's
    value is the field's name on the wire)."""

    CONTENT_INDEX = "content_index"
    """Which part of the item (an ``int``)."""
    ANNOTATION = "annotation"
    """The annotation (an object)."""
    ANNOTATION_INDEX = "annotation_index"
    """Its position among the part's annotations (an ``int``)."""


class PartAddition(NamedTuple):
    """Where a progress event's value goes: which part, which array, at which position.
    The three fields read off the event are ``AdditionField`` members, so a one-cell
    mutant can read another; the part's type and array are what the model writes, not
    read from the event."""

    channel: ChannelKind
    """The channel whose part receives the value."""
    part_index: AdditionField
    """The event field naming the part (``content_index``)."""
    value: AdditionField
    """The event field holding the value."""
    position: AdditionField
    """The event field giving its position in the array (``PART_MERGE``)."""
    part_type: str
    """The part's type, for a part no ``content_part.added`` opened."""
    array: str
    """The part's array the value goes into."""


_ANNOTATION = PartAddition(
    channel=ChannelKind.TEXT,
    part_index=AdditionField.CONTENT_INDEX,
    value=AdditionField.ANNOTATION,
    position=AdditionField.ANNOTATION_INDEX,
    part_type="output_text",
    array="annotations",
)

PART_ADDITIONS: Final[dict[AdditionType, PartAddition]] = {
    AdditionType.ANNOTATION_ADDED: _ANNOTATION,
    AdditionType.ANNOTATION_ADDED_OLDER: _ANNOTATION,
}
"""The wire's type of a progress event whose value is added to a part of its entry →
what it adds where (R15; decided by the ``reads_addition`` kernel, proved with
``PART_MERGE`` by the contract ``part_additions``, which is stated over the wire
event)."""

ReadsAddition = Callable[[AdditionType], PartAddition]
"""The kernel deciding ``PART_ADDITIONS``' cells (``KernelSet.reads_addition``)."""


class PositionView(Enum):
    """The event's position against the part's array."""

    INSIDE = "inside"
    """An element of the array is at that position."""
    PAST_END = "past_end"
    """At or past the end of the array."""
    NONE = "none"
    """No position: absent, negative or not an integer."""


class PartMerge(Enum):
    """What the event's value does to the part's array."""

    REPLACE = "replace"
    """It replaces the element at its position (nothing there: it is dropped)."""
    APPEND = "append"
    """It goes at the end."""
    DROP = "drop"
    """It is dropped."""


PART_MERGE: Final[dict[PositionView, PartMerge]] = {
    # The same annotation sent again (an event replayed by a gateway, or a provider
    # that revises it): one annotation at that position, not two.
    PositionView.INSIDE: PartMerge.REPLACE,
    # The next annotation: after those the part holds (annotation_index counts them).
    PositionView.PAST_END: PartMerge.APPEND,
    # A position the event does not say (Open Responses' older event, a gateway that
    # drops it): the annotation is kept, after the others.
    PositionView.NONE: PartMerge.APPEND,
}
"""Where a progress event's value goes in its part's array (R15)."""


def position_view(ops: Ops, has_position: Fact, inside: Fact) -> Value:
    """The cell of ``PART_MERGE`` for an event whose position is a non-negative integer
    (``has_position``) naming an element of the array (``inside``).

    Written once against ``ops.Ops``: the reducer runs it on Python values, the proofs
    on Z3 terms (``proofs/responses_z3.py``)."""
    return ops.cond(
        ops.not_(has_position),
        PositionView.NONE,
        ops.cond(inside, PositionView.INSIDE, PositionView.PAST_END),
    )
