"""Every command says the same thing about the same input (``wire.inputs``).

Non-stream inputs -- plain text, binary data, a Chat Completions stream, JSON objects
that are no event, an empty file -- exit 3 from ``reduce``, ``explain``, ``explain
--html``, ``replay``, ``diff --corpus`` and ``audit``, each naming the input
``not_a_stream`` with the words ``audit`` writes in the input's row.  Compressed
inputs (``.gz``, ``.zst``, or gzip by its magic number alone) are read by every one of
them; ``.zst`` without ``zstandard`` is exit 2 with the extra to install.
"""

from __future__ import annotations

import gzip
import sys
from collections.abc import Callable
from pathlib import Path

import pyarrow.parquet as pq
import pytest
import zstandard
from responses_oracle.cli.common import Exit
from responses_oracle.wire.inputs import StreamCheck, decompressed

from .cli_helpers import EXAMPLES, lines, run

PARALLEL = (EXAMPLES / "parallel-calls.sse").read_bytes()

NOT_STREAMS: dict[str, tuple[bytes, str]] = {
    "text.txt": (
        b"hello\nthis is not a stream\n",
        "no Responses API event in 2 events (first problem: invalid JSON: Expecting value: "
        "line 1 column 1 (char 0))",
    ),
    "image.png": (
        b"\x89PNG\r\n\x1a\n" + bytes(range(256)),
        "no Responses API event in",
    ),
    "chat.sse": (
        b'data: {"id":"chatcmpl-1","object":"chat.completion.chunk","choices":[{"delta":'
        b'{"content":"hi"}}]}\n\ndata: [DONE]\n\n',
        "no Responses API event in 1 event (first problem: event has no string 'type')",
    ),
    "object.json": (
        b'{"foo": 1}\n{"type": "not.an.event"}\n',
        "no Responses API event in 2 events (first problem: event has no string 'type')",
    ),
    "empty.sse": (b"", "no event at all"),
}
"""Input name -> (its bytes, the start of what every command says of it)."""

Command = Callable[[pytest.CaptureFixture[str], Path, Path], tuple[int, str, str]]


def _reading(name: str) -> Command:
    def command(capsys: pytest.CaptureFixture[str], path: Path, tmp: Path) -> tuple[int, str, str]:
        return run(capsys, name, path)

    return command


def _page(capsys: pytest.CaptureFixture[str], path: Path, tmp: Path) -> tuple[int, str, str]:
    status, out, err = run(capsys, "explain", path, "--html", tmp / "page.html")
    assert (tmp / "page.html").exists() == (status == Exit.OK)
    return status, out, err


def _diff(capsys: pytest.CaptureFixture[str], path: Path, tmp: Path) -> tuple[int, str, str]:
    return run(capsys, "diff", "--candidate", "oracle", "--count", "0", "--corpus", path)


def _audit(capsys: pytest.CaptureFixture[str], path: Path, tmp: Path) -> tuple[int, str, str]:
    return run(capsys, "audit", path, "--out", tmp / "audit", "--jobs", "1", "-q")


COMMANDS: dict[str, Command] = {
    "reduce": _reading("reduce"),
    "explain": _reading("explain"),
    "replay": _reading("replay"),
    "explain --html": _page,
    "diff --corpus": _diff,
    "audit": _audit,
}


@pytest.mark.parametrize("name", NOT_STREAMS)
@pytest.mark.parametrize("command", COMMANDS)
def test_an_input_that_is_no_stream_exits_3_in_every_command(
    command: str, name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data, words = NOT_STREAMS[name]
    path = tmp_path / name
    path.write_bytes(data)
    status, out, err = COMMANDS[command](capsys, path, tmp_path)
    assert status == Exit.NO_RESPONSE, err
    if command == "audit":
        (row,) = pq.read_table(tmp_path / "audit" / "results").to_pylist()
        assert row["error_kind"] == "not_a_stream" and row["error"].startswith(words)
    else:
        assert f"{path}: not_a_stream: {words}" in err
        assert "--format" in err
        assert '"id": null' not in out and "interrupted" not in out


def test_audit_and_reduce_use_the_same_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "image.png"
    path.write_bytes(NOT_STREAMS["image.png"][0])
    _, _, err = run(capsys, "reduce", path)
    _audit(capsys, path, tmp_path)
    (row,) = pq.read_table(tmp_path / "audit" / "results").to_pylist()
    assert f"{path}: not_a_stream: {row['error']};" in err


COMPRESSED: dict[str, bytes] = {
    "stream.sse.gz": gzip.compress(PARALLEL),
    "stream.sse.zst": zstandard.ZstdCompressor().compress(PARALLEL),
    "gzip-without-suffix.sse": gzip.compress(PARALLEL),
}


@pytest.mark.parametrize("name", COMPRESSED)
@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_reads_compressed_input(
    command: str, name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / name
    path.write_bytes(COMPRESSED[name])
    status, out, err = COMMANDS[command](capsys, path, tmp_path)
    assert status == Exit.OK, err
    if command == "reduce":
        (result,) = lines(out)
        assert result["response"]["status"] == "completed" and len(result["items"]) == 3


def test_compressed_standard_input_is_read(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "stream.sse.gz"
    path.write_bytes(COMPRESSED["stream.sse.gz"])
    with path.open("rb") as stdin:
        monkeypatch.setattr(sys, "stdin", type("Stdin", (), {"buffer": stdin})())
        status, out, _ = run(capsys, "reduce", "-")
    assert status == Exit.OK and len(lines(out)[0]["items"]) == 3


def test_zst_without_zstandard_says_which_extra_to_install(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "stream.sse.zst"
    path.write_bytes(COMPRESSED["stream.sse.zst"])
    monkeypatch.setitem(sys.modules, "zstandard", None)  # import zstandard fails
    for command in ("reduce", "explain"):
        status, out, err = run(capsys, command, path)
        assert (status, out) == (Exit.USAGE, "")
        assert "needs zstandard: install the zst extra (pip install 'responses-oracle[zst]')" in err


def test_a_corrupt_archive_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "cut.sse.gz"
    path.write_bytes(COMPRESSED["stream.sse.gz"][:100])
    status, _, err = run(capsys, "reduce", path)
    assert status == Exit.USAGE and f"cannot read {path}: corrupt archive" in err


def test_no_result_of_a_non_stream_closes_before_its_end() -> None:
    """Why ``InputSession.admit`` may decide at once: the reducer closes a result only on
    a response event, so every result made of a non-stream comes at ``finish``."""
    from responses_oracle.reducer import Reducer
    from responses_oracle.wire import read_wire_events

    for data, _ in NOT_STREAMS.values():
        reducer, check = Reducer(), StreamCheck()
        for event in check.watch(read_wire_events(data * 3)):
            reducer.feed(event)
            assert reducer.results == []
        assert check.verdict(reducer.finish()) is not None


def test_decompressed_passes_plain_bytes_through(tmp_path: Path) -> None:
    path = tmp_path / "plain.sse"
    path.write_bytes(PARALLEL)
    with path.open("rb") as file:
        assert decompressed(file, str(path)).read() == PARALLEL


def test_one_of_a_thing_is_said_in_the_singular(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """"1 response", "1 item", "1 input": the page of a one-response stream, its
    ``wrote`` line, and the audit's totals."""
    path = tmp_path / "one.jsonl"
    path.write_bytes((EXAMPLES / "copilot-rotating-ids.jsonl").read_bytes())
    page = tmp_path / "page.html"
    status, _, err = run(capsys, "explain", path, "--html", page)
    assert status == Exit.OK and ", 1 response" in err and "1 responses" not in err
    text = page.read_text(encoding="utf-8")
    assert " · 1 response · " in text and " · 1 item · " in text and "1 items" not in text
    status, out, _ = _audit(capsys, path, tmp_path)
    assert "1 input, 1 response, 0 failed inputs; 1 partition run" in out
    summary = (tmp_path / "audit" / "summary.md").read_text(encoding="utf-8")
    assert "1 input: 1 reduced to 1 response (" in summary


def test_vectors_check_on_a_missing_or_empty_folder_says_what_to_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "vectors"
    status, _, err = run(capsys, "vectors", "check", missing, "--candidate", "oracle")
    assert status == Exit.USAGE and "Errno" not in err
    assert f"cannot read vectors from {missing}: no such folder; write them with" in err
    missing.mkdir()
    status, _, err = run(capsys, "vectors", "check", missing, "--candidate", "oracle")
    assert status == Exit.USAGE and "it has no manifest.json" in err and "Errno" not in err


def test_an_unknown_flag_shows_the_usage_of_its_command(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for argv, usage in (
        (("reduce", "--bogus"), "usage: responses-oracle reduce "),
        (("vectors", "export", "out", "--bogus"), "usage: responses-oracle vectors export "),
        (("--bogus",), "usage: responses-oracle [-h]"),
    ):
        status, _, err = run(capsys, *argv)
        assert status == Exit.USAGE and err.startswith(usage), err
        assert "unrecognized arguments: --bogus" in err


def test_the_audit_summary_names_each_failed_path_once_and_compares_only_with_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without a manifest's persisted output nothing is compared, so no finding says
    "(not compared)"; a failed input's path is given once, not again in its message."""
    folder = tmp_path / "traffic"
    folder.mkdir()
    (folder / "good.sse").write_bytes(PARALLEL)
    (folder / "cut.sse.gz").write_bytes(COMPRESSED["stream.sse.gz"][:100])
    (folder / "notes.txt").write_bytes(NOT_STREAMS["text.txt"][0])
    status, _, _ = run(capsys, "audit", folder, "--out", tmp_path / "out", "--jobs", "1", "-q")
    assert status == Exit.NO_RESPONSE
    summary = (tmp_path / "out" / "summary.md").read_text(encoding="utf-8")
    assert "(not compared)" not in summary and "| class |" not in summary
    assert "## Findings by provider and code" in summary
    failed = summary.split("## Inputs that failed", 1)[1]
    for name in ("cut.sse.gz", "notes.txt"):
        assert failed.count(name) == 1, failed
