"""A byte string that only starts like an archive is read as its bytes, never raised on.

``reduce(bytes)`` decompresses a whole gzip or Zstandard archive; a cut or corrupt one
(or the bare magic) gives the diagnostics its bytes raise, as any other bad input does.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from responses_oracle import reduce

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "parallel-calls.sse"


def _codes(data: bytes) -> list[str]:
    return [d.code.value for result in reduce(data) for d in result.diagnostics]


def test_a_whole_gzip_archive_is_decompressed() -> None:
    raw = EXAMPLE.read_bytes()
    assert [r.items for r in reduce(gzip.compress(raw))] == [r.items for r in reduce(raw)]


@pytest.mark.parametrize(
    "data",
    [b"\x1f\x8b\x08garbage", b"(\xb5/\xfd", b"(\xb5/\xfdgarbage", gzip.compress(b"x" * 99)[:12]],
    ids=["corrupt-gzip", "bare-zstd-magic", "corrupt-zstd", "cut-gzip"],
)
def test_bytes_that_only_look_compressed_give_their_own_diagnostics(data: bytes) -> None:
    if data.startswith(b"(\xb5/\xfd"):
        pytest.importorskip("zstandard")
    assert "invalid_utf8" in _codes(data)
