"""``s3://`` sources for real: the S3 protocol through s3fs, against a local S3 server.

The server is moto's (``ThreadedMotoServer`` on a free localhost port: real HTTP, real
S3 requests and answers, no network).  A bucket holds captures as a gateway would keep
them -- plain files, ``.gz`` and ``.zst``, a JSON Lines manifest whose rows point at
objects by ``path``, a Parquet manifest with the bodies inline -- and the same tree is
laid out on local disk.  The audit of the bucket must write the rows of the audit of
the local copy, with the endpoint and the credentials given as an operator gives them:
``--storage-option``, the AWS SDK's environment variables, or fsspec's.
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import boto3
import pytest
import zstandard
from cli.cli_helpers import EXAMPLES, run
from helpers import REPO
from moto.server import ThreadedMotoServer
from responses_oracle.audit.corpus import corpus_rows, write_manifest

from .audit_helpers import command, rows, run_record

BUCKET = "audit-captures"

CREDENTIALS = {"AWS_ACCESS_KEY_ID": "audit-test", "AWS_SECRET_ACCESS_KEY": "audit-test"}
"""Any key does for moto; given so that no real credentials are looked for."""


@pytest.fixture(scope="module")
def endpoint() -> Iterator[str]:
    """The address of a moto S3 server running in this process for the module's tests."""
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    yield f"http://{host}:{port}"
    server.stop()


def _tree(root: Path) -> Path:
    """The captures a bucket holds (layout in the module docstring); returns ``root``."""
    captures = REPO / "fixtures" / "captures"
    vercel = sorted((captures / "vercel-ai").glob("*.jsonl"))[:4]
    pydantic = sorted((captures / "pydantic-ai").glob("*.jsonl"))[:2]
    (root / "traffic" / "vercel-ai").mkdir(parents=True)
    (root / "traffic" / "pydantic-ai").mkdir()
    (root / "traffic" / "openai").mkdir()
    for capture in vercel:
        shutil.copy(capture, root / "traffic" / "vercel-ai" / capture.name)
    for capture in pydantic:
        target = root / "traffic" / "pydantic-ai" / f"{capture.name}.gz"
        target.write_bytes(gzip.compress(capture.read_bytes()))
    parallel = (EXAMPLES / "parallel-calls.sse").read_bytes()
    compressed = zstandard.ZstdCompressor().compress(parallel)
    (root / "traffic" / "openai" / "parallel-calls.sse.zst").write_bytes(compressed)
    (root / "streams").mkdir()
    shutil.copy(EXAMPLES / "mantle-missing-id.jsonl", root / "streams")
    copilot = (EXAMPLES / "copilot-rotating-ids.jsonl").read_bytes()
    (root / "streams" / "copilot.jsonl.gz").write_bytes(gzip.compress(copilot))
    lines = [
        {"id": "by-path", "provider": "bedrock", "path": "streams/mantle-missing-id.jsonl"},
        {"id": "by-path-gz", "provider": "copilot", "path": "streams/copilot.jsonl.gz"},
        {"id": "inline", "provider": "openai", "body": parallel.decode()},
    ]
    text = "".join(json.dumps(line) + "\n" for line in lines)
    (root / "corpus.jsonl").write_text(text, encoding="utf-8")
    write_manifest(str(root / "corpus.parquet"), corpus_rows(6, seed=13), row_group=3)
    return root


@pytest.fixture(scope="module")
def bucket(tmp_path_factory: pytest.TempPathFactory, endpoint: str) -> tuple[str, Path, Path]:
    """(the bucket holding the captures, their local copy, the audit of that copy)."""
    root = tmp_path_factory.mktemp("s3")
    local = _tree(root / "local")
    name = BUCKET
    client = boto3.client(
        "s3",
        endpoint_url=endpoint,
        region_name="us-east-1",
        aws_access_key_id=CREDENTIALS["AWS_ACCESS_KEY_ID"],
        aws_secret_access_key=CREDENTIALS["AWS_SECRET_ACCESS_KEY"],
    )
    client.create_bucket(Bucket=name)
    for path in sorted(local.rglob("*")):
        if path.is_file():
            client.upload_file(str(path), name, path.relative_to(local).as_posix())
    out = root / "local-out"
    from responses_oracle.cli import main

    status = main(["audit", *_arguments(str(local)), "--out", str(out), "--jobs", "1"])
    expected = rows(out)
    assert status == 0
    assert len(expected) > 15 and all(row["error_kind"] is None for row in expected)
    return name, local, out


def _arguments(root: str) -> tuple[str, ...]:
    """The same audit of a bucket or of its local copy."""
    return (
        f"{root}/traffic",
        *("--manifest", f"{root}/corpus.jsonl", "--manifest", f"{root}/corpus.parquet"),
        *("--provider-from-dir", "--partition-size", "3", "-q"),
    )


def _as_local(found: list[dict[str, Any]], name: str, local: Path) -> list[dict[str, Any]]:
    """The rows of the bucket's audit, named as the local copy's audit names them."""
    prefix = f"s3://{name}"
    renamed = []
    for row in found:
        row = dict(row)
        for column in ("source", "stream_id"):
            if row[column].startswith(prefix):
                row[column] = str(local) + row[column][len(prefix) :]
        renamed.append(row)
    return sorted(renamed, key=lambda row: (row["source"], row["response_index"] or 0))


def _same_audit(s3_out: Path, bucket: tuple[str, Path, Path]) -> None:
    name, local, local_out = bucket
    assert _as_local(rows(s3_out), name, local) == rows(local_out)
    for key in ("inputs", "responses", "failed_inputs", "reconciles"):
        assert run_record(s3_out)[key] == run_record(local_out)[key], key
    # The driver read the examples back from the bucket to draw their pages.
    pages = sorted(path.name for path in (local_out / "streams").glob("*.html"))
    assert pages and len(list((s3_out / "streams").glob("*.html"))) == len(pages)


@pytest.mark.parametrize("engine", ["local", "dask"])
def test_a_bucket_audited_with_storage_options_gives_the_rows_of_its_local_copy(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    endpoint: str,
    bucket: tuple[str, Path, Path],
    engine: str,
) -> None:
    name = bucket[0]
    options = (
        *("--storage-option", f"endpoint_url={endpoint}"),
        *("--storage-option", f"key={CREDENTIALS['AWS_ACCESS_KEY_ID']}"),
        *("--storage-option", f"secret={CREDENTIALS['AWS_SECRET_ACCESS_KEY']}"),
        *("--storage-option", 'client_kwargs={"region_name": "us-east-1"}'),
    )
    out = tmp_path / "s3-out"
    # This process's environment names no endpoint: the workers (of the pool, of the
    # LocalCluster) get the options with their partitions.
    engine_options = ("--engine", engine, "--jobs", "2")
    status, stdout, _ = run(
        capsys, "audit", *_arguments(f"s3://{name}"), *options, *engine_options, "--out", out
    )
    assert status == 0
    _same_audit(out, bucket)
    record = run_record(out)
    assert record["storage_options"] == ["client_kwargs", "endpoint_url", "key", "secret"]
    assert CREDENTIALS["AWS_SECRET_ACCESS_KEY"] not in json.dumps(record)
    assert f"s3://{name}/traffic/openai/parallel-calls.sse.zst" in {r["source"] for r in rows(out)}
    assert "0 failed inputs" in stdout


def _environment(tmp_path: Path, **settings: str) -> dict[str, str]:
    """This process's environment without any AWS setting of the machine, plus ``settings``
    (no configuration file, no instance metadata service to ask)."""
    return {
        **{key: value for key, value in os.environ.items() if not key.startswith("AWS_")},
        "AWS_CONFIG_FILE": str(tmp_path / "no-aws-config"),
        "AWS_SHARED_CREDENTIALS_FILE": str(tmp_path / "no-aws-credentials"),
        "AWS_EC2_METADATA_DISABLED": "true",
        **settings,
    }


def test_a_bucket_without_credentials_is_a_clear_error(
    tmp_path: Path, endpoint: str, bucket: tuple[str, Path, Path]
) -> None:
    argv = ("audit", f"s3://{bucket[0]}/traffic", "--out", tmp_path / "out", "-q")
    env = _environment(tmp_path, AWS_ENDPOINT_URL=endpoint)
    done = subprocess.run(command(*argv), env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == (
        f"responses-oracle: error: s3://{bucket[0]}/traffic: cannot be listed "
        "(NoCredentialsError: Unable to locate credentials)"
    )


@pytest.mark.parametrize(
    ("variable", "engine"), [("AWS_ENDPOINT_URL", "dask"), ("FSSPEC_S3_ENDPOINT_URL", "local")]
)
def test_a_bucket_audited_with_the_endpoint_in_the_environment(
    tmp_path: Path, endpoint: str, bucket: tuple[str, Path, Path], variable: str, engine: str
) -> None:
    name = bucket[0]
    out = tmp_path / "s3-out"
    env = _environment(
        tmp_path, **CREDENTIALS, AWS_DEFAULT_REGION="us-east-1", **{variable: endpoint}
    )
    argv = ("audit", *_arguments(f"s3://{name}"), "--out", out, "--engine", engine, "--jobs", "2")
    done = subprocess.run(command(*argv), env=env, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr
    _same_audit(out, bucket)
