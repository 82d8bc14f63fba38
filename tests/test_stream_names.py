"""A stream argument means the same in every command and in ``reduce()``, from any folder.

``stream_names.resolve``: a path that exists, then ``seed7/12``, a quirk, a name of the
agents list, a bundled path, a vector name.  Run here from an empty folder, as a user
who installed the package runs the docs' examples; and ``bundled.BUNDLED`` is found in
the checkout's folders when the package has no ``data/`` beside its code (a plain
editable install, a checkout on ``PYTHONPATH``: ``test_install_modes.py`` installs them).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli.cli_helpers import run
from helpers import REPO
from responses_oracle import bundled, reduce
from responses_oracle.stream_names import resolve

PARALLEL_CALLS = ["call_qN4vT8xKb2WmL7sRz0YdHj3E", "call_Fp6cA1nUe9ZtQ5gVy2MkXo8B"]


@pytest.fixture
def elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty folder, the current one."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _calls(result: dict[str, object]) -> list[str]:
    items = result["items"]
    assert isinstance(items, list)
    return [e["item"]["call_id"] for e in items if e["item"]["type"] == "function_call"]


def test_each_kind_of_name_finds_its_stream(elsewhere: Path) -> None:
    # A file here comes first, whatever its name.
    (elsewhere / "q05").write_text("a file named like a quirk\n")
    assert resolve("q05") == ("q05", Path("q05"), None)
    # A name of the agents list is the stream serve plays for it: its base with its
    # deviations applied (q07's base streams its arguments; its deviations take them out).
    quirk = resolve("q07")
    assert quirk is not None and quirk.path is None and quirk.decoded
    from responses_oracle.agents.scenario_list import declared, scenario_events

    scenario = declared("q07")
    assert scenario is not None
    assert list(quirk.decoded) == scenario_events(scenario)
    assert not any(e["type"] == "response.function_call_arguments.delta" for e in quirk.decoded)
    listed = resolve("s03")
    assert listed is not None and listed.decoded
    assert not any(e["type"] == "response.completed" for e in listed.decoded)
    example = resolve("examples/parallel-calls.sse")
    assert example is not None and example.path is not None and example.path.is_file()
    vector = resolve("rule-test_r1_keepalive_is_a_no_op")
    assert vector is not None and vector.path is None and vector.decoded
    generated = resolve("seed7/12")
    assert generated is not None and generated.decoded
    assert resolve("no-such-stream") is None


def test_the_commands_read_bundled_names_from_any_folder(
    elsewhere: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(capsys, "reduce", "examples/parallel-calls.sse")
    assert status == 0 and _calls(json.loads(out)) == PARALLEL_CALLS
    status, out, _ = run(capsys, "explain", "q07", "--json")
    assert status in (0, 1) and json.loads(out.splitlines()[-1])["kind"] == "result"
    status, out, _ = run(capsys, "replay", "rule-test_r1_keepalive_is_a_no_op")
    assert status == 0 and isinstance(json.loads(out.splitlines()[0]), list)
    status, _, err = run(capsys, "reduce", "no-such-stream")
    assert status == 2 and "no such file, nor a bundled name" in err


def test_reduce_in_python_reads_bundled_names_from_any_folder(elsewhere: Path) -> None:
    [result] = reduce("examples/parallel-calls.sse")
    assert [i.item["call_id"] for i in result.items if i.executable] == PARALLEL_CALLS
    assert reduce("q07") and reduce("seed7/12")


def test_without_an_installed_data_folder_the_checkouts_folders_are_used(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # As in a plain editable install: no data/ beside the package's code.
    monkeypatch.setattr(bundled, "_installed", lambda: tmp_path / "none")
    assert bundled.BUNDLED / "examples" == REPO / "examples"
    assert bundled.BUNDLED / "quirks/README.md" == REPO / "fixtures" / "quirks" / "README.md"
    assert bundled.BUNDLED / "vectors" == REPO / "docs" / "vectors" / "cases"
