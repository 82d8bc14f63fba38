"""Done events leave in output order (#39, What to build 1).

Behind the proxy the items' ``output_item.done`` events leave in the order the
upstream sent them -- in output order wherever the upstream's were (an upstream that
finishes a message before its reasoning is passed on as it is: nothing is held for
order) -- except where the hold puts them: a client call no output of its response
answers waits for its response's terminal (R9, R13) and leaves there, and the items
after it in output order wait for it (each item's events come in one run).  A call an
output item of the same response answers (a hosted ``shell_call`` and its
``shell_call_output``; a server-run ``tool_search_call`` and its ``tool_search_output``,
both naming no ``call_id``) is run by the server: it is released when its answer
arrives, so its ``done`` leaves before its output's, as the upstream sent them.
"""

from __future__ import annotations

from typing import Any

import pytest
from responses_oracle import canonical, reduce
from responses_oracle.model.catalogue import ITEM_TYPES, TERMINALS, WIRE_EVENTS
from responses_oracle.model.execution import Execution

from .test_relay_refinement import CAPTURES, _events

Event = dict[str, Any]

_TERMINAL_TYPES = frozenset(n for n, s in WIRE_EVENTS.items() if s.event_class in TERMINALS)


def _dones(events: list[Event]) -> list[list[Event]]:
    """Per response (split at each terminal): its ``output_item.done`` items, as sent."""
    found: list[list[Event]] = [[]]
    for event in events:
        if event.get("type") == "response.output_item.done":
            found[-1].append({**event["item"], "_index": event["output_index"]})
        elif event.get("type") in _TERMINAL_TYPES:
            found.append([])
    return [dones for dones in found if dones]


def _held_to_the_end(item: Event, answered: set[tuple[Any, Any]]) -> bool:
    """A client call no output of its response answers: the hold keeps it to the end."""
    spec = ITEM_TYPES.get(item.get("type"))  # type: ignore[arg-type]
    return spec is not None and spec.client_call and (item["type"], item.get("id")) not in answered


@pytest.mark.parametrize("name", CAPTURES)
def test_every_fixture_sends_its_done_events_in_the_upstreams_order(name: str) -> None:
    events = _events(name)
    out = canonical(events)
    answered = {
        (i.item.get("type"), i.item.get("id"))
        for result in reduce(events)
        for i in result.items
        if i.execution is Execution.ANSWERED
    }
    for theirs, mine in zip(_dones(events), _dones(out), strict=False):
        # An item after a held call waits for it (each item's events in one run).
        held = min((d["_index"] for d in mine if _held_to_the_end(d, answered)), default=None)
        ids = {d.get("id") for d in theirs} & {
            d.get("id") for d in mine if held is None or d["_index"] < held
        }
        upstream = [d.get("id") for d in theirs if d.get("id") in ids]
        proxied = [d.get("id") for d in mine if d.get("id") in ids]
        assert proxied == list(dict.fromkeys(upstream)), (upstream, proxied)


_SHELL = ("shell_call", "shell_call_output")
_SEARCH = ("tool_search_call", "tool_search_output")


@pytest.mark.parametrize(
    ("name", "pair"),
    [
        ("fixtures/captures/vercel-ai/openai__openai-shell-container.1.jsonl", _SHELL),
        ("fixtures/quirks/q02-openai-shell-call-output-shares-call-id.jsonl", _SHELL),
        # A server-run tool search: call and output both with call_id null, paired by
        # their order (``model.execution.answered_ordinals``, rule 2).
        ("fixtures/captures/pydantic-ai/test_openai_native_tool_search_streaming.i0.jsonl",
         _SEARCH),
        ("fixtures/captures/vercel-ai/azure__azure-tool-search.1.jsonl", _SEARCH),
        ("fixtures/peers/ai-sdk/openai__openai-tool-search.1.jsonl", _SEARCH),
    ],
)
def test_a_hosted_calls_done_leaves_before_its_outputs(name: str, pair: tuple[str, str]) -> None:
    events = _events(name)
    call, output = pair

    def items(stream: list[Event]) -> list[tuple[str, Any, Any]]:
        return [
            (e["type"], e["output_index"], e["item"]["type"])
            for e in stream
            if e["type"] in ("response.output_item.added", "response.output_item.done")
        ]

    out = canonical(events)
    assert items(out) == items(events)
    kinds = [kind for kind, _, item in items(out) if item == call]
    assert kinds == ["response.output_item.added", "response.output_item.done"]
    order = [(kind, item) for kind, _, item in items(out)]
    assert order.index(("response.output_item.done", call)) < order.index(
        ("response.output_item.added", output)
    )
