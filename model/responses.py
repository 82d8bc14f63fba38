"""Where one response ends and the next begins, as data.

An input may hold many responses back to back: a tool loop recorded into one file, a
WebSocket-mode connection that answers one ``response.create`` after another, a
background response and its resume stream.  The reducer cuts the input into responses
with these facts and nothing else: ``BOUNDARY`` says, for each event that opens a
response, whether it continues the one held or starts a new one; ``CLIENT_FRAMES`` are
skipped, a ``response.create`` ending the response before it; the terminal right
after an ``AMENDABLE_TERMINALS`` event is the same ending and describes it.

Evidence: protocol-notes §1.8 (WebSocket mode: the same event payloads as SSE, with
client frames on the same connection); openai-python's ``ResponsesClientEvent`` (the
client frames of WebSocket mode are ``response.create`` and ``response.steer``) and
``responses_server_event`` (WebSocket-only server events); the Open Responses
specification's WebSocket mode (``WebSocketResponseCreateEvent``, 2026-04-24).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import Any, Final

from .catalogue import STARTING_EVENT, EventClass

CLIENT_FRAMES: Final[frozenset[str]] = frozenset({"response.create", "response.steer"})
"""Frames a client sends on a WebSocket-mode connection.  In a transcript they are
recognised and skipped: none is an event of a response.  ``response.create`` asks for
the next response, so it also ends the one before it (the server answers one request
at a time on a connection); ``response.steer`` adds input to the response in flight
and ends nothing."""

CLOSING_FRAMES: Final[frozenset[str]] = frozenset({"response.create"})
"""Client frames after which the next event belongs to a new response."""


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


OPENINGS: Final[dict[str, Opening]] = {
    STARTING_EVENT: Opening.CREATED,
    "response.queued": Opening.PROGRESS,
    "response.in_progress": Opening.PROGRESS,
}
"""The event types that open a response when none is open."""


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

BOUNDARY: Final[dict[tuple[Opening, Held, IdMatch], Boundary]] = {
    # response.created opens a response, and ends the one held unless it is the same
    # open response (an in_progress may come first: issue #11).
    (_CR, _NOTHING, _SAME): _C,
    (_CR, _NOTHING, _OTHER): _C,
    (_CR, _NOTHING, _UNKNOWN): _C,
    (_CR, _OPEN, _SAME): _C,
    (_CR, _OPEN, _OTHER): _N,
    (_CR, _OPEN, _UNKNOWN): _N,
    (_CR, _ENDED, _SAME): _N,
    (_CR, _ENDED, _OTHER): _N,
    (_CR, _ENDED, _UNKNOWN): _N,
    # queued / in_progress open a response when none is held (a resume stream) and
    # otherwise continue it: an open response whose id rotates is still one response
    # (GitHub Copilot, response_id_changed); after the end, only another response's id
    # starts a new one, anything else is after_terminal as before.
    (_PR, _NOTHING, _SAME): _C,
    (_PR, _NOTHING, _OTHER): _C,
    (_PR, _NOTHING, _UNKNOWN): _C,
    (_PR, _OPEN, _SAME): _C,
    (_PR, _OPEN, _OTHER): _C,
    (_PR, _OPEN, _UNKNOWN): _C,
    (_PR, _ENDED, _SAME): _C,
    (_PR, _ENDED, _OTHER): _N,
    (_PR, _ENDED, _UNKNOWN): _C,
}
"""Where a response ends: every (opening, held, id match) cell, written out."""


def id_match(held: str | None, event: str | None) -> IdMatch:
    """Compare the held response's id with the opening event's."""
    if held is None or event is None:
        return IdMatch.UNKNOWN
    return IdMatch.SAME if held == event else IdMatch.OTHER


def held_view(terminal: bool, opened: bool) -> Held:
    """What is held: ``terminal`` (its end was seen), ``opened`` (started, or entries)."""
    if terminal:
        return Held.ENDED
    return Held.OPEN if opened else Held.NOTHING


def starts_new(payload: Mapping[str, Any], held: Held, held_id: str | None) -> bool:
    """Whether the event ``payload`` closes the held response and starts another
    (``BOUNDARY``); an event that opens no response never does."""
    kind = payload.get("type")
    opening = OPENINGS.get(kind) if isinstance(kind, str) else None
    if opening is None:
        return False
    response = payload.get("response")
    found = response.get("id") if isinstance(response, Mapping) else None
    event_id = found if isinstance(found, str) and found else None
    return BOUNDARY[opening, held, id_match(held_id, event_id)] is Boundary.NEW


AMENDABLE_TERMINALS: Final[frozenset[EventClass]] = frozenset({EventClass.ERROR})
"""Terminal classes whose failure the terminal event right after them describes.
OpenAI sends ``error`` and then ``response.failed`` for one failure (vercel/ai fixture
``openai-error.1``).  The ``error`` ends the response at once, as any terminal does
(nothing after a terminal changes the items: invariant ``terminal_is_final``); the
terminal that follows it at once is the same failure, not an ``after_terminal``
event, and its response's own ``error`` is the failure's description.  WebSocket mode
answers a bad ``response.create`` with an ``error`` frame alone: a failure by
itself."""


MAY_CLOSE: Final[frozenset[str]] = frozenset(OPENINGS) | CLOSING_FRAMES
"""Event or frame types that may close the held response (``BOUNDARY``,
``CLOSING_FRAMES``); ``explain`` keeps the state from just before each."""
