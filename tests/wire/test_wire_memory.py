"""Memory stays bounded: a long stream with huge events goes through without being held.

The stream, 1 GiB, is made of a few ``bytes`` objects yielded again and again, so
producing it costs nothing and the memory the front end allocates is what
``tracemalloc`` sees.  It runs in a few seconds: the huge events are skipped chunk by
chunk, never split into lines.
"""

from __future__ import annotations

import itertools
import tracemalloc
from collections.abc import Iterator

import pytest
from responses_oracle.model.vocabulary import Code
from responses_oracle.wire import InputFormat, Limits, WireEvent, iter_wire_events

TOTAL = 1 << 30
LIMIT = 1 << 20
SMALL_CHUNKS = 16  # 64 KiB chunks of small events, before, between and after the huge ones
CHUNK = 1 << 16

JSON_EVENT = b'{"type":"response.output_text.delta","sequence_number":1,"delta":"x"}'
FORMS = {
    InputFormat.SSE: b"data: " + JSON_EVENT + b"\n\n",
    InputFormat.JSONL: JSON_EVENT + b"\n",
}


def small_part(fmt: InputFormat) -> tuple[bytes, int]:
    """One chunk of whole small events, and how many events it holds."""
    count = CHUNK // len(FORMS[fmt])
    return FORMS[fmt] * count, count


def huge_stream(fmt: InputFormat) -> Iterator[bytes]:
    """Small events | one huge one-line event | small events | (SSE) one huge
    multi-line event | small events, about ``TOTAL`` bytes in all."""
    small, _ = small_part(fmt)
    smalls = itertools.repeat(small, SMALL_CHUNKS)
    huge_chunks = TOTAL // CHUNK // (2 if fmt is InputFormat.SSE else 1)
    yield from smalls
    yield b"event: huge\ndata: " if fmt is InputFormat.SSE else b'{"pad":"'
    yield from itertools.repeat(b"x" * CHUNK, huge_chunks)
    yield b"\n\n" if fmt is InputFormat.SSE else b'"}\n'
    yield from itertools.repeat(small, SMALL_CHUNKS)
    if fmt is InputFormat.SSE:
        line = b"data: " + b"y" * (CHUNK - 7) + b"\n"
        yield from itertools.repeat(line, huge_chunks)
        yield b"\n"
        yield from itertools.repeat(small, SMALL_CHUNKS)


@pytest.mark.parametrize("fmt", [InputFormat.SSE, InputFormat.JSONL])
def test_huge_stream_in_bounded_memory(fmt: InputFormat) -> None:
    _, per_chunk = small_part(fmt)
    runs = 3 if fmt is InputFormat.SSE else 2
    good = 0
    over: list[WireEvent] = []
    consumed = 0

    def counted() -> Iterator[bytes]:
        nonlocal consumed
        for chunk in huge_stream(fmt):
            consumed += len(chunk)
            yield chunk

    tracemalloc.start()
    try:
        for event in iter_wire_events(counted(), fmt, Limits(max_event_bytes=LIMIT)):
            if event.problem is None:
                good += 1
            else:
                over.append(event)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert consumed >= TOTAL * 0.99
    assert good == runs * SMALL_CHUNKS * per_chunk
    block = SMALL_CHUNKS * per_chunk
    assert [(e.index, e.problem) for e in over] == [
        (block * (n + 1) + n, Code.LIMIT_EXCEEDED) for n in range(runs - 1)
    ]
    # Held at most: one over-long line up to the limit, its join, and one chunk.
    assert peak < 4 * LIMIT
