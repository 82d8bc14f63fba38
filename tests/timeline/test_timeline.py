"""The timeline page: what it draws is what the reducer reported, and nothing else runs.

The page is parsed (``html.parser``) and its data block decoded, and both are held to
``explain``'s own report of the same stream (``cli.explain.json_lines``): lanes are the
result's items, segments the states the trace moved each item through, marks the events
with their decisions, transitions and diagnostics.  The hostile stream's strings must
come out as text: the only elements are the generator's, and the data block decodes
back to the stream's exact strings.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from itertools import pairwise
from typing import Any

import pytest
from responses_oracle.cli.explain import explain_events, json_lines
from responses_oracle.docsite.wire_builders import added, args_delta, args_done, call, created, done
from responses_oracle.model.vocabulary import SEVERITY, Code, EntryState
from responses_oracle.testing.candidate import Failure
from responses_oracle.testing.rule_codes import CODE_RULES
from responses_oracle.timeline import build_timeline, render_html
from responses_oracle.timeline.build import Kind, _wire
from responses_oracle.timeline.page import STATE_COLOURS
from responses_oracle.wire import read_wire_events

from .streams import (
    AMBIGUOUS_EVENT,
    CAPTURE,
    HOSTILE,
    HOSTILE_ARGUMENTS,
    HOSTILE_SSE,
    HOSTILE_STRINGS,
    MARKUP,
    SCRIPT,
    URL,
    Event,
)


class Page(HTMLParser):
    """Every start tag of a page with its attributes, its text, and its script bodies."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.text: list[str] = []
        self.scripts: list[tuple[dict[str, str], str]] = []
        self._script: dict[str, str] | None = None
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = {key: value or "" for key, value in attrs}
        self.tags.append((tag, named))
        if tag == "script":
            self._script = named

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._script = None

    def handle_data(self, data: str) -> None:
        if self._script is not None:
            self.scripts.append((self._script, data))
        else:
            self.text.append(data)

    def having(self, tag: str, cls: str) -> list[dict[str, str]]:
        """The attributes of every ``tag`` whose class list holds ``cls``."""
        return [a for t, a in self.tags if t == tag and cls in a.get("class", "").split()]

    def data(self) -> dict[str, Any]:
        """The decoded data block."""
        blocks = [body for attrs, body in self.scripts if attrs.get("id") == "timeline-data"]
        assert len(blocks) == 1
        decoded: dict[str, Any] = json.loads(blocks[0])
        return decoded


def _strings(value: Any) -> list[str]:
    """Every string inside a JSON value, keys included."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [k, *_strings(v)]]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _report(events: list[Event]) -> list[dict[str, Any]]:
    """``explain --json``'s objects for ``events``."""
    return [
        line
        for number, explained in enumerate(explain_events(_wire(events)))
        for line in json_lines(explained, number)
    ]


def test_lanes_are_the_items_and_segments_the_states_explain_reports() -> None:
    report = _report(CAPTURE)
    (result,) = [line["result"] for line in report if line["kind"] == "result"]
    (response,) = build_timeline(CAPTURE).responses
    assert [lane.entry.item["id"] for lane in response.lanes] == [
        entry["item"]["id"] for entry in result["items"]
    ]
    for lane in response.lanes:
        moves = [
            (line["index"], line["after"])
            for line in report
            if line["kind"] == "event" and line["item"] == lane.position
        ]
        expected: list[tuple[int, str]] = []
        for index, state in moves:
            if not expected or expected[-1][1] != state:
                expected.append((index, state))
        # The terminal event (15) settles every item in the state the result gives it.
        expected.append((15, "completed"))
        assert [(s.start, s.state.value) for s in lane.segments] == expected
        assert lane.segments[-1].end == response.end + 1
        assert all(a.end == b.start for a, b in pairwise(lane.segments))
    assert [lane.shared_slot for lane in response.lanes] == [True, True, False]


def test_every_event_is_a_mark_with_the_decision_transition_and_codes_explain_reports() -> None:
    report = {line["index"]: line for line in _report(CAPTURE) if line["kind"] == "event"}
    page = Page(render_html(CAPTURE, title="capture"))
    marks = page.data()["marks"]
    assert [m["i"] for m in marks] == sorted(report)
    for mark in marks:
        line = report[mark["i"]]
        assert mark["d"] == line["decision"]
        assert mark["lane"] == ("response" if line["item"] is None else f"items[{line['item']}]")
        assert (mark["b"], mark["a"]) == (line["before"], line["after"])
        assert [g[0] for g in mark["g"]] == [d["code"] for d in line["diagnostics"]]
        assert [g[1] for g in mark["g"]] == [d["severity"] for d in line["diagnostics"]]
        assert json.loads(mark["j"]) == CAPTURE[mark["i"]]
        assert {CODE_RULES[Code(g[0])] for g in mark["g"]} <= set(mark["r"])
    ambiguous = marks[AMBIGUOUS_EVENT]
    assert ambiguous["lane"] == "response"
    assert ambiguous["r"] == ["R5"]
    assert marks[1]["r"] == ["R6", "R8"]  # an admission, and the entry's first state


def test_the_svg_draws_each_lane_segment_mark_and_diagnostic() -> None:
    timeline = build_timeline(CAPTURE)
    (response,) = timeline.responses
    page = Page(render_html(CAPTURE, title="capture"))
    assert len(page.having("div", "lane")) == len(response.lanes) + 1
    drawn = [a["class"].split()[1] for a in page.having("rect", "seg")]
    assert drawn == [f"s-{s.state.value}" for lane in response.lanes for s in lane.segments]
    assert {"s-added", "s-streaming", "s-payload_done", "s-done", "s-completed"} <= set(drawn)
    groups = [a for a in page.having("g", "m") if "data-e" in a]
    assert len(groups) == len(response.marks) == len(CAPTURE)
    assert [g["class"] for g in groups][AMBIGUOUS_EVENT] == "m k-delta"
    dots = [a["class"] for a in page.having("line", "dg")]
    expected = [
        f"dg sev-{SEVERITY[d.code].value}" for d in response.result.diagnostics
    ]
    assert dots == expected == ["dg sev-warning", "dg sev-error", "dg sev-info"]
    shared = page.having("div", "shared")
    assert len(shared) == 2 and all("reused" in a["title"] for a in shared)
    rows = [a for t, a in page.tags if t == "tr" and "data-e" in a]
    assert len(rows) == len(response.result.diagnostics)


def test_every_state_severity_and_kind_has_its_look() -> None:
    assert set(STATE_COLOURS) == set(EntryState)
    page = Page(render_html(CAPTURE, title="capture"))
    style = "".join(body for attrs, body in page.scripts) + "".join(page.text)
    css = re.findall(r"\.s-([a-z_]+)\{", style)
    assert set(css) == {state.value for state in EntryState}
    legend = [a["class"] for a in page.having("g", "m") if "data-e" not in a]
    assert legend == [f"m k-{kind.value}" for kind in Kind]


def test_responses_not_reduced_events_and_the_end_of_input_are_drawn() -> None:
    sse = (
        b'event: response.created\ndata: {"type":"response.created","response":{"id":"r1"}}\n\n'
        b'data: {"type": "response.output_item.added", \n\n'
        b'data: {"type":"response.created","response":{"id":"r2"}}\n\n'
        b'data: {"type":"response.output_item.added","output_index":0,'
        b'"item":{"type":"function_call","id":"fc_1","call_id":"c1","name":"f","arguments":""}}\n\n'
    )
    timeline = build_timeline(read_wire_events(sse))
    first, second = timeline.responses
    assert [m.kind for m in first.marks] == [Kind.START, Kind.NOT_REDUCED, Kind.END_OF_INPUT]
    assert [d.code for d in first.marks[1].diagnostics] == [Code.MALFORMED_EVENT]
    assert (second.first, second.end) == (2, 4)
    end = second.marks[-1]
    assert end.kind is Kind.END_OF_INPUT and end.first == second.end
    assert {d.code for d in end.diagnostics} >= {Code.MISSING_TERMINAL}
    (lane,) = second.lanes
    # No terminal: the item ends incomplete, in the end-of-input column (R9).
    assert [(s.start, s.state) for s in lane.segments] == [
        (3, EntryState.ADDED),
        (4, EntryState.INCOMPLETE),
    ]
    page = Page(render_html(read_wire_events(sse), title="two"))
    assert len(page.having("section", "response")) == 2
    contents = [a["href"] for t, a in page.tags if t == "a" and a.get("href", "").startswith("#")]
    assert contents == ["#response-0", "#response-1"]
    assert [a["id"] for a in page.having("section", "response")] == ["response-0", "response-1"]
    marks = page.data()["marks"]
    assert marks[1]["k"] == "not_reduced" and "malformed_event" in marks[1]["j"]
    assert [m["response"] for m in marks] == [0, 0, 0, 1, 1, 1]


def _long_call(deltas: int) -> list[Event]:
    pieces = [f'"k{n}":{n},' for n in range(deltas)]
    arguments = "{" + "".join(pieces)[:-1] + "}"
    return [
        created("resp_long"),
        added(0, call("fc_1", "call_1")),
        *(args_delta(0, "fc_1", piece) for piece in pieces),
        args_done(0, "fc_1", arguments),
        done(0, call("fc_1", "call_1", arguments=arguments, status="completed")),
    ]


def test_a_long_response_folds_its_deltas_into_runs() -> None:
    events = _long_call(300)
    (folded,) = build_timeline(events, fold_above=100).responses
    kinds = [(m.kind, m.count) for m in folded.marks if m.lane == 0]
    assert kinds == [(Kind.ADDED, 1), (Kind.DELTA, 300), (Kind.PAYLOAD_DONE, 1), (Kind.DONE, 1)]
    run = folded.marks[2]
    assert (run.first, run.last) == (2, 301)
    assert run.chars == sum(len(e["delta"]) for e in events[2:302])
    (unfolded,) = build_timeline(events).responses
    assert sum(m.kind is Kind.DELTA for m in unfolded.marks) == 300
    page = Page(render_html(events, title="long", fold_above=100))
    (data,) = [m for m in page.data()["marks"] if m["n"] > 1]
    assert (data["i"], data["z"], data["n"], data["c"]) == (2, 301, 300, run.chars)
    assert len(page.having("rect", "run")) == 1


def test_a_delta_with_a_diagnostic_is_never_folded() -> None:
    events = _long_call(50)
    events.insert(20, args_delta(0, "fc_other", "x"))  # named by a foreign id: still routed
    events.insert(30, args_delta(7, None, "y"))  # an orphan: the response lane
    (response,) = build_timeline(events, fold_above=10).responses
    lane = [(m.kind, m.first, m.count) for m in response.marks if m.lane == 0]
    flagged = [m for m in response.marks if m.diagnostics]
    assert any(m.first == 30 and m.lane is None for m in flagged)
    assert all(m.count <= 1 for m in flagged)  # the end-of-input mark stands for no event
    assert sum(count for kind, _, count in lane if kind is Kind.DELTA) == 51


def test_hostile_strings_come_out_as_text_and_the_data_block_cannot_be_closed() -> None:
    text = render_html(HOSTILE, title=f"title {SCRIPT}")
    page = Page(text)
    assert [t for t, _ in page.tags if t in {"script", "img", "iframe", "object"}] == [
        "script",
        "script",
    ]
    assert not [a for _, a in page.tags if any(k.startswith("on") for k in a)]
    assert not [a for t, a in page.tags if t == "a" and "javascript" in a.get("href", "")]
    assert not [a for _, a in page.tags if a.get("id") == "pwned"]
    blocks = re.findall(r"<script[^>]*>(.*?)</script>", text, flags=re.DOTALL)
    assert len(blocks) == 2 and "<" not in blocks[0]
    assert "\u2028" not in blocks[0] and "\u2029" not in blocks[0]
    shown = "".join(page.text)
    assert f"title {SCRIPT}" in shown  # the title, as text
    assert MARKUP[:40] in shown or "fc_" + MARKUP[:20] in shown
    marks = page.data()["marks"]
    assert json.loads(marks[3]["j"]) == HOSTILE[3]
    assert HOSTILE_ARGUMENTS[20:] == json.loads(marks[3]["j"])["delta"]
    assert json.loads(marks[5]["j"])["delta"] == "\u2028</script>\u2029"
    lane = page.having("div", "lane")[1]
    assert json.loads(lane["title"])["call_id"] == URL


def test_undecodable_hostile_bytes_are_shown_raw_as_text() -> None:
    page = Page(render_html(read_wire_events(HOSTILE_SSE), title="sse"))
    marks = page.data()["marks"]
    (broken,) = [m for m in marks if m["k"] == "not_reduced"]
    assert SCRIPT in broken["j"] and MARKUP in broken["j"]
    assert [t for t, _ in page.tags if t == "script"] == ["script", "script"]
    decoded = [json.loads(m["j"]) for m in marks if m["k"] != "not_reduced"]
    leaves = [leaf for value in decoded for leaf in _strings(value)]
    assert all(any(string in leaf for leaf in leaves) for string in HOSTILE_STRINGS)


def test_rules_link_to_their_pages_only_when_asked_and_only_over_http() -> None:
    linked = Page(render_html(CAPTURE, title="c", rule_url="../rules/{rule}/"))
    hrefs = {a["href"] for a in linked.having("a", "rule")}
    assert hrefs == {"../rules/R3/", "../rules/R5/", "../rules/R9/"}
    rules = linked.data()["rules"]
    assert rules["R5"]["h"] == "../rules/R5/" and "route" in rules["R5"]["s"]
    assert {"R5", "R6", "R8", "R9"} <= set(rules)
    plain = Page(render_html(CAPTURE, title="c"))
    assert plain.having("a", "rule") == [] and len(plain.having("span", "rule")) > 0
    for bad in ("javascript:alert(1)/{rule}", "data:text/html,{rule}", "https://x/rules/"):
        with pytest.raises(ValueError):
            render_html(CAPTURE, title="c", rule_url=bad)


def test_the_page_allows_only_its_own_script_and_style() -> None:
    text = render_html(CAPTURE, title="c")
    (policy,) = re.findall(r'http-equiv="Content-Security-Policy" content="([^"]*)"', text)
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    assert directives["default-src"] == "'none'"
    assert re.fullmatch(r"'sha256-[A-Za-z0-9+/=]+'", directives["script-src"])
    assert re.fullmatch(r"'sha256-[A-Za-z0-9+/=]+'", directives["style-src"])
    body = text.split("<body>")[1].replace("http://www.w3.org/2000/svg", "")
    assert "http" not in body and "src=" not in body


def _candidate_answer() -> list[dict[str, Any]]:
    (oracle,) = [r.to_json() for r in build_timeline(CAPTURE).results]
    answer = json.loads(json.dumps(oracle))
    answer["items"][2]["item"]["arguments"] = '{"city":"Kyoto"}'
    answer["items"].append({"item": {"type": "function_call", "id": "fc_x", "call_id": "x"}})
    return [answer]


def test_the_candidate_answer_sits_beside_the_lanes_with_each_difference_on_its_item() -> None:
    page = Page(render_html(CAPTURE, title="c", answer=_candidate_answer(),
                            candidate_name="my-parser"))
    cells = [a["class"] for t, a in page.tags if t == "div" and "cand" in a.get("class", "")
             .split()]
    # The response row (the extra item), then items[0], items[1], items[2] (arguments).
    assert cells == ["cand bad", "cand ok", "cand ok", "cand bad"]
    shown = "".join(page.text)
    assert "my-parser" in shown and "Kyoto" in shown and "extra_item" in shown
    assert 'payload R7: reference {"city":"Tokyo"}, my-parser {"city":"Kyoto"}' in shown


def test_a_candidate_failure_is_shown_with_its_message() -> None:
    page = Page(render_html(CAPTURE, title="c", answer=Failure("crashed: <b>boom</b>")))
    plain = Page(render_html(CAPTURE, title="c", answer=Failure("crashed")))
    shown = "".join(page.text)
    assert "failure: crashed: <b>boom</b>" in shown
    assert page.tags == plain.tags


def test_lone_surrogates_and_values_json_cannot_say_still_make_a_page() -> None:
    events = [
        created("resp_\ud800"),
        added(0, call("fc_1", "call_\udfff")),
        args_delta(0, "fc_1", '{"a":"\ud83d"}'),
        {"type": "acme.custom", "value": object(), "number": float("nan")},
        done(0, call("fc_1", "call_\udfff", arguments='{"a":"\ud83d"}', status="completed")),
    ]
    text = render_html(events, title="surrogates \ud800")
    text.encode("utf-8")  # writable as it is: every lone surrogate became its escape
    page = Page(text)
    assert "surrogates \\ud800" in "".join(page.text)
    marks = page.data()["marks"]
    assert json.loads(marks[2]["j"])["delta"] == '{"a":"\ud83d"}'
    assert "<object object at" in marks[3]["j"] and "NaN" in marks[3]["j"]
