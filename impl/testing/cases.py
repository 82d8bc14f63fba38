"""Test cases for the differential harness: seeded generated streams and corpus files.

``generated_case(seed, index)`` is a pure function of its two arguments: case *i* of a
seed is the same stream in every run, process and order, which is what makes
``diff --seed`` reproducible and ``--jobs`` safe.  The generator of case *i* is
``MIX[i % len(MIX)]``: valid OpenAI streams, provider profiles, model-guided walks,
faulty streams (a fault in a walk, or in a profile stream), bodies holding several
responses and streams with events after their terminal.  ``diff --generator``
narrows the rotation to some generators (``mix_of``) and ``diff --profile`` the provider
profiles the profile generators draw from.

``corpus_cases(paths)`` reads recorded streams (any input format the front end knows,
detected per file, ``.gz`` and ``.zst`` decompressed) and turns each file into one case
of decoded events; events the front end could not decode are left out, since a
candidate is handed JSON objects.  A file that is no stream stops the reading, as in
every command (``NotAStream``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from .choices import Chooser, case_chooser
from .faults import fault_stream
from .provider_profiles import PROFILES, apply_profiles
from .streams import GeneratedStream, numbered, openai_stream
from .walk import model_guided_stream


@dataclass(frozen=True)
class Case:
    """One stream to run, with a name that finds it again (``seed7/12``, a file path)."""

    name: str
    stream: GeneratedStream


def profile_stream(choose: Chooser, profiles: Sequence[str] = tuple(PROFILES)) -> GeneratedStream:
    """A valid OpenAI stream rewritten by one of ``profiles`` (default: any provider)."""
    return apply_profiles(openai_stream(choose), (choose.choice(tuple(profiles)),), choose)


_TERMINALS = frozenset({"response.completed", "response.incomplete", "response.failed"})


def several_responses(choose: Chooser) -> GeneratedStream:
    """Two responses in one body, as a WebSocket session or a resumed background
    response delivers them: a client gets them as one body (R1: one result each)."""
    first, second = openai_stream(choose), openai_stream(choose)
    return GeneratedStream((*first.events, *second.events), ("several-responses",))


def after_terminal(choose: Chooser) -> GeneratedStream:
    """A stream with an item's events after its terminal event, as a relay that flushes
    late sends them (R9: nothing after the terminal changes the response)."""
    stream, late = openai_stream(choose), openai_stream(choose)
    slots = {e.get("output_index") for e in stream.events if "output_index" in e}
    tail = [
        {**e, "output_index": len(slots)}
        for e in late.events
        if e.get("output_index") == 0 and e.get("type") not in _TERMINALS
    ]
    events = numbered([*stream.events, *tail])
    return GeneratedStream(tuple(events), ("after-terminal",))


Generator = Callable[[Chooser, Sequence[str]], GeneratedStream]
"""A stream generator: a chooser and the provider profiles it may apply → a stream."""

GENERATORS: dict[str, Generator] = {
    "openai": lambda choose, profiles: openai_stream(choose),
    "profile": profile_stream,
    "model-guided": lambda choose, profiles: model_guided_stream(choose),
    "faulty": lambda choose, profiles: model_guided_stream(choose, fault=True),
    "faulty-profile": lambda choose, profiles: fault_stream(
        profile_stream(choose, profiles), choose
    )[0],
    "several-responses": lambda choose, profiles: several_responses(choose),
    "after-terminal": lambda choose, profiles: after_terminal(choose),
}
"""The stream generators the harness draws from, by name (``diff --generator``)."""

MIX: tuple[str, ...] = (
    "openai",
    "profile",
    "profile",
    "model-guided",
    "faulty",
    "faulty-profile",
    "several-responses",
    "after-terminal",
)
"""The rotation of generators over case indexes: profiles weigh double."""


def mix_of(generators: Sequence[str]) -> tuple[str, ...]:
    """The rotation restricted to ``generators`` (in ``MIX`` order, weights kept)."""
    unknown = sorted(set(generators) - set(GENERATORS))
    if unknown:
        known = ", ".join(GENERATORS)
        raise ValueError(f"unknown generator(s) {', '.join(unknown)}; known: {known}")
    return tuple(name for name in MIX if name in generators)


def check_profiles(profiles: Sequence[str]) -> tuple[str, ...]:
    """``profiles`` checked to be known provider profiles."""
    unknown = sorted(set(profiles) - set(PROFILES))
    if unknown:
        raise ValueError(f"unknown profile(s) {', '.join(unknown)}; known: {', '.join(PROFILES)}")
    return tuple(profiles)


def generated_case(
    seed: int, index: int, mix: tuple[str, ...] = MIX, profiles: Sequence[str] = tuple(PROFILES)
) -> Case:
    """Case ``index`` of ``seed``: deterministic, independent of every other case."""
    stream = GENERATORS[mix[index % len(mix)]](case_chooser(seed, index), profiles)
    return Case(f"seed{seed}/{index}", stream)


def generated_cases(
    seed: int, count: int, mix: tuple[str, ...] = MIX, profiles: Sequence[str] = tuple(PROFILES)
) -> Iterator[Case]:
    """Cases ``0..count-1`` of ``seed``."""
    return (generated_case(seed, index, mix, profiles) for index in range(count))


STREAM_SUFFIXES: tuple[str, ...] = (".jsonl", ".sse", ".json", ".txt", ".ndjson", ".gz", ".zst")
"""File suffixes a corpus folder is searched for."""


def corpus_files(paths: Iterable[str | os.PathLike[str]]) -> list[Path]:
    """The stream files named by ``paths``: files as given, folders searched, sorted."""
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found.extend(
                sorted(p for p in path.rglob("*") if p.is_file() and p.suffix in STREAM_SUFFIXES)
            )
        else:
            found.append(path)
    return found


def corpus_cases(paths: Iterable[str | os.PathLike[str]]) -> list[Case]:
    """One case per corpus file, its decodable events in order.

    A file that is no stream (``wire.inputs``: text, a Chat Completions stream...)
    raises ``NotAStream``, as every command stops at one; ``OSError`` when a file
    cannot be read.
    """
    from responses_oracle.reducer import reduce
    from responses_oracle.wire.formats import InputFormat, read_wire_events
    from responses_oracle.wire.inputs import NotAStream, StreamCheck

    cases = []
    for path in corpus_files(paths):
        check = StreamCheck()
        wire = list(check.watch(read_wire_events(path, InputFormat.AUTO)))
        reason = check.verdict(() if check.recognised else reduce(wire))
        if reason is not None:
            raise NotAStream(str(path), reason)
        events = [
            dict(event.payload)
            for event in wire
            if event.problem is None and isinstance(event.payload, dict)
        ]
        cases.append(Case(str(path), GeneratedStream(tuple(events), ("corpus",))))
    return cases
