"""Where one response ends and the next begins, as data.

An input may hold many responses back to back: a tool loop recorded into one file, a
WebSocket-mode connection that answers one ``response.create`` after another, a
background response and its resume stream.  The reducer cuts the input into responses
with these facts and nothing else: ``BOUNDARY`` says, for each event that opens a
response, whether it continues the one held or starts a new one (its cell picked by
``boundary_key``), the kind of opening read off the event's type by ``OPENINGS``;
client frames are skipped, ``CLIENT_FRAMES`` reads which frame a type is, and
``FRAMES`` says which of them ends the response before it (``response.create``); the
terminal right after one ``AMENDABLE_TERMINALS`` marks is the same ending and describes
it.  The five are tables of ``ModelTables``, decided by the ``reads_opening``,
``boundary``, ``reads_frame``, ``frame`` and ``amends`` kernels, and proved by the
contracts of ``proofs/responses_z3.py`` (``response_boundaries`` and ``client_frames``
are stated over the wire's event type, so a cell of ``OPENINGS`` or ``CLIENT_FRAMES``
that misreads one is refuted).

Evidence: protocol-notes §1.8 (WebSocket mode: the same event payloads as SSE, with
client frames on the same connection); openai-python's ``ResponsesClientEvent`` (the
client frames of WebSocket mode are ``response.create`` and ``response.steer``) and
``responses_server_event`` (WebSocket-only server events); the Open Responses
specification's WebSocket mode (``WebSocketResponseCreateEvent``, 2026-04-24).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from enum import Enum
from typing import Any, Final

from .catalogue import STARTING_EVENT, Terminal
from .ops import PYTHON, Fact, Ops, Text, Value
from .vocabulary import Code, ResponseStatus


class ClientFrame(Enum):
    """The frames a client sends on a WebSocket-mode connection (openai-python's
    ``ResponsesClientEvent``).  In a transcript they are recognised and skipped: none is
    an event of a response."""

    CREATE = "create"
    """``response.create``: asks for the next response."""
    STEER = "steer"
    """``response.steer``: adds input to the response in flight."""


class FrameType(Enum):
    """The ``type`` of a client frame on the wire: the finite domain of the frame types
    the model knows (the member's value is the wire string).  The key of
    ``CLIENT_FRAMES``."""

    CREATE = "response.create"
    """``response.create``."""
    STEER = "response.steer"
    """``response.steer``."""


FRAME_TYPES: Final[dict[str, FrameType]] = {member.value: member for member in FrameType}
"""The wire strings of ``FrameType``: an event of any other type is no client frame."""

CLIENT_FRAMES: Final[dict[FrameType, ClientFrame]] = {
    FrameType.CREATE: ClientFrame.CREATE,
    FrameType.STEER: ClientFrame.STEER,
}
"""The wire's frame type → the client frame it is (R14; decided by the ``reads_frame``
kernel, proved with ``FRAMES`` by the contract ``client_frames``, which is stated over
the wire value)."""


class Opening(Enum):
    """The two kinds of event that open a response."""

    CREATED = "created"
    """``response.created``: the server's first event for a new response."""
    PROGRESS = "progress"
    """``response.queued`` / ``response.in_progress``: a background response's first
    events, and the first of a resume stream (``GET /responses/{id}?stream=true&
    starting_after=N`` starts at sequence N+1 with one of them, never with
    ``response.created``: pydantic-ai cassette
    ``test_background_mode_streaming_starting_after_vcr``, fixtures/quirks q03)."""


class OpeningType(Enum):
    """The ``type`` of an event that opens a response, on the wire: the finite domain of
    those types (the member's value is the wire string).  The key of ``OPENINGS``."""

    CREATED = STARTING_EVENT
    """``response.created``."""
    QUEUED = "response.queued"
    """``response.queued``."""
    IN_PROGRESS = "response.in_progress"
    """``response.in_progress``."""


OPENING_TYPES: Final[dict[str, OpeningType]] = {member.value: member for member in OpeningType}
"""The wire strings of ``OpeningType``: an event of any other type opens no response."""

OPENINGS: Final[dict[OpeningType, Opening]] = {
    OpeningType.CREATED: Opening.CREATED,
    OpeningType.QUEUED: Opening.PROGRESS,
    OpeningType.IN_PROGRESS: Opening.PROGRESS,
}
"""The wire's type of an event that opens a response → the kind of opening it is (R14;
decided by the ``reads_opening`` kernel, proved with ``BOUNDARY`` by the contract
``response_boundaries``, which is stated over the wire value)."""


class Held(Enum):
    """What the reducer holds when an opening event arrives."""

    NOTHING = "nothing"
    """No response yet (nothing started, no entry)."""
    OPEN = "open"
    """A response that has started (or has entries) and has not ended."""
    ENDED = "ended"
    """A response whose terminal event was seen."""


class IdMatch(Enum):
    """The opening event's response id against the held response's."""

    SAME = "same"
    OTHER = "other"
    UNKNOWN = "unknown"
    """One of the two has no id."""


class Boundary(Enum):
    """What an opening event does to the held response."""

    CONTINUE = "continue"
    """The event belongs to the held response (or opens it, when nothing is held)."""
    NEW = "new"
    """The held response is closed and the event starts a new one."""


_C, _N = Boundary.CONTINUE, Boundary.NEW
_CR, _PR = Opening.CREATED, Opening.PROGRESS
_NOTHING, _OPEN, _ENDED = Held.NOTHING, Held.OPEN, Held.ENDED
_SAME, _OTHER, _UNKNOWN = IdMatch.SAME, IdMatch.OTHER, IdMatch.UNKNOWN

BoundaryTable = dict[Opening, dict[Held, dict[IdMatch, Boundary]]]
"""opening → what is held → the ids → continue the held response or start a new one."""

BOUNDARY: Final[BoundaryTable] = {
    # response.created opens a response, and ends the one held unless it is the same
    # open response (an in_progress may come first: issue #11).
    _CR: {
        _NOTHING: {_SAME: _C, _OTHER: _C, _UNKNOWN: _C},
        _OPEN: {_SAME: _C, _OTHER: _N, _UNKNOWN: _N},
        _ENDED: {_SAME: _N, _OTHER: _N, _UNKNOWN: _N},
    },
    # queued / in_progress open a response when none is held (a resume stream) and
    # otherwise continue it: an open response whose id rotates is still one response
    # (GitHub Copilot, response_id_changed); after the end, only another response's id
    # starts a new one, anything else is after_terminal as before.
    _PR: {
        _NOTHING: {_SAME: _C, _OTHER: _C, _UNKNOWN: _C},
        _OPEN: {_SAME: _C, _OTHER: _C, _UNKNOWN: _C},
        _ENDED: {_SAME: _C, _OTHER: _N, _UNKNOWN: _C},
    },
}
"""Where a response ends: every (opening, held, id match) cell, written out."""

FRAMES: Final[dict[ClientFrame, Boundary]] = {
    # The server answers one request at a time on a connection: a new request ends the
    # response before it, and the next event belongs to the next response.
    ClientFrame.CREATE: _N,
    # A steer adds input to the response in flight and ends nothing: the response goes
    # on and ends as the server says.
    ClientFrame.STEER: _C,
}
"""What a client frame does to the held response: ``NEW`` ends it (the next event starts
another), ``CONTINUE`` ends nothing."""


def boundary_key(
    ops: Ops, terminal: Fact, opened: Fact, held_id: Text, event_id: Text
) -> tuple[Value, Value]:
    """The ``(Held, IdMatch)`` of ``BOUNDARY``'s cell for an opening event: what is held
    (``terminal``: its end was seen; ``opened``: it started, or has entries) and the
    event's response id against the held one's (either missing: ``UNKNOWN``).

    Written once against ``ops.Ops``: the reducer runs it on Python values, the proofs
    on Z3 terms (``proofs/responses_z3.py``)."""
    held = ops.cond(terminal, Held.ENDED, ops.cond(opened, Held.OPEN, Held.NOTHING))
    match = ops.cond(
        ops.or_(ops.not_(ops.present(held_id)), ops.not_(ops.present(event_id))),
        IdMatch.UNKNOWN,
        ops.cond(ops.same(held_id, event_id), IdMatch.SAME, IdMatch.OTHER),
    )
    return held, match


BoundaryKernel = Callable[[Opening, Held, IdMatch], Boundary]
"""The kernel deciding ``BOUNDARY``'s cells (``KernelSet.boundary``)."""

ReadsOpening = Callable[[OpeningType], Opening]
"""The kernel deciding ``OPENINGS``' cells (``KernelSet.reads_opening``)."""

ReadsFrame = Callable[[FrameType], ClientFrame]
"""The kernel deciding ``CLIENT_FRAMES``' cells (``KernelSet.reads_frame``)."""


def starts_new(
    boundary: BoundaryKernel,
    reads: ReadsOpening,
    payload: Mapping[str, Any],
    terminal: bool,
    opened: bool,
    held_id: str | None,
) -> bool:
    """Whether the event ``payload`` closes the held response and starts another
    (``BOUNDARY``, decided by the ``boundary`` kernel, for the opening ``OPENINGS`` reads
    off its type, decided by the ``reads`` kernel); an event that opens no response
    never does."""
    kind = payload.get("type")
    wire = OPENING_TYPES.get(kind) if isinstance(kind, str) else None
    if wire is None:
        return False
    opening = reads(wire)
    response = payload.get("response")
    found = response.get("id") if isinstance(response, Mapping) else None
    event_id = found if isinstance(found, str) and found else None
    held, match = boundary_key(PYTHON, terminal, opened, held_id, event_id)
    return boundary(opening, held, match) is Boundary.NEW


def frame_closes(
    frame: Callable[[ClientFrame], Boundary], reads: ReadsFrame, kind: str
) -> bool:
    """Whether the client frame of type ``kind`` ends the held response (``FRAMES``,
    decided by the ``frame`` kernel, for the frame ``CLIENT_FRAMES`` reads off the type,
    decided by the ``reads`` kernel); any other event type is no frame and ends
    nothing."""
    found = FRAME_TYPES.get(kind)
    return found is not None and frame(reads(found)) is Boundary.NEW


AMENDABLE_TERMINALS: Final[dict[Terminal, bool]] = {
    # OpenAI sends ``error`` and then ``response.failed`` for one failure (vercel/ai
    # fixture ``openai-error.1``); WebSocket mode answers a bad ``response.create`` with
    # an ``error`` frame alone: a failure by itself.
    Terminal.ERROR: True,
    # Every other terminal is final: what follows it is ``after_terminal``.
    Terminal.COMPLETED: False,
    Terminal.INCOMPLETE: False,
    Terminal.FAILED: False,
    Terminal.CANCELLED: False,
}
"""Whether the terminal event right after this one describes its failure.  The
amendable terminal ends the response at once, as any terminal does (nothing after a
terminal changes the items: invariant ``terminal_is_final``); the terminal that follows
it at once is the same failure, not an ``after_terminal`` event, and its response's own
``error`` is the failure's description.  Decided by the ``amends`` kernel, proved by the
contract ``amended_terminals`` (``proofs/responses_z3.py``)."""


UNENDED: Final = ResponseStatus.INTERRUPTED
"""The status of a response whose input ended before any terminal event (R9), reported
``missing_terminal``: never ``completed``, so nothing in it is run."""


def held_attaches(bound: bool, named: bool) -> bool:
    """Whether a resumed stream's held event (``FIRST_SEQUENCE``) attaches, without a
    word, once its response ended: the stream admitted its item after all — its
    ``output_index`` is ``bound`` to an entry, or its ``item_id`` ``named`` one; else it
    is the ``orphan_event`` it would have been.  An id-less event attaches by its slot."""
    return bound or named


FIRST_SEQUENCE: Final = 0
"""The ``sequence_number`` of a stream's first event.  A response whose first event
carries a greater one, and is no ``response.created`` (which only a new response
sends, whatever number a transcript gives it), is a resumed stream (``GET
/responses/{id}?stream=true&starting_after=N`` starts at N+1, in the middle of an item
when N falls there: a real
resume of pydantic-ai's cassette ``test_background_mode_streaming_starting_after_vcr``
starts at 1, issue #35 reports one starting at a text delta).  Its payload events of
items opened before the resume point reach no entry when they arrive; they are held,
and attached to their item when its ``output_item.done`` or the terminal snapshot
admits it (no ``orphan_event``), and ``response_resumed`` says so, once."""


def resumes(first_type: str, first_sequence: object) -> bool:
    """Whether a response whose first event is of ``first_type`` and carries
    ``first_sequence`` is a resumed stream (``FIRST_SEQUENCE``); a stream without
    sequence numbers never is."""
    return (
        type(first_sequence) is int
        and first_sequence > FIRST_SEQUENCE
        and first_type != STARTING_EVENT
    )


def next_sequence(last: int | None, sequence: int) -> tuple[int | None, Code | None]:
    """R1 on one event's ``sequence_number``, after ``last`` (the last number taken):
    the last number taken after it, and the code it owes.  The first number, and the one
    right after ``last``, owe nothing; one that skips values is a ``sequence_gap`` (taken:
    the numbers count on from it); one at or below ``last`` a ``sequence_regression``
    (not taken: a replayed event does not move the count back).  Reported, never acted
    on.  The driver (``impl/core/dispatch.py``) and the refinement check both run it."""
    if last is None or sequence == last + 1:
        return sequence, None
    if sequence <= last:
        return last, Code.SEQUENCE_REGRESSION
    return sequence, Code.SEQUENCE_GAP


MAY_CLOSE: Final[frozenset[str]] = frozenset(OPENING_TYPES) | {
    kind.value for kind, frame in CLIENT_FRAMES.items() if FRAMES[frame] is Boundary.NEW
}
"""Event or frame types that may close the held response (``BOUNDARY``, ``FRAMES``);
``explain`` keeps the state from just before each."""
