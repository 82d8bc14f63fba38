"""One upstream body in, the canonical stream's bytes out: the proxy's sans-IO core.

Rules
-----
1. **The wire front end reads the upstream.**  Bytes go through the project's own SSE
   framer (``wire.framers.SSEFramer``: any chunking, CR/LF/CRLF, comments, ``[DONE]``,
   ``Limits``), so the proxy reads exactly what ``reduce`` would read.
2. **The oracle decides what goes out.**  Each event goes to a ``Canonicalizer``
   (``responses_oracle.Canonicalizer``), which gives back the events to emit now: text,
   reasoning and refusal deltas at once, a call's events once its answer is settled.
   Nothing else is held: ``feed`` returns whatever the canonicalizer released for the
   chunk, framed as the API frames SSE (``event:`` and ``data:`` lines, LF).  Every
   front-end record goes in as it is, an undecodable one too: the reducer inside
   reports it as ``reduce`` would.
3. **``dry_run`` forwards the bytes unchanged** and still runs the canonicalizer, so the
   repairs it would have made are known (and logged) without changing anything.
4. **A limit ends the answer, and says so.**  Each limit is enforced where the relay
   reads: ``Limits.max_total_bytes`` on the bytes fed (the rest is not read),
   ``Limits.max_event_bytes`` by the framer (an oversized event is never buffered:
   one of a type canonical passes on as it came, ``canonicalizer.passes_as_sent`` --
   a partial image, a hosted tool's progress -- read from its first bytes, passes on
   as its bytes arrive, unread, a logged change that ends nothing,
   ``Canonicalizer.passed``; any other is skipped), the ``ReducerLimits`` by the reducer inside the
   canonicalizer (items per response, characters per payload).  Passing one ends the
   answer as a provider ends a failed one (``Canonicalizer.end``): an ``error`` event
   with code ``limit_exceeded`` and a message naming the limit, then
   ``response.failed`` if the response was opened -- never a normal-looking completed
   response with part of the answer.  ``limit`` names it for the log, and ``stopped``
   tells the caller to stop reading.  With ``dry_run`` the bytes still go through
   unchanged; only the checking stops.
5. **``data: [DONE]`` goes on when the upstream sent it, and only then**, once, after
   everything the canonical stream holds: where the upstream sent it if the
   canonicalizer holds nothing then (``Canonicalizer.idle``: its last response is out
   to its terminal; a client that stops reading at ``[DONE]`` is not kept waiting for
   the body's end), else after what ``close`` releases -- never before the events of
   a call still held in a later response.  The framer reads it as no event
   (``SSEFramer.sentinels`` counts it), so nothing else sees it.
6. **Fast paths change no byte.**  The canonicalizer's delta path
   (``Canonicalizer(fast=True)``) and, with the ``fast`` extra, msgspec's JSON encoder
   for an event made only of strings, integers, booleans, nulls, lists and
   string-keyed objects (``FastFraming``: for those it writes what the json module
   writes; a float, which it spells otherwise -- ``1e16`` for ``1e+16``, ``null`` for
   ``NaN`` -- goes to the json module).  ``Relay(fast=False)`` turns both off;
   ``tests/proxy/test_fast_path.py`` compares the two relays' bytes and logs.
7. **The live channel's next deltas are read here, not by the framer**, a run at a
   time, when they come in the relay's own shape: whole blocks ``event: X\ndata:
   {...}\n\n`` one after another (LF only, one ``data`` line, no comment, ``id`` or
   ``retry``, each within ``max_event_bytes`` and ending within ``PEEK`` of its
   start), cut with one compiled pattern (``_run_pattern``, at most ``RUN_BLOCKS``
   blocks a look) where the framer is between blocks (``SSEFramer.between_blocks``),
   decoded as the front end decodes a good event (``EventBuilder.good``; msgspec's
   decoder that refuses a float, ``FastFraming.plain``, where it reads them all), of
   the type of the canonicalizer's live channel (``Canonicalizer.live_kind``), and
   handed to ``Canonicalizer.feed_live`` at once, which takes them, in order, as long
   as the reducer's step would just append each.  Where its events are the upstream's
   objects as they came and msgspec writes each's exact text (``FastFraming.written``),
   the run's bytes go out as they came, in one piece.  Once one has, the channel's
   delta has a shape (``_Shape``: the block with every field fixed to its bytes but
   the ``sequence_number`` and the strings the step does not read beside the text), and
   a run of that shape is read from its bytes alone: one pattern finds those fields in
   every block, msgspec reads the strings at once and must write them back as they came,
   and ``Canonicalizer.feed_run`` takes the texts as ``feed_live`` would -- no object is
   made, and the bytes go out as they came.  A run not all of the shape goes the way
   above.  A block not taken, and any other block, goes to the framer as before.  Part of
   rule 6's fast paths: off with ``fast=False``, and the test compares the bytes, the log
   and the state.
8. **The answer of ``stream: false``** is the ``response`` object of the last terminal
   event emitted (``answer``): the canonical stream's reconciled snapshot.  A stream cut
   before its terminal has none.
"""

from __future__ import annotations

import importlib
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Final

from responses_oracle import Canonicalizer
from responses_oracle.canonicalizer import DELTA_TYPES, passes_as_sent
from responses_oracle.core.events import SEQUENCE_FIELD, fields_read
from responses_oracle.core.step import DEFAULT_LIMITS, ReducerLimits
from responses_oracle.model.catalogue import TERMINALS, WIRE_EVENTS
from responses_oracle.serve.server import Framing
from responses_oracle.wire.decode import EventBuilder, fast_decoder, fast_encoder
from responses_oracle.wire.framers import SSEFramer
from responses_oracle.wire.records import DEFAULT_LIMITS as DEFAULT_WIRE_LIMITS
from responses_oracle.wire.records import Limits, WireEvent

DONE_FRAME: Final = b"data: [DONE]\n\n"
"""The end-of-stream sentinel as the API sends it (rule 5)."""

FRAMING: Final = Framing()
"""How the canonical stream is framed: ``event:`` lines, LF, one write per event."""


PEEK: Final = 1 << 16
"""How far the relay looks for a block's end (rule 7): a longer block goes to the
framer with the rest of the chunk, so a large event is scanned once, by the framer.
A frame longer than this is written in pieces (``FastFraming.frames``)."""

_SCALARS: Final = frozenset({str, int, bool, type(None)})
"""The types msgspec and the json module write alike (``bool`` is not ``int`` here:
``type`` is compared, not ``isinstance``)."""


def _plain(event: Any) -> bool:
    """Whether ``event`` holds only what msgspec and the json module write alike:
    strings, integers, booleans, nulls, lists and string-keyed objects (rule 6)."""
    stack = [event]
    while stack:
        value = stack.pop()
        if type(value) is dict:
            for key, nested in value.items():
                if type(key) is not str:
                    return False
                if type(nested) not in _SCALARS:  # most values: nothing to push
                    stack.append(nested)
        elif type(value) is list:
            stack.extend(nested for nested in value if type(nested) not in _SCALARS)
        else:
            return False
    return True


@dataclass(frozen=True)
class FastFraming(Framing):
    """``FRAMING`` with msgspec's encoder (``encode``) for the events it writes as the
    json module does (``_plain``; rule 6).  Only the relay's framing: one write per
    event, ``event:`` lines, LF."""

    encode: Callable[[Any], bytes] = field(kw_only=True)
    plain: Callable[[bytes], dict[str, Any]] = field(kw_only=True)
    """msgspec's decoder of a JSON object with no float in it: what the front end reads
    from such a text (``EventBuilder.good``), a plain object (``_plain``: JSON has only
    string keys); it raises for anything else (rule 7)."""
    strings: Callable[[bytes], list[str]] = field(kw_only=True)
    """msgspec's decoder of a JSON array of strings (``_Shape``); it raises for anything
    else."""

    def __post_init__(self) -> None:
        if (self.event_lines, self.chunked, self.crlf) != (True, False, False):
            raise ValueError("FastFraming writes the relay's framing only (FRAMING's)")

    def written(self, events: list[dict[str, Any]], texts: list[bytes]) -> bool:
        """Whether ``texts`` are the JSON texts this framing writes for ``events``, plain
        events (``plain`` read them)."""
        try:
            return [*map(self.encode, events)] == texts
        except UnicodeEncodeError:  # a lone surrogate, should ``plain`` ever give one
            return False

    def data(self, event: dict[str, Any]) -> str:
        """The event's JSON text: msgspec's for a plain event, else the json module's."""
        return self.encode(event).decode() if _plain(event) else super().data(event)

    def frames(self, events: Sequence[dict[str, Any]]) -> Iterator[bytes]:
        """``Framing.frames``: a plain event with a string type straight from msgspec's
        bytes (in pieces if longer than ``PEEK``); any other (a float, a lone
        surrogate, which UTF-8 cannot carry) as ``Framing`` writes it."""
        encode = self.encode
        for event in events:
            name = event.get("type")
            if type(name) is str and _plain(event):
                try:
                    head, text = name.encode(), encode(event)
                except UnicodeEncodeError:
                    pass
                else:
                    if len(text) <= PEEK:
                        yield b"event: %b\ndata: %b\n\n" % (head, text)
                    else:  # in pieces: a large event's JSON is not copied into a frame
                        yield from (b"event: %b\ndata: " % head, text, b"\n\n")
                    continue
            yield from super().frames([event])


def framing(fast: bool) -> Framing:
    """The relay's framing: ``FastFraming`` if ``fast`` and the ``fast`` extra is
    installed and on (``wire.decode.fast_decoder``), else ``FRAMING``."""
    if not fast or fast_decoder() is None:
        return FRAMING
    # By name: the extra is optional, and mypy must pass without it.
    json = importlib.import_module("msgspec.json")
    plain = json.Decoder(dict[str, Any], float_hook=_no_float).decode
    encode = fast_encoder()
    assert encode is not None  # msgspec's, as the decoder is
    return FastFraming(encode=encode, plain=plain, strings=json.Decoder(list[str]).decode)


def _no_float(text: str) -> float:
    """``FastFraming.plain``'s answer to a float: refused (its caller reads the text
    as the front end reads any)."""
    raise ValueError(f"a float ({text:.20})")


TERMINAL_TYPES: Final = frozenset(
    name for name, spec in WIRE_EVENTS.items() if spec.event_class in TERMINALS
)
"""The event types that end a response (``model.catalogue.TERMINALS``)."""


_HEADS: Final = {kind: b"event: %b\ndata: " % kind.encode() for kind in DELTA_TYPES}
"""The first bytes of a live channel's delta block in the relay's shape (rule 7)."""

RUN_BLOCKS: Final = 64
"""The most blocks rule 7 cuts in one look: the blocks after a delta ``feed_live`` does
not take are cut again after the framer's step, so each costs at most this many
blocks' cutting twice, and a hostile stream stays linear."""


@cache
def _run_pattern(head: bytes, limit: int) -> re.Pattern[bytes]:
    """Up to ``RUN_BLOCKS`` whole blocks of rule 7's shape, each ``head``, one data line
    within ``limit`` bytes and ``PEEK`` of the block's start, then a blank line.  A CR
    in the line is looked for apart (``Relay._live_run``): ``re`` runs over bytes that
    are not LF several times faster than over bytes that are neither LF nor CR."""
    room = min(limit, PEEK - len(head) - 2)
    return re.compile(rb"(?:%b[^\n]{0,%d}\n\n){1,%d}" % (re.escape(head), room, RUN_BLOCKS))


_STRING: Final = rb'"([^"\\\n]*(?:\\[^\n][^"\\\n]*)*)"'
"""A JSON string's text in a data line (``_Shape``): no quote or backslash but the
escapes, each a backslash and one character (msgspec reads them, and is the judge)."""

_NUMBER: Final = rb"(0|[1-9][0-9]{0,17})"
"""A JSON integer as msgspec writes a ``sequence_number`` (``_Shape``)."""


@dataclass(frozen=True)
class _Shape:
    """The shape of a live channel's delta that ``Canonicalizer.feed_live`` gave back as
    it came and msgspec writes as it came (rule 7): its block with every field fixed
    to its bytes but the ``sequence_number`` and the strings the step does not read
    beside the text (OpenAI's ``obfuscation``).  A block of this shape is, once those
    are read, what the front end reads from it and what the relay writes for it --
    the step reads no other field -- so a run of them goes to
    ``Canonicalizer.feed_run`` without a JSON object made (``Relay._by_shape``)."""

    token: object
    """``Canonicalizer.live_token`` of the channel it is the shape of."""
    pattern: re.Pattern[bytes]
    """One block of the shape; its groups the fields it leaves open, in its order."""
    sequence_at: int
    """The group of the ``sequence_number``."""
    strings_at: tuple[int, ...]
    """The groups of the strings, in order."""
    text_at: int
    """Which of the strings is the delta's text."""


def _shape(token: object, kind: str, body: dict[str, Any], text: bytes,
           encode: Callable[[Any], bytes]) -> _Shape | None:
    """``_Shape`` of ``body``, a delta of type ``kind`` that ``Canonicalizer.feed_live``
    gave back as it came, ``text`` its JSON text as msgspec writes it; None if it has
    no ``sequence_number`` or text, or the pattern does not give ``text`` back."""
    spec = WIRE_EVENTS[kind]
    value_field = spec.value_field
    read = fields_read(spec)
    parts: list[bytes] = []
    open_fields: list[str] = []
    for name, value in body.items():
        if name == SEQUENCE_FIELD and type(value) is int:
            found = _NUMBER
        elif type(value) is str and (name == value_field or name not in read):
            found = _STRING
        else:
            parts.append(re.escape(encode(name) + b":" + encode(value)))
            continue
        parts.append(re.escape(encode(name) + b":") + found)
        open_fields.append(name)
    if SEQUENCE_FIELD not in open_fields or value_field not in open_fields:
        return None
    head = _HEADS[kind]
    pattern = re.compile(re.escape(head) + rb"\{" + b",".join(parts) + rb"\}\n\n")
    if pattern.fullmatch(head + text + b"\n\n") is None:
        return None
    strings = [n for n, name in enumerate(open_fields) if name != SEQUENCE_FIELD]
    return _Shape(
        token, pattern, open_fields.index(SEQUENCE_FIELD), tuple(strings),
        [open_fields[n] for n in strings].index(value_field),
    )


SHAPE_BYTES: Final = 768
"""The longest blocks, on average, a run is read from by its shape (``Relay._by_shape``):
the pattern reads a text a byte at a time, msgspec many at once, so a run of longer
texts is read the way before the shape (``benchmarks/RESULTS.md``, the proxy's
throughput, part 10: about even at texts of 512 characters)."""


LIMIT_CODE: Final = "limit_exceeded"
"""The ``code`` of the ``error`` event that ends an answer at a limit (rule 4): the
oracle's own diagnostic code for it."""


class Relay:
    """One upstream SSE body: ``feed`` its chunks, then ``close``; each returns the
    bytes to send downstream now (rules 1-5)."""

    def __init__(
        self,
        *,
        dry_run: bool = False,
        wire_limits: Limits = DEFAULT_WIRE_LIMITS,
        limits: ReducerLimits = DEFAULT_LIMITS,
        fast: bool = True,
    ) -> None:
        self.dry_run = dry_run
        self._framer = SSEFramer(EventBuilder(), wire_limits, passes_as_sent)
        self._canonical = Canonicalizer(limits=limits, fast=fast)
        self._cuts = fast and not dry_run
        """Read the live channel's deltas here (rule 7)."""
        self._max_event = wire_limits.max_event_bytes
        if self._max_event is None:
            self._max_event = sys.maxsize
        self._framing = framing(fast)
        self._total = self._room = wire_limits.max_total_bytes
        """Bytes that may still be read (None: no limit)."""
        self.answer: dict[str, Any] | None = None
        """The last terminal event emitted (rule 8); None until one is."""
        self.limit: str | None = None
        """The limit passed, as the oracle's diagnostic says it (rule 4); None if none."""
        self._ended = False
        """The last event emitted is a terminal (rule 5)."""
        self._sentinel_sent = False
        self._passing = False
        """An oversized event's bytes are passing on: its record comes next (rule 4)."""
        self._shape: _Shape | None = None
        """The live channel's delta shape, once one of its runs went out as it came
        (rule 7)."""

    @property
    def stopped(self) -> bool:
        """A limit was passed: nothing more is read (rule 4)."""
        return self.limit is not None

    def feed(self, chunk: bytes) -> bytes:
        """Take the next chunk of the upstream body; the bytes to send on now."""
        if self.stopped:
            return chunk if self.dry_run else b""
        read = chunk
        if self._room is not None:
            read = chunk[: self._room]
            self._room -= len(read)
        pieces: list[bytes] = []
        if self._cuts:
            self._read(read, pieces)
        else:
            self._through(self._framer.passing(read), pieces)
        if self._room == 0 and len(read) < len(chunk) and not self.stopped:
            self._stop(
                f"body exceeds max_total_bytes ({self._total} bytes); the rest not read", pieces
            )
        pieces.append(self._sentinel(closing=False))
        # One join: a large event's bytes are copied once on their way out.
        return chunk if self.dry_run else b"".join(pieces)

    def close(self) -> bytes:
        """The upstream body ended (whole or cut): what is left to send."""
        pieces: list[bytes] = []
        if not self.stopped:
            self._through(self._framer.passing(None), pieces)
            self._frame(self._canonical.close(), pieces)
        pieces.append(self._sentinel(closing=True))
        return b"" if self.dry_run else b"".join(pieces)

    def _sentinel(self, *, closing: bool) -> bytes:
        """``data: [DONE]`` if the upstream sent it and its place has come (rule 5)."""
        if self._sentinel_sent or not self._framer.sentinels:
            return b""
        if not (closing or (self._ended and self._canonical.idle)):
            return b""
        self._sentinel_sent = True
        return DONE_FRAME

    @property
    def output(self) -> list[dict[str, Any]]:
        """The reconciled items of the last response settled (``Canonicalizer.output``)."""
        return self._canonical.output

    @property
    def repairs(self) -> list[dict[str, Any]]:
        """What the oracle changed (or, with ``dry_run``, would have), one record per
        finished response: ``response_id``, ``codes``, ``changes``."""
        return self._canonical.repairs

    def _through(self, events: Iterable[WireEvent | bytes], pieces: list[bytes]) -> None:
        """The bytes for what the framer gave, added to ``pieces``: the canonical
        stream's events, and in their place the bytes of an oversized event passed on as
        they came (rule 4)."""
        canonical = self._canonical
        out: list[dict[str, Any]] = []
        for event in events:
            if self.stopped:
                break
            if isinstance(event, bytes):
                self._frame(out, pieces)
                pieces.append(event)
                out = []
                self._passing = True
                continue
            if self._passing:  # the record of the event whose bytes passed
                out += canonical.passed(event)
                self._passing = False
            else:
                out += canonical.feed(event)
            passed = canonical.limit
            if passed is not None:
                out += self._ending(passed)
        self._frame(out, pieces)

    def _read(self, data: bytes, out: list[bytes]) -> None:
        """The bytes for ``data``, added to ``out``: each run of whole blocks that are
        the live channel's next deltas (rule 7) taken here, every other block through
        the framer, in order."""
        framer = self._framer
        start, size = 0, len(data)
        while start < size and not self.stopped:
            if framer.between_blocks and self._canonical.live_kind is not None:
                start = self._live_run(data, start, out)
            # A blank line starts at an LF: one looked for first (``memchr``, many times
            # faster than a two-byte search), so a slice of a long line is scanned once.
            lf = data.find(b"\n", start, start + PEEK)
            end = (-1 if lf < 0 else data.find(b"\n\n", lf, start + PEEK)) + 2
            if end < 2:  # no block ends soon: the framer takes the rest whole
                break
            self._through(framer.passing(data[start:end]), out)
            start = end
        if start < size and not self.stopped:
            self._through(framer.passing(data, start), out)

    def _live_run(self, data: bytes, start: int, out: list[bytes]) -> int:
        """Rule 7, the framer between blocks at ``start``: the bytes for the blocks
        from ``start`` on that are the live channel's next deltas in the relay's shape
        and that ``Canonicalizer.feed_live`` takes, added to ``out``; where the run
        ends (``start`` if none is taken).  The framer is not fed: it stays between
        blocks, and the live channel stays live, all through the run."""
        canonical, builder, framing = self._canonical, self._framer.builder, self._framing
        kind = canonical.live_kind
        head = None if kind is None or self._passing else _HEADS.get(kind)
        if kind is None or head is None or len(kind) > self._max_event:
            return start
        run, apart = _run_pattern(head, self._max_event), b"\n\n" + head
        fast = framing if isinstance(framing, FastFraming) else None
        whole = True
        while whole and (cut := run.match(data, start)) is not None:
            cr = data.find(b"\r", start, cut.end())
            if cr >= 0:  # the blocks before the one with a CR (none, if the first has)
                cut = run.match(data, start, cr)
                if cut is None:
                    break
            shape = self._shape
            if shape is not None and fast is not None and shape.token is canonical.live_token:
                moved = self._by_shape(shape, fast, data, start, cut.end(), out)
                if moved > start:
                    start = moved
                    continue
            # The data lines hold no LF: the blocks part only where ``apart`` is.
            texts = data[start + len(head) : cut.end() - 2].split(apart)
            bodies, plain = self._decoded(texts)
            taken, events, as_sent = canonical.feed_live(bodies, builder.upcoming, kind)
            if not taken:
                break
            builder.take(taken)
            whole = taken == len(texts)
            if not whole:
                texts = texts[:taken]
            end = start + taken * len(apart) + sum(map(len, texts))
            if as_sent and plain and fast is not None and fast.written(events, texts):
                out.append(data[start:end])  # what canonical writes is what came
                if self._shape is None or self._shape.token is not canonical.live_token:
                    self._shape = _shape(
                        canonical.live_token, kind, events[0], texts[0], fast.encode
                    )
            else:
                out += framing.frames(events)
            self._ended = False  # the last event out is a delta
            start = end
        return start

    def _by_shape(
        self, shape: _Shape, fast: FastFraming, data: bytes, start: int, end: int,
        out: list[bytes],
    ) -> int:
        """Rule 7 by ``shape``: the blocks of ``data[start:end]``, a run the pattern cut,
        when every one is of the shape and its strings are as msgspec writes them,
        handed to ``Canonicalizer.feed_run``; the bytes of those it took added to
        ``out`` as they came.  Where they end (``start`` if none is taken)."""
        blocks = data.count(b"\n\n", start, end)
        if end - start > SHAPE_BYTES * blocks:  # long texts: msgspec reads them faster
            return start
        found = shape.pattern.findall(data, start, end)
        # A match is one whole block (its data line holds no LF): all, or none is taken.
        if len(found) != blocks:
            return start
        at = shape.strings_at
        literals = [groups[n] for groups in found for n in at]
        joined = b'["' + b'","'.join(literals) + b'"]'
        try:
            # ``_STRING`` holds no quote but an escaped one: one string a literal.  Each
            # as msgspec writes it: what the relay writes for it is what came.
            strings = fast.strings(joined)
            if fast.encode(strings) != joined:
                return start
        except Exception:  # not JSON strings, or a lone surrogate UTF-8 cannot carry
            return start
        sequence_at = shape.sequence_at
        builder = self._framer.builder
        taken = self._canonical.feed_run(
            [int(groups[sequence_at]) for groups in found],
            strings[shape.text_at :: len(at)],
            builder.upcoming,
        )
        if not taken:
            return start
        builder.take(taken)
        stop = end
        if taken < len(found):
            stop = start
            for _ in range(taken):
                stop = data.index(b"\n\n", stop) + 2
        out.append(data[start:stop])
        self._ended = False  # the last event out is a delta
        return stop

    def _decoded(self, texts: list[bytes]) -> tuple[list[dict[str, Any]], bool]:
        """The objects the front end reads from ``texts`` as good events, up to the
        first that is not one (``EventBuilder.good``), and whether each is plain (all
        read by ``FastFraming.plain``)."""
        framing = self._framing
        if isinstance(framing, FastFraming):
            try:
                return [*map(framing.plain, texts)], True
            except Exception:  # a float, or not a good event: each read as the front end does
                pass
        good, bodies = self._framer.builder.good, []
        for text in texts:
            body = good(text)
            if body is None:
                break
            bodies.append(body)
        return bodies, False

    def _stop(self, passed: str, pieces: list[bytes]) -> None:
        """Rule 4: end the answer at the limit ``passed`` (its bytes added to
        ``pieces``)."""
        self._frame(self._ending(passed), pieces)

    def _ending(self, passed: str) -> list[dict[str, Any]]:
        """Rule 4's events: the answer ended at the limit ``passed``."""
        self.limit = passed
        reason = f"responses-oracle proxy stopped reading the upstream: {passed}"
        return self._canonical.end(LIMIT_CODE, reason)

    def _frame(self, events: Sequence[dict[str, Any]], pieces: list[bytes]) -> None:
        """The events a chunk released, framed (rule 2), added to ``pieces``: the
        chunk's bytes go out in one write."""
        if events:
            last = events[-1]
            self._ended = last.get("type") in TERMINAL_TYPES
            for event in reversed(events):
                if event.get("type") in TERMINAL_TYPES:
                    self.answer = dict(event)
                    break
        if not self.dry_run:
            pieces += self._framing.frames(events)
