"""The generated pages are up to date, say so, and show what their data claims."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

import pytest
from helpers import REPO
from responses_oracle import docsite
from responses_oracle.docsite import __main__ as command
from responses_oracle.docsite import sdk
from responses_oracle.docsite.examples import run
from responses_oracle.docsite.pages import answer, render_pages
from responses_oracle.docsite.peers import SCENARIOS
from responses_oracle.docsite.proofs import (
    RECORD_NAME,
    STATUS_TEXT,
    load_record,
)
from responses_oracle.docsite.result_schema import SCHEMA_PAGE, render_schema
from responses_oracle.docsite.rule_texts import RULES
from responses_oracle.model.completeness import COMPLETENESS
from responses_oracle.model.invariants import INVARIANTS
from responses_oracle.model.vocabulary import CODES
from responses_oracle.proofs.contracts import CONTRACTS

RECORD = load_record(REPO / "docs" / RECORD_NAME)
"""What ``prove()`` reported, as committed (the tests never run the slow proofs)."""

SDK = sdk.load_record(REPO / "docs" / sdk.RECORD_NAME)
"""What openai-python answered, as committed (the SDK is not a test dependency)."""

PAGES = render_pages(RECORD, SDK)
"""What the generator makes now from the committed records."""


def test_the_generator_writes_into_the_repository_docs_folder() -> None:
    assert docsite.docs_dir() == REPO / "docs"


def test_committed_pages_and_proof_record_are_current() -> None:
    assert command.check(REPO / "docs") == [], "run python -m responses_oracle.docsite"


def test_the_proof_record_is_for_the_current_model_and_covers_every_invariant() -> None:
    assert RECORD is not None, "docs/proofs.json is missing: run python -m responses_oracle.docsite"
    assert RECORD.stale() == []
    names = [invariant.name for invariant in INVARIANTS] + [ob.name for ob in COMPLETENESS]
    assert sorted(RECORD.by_invariant()) == sorted(names + list(CONTRACTS))
    assert {row.status for row in RECORD.rows} <= set(STATUS_TEXT)


def test_a_record_made_from_other_sources_is_stale(tmp_path: Path) -> None:
    assert RECORD is not None
    for path, text in render_pages(RECORD, SDK).items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, encoding="utf-8")
    assert command.check(tmp_path) == []
    first = RECORD.rows[0]
    other = replace(RECORD, rows=(replace(first, fingerprint="0" * 64), *RECORD.rows[1:]))
    assert other.stale() == [f"reference {first.invariant} {first.part}"]
    (tmp_path / RECORD_NAME).write_text(other.to_text(), encoding="utf-8")
    problems = command.check(tmp_path)
    assert problems[0] == (
        f"{RECORD_NAME}: 1 rows were made from other sources "
        f"(reference {first.invariant} {first.part})"
    )
    # Without a trusted record the invariants page loses its proof column: stale too.
    assert "invariants.md differs from what the generator renders" in problems


def test_the_check_command_accepts_the_committed_pages() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "responses_oracle.docsite", "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (result.returncode, result.stderr) == (0, "")


def test_the_check_command_fails_on_a_stale_page_and_writing_fixes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert RECORD is not None
    # The committed record, current for the current sources (tested above).
    fresh = RECORD
    monkeypatch.setattr(command, "docs_dir", lambda: tmp_path)
    monkeypatch.setattr(command, "run_proofs", lambda previous, everything: fresh)
    monkeypatch.setattr(command, "run_sdk", lambda: SDK)
    assert command.main(["--check"]) == 1
    assert command.main([]) == 0
    assert command.main(["--check"]) == 0
    (tmp_path / "rules" / "R7.md").write_text("edited by hand\n", encoding="utf-8")
    assert command.main(["--check"]) == 1
    assert command.stale_pages(tmp_path, render_pages(fresh, SDK)) == ["rules/R7.md"]
    (tmp_path / "vectors" / "cases" / "peers-gone.json").write_text("{}\n", encoding="utf-8")
    assert "vectors/cases/peers-gone.json is no longer generated" in command.check(tmp_path)
    assert command.main([]) == 0
    assert not (tmp_path / "vectors" / "cases" / "peers-gone.json").exists()


def test_pages_are_one_index_and_one_page_per_rule_plus_peers_and_invariants() -> None:
    pages = ["rules/index.md", *(f"rules/R{n}.md" for n in range(1, 16))]
    pages += ["peers.md", "invariants.md", RECORD_NAME, sdk.RECORD_NAME, SCHEMA_PAGE]
    pages += [f"timelines/R{n}.html" for n in range(1, 16)]
    pages += ["timelines/timeline.js", "timelines/timeline.css"]  # the pages' shared copy
    vectors = [f"vectors/cases/rule-R{n}.json" for n in range(2, 16)]
    vectors += [f"vectors/cases/peers-{scenario.key}.json" for scenario in SCENARIOS]
    assert sorted(PAGES) == sorted([*pages, *vectors, "vectors/manifest.json"])


def test_every_page_says_it_is_generated_and_by_which_command() -> None:
    for path, text in PAGES.items():
        if path == SCHEMA_PAGE:  # a schema: the comment beside its generated list says so
            assert "written there by python -m responses_oracle.docsite" in text
            continue
        if path.endswith(".json"):
            if "/cases/" not in path:  # a vector file is the toolkit's format, as is
                assert '"generated_by": "python -m responses_oracle.docsite"' in text, path
            continue
        # HTML pages say it in a comment; their shared script and style in theirs.
        start, end = ("/*", "*/") if path.endswith((".js", ".css")) else ("<!--", "-->")
        header = text[text.index(start) : text.index(end)]
        assert "GENERATED FILE — DO NOT EDIT" in header, path
        assert "`python -m responses_oracle.docsite`" in header, path


def test_rules_are_r1_to_r15_each_with_cited_evidence() -> None:
    assert [rule.key for rule in RULES] == [f"R{n}" for n in range(1, 16)]
    for rule in RULES:
        assert rule.evidence, rule.key
        cited = " ".join(rule.evidence)
        # Each rule cites at least one issue or PR number from the research notes.
        assert re.search(r"#\d+", cited), rule.key
        for page in rule.model_pages:
            assert (REPO / "docs" / page).is_file(), (rule.key, page)


def test_every_example_still_raises_the_diagnostics_its_page_is_about() -> None:
    for name, example in [
        *((rule.key, rule.example) for rule in RULES),
        *((scenario.key, scenario.example) for scenario in SCENARIOS),
    ]:
        missing = set(example.shows) - run(example).codes()
        assert not missing, (name, sorted(code.value for code in missing))


def test_a_rule_page_shows_the_reducers_trace_and_result() -> None:
    page = PAGES["rules/R3.md"]
    outcome = run(RULES[2].example)
    (response,) = outcome.responses
    # One trace row per event, and the result exactly as the reducer gives it.
    assert len(response.rows) == len(RULES[2].example.events)
    assert "| 4 | `function_call_arguments.delta` | route one/one_of_slot -> by_slot |" in page
    assert "`late_event`" in page and "`ambiguous_route`" in page
    assert '"id": "resp_r3"' in page
    assert [item.item["id"] for item in response.result.items] == ["fc_1", "fc_2"]


def test_a_response_without_terminal_event_gets_an_end_of_input_row() -> None:
    page = PAGES["rules/R9.md"]
    assert "## Worked example" in page and "### Response 2: `resp_r9b`" in page
    assert "|  | end of input |  |  |  | `missing_terminal` |" in page


def test_an_undecodable_event_gets_a_row_of_its_own() -> None:
    assert "| 5 | (no type) | not reduced |  |  | `malformed_event` |" in PAGES["rules/R1.md"]


def test_the_peer_table_has_a_row_per_scenario_with_the_reducers_answer() -> None:
    page = PAGES["peers.md"]
    for scenario in SCENARIOS:
        assert f"(#{scenario.key})" in page and f"{{#{scenario.key}}}" in page
        assert answer(scenario, run(scenario.example)) in page
    empty_done = answer(SCENARIOS[0], run(SCENARIOS[0].example))
    assert empty_done == '`fc_1` `{"a":1}`, executable (`empty_payload_ignored`)'
    unconfirmed = answer(SCENARIOS[3], run(SCENARIOS[3].example))
    assert unconfirmed == "`fc_1` `{}`, not executable (`unconfirmed_item`)"


def test_the_invariants_page_shows_what_prove_reported_and_nothing_else() -> None:
    assert RECORD is not None
    page = PAGES["invariants.md"]
    for invariant in (*INVARIANTS, *COMPLETENESS, *CONTRACTS.values()):
        assert f"`{invariant.name}`" in page
    assert "| Z3 proof |" in page
    for row in RECORD.rows:
        assert f"`{row.invariant}` — {STATUS_TEXT[row.status]}: {row.shown}" in page
    without = render_pages(None, SDK)
    assert RECORD_NAME not in without
    assert "| Z3 proof |" not in without["invariants.md"]
    assert "No proof column" in without["invariants.md"]


def test_the_openai_python_column_is_the_recorded_sdk_answer_for_the_current_streams() -> None:
    assert SDK is not None, "docs/peers-openai-python.json is missing"
    assert SDK.current()
    page = PAGES["peers.md"]
    assert f"| openai-python {SDK.sdk_version} |" in page
    for scenario in SCENARIOS:
        assert SDK.answers[scenario.key][1] in page
    assert "openai-python" not in render_pages(RECORD, None)["peers.md"].split("## The")[0]


def test_a_scenario_whose_stream_changed_makes_the_sdk_record_stale() -> None:
    assert SDK is not None
    key = SCENARIOS[0].key
    changed = sdk.SdkRecord(SDK.sdk_version, {**SDK.answers, key: ("0" * 64, "no call")})
    assert not changed.current()


def test_every_vector_holds_its_stream_and_the_oracles_results() -> None:
    from responses_oracle.testing.conformance_vectors import load

    with tempfile.TemporaryDirectory() as folder:
        for path, text in PAGES.items():
            if path.startswith("vectors/"):
                target = Path(folder) / path.removeprefix("vectors/")
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(text, encoding="utf-8")
        manifest, vectors = load(folder)
    # One vector per rule with a decoded-event example (R1's is raw SSE), one per scenario.
    assert manifest["count"] == len(vectors) == len(RULES) - 1 + len(SCENARIOS)
    by_name = {vector.name: vector for vector in vectors}
    r3 = by_name["rule-R3"]
    assert r3.rules == ("R3",) and list(r3.events) == list(RULES[2].example.events)
    assert r3.expected[0]["items"][1]["item"]["id"] == "fc_2"
    for scenario in SCENARIOS:
        assert f"(vectors/cases/peers-{scenario.key}.json)" in PAGES["peers.md"]
    assert "(../vectors/cases/rule-R3.json)" in PAGES["rules/R3.md"]


def test_the_schema_code_list_is_written_from_the_code_table() -> None:
    committed = (REPO / "docs" / SCHEMA_PAGE).read_text(encoding="utf-8")
    listed = json.loads(committed)["$defs"]["diagnostic"]["properties"]["code"]["examples"]
    assert listed == [code.value for code in CODES]
    # A code dropped by hand is written back; the rest of the file is left as it is.
    edited = committed.replace('            "late_event",\n', "")
    assert edited != committed
    assert render_schema(edited) == committed
