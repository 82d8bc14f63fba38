"""An ``output_item.added`` the proxy makes up is judged by R6, as its readers judge it.

Where the upstream never announced an item (a done-only or snapshot-only item), the
canonical stream sends an ``output_item.added`` for it, with the item's own identity: no
id is invented to tell two items apart (#39).  If that identity is an earlier item's, a
reader of the stream takes the added for that item again -- the oracle itself does:
R6's ``added_view`` (``model/admission.py``) reads a replay -- and the response's log
says so (``duplicate_item``).  The decision is the model's, run with the facts the
reducer reads for an arriving added (``core.admit.view_of_added``), taken from the
items canonical sent before it, each under the id it went out with.

The first two streams are a response whose items share an id, the deviation under test
(the hostile generator's ``item:share``, as in seed 1905 of ``test_silent.py``): a
message at slot 0, a reasoning item with id ``msg_a`` at slot 1, and at slot 2 a
message with id ``msg_a`` sent only by its ``output_item.done``.  Two items of different
types hold the id, so the reducer matches the third to neither and admits it.
"""

from __future__ import annotations

from typing import Any

from helpers import REPO
from responses_oracle.canonicalizer import Canonicalizer
from responses_oracle.reducer import reduce
from responses_oracle.wire import read_wire_events

Event = dict[str, Any]

_REPLAY = "identity of an earlier"
"""The words of the log line of an added made up with an earlier item's identity."""

_ADDED, _DONE = "response.output_item.added", "response.output_item.done"


def _message(text: str, **fields: Any) -> dict[str, Any]:
    """An assistant message holding ``text`` (none: no part yet), with ``fields``."""
    content = [{"type": "output_text", "text": text, "annotations": []}] if text else []
    message = {"type": "message", "role": "assistant", "status": "completed", "content": content}
    return message | fields


def _shared(added: dict[str, Any], done: dict[str, Any]) -> list[Event]:
    """The response: the first message's ``added`` and ``done`` items (slot 0), a
    reasoning item with id ``msg_a`` (slot 1), a done-only message with id ``msg_a``
    (slot 2), and the terminal with the three items."""
    reasoning = {"type": "reasoning", "id": "msg_a", "summary": []}
    last = _message("second", id="msg_a")
    events = [
        {"type": "response.created", "response": {"id": "resp_1", "status": "in_progress"}},
        {"type": _ADDED, "output_index": 0, "item": added},
        {"type": _DONE, "output_index": 0, "item": done},
        {"type": _ADDED, "output_index": 1, "item": reasoning},
        {"type": _DONE, "output_index": 1, "item": reasoning},
        {"type": _DONE, "output_index": 2, "item": last},
        {
            "type": "response.completed",
            "response": {"id": "resp_1", "status": "completed", "output": [done, reasoning, last]},
        },
    ]
    return [{**event, "sequence_number": n} for n, event in enumerate(events)]


def _relayed(events: list[Event]) -> tuple[list[Event], list[str]]:
    """Canonical's stream for ``events`` and the changes its log names."""
    canonicalizer = Canonicalizer()
    out = [e for event in events for e in canonicalizer.feed(event)]
    out.extend(canonicalizer.close())
    return out, [change for record in canonicalizer.repairs for change in record["changes"]]


def _codes(events: list[Event]) -> list[str]:
    """The oracle's diagnostic codes for the one response of ``events``."""
    [result] = reduce(events)
    return sorted(d.code.value for d in result.diagnostics)


def test_an_added_made_up_with_an_earlier_items_id_is_logged_as_a_replay() -> None:
    events = _shared(_message("", id="msg_a", status="in_progress"), _message("first", id="msg_a"))
    out, changes = _relayed(events)
    assert [c for c in changes if _REPLAY in c] == [
        "message msg_a: response.output_item.added made up with the identity of an earlier "
        "message: a client that matches items by id reads it as that item again "
        "(duplicate_item)"
    ]
    # The oracle finds three items upstream; behind the proxy it reads the third's
    # added as the first message again, as the log line says.
    assert "duplicate_item" not in _codes(events)
    assert "duplicate_item" in _codes(out)


def test_an_id_canonical_never_sent_for_an_item_makes_no_replay() -> None:
    # The first message's added names it only by ``item_id`` (a gateway's field), its
    # done by the id ``msg_b``: the reducer knows it by both, canonical announces it once
    # its id came with the item, as msg_b only.  No reader of canonical's stream sees
    # msg_a on it, so the third item's made-up added (msg_a) replays nothing.  Facts read
    # off the reducer's aliases alone (every id the upstream gave) would log a replay.
    added = _message("", item_id="msg_a", status="in_progress")
    out, changes = _relayed(_shared(added, _message("first", id="msg_b")))
    assert [c for c in changes if _REPLAY in c] == []
    assert [(e["item"]["type"], e["item"]["id"]) for e in out if e["type"] == _ADDED] == [
        ("message", "msg_b"),
        ("reasoning", "msg_a"),
        ("message", "msg_a"),
    ]
    assert "duplicate_item" not in _codes(out)


def test_a_done_only_call_holding_its_own_call_id_replays_nothing() -> None:
    # s02: a function call sent only by its done.  Its made-up added holds its call_id,
    # which the reducer binds to the call itself: no earlier item holds it.
    path = REPO / "fixtures/scenarios/s02-done-only-call.jsonl"
    events = [e.payload for e in read_wire_events(path) if e.payload is not None]
    out, changes = _relayed(events)
    assert [c for c in changes if _REPLAY in c] == []
    assert [c for c in changes if "output_item.added sent" in c] != []
    assert "duplicate_item" not in _codes(out)
