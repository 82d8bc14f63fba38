"""SOURCE arguments: folders, globs, fsspec URLs, each file once; partitions of whole files."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import fsspec
import pytest
from cli.cli_helpers import EXAMPLES, run
from responses_oracle.audit.sources import PlanError, plan

from .audit_helpers import rows, traffic


def test_globs_and_folders_name_each_file_once(tmp_path: Path) -> None:
    folder = traffic(tmp_path / "traffic", generated=9)
    files = sorted(str(path) for path in folder.rglob("*") if path.is_file())
    planned = plan([str(folder), str(folder / "*" / "gen-*"), str(folder / "openai")])
    urls = [file.url for partition in planned.partitions for file in partition.files]
    assert sorted(urls) == files and len(urls) == len(set(urls))
    assert planned.inputs == len(files)
    recursive = plan([str(folder / "**" / "*.gz")], partition_size=2)
    assert recursive.inputs == 3 and [p.inputs for p in recursive.partitions] == [2, 1]


def test_partitions_hold_whole_files_in_name_order(tmp_path: Path) -> None:
    folder = traffic(tmp_path / "traffic", generated=9)
    planned = plan([str(folder)], partition_size=4)
    sizes = [partition.inputs for partition in planned.partitions]
    assert sizes[:-1] == [4] * (len(sizes) - 1) and 0 < sizes[-1] <= 4
    urls = [file.url for partition in planned.partitions for file in partition.files]
    assert urls == sorted(urls)
    again = plan([str(folder)], partition_size=4)
    assert [p.key for p in again.partitions] == [p.key for p in planned.partitions]


def test_a_source_that_matches_nothing_stops_the_plan(tmp_path: Path) -> None:
    with pytest.raises(PlanError, match="no such file or directory"):
        plan([str(tmp_path / "absent")])
    with pytest.raises(PlanError, match="matches no file"):
        plan([str(tmp_path / "*.sse")])
    (tmp_path / "empty").mkdir()
    with pytest.raises(PlanError, match="matches no file"):
        plan([str(tmp_path / "empty")])


def test_a_path_of_the_package_data_is_read_where_nothing_here_has_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The docs' example names ``examples/...``: after ``pip install`` it is the bundled
    stream, named in rows as written; a typo of it still stops the plan."""
    monkeypatch.chdir(tmp_path)
    [partition] = plan(["examples/parallel-calls.sse"]).partitions
    [found] = partition.files
    assert found.stream_id == "examples/parallel-calls.sse"
    assert Path(found.url).read_bytes() == (EXAMPLES / "parallel-calls.sse").read_bytes()
    with pytest.raises(PlanError, match="no such file or directory"):
        plan(["examples/parallel-call.sse"])
    (tmp_path / "examples").mkdir()
    (tmp_path / "examples" / "parallel-calls.sse").write_text("mine")
    [partition] = plan(["examples/parallel-calls.sse"]).partitions
    assert Path(partition.files[0].url).read_text() == "mine"  # the user's own first


def test_fsspec_urls_are_sources(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    memory = fsspec.filesystem("memory")
    for example in sorted(EXAMPLES.glob("*.jsonl")):
        memory.pipe(f"/traffic/bedrock/{example.name}", example.read_bytes())
    try:
        status, stdout, _ = run(
            capsys,
            "audit",
            "memory://traffic/",
            "--out",
            tmp_path / "out",
            "--jobs",
            "1",
            "--provider-from-dir",
            "-q",
        )
    finally:
        memory.rm("/traffic", recursive=True)
    assert status == 0 and "3 inputs, 3 responses, 0 failed inputs" in stdout
    found = rows(tmp_path / "out")
    assert sorted(row["stream_id"] for row in found) == [
        f"memory:///traffic/bedrock/{example.name}" for example in sorted(EXAMPLES.glob("*.jsonl"))
    ]
    assert {row["provider"] for row in found} == {"bedrock"}


@pytest.mark.parametrize(
    ("library", "url", "hint"),
    [
        (
            "s3fs",
            "s3://bucket/traffic/",
            "install the s3 extra (pip install 'responses-oracle[s3]')",
        ),
        ("gcsfs", "gs://bucket/traffic/", "install the library fsspec names"),
    ],
)
def test_a_protocol_without_its_library_is_an_install_hint(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    library: str,
    url: str,
    hint: str,
) -> None:
    protocol = url.split(":", 1)[0]
    monkeypatch.setitem(sys.modules, library, None)
    # As if never installed, even after another test used it (fsspec keeps the class).
    imported = importlib.import_module("fsspec.registry")._registry
    monkeypatch.delitem(imported, protocol, raising=False)
    status, _, err = run(capsys, "audit", url, "--out", tmp_path / "out")
    assert status == 2
    assert f"reading {protocol}:// sources needs a filesystem library" in err
    assert library in err and err.rstrip().endswith(hint)


def test_an_unknown_protocol_or_a_storage_option_without_value_is_a_clear_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, _, err = run(capsys, "audit", "nosuch://bucket/x", "--out", tmp_path / "out")
    assert status == 2 and "nosuch://bucket/x: Protocol not known: nosuch" in err
    status, _, err = run(
        capsys, "audit", "memory://x", "--storage-option", "anon", "--out", tmp_path / "out"
    )
    assert status == 2 and "expected KEY=VALUE, got 'anon'" in err


def test_storage_options_are_json_when_they_parse_and_text_otherwise() -> None:
    from responses_oracle.cli.audit import storage_option

    assert storage_option("anon=true") == ("anon", True)
    assert storage_option("endpoint_url=http://minio:9000") == (
        "endpoint_url",
        "http://minio:9000",
    )
    assert storage_option('client_kwargs={"region_name": "eu-west-1"}') == (
        "client_kwargs",
        {"region_name": "eu-west-1"},
    )
    assert storage_option('key="0123"') == ("key", "0123")
    assert storage_option("token=") == ("token", "")


def test_the_output_folder_inside_a_source_is_not_audited(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "a.sse").write_bytes((EXAMPLES / "parallel-calls.sse").read_bytes())
    out = tmp_path / "out"
    assert run(capsys, "audit", tmp_path, "--out", out, "-q")[0] == 0
    status, stdout, _ = run(capsys, "audit", tmp_path, "--out", out, "-q")
    assert (
        status == 0 and "1 input, 1 response" in stdout and "0 partitions run, 1 reused" in stdout
    )
