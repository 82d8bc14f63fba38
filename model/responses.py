"""Where one response ends and the next begins, as data.

An input may hold many responses back to back: a tool loop recorded into one file, a
WebSocket-mode connection that answers one ``response.create`` after another.  The
reducer cuts the input into responses with these facts and nothing else.

Evidence: protocol-notes §1.8 (WebSocket mode: the same event payloads as SSE, with
client frames on the same connection); openai-python's ``ResponsesClientEvent`` (the
client frames of WebSocket mode are ``response.create`` and ``response.steer``) and
``responses_server_event`` (WebSocket-only server events); the Open Responses
specification's WebSocket mode (``WebSocketResponseCreateEvent``, 2026-04-24).
"""

from __future__ import annotations

from typing import Final

from .catalogue import STARTING_EVENT

CLIENT_FRAMES: Final[frozenset[str]] = frozenset({"response.create", "response.steer"})
"""Frames a client sends on a WebSocket-mode connection.  In a transcript they are
recognised and skipped: none is an event of a response.  ``response.create`` asks for
the next response, so it also ends the one before it (the server answers one request
at a time on a connection); ``response.steer`` adds input to the response in flight
and ends nothing."""

ENDS_PREVIOUS: Final[frozenset[str]] = frozenset({STARTING_EVENT, "response.create"})
"""Event or frame types after which the next event belongs to a new response."""
