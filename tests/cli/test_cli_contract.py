"""What every command promises: its inputs, exit statuses, output and help texts.

Several FILEs and standard input as ``cat`` and ``jq`` take them; a distinct exit
status for an input without a response and for a closed pipe (which ends quietly);
``--pretty`` only on a terminal; every ``--help`` with examples and its exit statuses,
pointing to the docs, never to a design document the repository does not hold; and
the commands import only what they use.
"""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from responses_oracle.cli import build_parser
from responses_oracle.cli.common import COMMANDS, PROG, Exit, Parser

from .cli_helpers import EXAMPLES, function_call_stream, jsonl, lines, run, write

PARALLEL = EXAMPLES / "parallel-calls.sse"

HELPS = [[spec.name] for spec in COMMANDS] + [["vectors", "export"], ["vectors", "check"]]
"""Every ``--help`` there is: each command's, and each action's of ``vectors``."""


def _response_ids(out: str) -> list[str]:
    return [result["response"]["id"] for result in lines(out)]


def test_several_files_are_read_one_after_the_other(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    second = write(tmp_path, "b.jsonl", jsonl(function_call_stream("resp_b")))
    status, out, _ = run(capsys, "reduce", PARALLEL, second)
    assert status == 0
    assert _response_ids(out) == [
        "resp_0c4f9a71d2e83b5a0069a1e4c28f5481a0b7c3d9e2f4a61b",
        "resp_b",
    ]
    status, out, _ = run(capsys, "replay", second, PARALLEL)
    assert status == 0 and len(lines(out)) == 2


def test_no_file_reads_standard_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(PARALLEL.read_bytes())))
    status, out, err = run(capsys, "reduce")
    assert (status, err) == (0, "")
    assert _response_ids(out) == ["resp_0c4f9a71d2e83b5a0069a1e4c28f5481a0b7c3d9e2f4a61b"]


def test_an_unreadable_file_among_several_is_reported_and_the_others_are_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = write(tmp_path, "good.jsonl", jsonl(function_call_stream("resp_good")))
    status, out, err = run(capsys, "reduce", tmp_path / "missing.sse", good)
    assert status == Exit.USAGE == 2
    assert _response_ids(out) == ["resp_good"]
    assert "cannot read" in err and "missing.sse: no such file" in err


@pytest.mark.parametrize("command", ["reduce", "explain", "replay"])
def test_an_input_without_a_response_exits_3(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = write(tmp_path, "empty.sse", "")
    status, out, err = run(capsys, command, empty)
    assert (status, out) == (Exit.NO_RESPONSE, "")
    assert f"{empty}: not_a_stream: no event at all" in err


def test_exit_statuses_combine_by_what_matters_most(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = write(tmp_path, "empty.sse", "")
    cut = write(tmp_path, "cut.jsonl", jsonl(function_call_stream(complete=False)))
    assert run(capsys, "reduce", cut)[0] == Exit.FINDING
    assert run(capsys, "reduce", cut, empty)[0] == Exit.NO_RESPONSE
    assert run(capsys, "reduce", cut, empty, tmp_path / "missing")[0] == Exit.USAGE
    assert run(capsys, "reduce", PARALLEL, PARALLEL)[0] == Exit.OK


def test_pretty_into_a_pipe_is_plain_json_lines(capsys: pytest.CaptureFixture[str]) -> None:
    # capsys is not a terminal, as a pipe or a file is not.
    status, pretty, _ = run(capsys, "reduce", PARALLEL, "--pretty")
    assert status == 0
    assert pretty == run(capsys, "reduce", PARALLEL)[1]
    assert len(pretty.splitlines()) == 1 and json.loads(pretty)["items"]


def _console_script() -> str:
    script = Path(sys.executable).with_name("responses-oracle")
    assert script.exists(), "install the package: pip install -e . (see the README)"
    return str(script)


@pytest.mark.parametrize("command", ["reduce", "explain"])
def test_a_closed_pipe_ends_quietly_with_status_141(command: str, tmp_path: Path) -> None:
    # Many responses, so the command is still writing when the reader has gone; explain
    # draws with rich, whose own closed-pipe handler would exit 1.
    events = []
    for number in range(3000 if command == "reduce" else 300):
        events += function_call_stream(f"resp_{number}", f"fc_{number}", f"call_{number}")
    path = write(tmp_path, "loop.jsonl", jsonl(events))
    process = subprocess.Popen(
        [_console_script(), command, str(path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert process.stdout is not None and process.stderr is not None
    first = process.stdout.readline().decode()
    process.stdout.close()  # as `| head -1` does
    status = process.wait(timeout=60)
    if command == "reduce":
        assert json.loads(first)["response"]["id"] == "resp_0"
    else:
        assert "response 1  completed  ok" in first
    assert status == Exit.CLOSED_PIPE == 141
    assert process.stderr.read() == b""


@pytest.mark.parametrize("argv", HELPS, ids=" ".join)
def test_every_help_has_examples_exit_statuses_and_no_design_reference(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(capsys, *argv, "--help")
    assert status == 0
    examples = out.split("examples:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert examples and all(line.startswith(f"  responses-oracle {argv[0]}") for line in examples)
    table = out.split("exit status:\n", 1)[1].splitlines()
    codes = [int(line.split()[0]) for line in table if re.match(r"  \d+ ", line)]
    assert {2, 130, 141} <= set(codes)
    # Every command can end with nothing to report, but the proxy: only an interrupt ends it.
    assert (0 in codes) == (argv[0] != "proxy")
    assert all(len(line) <= 79 for line in table)
    assert "DESIGN" not in out and "design" not in out.lower()
    assert "``" not in out  # no raw docstring markup


def test_reading_commands_document_the_status_of_an_input_without_a_response(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for command in ("reduce", "explain", "replay"):
        out = run(capsys, command, "--help")[1]
        table = out.split("exit status:\n", 1)[1]
        assert "  3    an input held no response" in table
        assert "  1    a response has an error-severity diagnostic" in table
        assert "stops quietly" in table


def test_pretty_means_the_same_in_every_command_that_has_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for command in ("reduce", "replay"):
        out = " ".join(run(capsys, command, "--help")[1].split())
        assert "--pretty on a terminal," in out
        assert "into a pipe or a file the output stays JSON Lines" in out


def test_diff_policies_example_does_not_chain_after_a_finding(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = run(capsys, "diff-policies", "--help")[1]
    examples = out.split("examples:\n", 1)[1].split("\n\n", 1)[0]
    assert "&&" not in examples
    assert "--write stream.jsonl; responses-oracle explain stream.jsonl" in examples


def _imported_by(*argv: str) -> set[str]:
    script = (
        "import sys; from responses_oracle.cli import main; status = main(sys.argv[1:]); "
        "print(' '.join(sorted(sys.modules)), file=sys.stderr); sys.exit(status)"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, *argv], capture_output=True, text=True, check=False
    )
    return set(done.stderr.split())


def test_help_and_a_small_reduce_import_only_what_they_use() -> None:
    heavy = (
        "rich",
        "responses_oracle.testing",
        "responses_oracle.streamgen",
        "responses_oracle.differential",
        "responses_oracle.proofs",
        "z3",
    )
    top = _imported_by("--help")
    assert not {m for m in top if m.startswith(heavy)}
    assert "responses_oracle.reducer" not in top and "responses_oracle.cli.reduce" not in top
    small = _imported_by("reduce", str(PARALLEL))
    assert "responses_oracle.reducer" in small
    assert not {m for m in small if m.startswith(heavy)}
    assert "responses_oracle.cli.diff" not in small and "importlib.metadata" not in small
    # The invariants (read by proofs and tests) and ``uuid`` (a minted id) are a tenth
    # of the start-up each, and this stream needs neither.
    assert "responses_oracle.model.invariants" not in small and "uuid" not in small
    # canonical (the proxy's and serve's twin) is no part of a reduce.
    assert "responses_oracle.canonicalizer" not in small
    # argparse's own formatter imports shutil (with bz2 and lzma) for the terminal's
    # width, and the help texts are wrapped with textwrap: a run that shows no help
    # needs neither (a fifth of a bare Python's start-up together).
    assert not {"shutil", "textwrap", "bz2", "lzma"} & small
    # The records' methods are generated source (model/recordkit.py): ``dataclasses``, with
    # ``inspect``, ``ast``, ``dis`` and ``tokenize``, cost more than a bare Python.
    assert not {"dataclasses", "inspect", "ast", "dis", "tokenize"} & small
    # ``reduce FILE`` is parsed without a parser (``reduce.plain``): argparse's parsers
    # look up translations, and ``gettext`` imports ``locale`` for that.
    assert "locale" not in small
    assert "locale" in _imported_by("reduce", "--quiet", str(PARALLEL))


def test_a_small_reduce_makes_no_contract_edges() -> None:
    """The generated kernels' edges are read by their contracts (CrossHair) alone: a
    reduce never makes them (``generated_kernels.edges``, 3.5M instructions)."""
    script = (
        "import sys; from responses_oracle.cli import main; status = main(sys.argv[1:]); "
        "from responses_oracle.core import generated_kernels as k; "
        "made = k._edge_sets.cache_info().currsize; k.edges('lifecycle'); "
        "print(made, k._edge_sets.cache_info().currsize, file=sys.stderr); sys.exit(status)"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, "reduce", str(PARALLEL)],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == Exit.OK, done.stderr
    assert done.stderr.split() == ["0", "1"]


@pytest.mark.parametrize(
    "files",
    [[], ["a.sse"], ["a.sse", "b.jsonl"], [""], ["reduce"], ["x=y", "a b", "@c", "C:\\d"]],
)
def test_a_plain_reduce_is_parsed_as_its_parser_parses_it(files: list[str]) -> None:
    """``reduce FILE...`` with no option is parsed without argparse (``reduce.plain``),
    into the namespace argparse makes of it; ``parser`` (read only to report a stray
    argument, which a plain command line has not) is None."""
    from responses_oracle.cli import reduce

    argv = ["reduce", *files]
    parsed = vars(build_parser(argv).parse_args(argv))
    plain = reduce.plain(files)
    assert plain is not None
    assert isinstance(parsed.pop("parser"), Parser) and vars(plain).pop("parser") is None
    assert vars(plain) == parsed
    assert [type(value) for value in vars(plain).values()] == [
        type(value) for value in parsed.values()
    ]


@pytest.mark.parametrize(
    "files", [["-"], ["a", "-q"], ["--pretty", "a"], ["--", "a"], ["-1"], ["a", "--format=sse"]]
)
def test_a_reduce_with_an_option_is_left_to_argparse(files: list[str]) -> None:
    from responses_oracle.cli import reduce

    assert reduce.plain(files) is None


def test_a_deferred_parser_is_made_in_full_when_first_used() -> None:
    """A command the run does not run gets a parser made on first use (``deferred``):
    once used, the parser ``add_parser`` makes of it without ``deferred``."""
    subparsers = Parser(prog=PROG).add_subparsers(title="commands", metavar="COMMAND")
    deferred = subparsers.add_parser("explain", help="a summary", deferred=True)
    eager = subparsers.add_parser("replay", help="a summary")
    assert set(vars(deferred)) == {"_deferred"}
    assert deferred.format_help().replace("explain", "replay") == eager.format_help()
    assert vars(deferred).keys() == vars(eager).keys()
    assert deferred.prog == f"{PROG} explain" and deferred.formatter_class is eager.formatter_class
    with pytest.raises(AttributeError, match="'Parser' object has no attribute 'nothing'"):
        deferred.nothing  # type: ignore[attr-defined]  # noqa: B018


def test_only_the_command_run_is_registered_in_full() -> None:
    parser = build_parser(["reduce", str(PARALLEL)])
    [commands] = [a for a in parser._actions if a.dest == "==SUPPRESS==" and a.choices]
    assert list(commands.choices) == [command.name for command in COMMANDS]  # type: ignore[arg-type]
    deferred = {name for name, made in commands.choices.items() if "_deferred" in vars(made)}  # type: ignore[union-attr]
    assert deferred == {command.name for command in COMMANDS} - {"reduce"}


def test_main_leaves_the_collector_as_it_found_it(tmp_path: Path) -> None:
    """``main`` freezes what its imports made while a command runs, then thaws it; a
    caller that froze objects of its own or turned the collector off keeps it so."""
    import gc

    from responses_oracle.cli import main

    out = tmp_path / "out.jsonl"
    argv = ["reduce", str(PARALLEL)]
    with out.open("w") as sink:
        real, sys.stdout = sys.stdout, sink
        try:
            assert main(argv) == Exit.OK
            assert gc.isenabled() and gc.get_freeze_count() == 0
            gc.freeze()
            frozen = gc.get_freeze_count()
            assert main(argv) == Exit.OK
            assert gc.get_freeze_count() == frozen and gc.isenabled()
            gc.unfreeze()
            gc.disable()
            try:
                assert main(argv) == Exit.OK
                assert not gc.isenabled() and gc.get_freeze_count() == 0
            finally:
                gc.enable()
        finally:
            sys.stdout = real


def test_the_console_script_runs_console() -> None:
    """The installed ``responses-oracle`` is ``console``: ``main`` for a process that
    exits next (what start-up froze is left frozen for the exit)."""
    from importlib.metadata import entry_points

    (script,) = entry_points(group="console_scripts", name="responses-oracle")
    assert script.value == "responses_oracle.cli:console"
    done = subprocess.run(
        [sys.executable, "-c", f"import sys; from {script.module} import {script.attr}; "
         f"sys.exit({script.attr}())", "reduce", str(PARALLEL)],
        capture_output=True, check=False,
    )
    assert done.returncode == Exit.OK
    assert done.stdout == subprocess.run(
        [sys.executable, "-c", "import sys; from responses_oracle.cli import main; "
         "sys.exit(main())", "reduce", str(PARALLEL)],
        capture_output=True, check=False,
    ).stdout


@pytest.mark.parametrize("columns", [None, "", "0", "-5", "abc", "30", "79", "200"])
def test_the_help_is_as_wide_as_shutil_says(
    columns: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``HelpFormatter`` sizes the help without shutil; the width must be shutil's."""
    import shutil

    from responses_oracle.cli.common import HelpFormatter

    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    ours = HelpFormatter("prog")._width
    assert ours == shutil.get_terminal_size().columns - 2


def test_prove_of_a_peer_writes_nothing_without_write_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("z3")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    status, out, _ = run(
        capsys, "prove", "--policy", "codex", "--invariant", "nothing_lost", "--bound", "2,2",
        "--json",
    )
    assert status == 0
    [report] = lines(out)
    [found] = [row["counterexample"] for row in report["rows"] if row["counterexample"]]
    assert found["file"] is None and found["explain"] is None and found["events"]
    assert list(tmp_path.iterdir()) == []
    status, out, _ = run(
        capsys, "prove", "--policy", "codex", "--invariant", "nothing_lost", "--bound", "2,2"
    )
    assert "rerun with --write-dir DIR" in " ".join(out.split())
    assert list(tmp_path.iterdir()) == []


def test_explain_html_draws_one_input_and_exits_as_reduce(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "page.html"
    status, _, err = run(capsys, "explain", PARALLEL, PARALLEL, "--html", page)
    assert (status, page.exists()) == (Exit.USAGE, False)
    assert "--html draws one stream: give one FILE" in err
    empty = write(tmp_path, "empty.sse", "")
    status, _, err = run(capsys, "explain", empty, "--html", page)
    assert status == Exit.NO_RESPONSE and f"{empty}: not_a_stream: no event at all" in err
    status, _, _ = run(capsys, "explain", PARALLEL, "--html", page)
    assert status == Exit.OK and "call_qN4vT8xKb2WmL7sRz0YdHj3E" in page.read_text()
