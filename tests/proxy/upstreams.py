"""Upstreams of the proxy's tests: ``serve``, or a small aiohttp app on 127.0.0.1 that
answers as a faulty provider would (an HTTP error, a stream cut or broken, a slow one)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Any

from aiohttp import web
from responses_oracle.serve.server import start_loopback

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

SSE = {"Content-Type": "text/event-stream", "Cache-Control": "no-cache"}


@contextmanager
def upstream(handler: Handler) -> Iterator[str]:
    """``handler`` answering every route on 127.0.0.1; its base URL (``.../v1``)."""
    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", handler)
    loop = asyncio.new_event_loop()
    runner, port = loop.run_until_complete(start_loopback(app, 0, 5.0))
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        asyncio.run_coroutine_threadsafe(runner.cleanup(), loop).result(timeout=15)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=10)
        loop.close()


def sse_body(chunks: list[bytes], *, delay: float = 0.0, abort: bool = False) -> Handler:
    """A streamed 200 answer writing ``chunks`` (``delay`` seconds apart), then ending
    the body, or, with ``abort``, breaking the connection mid-body."""

    async def answer(request: web.Request) -> web.StreamResponse:
        await request.read()
        reply = web.StreamResponse(headers=SSE)
        await reply.prepare(request)
        for chunk in chunks:
            await reply.write(chunk)
            if delay:
                await asyncio.sleep(delay)
        if abort:
            assert request.transport is not None
            request.transport.abort()
        else:
            await reply.write_eof()
        return reply

    return answer


def frames(events: list[dict[str, Any]]) -> list[bytes]:
    """One SSE frame per event, as the API writes them."""
    from responses_oracle.serve.server import Framing

    return list(Framing().frames(events))
