"""The nine pairs of the Real agents page where a client held a verdict directly and lost
it behind the proxy (#39 part 2), each played through the proxy.

What a client acts on is compared directly and behind the proxy (``acted_on``): the
items it is told are done (type, id, call id, name, arguments) in the order told, the
``function_call_arguments.done`` events (adk-go runs a call on one), and the terminal
with the items it lists.  Each pair is the same both ways, or differs only as its
entry in ``EXPLAINED`` says and the proxy's log names; the causes fixed are in each
entry's comment.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from responses_oracle import canonical
from responses_oracle.proxy import ProxyConfig, running
from responses_oracle.serve import load_scenario
from responses_oracle.testing.strategies import (
    model_guided_streams,
    provider_streams,
    valid_streams,
)
from responses_oracle.wire import read_wire_events

from .test_proxy import first_turn, post
from .test_relay_refinement import CAPTURES, _events
from .upstreams import frames, sse_body, upstream

Event = dict[str, Any]

_ITEM = ("type", "id", "call_id", "name", "arguments")
_TERMINALS = ("response.completed", "response.incomplete", "response.failed", "error")


def acted_on(events: list[Event]) -> list[tuple[Any, ...]]:
    """What a client acts on, in order (module doc)."""
    seen: list[tuple[Any, ...]] = []
    for event in events:
        kind = event.get("type")
        if kind == "response.output_item.done":
            seen.append((kind, *(event["item"].get(k) for k in _ITEM)))
        elif kind == "response.function_call_arguments.done":
            seen.append((kind, event.get("item_id"), event.get("arguments")))
        elif kind in _TERMINALS:
            listed = (event.get("response") or {}).get("output") or []
            seen.append((kind, *(tuple(i.get(k) for k in _ITEM) for i in listed)))
    return seen


def _through_proxy(events: list[Event]) -> tuple[list[Event], dict[str, Any]]:
    with upstream(sse_body(frames(events))) as url, running(ProxyConfig(url)) as proxy:
        _, _, body = post(proxy.base_url, first_turn())
    [line] = proxy.logged
    return [e.payload for e in read_wire_events(body) if e.payload is not None], line


SAME = {
    # adk-go ran the call of an incomplete response behind the proxy: the proxy added a
    # function_call_arguments.done the upstream never sent, on which adk-go runs a call.
    # Fixed: a payload done goes out only if the upstream sent one.
    "s06": "adk-go",
    # pydantic-ai and langchain: the proxy completed the unconfirmed call's payload with
    # a done and filled created_at/model/usage; now nothing is added.
    "peers-unconfirmed-call": "pydantic-ai, langchain",
    # langchain (r10, peers-reused-slot): the proxy added an arguments.done per call, and
    # listed in the terminal the calls its empty output left out.  The scenarios now
    # play a complete base (its terminal lists its items; r10's dones come in output
    # order): nothing is left to differ.
    "r10_order_is_by_slot_then_admission_not_by_completion": "langchain",
    "peers-reused-slot-id-less-event": "langchain",
}
"""Scenario → the clients that lost a verdict on it: what they act on is now the same."""

REPAIRED_ALIKE = frozenset({
    "peers-unconfirmed-call",
    "r10_order_is_by_slot_then_admission_not_by_completion",
    "peers-reused-slot-id-less-event",
})
"""Of ``SAME``, the scenarios whose log names repairs that leave what a client acts on
unchanged."""

EXPLAINED = {
    # adk-go (r9-incomplete) and pydantic-ai (peers-incomplete-response): the proxy made
    # up a done (and arguments.done) for the pending call, and filled the terminal's
    # output.  Fixed: no done for a call the upstream did not finish, no output the
    # upstream's terminal did not have.  Left: the finished call's done waits for the
    # terminal (it is held, R9/R13), so it arrives after the pending call's added.
    "r9_a_response_that_ends_otherwise_executes_nothing-incomplete": "held",
    "peers-incomplete-response": "held",
    # langchain (q08): the proxy added an arguments.done per call.  Fixed.  Left: the
    # calls are held to the terminal and leave there in output order (the hold, R9: the
    # same calls, told done later).
    "q08": "reordered",
    # opencode (s03): a stream cut before its terminal; directly opencode runs the call
    # of a response that never completed.  The proxy withholds its done on purpose
    # (R9: a response that did not complete runs nothing), named in the log.
    "s03": "withheld",
}
"""Scenario → how what the client acts on differs behind the proxy, and why (comments)."""

_SAID = {
    "withheld": "response.output_item.done not sent",
}


@pytest.mark.parametrize("name", sorted(SAME))
def test_the_client_acts_on_the_same_behind_the_proxy(name: str) -> None:
    events = load_scenario(name).played()  # the stream serve plays: base + deviations
    proxied, line = _through_proxy(events)
    assert acted_on(proxied) == acted_on(events)
    # The unconfirmed call's withheld done, and the output_index moves of a reused slot
    # (r10, peers-reused-slot), are repairs the log names; the rest pass untouched.
    assert line["changes"] == [] or name in REPAIRED_ALIKE, line["changes"]


@pytest.mark.parametrize("name", sorted(EXPLAINED))
def test_the_client_acts_on_the_same_or_the_log_names_the_difference(name: str) -> None:
    events = load_scenario(name).played()  # the stream serve plays: base + deviations
    proxied, line = _through_proxy(events)
    direct, behind = acted_on(events), acted_on(proxied)
    done = "response.function_call_arguments.done"
    assert sum(e["type"] == done for e in proxied) <= sum(e["type"] == done for e in events)
    how = EXPLAINED[name]
    if how == "held":
        assert behind == direct  # the same items, the same terminal: only later
        calls = [e for e in proxied if e["type"].startswith("response.output_item")]
        assert calls[-1]["type"] == "response.output_item.done"  # held to the end
    elif how == "reordered":  # the same items told done, in output order
        assert sorted(map(str, behind[:-1])) == sorted(map(str, direct[:-1]))
        assert behind[:-1] != direct[:-1] and behind[-1][0] == direct[-1][0]
        assert behind[-1] == direct[-1]
    else:  # withheld: the cut stream's call is never told done
        assert not any(e[0] == "response.output_item.done" for e in behind)
        assert any(e[0] == "response.output_item.done" for e in direct)
    if how in _SAID:
        assert any(_SAID[how] in change for change in line["changes"]), line["changes"]


# -- items streamed one after another (langchain on s04 and r10) ------------------------
#
# langchain-openai 1.7.4 gives each streamed chunk the index of a content block and
# starts a new block whenever the ``output_index`` of an ``output_item.added`` or a delta
# differs from the last one's (``_advance`` in ``langchain_openai/chat_models/base.py``).
# A call's arguments are the deltas of its block.  Behind the proxy the second call's
# ``output_item.added`` left at once, before the first call's held deltas: the deltas
# then opened blocks of their own, both calls ran with ``{}`` ("Field required"), and
# langchain lost s04 and r10 (and their clean twins) behind the proxy only.  A provider
# streams an item's events after its ``added`` before the next item's ``added``; the
# proxy keeps that order wherever the upstream did (an item after a held call waits
# for the call).

_OPENING_OR_STREAMING = ("response.output_item.added", ".delta")


def _item_of(event: Event) -> Any:
    """The item an ``output_item.added`` or a delta opens or streams, by its
    ``output_index`` as langchain tells items apart (ids may rotate: GitHub Copilot's),
    else None: the ``done`` events are left out -- the hold moves them, by design -- and
    so are a part's ``added``, which canonical sends once the part holds a value."""
    kind = event.get("type", "")
    return event.get("output_index") if kind.endswith(_OPENING_OR_STREAMING) else None


def split_items(events: list[Event]) -> list[Any]:
    """The items whose opening and streaming events another item's split (each item's
    ``added`` and deltas should come in one run)."""
    split: list[Any] = []
    runs: list[Any] = []
    for event in [*events, {"type": "error"}]:
        if event.get("type") in _TERMINALS:  # each response numbers its items from 0
            ends = [i for i, after in zip(runs, [*runs[1:], None], strict=False) if i != after]
            split += sorted({item for item in ends if ends.count(item) > 1}, key=str)
            runs = []
        elif (item := _item_of(event)) is not None:
            runs.append(item)
    return split


LANGCHAIN_LOST = ("s04", "r10_order_is_by_slot_then_admission_not_by_completion")


@pytest.mark.parametrize("twin", [False, True], ids=["played", "twin"])
@pytest.mark.parametrize("name", LANGCHAIN_LOST)
def test_no_item_is_split_by_another_behind_the_proxy(name: str, twin: bool) -> None:
    scenario = load_scenario(name)
    events = (scenario.clean_twin() if twin else scenario).played()
    proxied, line = _through_proxy(events)
    assert split_items(events) == []
    assert split_items(proxied) == [], [(e["type"], e.get("output_index")) for e in proxied]
    assert acted_on(proxied)[-1] == acted_on(events)[-1]  # the same terminal items
    assert line["ended"] == "terminal"


def _kept_in_runs(events: list[Event]) -> bool:
    """Whether canonical keeps every item in one run where the upstream did (where the
    upstream interleaved two items, any order splits one of them)."""
    return bool(split_items(events)) or split_items(canonical(events)) == []


@pytest.mark.parametrize("name", CAPTURES)
def test_every_fixture_keeps_its_items_in_one_run_behind_the_proxy(name: str) -> None:
    assert _kept_in_runs(_events(name))


@settings(max_examples=80, deadline=None)
@given(st.one_of(valid_streams(), provider_streams(), model_guided_streams()))
def test_every_generated_stream_keeps_its_items_in_one_run(stream: Any) -> None:
    assert _kept_in_runs(list(stream.events))
