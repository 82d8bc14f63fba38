"""Candidates: the parsers under test, and the JSON Lines protocol they speak.

Theory of operation
-------------------
A *candidate* answers streams with results.  ``Candidate.answer(streams)`` takes a
batch of ``GeneratedStream``s and returns one ``Answer`` per stream, in order: either
the list of result objects (DESIGN §3 contract; a candidate may leave out the fields
it does not compute) or a ``Failure`` saying why there is none.

``ProcessCandidate`` runs any program, in any language, as one long-lived subprocess
speaking the *candidate protocol* (docs/conformance-vectors.md):

- the harness writes one request per line on the candidate's stdin:
  ``{"id": "<case>", "events": [<event object>, ...]}`` (plus ``"sse": "<text>"`` when
  the candidate asked for SSE text with ``--wire sse``);
- the candidate writes exactly one line per request on stdout, in request order:
  ``{"id": "<case>", "results": [<result object>, ...]}`` — one result per response
  in the stream — or ``{"id": "<case>", "error": "<message>"}`` when it gave up;
- stdin closing means: no more requests; exit.  stderr is passed through.

A batch is written by a writer thread while the harness reads answers, so neither side
can block the other on a full pipe, and one process serves every stream of a run.
An answer that does not arrive within ``timeout`` seconds, or a process that dies,
fails the rest of the batch (and the process is restarted for the next one).

``FunctionCandidate`` wraps a Python function ``events -> result(s)`` in-process, for
``assert_conforms``; ``serve`` is the other end of the protocol for Python parsers:
``python -m yourmodule`` calling ``serve(parse)`` is a complete candidate.
"""

from __future__ import annotations

import json
import queue
import shlex
import subprocess
import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import IO, Any, Protocol

from .streams import Event, GeneratedStream


@dataclass(frozen=True)
class Failure:
    """A candidate gave no result for a stream: its message, or what went wrong."""

    message: str


Answer = list[dict[str, Any]] | Failure
"""What a candidate returned for one stream."""


class Candidate(Protocol):
    """Something that answers streams with results."""

    def answer(self, streams: Sequence[GeneratedStream]) -> list[Answer]:
        """One answer per stream, in order."""
        ...

    def close(self) -> None:
        """Release the candidate (stop its process)."""
        ...


def _results(value: Any) -> Answer:
    """A candidate's output normalised to a list of result objects, or a ``Failure``."""
    if isinstance(value, Mapping):
        return [dict(value)]
    if isinstance(value, list) and all(isinstance(v, Mapping) for v in value):
        return [dict(v) for v in value]
    return Failure(f"expected a result object or a list of them, got {type(value).__name__}")


def request_line(case: str, stream: GeneratedStream, sse: bool) -> str:
    """One protocol request."""
    request: dict[str, Any] = {"id": case, "events": list(stream.events)}
    if sse:
        request["sse"] = stream.to_sse().decode()
    return json.dumps(request, ensure_ascii=False, separators=(",", ":")) + "\n"


def parse_answer_line(line: str, case: str) -> Answer:
    """One protocol answer, checked against the request it must answer."""
    try:
        answer = json.loads(line)
    except ValueError:
        return Failure(f"candidate wrote a line that is not JSON: {line[:200]!r}")
    if not isinstance(answer, dict):
        return Failure(f"candidate wrote {type(answer).__name__}, not an object")
    if answer.get("id") != case:
        return Failure(f"answer for {answer.get('id')!r} where {case!r} was expected")
    if "error" in answer:
        return Failure(str(answer["error"]))
    return _results(answer.get("results"))


BUILTIN_CANDIDATES: dict[str, tuple[str, ...]] = {
    "openai-python": (sys.executable, "-m", "responses_oracle.testing.openai_candidate"),
    "oracle": (sys.executable, "-m", "responses_oracle.testing.oracle_candidate"),
}
"""Candidates that ship with the package, by name (``--candidate openai-python``)."""


def candidate_command(spec: str) -> list[str]:
    """The command line of ``spec``: a built-in candidate's name, or a shell-style command."""
    if spec in BUILTIN_CANDIDATES:
        return list(BUILTIN_CANDIDATES[spec])
    return shlex.split(spec)


class ProcessCandidate:
    """A candidate program run as one subprocess speaking the candidate protocol."""

    def __init__(self, command: Sequence[str], *, timeout: float = 60.0, sse: bool = False) -> None:
        self.command = list(command)
        self.timeout = timeout
        self.sse = sse
        self._process: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._cases = 0

    def _start(self) -> subprocess.Popen[str]:
        process = subprocess.Popen(
            self.command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            errors="surrogateescape",
            bufsize=1 << 16,
        )
        self._lines = queue.Queue()
        assert process.stdout is not None
        threading.Thread(target=_pump, args=(process.stdout, self._lines), daemon=True).start()
        self._process = process
        return process

    def answer(self, streams: Sequence[GeneratedStream]) -> list[Answer]:
        """Send the batch, read one answer per stream."""
        if not streams:
            return []
        process = self._process if self._process is not None else self._start()
        cases = [f"c{self._cases + n}" for n in range(len(streams))]
        self._cases += len(streams)
        lines = [
            request_line(case, stream, self.sse)
            for case, stream in zip(cases, streams, strict=True)
        ]
        writer = threading.Thread(target=_write, args=(process.stdin, lines), daemon=True)
        writer.start()
        answers: list[Answer] = []
        for case in cases:
            try:
                line = self._lines.get(timeout=self.timeout)
            except queue.Empty:
                line, why = None, f"no answer within {self.timeout:g} s"
            else:
                why = f"candidate exited (status {process.poll()}) without answering"
            if line is None:
                self.close(wait=0.0)
                answers.extend(Failure(why) for _ in range(len(cases) - len(answers)))
                return answers
            answers.append(parse_answer_line(line, case))
        writer.join()
        return answers

    def close(self, wait: float = 5.0) -> None:
        """Close stdin and wait up to ``wait`` seconds for the process, then kill it."""
        process, self._process = self._process, None
        if process is None:
            return
        try:
            if process.stdin is not None:
                process.stdin.close()
        except OSError:
            pass
        try:
            process.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _pump(stdout: IO[str], lines: queue.Queue[str | None]) -> None:
    """Reader thread: every stdout line into the queue, then None at end of file."""
    for line in stdout:
        lines.put(line)
    lines.put(None)


def _write(stdin: IO[str] | None, lines: list[str]) -> None:
    """Writer thread: the batch's requests, flushed; a closed pipe ends it quietly."""
    if stdin is None:
        return
    try:
        for line in lines:
            stdin.write(line)
        stdin.flush()
    except (BrokenPipeError, ValueError, OSError):
        pass


ParseFn = Callable[[list[Event]], Any]
"""A Python parser: the decoded events of one stream → a result object or a list of them."""


class FunctionCandidate:
    """A Python parser function as a candidate, run in-process."""

    def __init__(self, parse: ParseFn) -> None:
        self.parse = parse

    def answer(self, streams: Sequence[GeneratedStream]) -> list[Answer]:
        """Call the function on each stream; an exception is that stream's ``Failure``."""
        answers: list[Answer] = []
        for stream in streams:
            try:
                answers.append(_results(self.parse([dict(e) for e in stream.events])))
            except Exception as error:  # a candidate's crash is a finding, not ours
                answers.append(Failure(f"{type(error).__name__}: {error}"))
        return answers

    def close(self) -> None:
        """Nothing to release."""


def serve(
    parse: ParseFn, stdin: IO[str] | None = None, stdout: IO[str] | None = None
) -> None:
    """Answer protocol requests from ``stdin`` with ``parse`` until stdin closes.

    ``parse`` gets the decoded events of one stream and returns its result object(s);
    an exception becomes the ``error`` answer for that stream and serving goes on.
    """
    source = stdin if stdin is not None else sys.stdin
    sink = stdout if stdout is not None else sys.stdout
    for line in source:
        if not line.strip():
            continue
        request = json.loads(line)
        case = request.get("id")
        try:
            answer: dict[str, Any] = {"id": case, "results": _checked(parse(request["events"]))}
        except Exception as error:  # reported to the harness, which reports it to you
            answer = {"id": case, "error": f"{type(error).__name__}: {error}"}
        sink.write(json.dumps(answer, ensure_ascii=False, separators=(",", ":")) + "\n")
        sink.flush()


def _checked(value: Any) -> list[dict[str, Any]]:
    results = _results(value)
    if isinstance(results, Failure):
        raise TypeError(results.message)
    return results
