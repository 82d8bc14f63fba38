"""For every stream, what a client behind the proxy receives is a valid stream of the
API's event types (openai-python's ``ResponseStreamEvent``) and reduces to the answer of
the stream the upstream sent.  What the client receives is exactly
``canonical(events)`` of what the upstream sent, however the upstream's bytes were
chunked; "valid" and "the same answer" are canonical's own definitions
(``tests/test_canonical.py``: ``deviations``, ``assert_answer_kept``), checked here on
what reached the client.

One proxy and one upstream serve every example; the upstream answers each request with
the stream Hypothesis drew, cut into the chunks it drew.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise
from typing import Any

import pytest
from aiohttp import web
from hypothesis import Phase, given, settings
from hypothesis import strategies as st
from responses_oracle import canonical
from responses_oracle.proxy import ProxyConfig, running
from responses_oracle.testing.strategies import (
    GeneratedStream,
    faulty_streams,
    provider_streams,
    valid_streams,
)
from responses_oracle.wire import read_wire_events
from test_canonical import (
    NO_PUBLISHED_TYPE,
    assert_answer_kept,
    deviations,
    stream_deviations,
)

from .test_proxy import first_turn, post
from .upstreams import SSE, upstream

EXAMPLES = settings(
    max_examples=40, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate]
)
"""Modest, and without shrinking: every example is an HTTP round trip through two
servers, and a failing stream reproduces without them (``responses_oracle.canonical``)."""


class Stage:
    """What the upstream answers next: the drawn stream's SSE bytes, in drawn chunks."""

    chunks: list[bytes] = []  # noqa: RUF012 - one stage, set per example


@pytest.fixture(scope="module")
def proxy_url() -> Iterator[str]:
    async def answer(request: web.Request) -> web.StreamResponse:
        await request.read()
        reply = web.StreamResponse(headers=SSE)
        await reply.prepare(request)
        for chunk in Stage.chunks:
            await reply.write(chunk)
        await reply.write_eof()
        return reply

    with upstream(answer) as url, running(ProxyConfig(url)) as proxy:
        yield proxy.base_url


def chunked(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({cut % (len(data) + 1) for cut in cuts} | {0, len(data)})
    return [data[a:b] for a, b in pairwise(points) if b > a]


def received_events(body: bytes) -> list[dict[str, Any]]:
    """The events of a body the client received; every one decodes."""
    events = list(read_wire_events(body))
    assert all(event.problem is None and event.payload is not None for event in events)
    return [event.payload for event in events if event.payload is not None]


def through_proxy(proxy_url: str, stream: GeneratedStream, cuts: list[int]) -> bytes:
    """What a client behind the proxy receives when the upstream sends ``stream``."""
    Stage.chunks = chunked(stream.to_sse(), cuts)
    status, _, body = post(proxy_url, first_turn())
    assert status == 200
    return body


STREAMS = {
    "valid": valid_streams(),
    "provider": provider_streams(),
    "faulty": faulty_streams(provider_streams()),
}
CUTS = st.lists(st.integers(0, 1 << 16), max_size=6)


@pytest.mark.parametrize("kind", list(STREAMS))
def test_the_client_gets_the_canonical_stream_whatever_the_chunking(
    proxy_url: str, kind: str
) -> None:
    @EXAMPLES
    @given(stream=STREAMS[kind], cuts=CUTS)
    def holds(stream: GeneratedStream, cuts: list[int]) -> None:
        received = received_events(through_proxy(proxy_url, stream, cuts))
        assert received == canonical(list(stream.events))
        assert_answer_kept(stream.events, received)

    holds()


@pytest.mark.parametrize("kind", list(STREAMS))
def test_the_client_gets_a_schema_valid_stream(proxy_url: str, kind: str) -> None:
    """Every event is of openai-python's published types, except where the upstream's
    own stream already departed from them (values canonical passes on and never
    invents: ``test_canonical.stream_deviations``)."""

    @EXAMPLES
    @given(stream=STREAMS[kind], cuts=CUTS)
    def holds(stream: GeneratedStream, cuts: list[int]) -> None:
        inherited = stream_deviations(stream.events) | NO_PUBLISHED_TYPE
        for event in received_events(through_proxy(proxy_url, stream, cuts)):
            assert not deviations(event) - inherited, event

    holds()
