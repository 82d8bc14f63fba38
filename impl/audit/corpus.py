"""A generated corpus manifest: mixed-provider traffic to try an audit on, or measure it.

``corpus_rows`` makes the rows of a manifest from the testing toolkit's generators:
stream *i* of seed *s* is ``streams.openai_stream`` under ``choices.case_chooser(s, i)``,
rewritten by one provider profile (``profiles.PROFILES``, in turn; every
``len(PROFILES) + 1``-th stream stays as OpenAI sends it), and framed as SSE or JSON
Lines in turn.  The same seed gives the same corpus in any process, which is what lets
the benchmark and the tests compare engines row for row.  ``write_manifest`` stores
the rows as a Parquet manifest with inline bodies.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final

from responses_oracle.audit.libraries import require
from responses_oracle.testing.choices import case_chooser
from responses_oracle.testing.provider_profiles import PROFILES, apply_profiles
from responses_oracle.testing.streams import openai_stream

OPENAI: Final = "openai"
"""The provider name of streams no profile rewrote."""

PROVIDERS: Final[tuple[str, ...]] = (OPENAI, *PROFILES)
"""The providers of a generated corpus, in the order streams cycle through them."""


def corpus_row(seed: int, index: int, max_items: int) -> dict[str, Any]:
    """Manifest row ``index`` of the corpus of ``seed`` (rules in the module docstring)."""
    choose = case_chooser(seed, index)
    stream = openai_stream(choose, max_items)
    provider = PROVIDERS[index % len(PROVIDERS)]
    if provider != OPENAI:
        stream = apply_profiles(stream, (provider,), choose)
    body = stream.to_sse() if index % 2 == 0 else stream.to_jsonl()
    return {
        "id": f"gen-{seed}-{index:07d}",
        "provider": provider,
        "model": None,
        "body": body,
        "events": len(stream.events),
    }


def corpus_rows(count: int, seed: int = 0, max_items: int = 4) -> Iterator[dict[str, Any]]:
    """The first ``count`` rows of the corpus of ``seed``."""
    for index in range(count):
        yield corpus_row(seed, index, max_items)


def write_manifest(path: str, rows: Iterator[dict[str, Any]], row_group: int = 1000) -> int:
    """Write ``rows`` as a Parquet manifest, ``row_group`` rows per group; the row count."""
    pa = require("pyarrow", "audit", "a corpus manifest")
    pq = require("pyarrow.parquet", "audit", "a corpus manifest")
    schema = pa.schema(
        [
            ("id", pa.string()),
            ("provider", pa.string()),
            ("model", pa.string()),
            ("body", pa.binary()),
            ("events", pa.int64()),
        ]
    )
    written = 0
    with pq.ParquetWriter(path, schema, compression="zstd") as writer:
        batch: list[dict[str, Any]] = []
        for row in rows:
            batch.append(row)
            if len(batch) == row_group:
                writer.write_table(pa.Table.from_pylist(batch, schema=schema))
                written += len(batch)
                batch = []
        if batch:
            writer.write_table(pa.Table.from_pylist(batch, schema=schema))
            written += len(batch)
    return written
