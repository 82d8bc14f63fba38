"""``responses-oracle prove`` exits 1 when a proof of the reference is UNKNOWN.

A proof that did not go through is no proof: an UNKNOWN row of the reference fails
the command as a counterexample does, while an UNKNOWN on a peer's policy (like its
counterexamples) is a finding and exits 0.  The UNKNOWN here is a real one: opencode's
tables break the induction of ``end_settles`` (its strengthening needs confirmation
tied to the state, which opencode's rows do not keep) with no counterexample within
the depth; proved under the name ``reference``, the same tables must fail the command.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from responses_oracle.cli import main
from responses_oracle.proofs import policies

ARGS = ("prove", "--invariant", "end_settles", "--bound", "2,2", "--json")


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, object]]:
    status = main(list(argv))
    return status, json.loads(capsys.readouterr().out)


def test_unknown_on_a_peer_is_a_finding(capsys: pytest.CaptureFixture[str]) -> None:
    status, report = _run(capsys, *ARGS, "--policy", "opencode")
    rows = report["rows"]
    assert isinstance(rows, list) and [row["verdict"] for row in rows] == ["unknown"]
    assert status == 0


def test_unknown_on_the_reference_fails(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    known = dict(policies.POLICIES)
    known["reference"] = replace(known["opencode"], name="reference")
    monkeypatch.setattr(policies, "POLICIES", known)
    status, report = _run(capsys, *ARGS)
    rows = report["rows"]
    assert isinstance(rows, list) and [row["verdict"] for row in rows] == ["unknown"]
    assert status == 1 and report["ok"] is False
