"""The Go candidates' Python side, without Go: where AxonHub's build comes from, how a
Go report is written, and how the peers page renders AxonHub's recorded run.

What the built programs answer is tested in ``test_go_candidates.py`` (openai-go always,
AxonHub where a checkout is given).
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from responses_oracle.differential.candidate import CandidateError, candidate_command
from responses_oracle.differential.go_candidates import (
    AXONHUB_MODULE,
    GO_ADAPTERS,
    _axonhub_modfile,
    axonhub_module,
    go_command,
)
from responses_oracle.differential.oracle_trace import oracle_json
from responses_oracle.differential.upstream import (
    STYLES,
    Report,
    expected_items,
    gateway_view,
    gathered,
    render_test,
    transform_arguments,
    unseen,
)
from responses_oracle.docsite.axonhub_run import run_cell, section
from responses_oracle.docsite.peers import SCENARIOS

LLM_GO_MOD = f"""module {AXONHUB_MODULE}

go 1.26.0

require github.com/tmaxmax/go-sse v0.11.0

replace github.com/tmaxmax/go-sse => github.com/looplj/go-sse v0.0.0-20250909130008-e74a1155bc3b

replace (
\texample.com/a => example.com/b v1.0.0
)
"""


def _checkout(root: Path, signature: str = "ctx context.Context, req *httpclient.Request, "
              "stream streams.Stream[*httpclient.StreamEvent]") -> Path:
    """A stand-in checkout: the llm module's go.mod and the stream file's signature."""
    package = root / "llm" / "transformer" / "openai" / "responses"
    package.mkdir(parents=True)
    (root / "llm" / "go.mod").write_text(LLM_GO_MOD, encoding="utf-8")
    (root / "llm" / "go.sum").write_text("example.com/a v1.0.0 h1:x=\n", encoding="utf-8")
    (package / "outbound_stream.go").write_text(
        f"package responses\n\nfunc (t *OutboundTransformer) TransformStream(\n\t{signature},\n"
        ") (streams.Stream[*llm.Response], error) {{ return nil, nil }}\n", encoding="utf-8")
    return root


def test_the_checkout_is_found_from_its_root_or_its_llm_folder(tmp_path: Path) -> None:
    root = _checkout(tmp_path / "axonhub")
    assert axonhub_module(root) == root / "llm"
    assert axonhub_module(root / "llm") == root / "llm"


def test_a_folder_that_is_no_checkout_is_refused_before_any_build(tmp_path: Path) -> None:
    with pytest.raises(CandidateError, match="is not an AxonHub checkout"):
        axonhub_module(tmp_path)


def test_without_a_checkout_the_candidate_says_what_to_give(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("AXONHUB_SRC", raising=False)
    with pytest.raises(CandidateError, match=r"give its folder with --src DIR \(or AXONHUB_SRC"):
        candidate_command("axonhub-stream")


def test_the_generated_go_mod_replaces_the_module_by_the_checkout_and_keeps_its_replaces(
    tmp_path: Path,
) -> None:
    module = _checkout(tmp_path / "axonhub") / "llm"
    modfile = _axonhub_modfile(module, tmp_path / "build")
    text = modfile.read_text(encoding="utf-8")
    assert modfile.parent == tmp_path / "build"
    assert f"replace {AXONHUB_MODULE} => {module}\n" in text
    assert f"replace responses-oracle/adapters/go/candidate => {GO_ADAPTERS / 'candidate'}" in text
    assert ("replace github.com/tmaxmax/go-sse => github.com/looplj/go-sse "
            "v0.0.0-20250909130008-e74a1155bc3b") in text
    assert "replace example.com/a => example.com/b v1.0.0" in text
    assert "go 1.26.0" in text
    assert (tmp_path / "build" / "go.sum").read_text() == "example.com/a v1.0.0 h1:x=\n"


def test_nothing_of_axonhub_is_in_the_repository() -> None:
    """The adapter's own go.mod names no AxonHub module: a build needs --src."""
    own = (GO_ADAPTERS / "axonhub" / "go.mod").read_text(encoding="utf-8")
    assert [line for line in own.splitlines() if "looplj" in line and
            not line.startswith("//")] == []
    assert not any("looplj/axonhub" in path.read_text(encoding="utf-8", errors="ignore")
                   and "package responses" in path.read_text(encoding="utf-8")
                   for path in GO_ADAPTERS.rglob("*.go"))


def test_an_unknown_go_candidate_is_not_built() -> None:
    with pytest.raises(KeyError):
        go_command("no-such-candidate")


@pytest.mark.parametrize(("signature", "arguments"), [
    ("ctx context.Context, req *httpclient.Request, stream streams.Stream[*httpclient.StreamEvent]",
     "ctx, &httpclient.Request{}, "),
    ("ctx context.Context, stream streams.Stream[*httpclient.StreamEvent]", "ctx, "),
])
def test_the_report_calls_transform_stream_as_the_checkout_declares_it(
    tmp_path: Path, signature: str, arguments: str
) -> None:
    assert transform_arguments(str(_checkout(tmp_path / "axonhub", signature))) == arguments


def _scenario_events(key: str) -> list[dict[str, Any]]:
    [scenario] = [s for s in SCENARIOS if s.key == key]
    # A deep copy: a test that edits a nested item must not edit the shared scenario
    # (another test in the same worker reads it afterwards).
    return copy.deepcopy([dict(e) for e in scenario.example.events])


def test_the_gateway_view_is_the_calls_text_and_status_a_chat_client_adds_up() -> None:
    [reference] = oracle_json(_scenario_events("incomplete-response"))
    view = gateway_view(reference, expected_items(reference), False)
    assert view == {"status": "incomplete", "text": "",
                    "tool_calls": [{"call_id": "call_1", "name": "get_weather",
                                    "arguments": '{"a":1}'}]}


def test_a_go_report_holds_the_stream_as_raw_strings_and_the_expectation_as_json(
    tmp_path: Path,
) -> None:
    events = _scenario_events("arguments-only-in-snapshot")
    events[1]["item"]["name"] = "say`hi`"
    [reference] = oracle_json(events)
    style = STYLES["axonhub-stream"]
    report = Report("c1", "axonhub-stream", "title", "synthetic", events,
                    style.view(reference, expected_items(reference), False), None, None)
    text = render_test(style, "empty_payload_filled_c1", report,
                       str(_checkout(tmp_path / "axonhub", "ctx context.Context, stream x")))
    assert "func TestOracle_empty_payload_filled_c1(t *testing.T) {" in text
    assert 'say` + "`" + `hi` + "`" + `' in text
    assert ('const expected = `{"status":"completed","text":"","tool_calls":[{"call_id":'
            '"call_1","name":"say` + "`" + `hi` + "`" + `","arguments":"{\\"a\\":1}"}]}`'
            ) in text
    assert "transformer.TransformStream(ctx, streams.SliceStream(decoded))" in text
    assert "__" not in text.replace("__TITLE__", "")  # every token filled


RECORD: dict[str, Any] = {
    "go": "go1.26.8", "named_streams": 3, "not_built": [{"commit": "458cb2a1", "why": "x"}],
    "runs": [{
        "commit": "57ccc13a", "date": "2026-05-23",
        "candidates": {
            "axonhub-stream": {"cases": 10, "diverging": 4, "by_class": {"payload_differs": 4},
                               "calls": {"streams": 2, "agree": 1, "by_stream": {
                                   "peers/arguments-only-in-snapshot": {
                                       "agrees": False, "got": 'call_1 ""',
                                       "expected": 'call_1 "{\\"a\\":1}"'}}}},
            "axonhub-stored": {"cases": 10, "diverging": 1, "by_class": {},
                               "calls": {"streams": 2, "agree": 2, "by_stream": {
                                   "peers/arguments-only-in-snapshot": {
                                       "agrees": True, "got": 'call_1 "{\\"a\\":1}"',
                                       "expected": 'call_1 "{\\"a\\":1}"'}}}},
        },
    }],
}


def test_a_peers_cell_names_the_commit_and_marks_each_candidate() -> None:
    assert run_cell(RECORD, "peers/arguments-only-in-snapshot") == (
        '**run** (`57ccc13a`): streamed ✗ call_1 ""; stored ✓ call_1 "{\\"a\\":1}"')
    assert run_cell(RECORD, "peers/missing-call-output") == (
        "**run** (`57ccc13a`): streamed no call on either side; stored no call on either side")


def test_the_section_gives_each_run_and_the_seed_behaviours_and_how_to_rerun() -> None:
    text = "\n".join(section(RECORD))
    assert "| `57ccc13a` (2026-05-23) | `axonhub-stream` | 4 of 10 | 1 of 2 |" in text
    assert ("| empty done arguments, full terminal arguments | the done events blank the "
            "arguments the snapshot holds | `peers/arguments-only-in-snapshot` |") in text
    assert "Not measured: `458cb2a1`: x" in text
    assert "responses-oracle diff --candidate axonhub-stream --src ../axonhub" in text
    assert section(None) == []


def test_a_difference_the_view_cannot_show_gets_no_test() -> None:
    [reference] = oracle_json(_scenario_events("empty-done-arguments"))
    stream, stored = STYLES["axonhub-stream"], STYLES["axonhub-stored"]
    at = {"path": "[0].items[0].item.arguments"}
    assert unseen(stream, at, reference, False) == ""
    assert unseen(stored, at, reference, False) == ""
    assert unseen(stream, {"path": "[0].items[0].item.id"}, reference, True) == (
        "`TransformStream()`'s chunks carry no item id, so no test of them can state it")
    assert unseen(stored, {"path": "[0].items[0].item.id"}, reference, True) == ""
    assert unseen(stored, {"path": "[0].items[0].item.namespace"}, reference, False) == (
        "an item's `namespace` does not show through `AggregateStreamChunks()`")
    reasoning = {"items": [{"item": {"type": "reasoning", "id": "rs_1"}}]}
    assert unseen(stream, {"path": "[0].items[0]"}, reasoning, False) == (
        "a `reasoning` item does not show through `TransformStream()`'s chunks")
    assert unseen(stored, {"path": "[0].items[0]"}, reasoning, False) == ""


def _report(cluster_id: str, events: list[dict[str, Any]], answer: Any, **cluster: Any) -> Report:
    report = Report(cluster_id, "axonhub-stored", "t", "p", events, None, None, None,
                    cluster={"id": cluster_id, "class": "wrong_tool_run", **cluster},
                    answer=answer)
    report.test_file = f"oracle_{cluster_id}_test.go"
    return report


def test_a_cluster_a_policy_of_its_class_explains_is_that_policys_report() -> None:
    events = _scenario_events("arguments-only-in-snapshot")
    [reference] = oracle_json(events)
    blank = {**reference["items"][0]["item"], "arguments": ""}
    ignored = [{"response": reference["response"], "items": [{"item": blank}]}]
    policy = _report("p1", events, ignored, hypothesis={"name": "snapshot_ignored"})
    explained_too = _report("c1", events[:2] + events[3:], ignored)
    other_class = _report("c2", events, ignored)
    other_class.cluster = {**other_class.cluster, "class": "payload_differs"}
    right = _report("c3", events, [{"response": reference["response"],
                                    "items": [{"item": reference["items"][0]["item"]}]}])
    kept = gathered([policy, explained_too, other_class, right])
    assert [r.id for r in kept] == ["p1", "c2", "c3"]
    assert policy.merged == ["c1"]
