"""Write the base stream of every built-in scenario (``fixtures/scenarios/bases/``).

Run once from the checkout, when a scenario is added or its source changes::

    python tools/scenario_bases.py              # (re)write every base
    python tools/scenario_bases.py q05 s01      # only these

A base is a complete stream as the API sends it (``model/deviations.py``: the served
stream is the base with the scenario's deviations applied; the clean twin is the base).
The bases are *data*: serve reads the committed files and never runs this tool, so a
later change of ``canonical`` does not change what serve plays.

Theory of operation
-------------------
Each entry of ``impl/agents/scenarios.json`` names its ``source``:

1. **A recording of a provider** (``captures/...``): cut as recorded.  Where the
   recording itself carries the scenario's deviation, the base undoes exactly that
   deviation (``UNDO``: q01's added ``call_id``, q06's snapshot id) and the scenario
   declares it, with the recorded value as its parameter; ``apply`` then gives back
   the recording.
2. **Anything else serve reads** (a quirk, a hand-written stream, a rule vector): the
   oracle's items emitted once by ``canonical`` -- every event and field a complete
   stream carries (added, argument deltas, ``arguments.done``, done items with
   ``status``, a terminal with its full output and usage) -- after ``UNDO`` of a
   deviation that lives in the terminal snapshot (q05, q11), which ``canonical`` would
   otherwise keep.

Then every base is presented as serve presents a valid stream (``serve.present`` with
no deviation, at the fixed clock ``CREATED_AT``), so it has every field of the shape,
with ``model`` ``MODEL`` and a plausible ``usage`` where the source had none.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final
from unittest import mock

ROOT: Final = Path(__file__).resolve().parents[1]
BASES: Final = ROOT / "fixtures" / "scenarios" / "bases"
CREATED_AT: Final = 1764892800
"""The ``created_at`` of every base response that had none (2025-12-05 00:00 UTC)."""
MODEL: Final = "gpt-5.2"
"""The ``model`` of every base response that named none (serve answers with the
request's model anyway)."""
USAGE: Final[dict[str, Any]] = {
    "input_tokens": 84,
    "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0},
    "output_tokens": 23,
    "output_tokens_details": {"reasoning_tokens": 0},
    "total_tokens": 107,
}
"""The usage of a terminal whose source reported none (or only zeros)."""

Event = dict[str, Any]


def _terminal_output_from_dones(events: list[Event]) -> list[Event]:
    """The terminal snapshot is the done items, in slot order (undoes a snapshot that
    re-keys or re-ids its items)."""
    dones = sorted(
        (e for e in events if e.get("type") == "response.output_item.done"),
        key=lambda e: int(e.get("output_index", 0)),
    )
    for event in events:
        if event.get("type") in ("response.completed", "response.incomplete", "response.failed"):
            event["response"]["output"] = [dict(e["item"]) for e in dones]
    return events


def _added_call_id_from_done(events: list[Event]) -> list[Event]:
    """The added item's ``call_id`` is its done item's (undoes q01's change)."""
    done = {
        e["output_index"]: e["item"]
        for e in events
        if e.get("type") == "response.output_item.done"
    }
    for event in events:
        if event.get("type") == "response.output_item.added" and event["output_index"] in done:
            event["item"]["call_id"] = done[event["output_index"]]["call_id"]
    return events


_TERMINALS: Final = ("response.completed", "response.incomplete", "response.failed")


def _confirmed(events: list[Event]) -> list[Event]:
    """Every call added but never done gets its done item (the snapshot's, else the
    added item with its deltas' arguments) before the terminal, and a place in the
    snapshot (undoes an unconfirmed call)."""
    done = {e["item"]["id"] for e in events if e.get("type") == "response.output_item.done"}
    terminal = next(e for e in events if e.get("type") in _TERMINALS)
    snapshot = {i.get("id"): i for i in terminal["response"].get("output") or []}
    added = [e for e in events if e.get("type") == "response.output_item.added"]
    closing = []
    for event in added:
        item = dict(event["item"])
        if item["id"] in done:
            continue
        deltas = "".join(
            e["delta"] for e in events
            if e.get("type") == "response.function_call_arguments.delta"
            and e.get("item_id") == item["id"]
        )
        item = dict(snapshot.get(item["id"]) or {**item, "arguments": deltas})
        item["status"] = "completed"
        closing.append({"type": "response.output_item.done",
                        "output_index": event["output_index"], "item": item})
        if item["id"] not in snapshot:
            terminal["response"].setdefault("output", []).append(item)
    at = events.index(terminal)
    return [*events[:at], *closing, *events[at:]]


def _completed(events: list[Event]) -> list[Event]:
    """A stream cut before its terminal gets ``response.completed`` with its done items
    (undoes the cut)."""
    opened = next(e for e in events if e.get("type") == "response.created")
    terminal = {"type": "response.completed",
                "response": {**opened["response"], "status": "completed", "output": []}}
    return _terminal_output_from_dones([*events, terminal])


def _zero_arguments_braced(events: list[Event]) -> list[Event]:
    """A zero-argument call's arguments are ``{}`` everywhere, as OpenAI sends them."""
    for event in events:
        items = [event.get("item"), *((event.get("response") or {}).get("output") or [])]
        for item in items:
            if isinstance(item, dict) and item.get("arguments") == "" and event["type"] != (
                "response.output_item.added"
            ):
                item["arguments"] = "{}"
        if event.get("type") == "response.function_call_arguments.done" and not event["arguments"]:
            event["arguments"] = "{}"
    return events


def _no_trailing_newline(events: list[Event]) -> list[Event]:
    """Arguments without the trailing newline the scenario's deviation adds back."""
    text = json.dumps(events).replace('\\n"', '"')
    found: list[Event] = json.loads(text)
    return found


UNDO: Final[dict[str, Callable[[list[Event]], list[Event]]]] = {
    "q01": _added_call_id_from_done,
    "q05": _terminal_output_from_dones,
    "q06": _terminal_output_from_dones,
    "q11": _terminal_output_from_dones,
    "s03": _completed,
    "r9_missing_terminal_is_interrupted": _completed,
    "r9_unconfirmed_items_are_kept_but_not_executable": _confirmed,
    "peers-unconfirmed-call": _confirmed,
    "peers-snapshot-corrects-deltas": _confirmed,
    "r7_a_zero_argument_call_keeps_its_empty_string": _zero_arguments_braced,
    "r7_payloads_are_opaque_a_trailing_newline_is_kept": _no_trailing_newline,
}
"""The deviation a source itself carries, undone (its scenario declares it)."""


def _item_id(event: Event) -> str | None:
    item = event.get("item")
    found = item.get("id") if isinstance(item, dict) else event.get("item_id")
    return found if isinstance(found, str) else None


def _sequential(events: list[Event]) -> list[Event]:
    """The items one after another, each on the slot of its place in the terminal
    snapshot (items the snapshot lacks after them), as OpenAI streams them: the
    canonical stream keeps the source's slots and interleaving, which are the point of
    some scenarios' deviations and so not part of their base."""
    head = [e for e in events if _item_id(e) is None and e.get("type") not in _TERMINALS]
    tail = [e for e in events if e.get("type") in _TERMINALS]
    groups: dict[str, list[Event]] = {}
    for event in events:
        found = _item_id(event)
        if found is not None and event.get("type") not in _TERMINALS:
            groups.setdefault(found, []).append(event)
    listed = [i.get("id") for t in tail for i in t["response"].get("output") or []]
    order = [i for i in listed if i in groups] + [i for i in groups if i not in listed]
    for slot, found in enumerate(order):
        for event in groups[found]:
            if "output_index" in event:
                event["output_index"] = slot
    return [*head, *(e for found in order for e in groups[found]), *tail]


def _finish(events: list[Event], recorded: bool) -> list[Event]:
    """Plausible response fields where the source had none (``created_at`` 0, ``model``
    empty, all-zero usage), then every field of the shape (``serve.present``); an
    emitted base keeps no request echo (``tools``, ``tool_choice``, ...): serve echoes
    the client's own request."""
    from responses_oracle.serve.present import ECHOED, Presentation, present

    for event in events:
        response = event.get("response")
        if not isinstance(response, dict):
            continue
        if not response.get("created_at"):
            response["created_at"] = CREATED_AT
        if not response.get("model"):
            response["model"] = MODEL
        usage = response.get("usage")
        if isinstance(usage, dict) and not usage.get("total_tokens"):
            response["usage"] = json.loads(json.dumps(USAGE))
        details = (response.get("usage") or {}).get("input_tokens_details")
        if isinstance(details, dict):
            # Recorded before the API sent it; every response carries it now.
            details.setdefault("cache_write_tokens", 0)
    with mock.patch("time.time", return_value=float(CREATED_AT)):
        presented = present(events, {}, Presentation())
    if not recorded:
        # What the request sets is echoed from the client's request when served.
        for event in presented:
            for name in ECHOED:
                if isinstance(event.get("response"), dict):
                    event["response"].pop(name, None)
    return presented


def base_of(name: str, source: str) -> list[Event]:
    """The base stream of scenario ``name`` from its ``source`` (module docstring)."""
    from responses_oracle.canonicalizer import canonical
    from responses_oracle.serve.scenarios import find_stream

    recorded = source.startswith("captures/")
    found = find_stream(str(ROOT / "fixtures" / source) if recorded else source)
    events: list[Event] = json.loads(json.dumps(list(found)))
    if name in UNDO:
        events = UNDO[name](events)
    if not recorded:
        events = _sequential(canonical(events))
        for number, event in enumerate(events):
            event["sequence_number"] = number
    return _finish(events, recorded)


def main(argv: list[str]) -> int:
    """Write the bases named (default: every scenario's)."""
    listed = json.loads((ROOT / "impl" / "agents" / "scenarios.json").read_text("utf-8"))
    BASES.mkdir(parents=True, exist_ok=True)
    for entry in listed["scenarios"]:
        if argv and entry["name"] not in argv:
            continue
        events = base_of(entry["name"], entry["source"])
        text = "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in events)
        (BASES / f"{entry['name']}.jsonl").write_text(text, encoding="utf-8")
        print(f"{entry['name']}: {len(events)} events from {entry['source']}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
