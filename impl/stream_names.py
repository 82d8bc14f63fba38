"""What a stream argument names: one resolver for every command and the Python API.

``reduce``, ``explain``, ``replay``, ``serve``, ``audit``, ``agents`` and the Python
``reduce()`` read a stream argument the same way (``resolve``), as the first of these
that applies:

========================  ==============================================================
an existing path          a file (any format the front end reads: SSE, JSON Lines, a JSON
                          array, an HTTP recording, ...) or, for ``audit``, a folder
``seed7/12``              case 12 of seed 7 of the generated mix (``cases.generated_case``,
                          the names ``diff --seed`` prints)
a name of the agents      what ``agents --list`` shows (``q05``, ``s01``, ``peers-...``,
list                      ``r9_...``): the stream ``serve`` plays for it, its base with
                          its deviations applied (before serve maps its calls)
``q04``                   a bundled quirk ``quirks/q04-*.jsonl`` the list does not name
a bundled path            a file or folder of ``bundled.BUNDLED`` when no such path
                          exists here (``examples/parallel-calls.sse``, ``captures/...``)
a vector name             a stream of the bundled conformance corpus
                          (``vectors.corpus_vectors``: ``rule-test_r9_...``,
                          ``counterexample-...``)
========================  ==============================================================

So the docs' examples (``reduce examples/parallel-calls.sse``) run the same in a
checkout and after ``pip install``, from any folder.  A file of a conformance vector
(``docs/conformance-vectors.md``) names the stream of its ``events``.

Theory of operation: ``resolve`` returns a ``Named``: the file to read, or, for a
stream that has no file of its own (a generated case, a vector), its decoded events;
``Named.events()`` gives the events either way (what ``serve`` plays), and
``Named.jsonl()`` the bytes of an events-only stream as JSON Lines (what the reading
commands hand the front end, so that one path reads every input).  Nothing is imported
or read before a rule needs it: a path that exists costs one ``stat``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Final

from responses_oracle.model.recordkit import NamedTuple

Event = dict[str, Any]
"""One decoded wire event."""

_SEED: Final = re.compile(r"seed(\d+)/(\d+)")
_QUIRK: Final = re.compile(r"q\d\d")

VECTOR_MAX_BYTES: Final = 1 << 20
"""A ``.json`` file longer than this is read as a stream, never as a vector (vectors are
a few KiB; a long JSON array of events must not be parsed twice)."""

NOT_FOUND: Final = (
    "is no file, quirk (q05), name of `agents --list`, generated case (seed7/12), path "
    "of the bundled examples (examples/...) or vector name (`vectors export` lists them)"
)
"""What a message says after the argument that names nothing."""


class StreamNameError(ValueError):
    """A stream argument that names nothing (or a file that cannot be read); the message
    says what would be found."""


class Named(NamedTuple):
    """A stream argument resolved: ``path``, the file holding the stream, or
    ``decoded``, the events of a stream that has none."""

    argument: str
    path: Path | None = None
    decoded: tuple[Event, ...] | None = None

    def events(self) -> tuple[Event, ...]:
        """The stream's decoded events, in order (an event the front end could not decode
        has no JSON, and is left out); ``StreamNameError`` for a file that cannot be read
        or holds no event."""
        if self.decoded is not None:
            return self.decoded
        assert self.path is not None
        from responses_oracle.wire.formats import read_wire_events

        try:
            events = tuple(
                event.payload for event in read_wire_events(self.path) if event.payload is not None
            )
        except OSError as error:
            raise StreamNameError(
                f"cannot read {self.path}: {error.strerror or error}"
            ) from None
        if not events:
            raise StreamNameError(f"{self.path} holds no event (is it a stream file?)")
        return events

    def jsonl(self) -> bytes:
        """An events-only stream as JSON Lines, one event a line."""
        assert self.decoded is not None
        return b"".join(
            json.dumps(event, ensure_ascii=False).encode("utf-8", "surrogatepass") + b"\n"
            for event in self.decoded
        )


def resolve(argument: str) -> Named | None:
    """What ``argument`` names (the module's table), or None when it names nothing."""
    given = Path(argument)
    if given.exists():
        return _file(argument, given)
    if seed := _SEED.fullmatch(argument):
        from responses_oracle.streamgen.cases import generated_case

        case = generated_case(int(seed.group(1)), int(seed.group(2)))
        return Named(argument, decoded=tuple(case.stream.events))
    from responses_oracle.bundled import BUNDLED, bundled

    listed = _listed(argument)
    if listed is not None:
        return Named(argument, decoded=listed)
    if _QUIRK.fullmatch(argument):
        found = sorted((BUNDLED / "quirks").glob(f"{argument}-*.jsonl"))
        return Named(argument, path=found[0]) if found else None
    shipped = bundled(argument)
    if shipped is not None:
        return _file(argument, shipped)
    return _vector_named(argument)


def resolved(argument: str) -> Named:
    """``resolve``, or ``StreamNameError`` saying what exists."""
    named = resolve(argument)
    if named is None:
        from responses_oracle.bundled import BUNDLED

        known = ", ".join(path.name[:3] for path in sorted((BUNDLED / "quirks").glob("q*.jsonl")))
        quirks = f" (the quirks: {known})" if _QUIRK.fullmatch(argument) else ""
        raise StreamNameError(f"{argument!r} {NOT_FOUND}{quirks}")
    return named


def _file(argument: str, path: Path) -> Named:
    """A file, or the events of the vector it holds."""
    vector = _vector_file(path)
    return Named(argument, path=path, decoded=vector)


def _vector_file(path: Path) -> tuple[Event, ...] | None:
    """The events of a conformance vector file, or None if ``path`` is not one."""
    if path.suffix != ".json" or not path.is_file():
        return None
    try:
        if path.stat().st_size > VECTOR_MAX_BYTES:
            return None
        from responses_oracle.differential.conformance_vectors import Vector

        return tuple(Vector.from_json(json.loads(path.read_text(encoding="utf-8"))).events)
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError, AttributeError):
        return None  # not a vector: read as a stream file, which says what is wrong


def _listed(name: str) -> tuple[Event, ...] | None:
    """The stream ``serve`` plays for the built-in scenario ``name`` before it maps the
    calls onto a client's tools (its base with its deviations applied), if the agents
    list has one of that name."""
    from responses_oracle.agents.scenario_list import declared, scenario_events

    scenario = declared(name)
    if scenario is None:
        return None
    events = scenario_events(scenario)
    return None if events is None else tuple(events)


def _vector_named(name: str) -> Named | None:
    from responses_oracle.differential.conformance_vectors import corpus_vectors

    for vector in corpus_vectors():
        if vector.name == name:
            return Named(name, decoded=tuple(vector.events))
    return None
