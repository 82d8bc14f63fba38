"""Candidates: the parsers under test, and the JSON Lines protocol they speak.

Theory of operation
-------------------
A *candidate* answers streams with results.  ``Candidate.answer(streams)`` takes a
batch of ``GeneratedStream``s and returns one ``Answer`` per stream, in order: either
the list of result objects (the result contract; a candidate may leave out the fields
it does not compute) or a ``Failure`` saying why there is none.

``ProcessCandidate`` runs any program, in any language, as one long-lived subprocess
speaking the *candidate protocol* (docs/conformance-vectors.md):

- the harness writes one request per line on the candidate's stdin:
  ``{"id": "<case>", "events": [<event object>, ...], "tools": [...]}`` (plus ``"sse":
  "<text>"`` when the candidate asked for SSE text with ``--wire sse``); ``tools`` are
  the tools an application whose model calls what the stream calls would declare
  (``declared_tools``), so that a client driven as an application drives it has a tool
  for every call;
- the candidate writes exactly one line per request on stdout, in request order:
  ``{"id": "<case>", "results": [<result object>, ...]}`` — one result per response
  in the stream — or ``{"id": "<case>", "error": "<message>"}`` when it gave up;
- stdin closing means: no more requests; exit.

A batch is written by a writer thread while the harness reads answers, so neither side
can block the other on a full pipe, and one process serves every stream of a run.
An answer that does not arrive within ``timeout`` seconds, or a process that dies,
fails the rest of the batch (and the process is restarted for the next one).

A process that dies or stalls before its *first* answer did not fail on a stream: it
cannot run at all (a missing file, a missing package, a syntax error).  That raises
``CandidateError`` with the process's stderr, once, instead of one failure per stream.
stderr is collected (the last ``STDERR_KEPT`` characters) for that message and not
passed through, so that a candidate logging a stack trace per stream does not flood
the report.

``FunctionCandidate`` wraps a Python function ``events -> result(s)`` in-process, for
``assert_conforms``; ``serve`` is the other end of the protocol for Python parsers:
``python -m yourmodule`` calling ``serve(parse)`` is a complete candidate.
"""

from __future__ import annotations

import collections
import json
import queue
import shlex
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Protocol

from responses_oracle.streamgen.streams import Event, GeneratedStream

STDERR_KEPT = 4000
"""Characters of a candidate's stderr kept for the message of a ``CandidateError``."""


class CandidateError(OSError):
    """The candidate program cannot run: it died or stalled before its first answer."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.strerror = message

    @classmethod
    def of(
        cls, command: Sequence[str], why: str, stderr: str = "", *, hint: str = ""
    ) -> CandidateError:
        """The error for ``command``: why, then the hint or else the stderr it wrote."""
        message = f"the candidate {shlex.join(command)!r} {why}"
        if hint:
            message += f"; {hint}"
        else:
            message += f"; its stderr:\n{stderr.strip() or '(nothing on stderr)'}"
        return cls(message)


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


TOOL_TYPES: dict[str, str] = {"function_call": "function", "custom_tool_call": "custom"}
"""The call item types an application runs itself, and the type of the tool it declares
for them (hosted tools are the provider's and need no declaration)."""

_ENDINGS = ("response.completed", "response.incomplete", "response.failed")


def declared_tools(events: Sequence[Event]) -> list[dict[str, str]]:
    """The tools an application whose model calls what ``events`` call declares: one
    per tool name an item of a ``TOOL_TYPES`` type carries (in ``output_item.added`` or
    ``.done``, or a terminal snapshot), ``{"type": "function" | "custom", "name": ...}``,
    in the order first named; the first type seen for a name wins.  A client given the
    stream is then set up as an application is: every call has its tool."""
    tools: dict[str, str] = {}
    for event in events:
        items = [event.get("item")]
        response = event.get("response")
        if event.get("type") in _ENDINGS and isinstance(response, Mapping):
            output = response.get("output")
            items += output if isinstance(output, list) else []
        for item in items:
            if not isinstance(item, Mapping) or item.get("type") not in TOOL_TYPES:
                continue
            name = item.get("name")
            if isinstance(name, str) and name and name not in tools:
                tools[name] = TOOL_TYPES[str(item["type"])]
    return [{"type": kind, "name": name} for name, kind in tools.items()]


def request_line(case: str, stream: GeneratedStream, sse: bool) -> str:
    """One protocol request."""
    request: dict[str, Any] = {
        "id": case, "events": list(stream.events), "tools": declared_tools(stream.events)
    }
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


NODE_ADAPTERS = Path(__file__).resolve().parents[2] / "adapters" / "node"
"""The Node adapters of a checkout (``npm ci`` there installs their pinned clients)."""

BUILTIN_CANDIDATES: dict[str, tuple[str, ...]] = {
    "openai-python": (sys.executable, "-m", "responses_oracle.differential.openai_candidate"),
    "openai-agents": (sys.executable, "-m", "responses_oracle.differential.agents_candidate"),
    "openai-node": ("node", str(NODE_ADAPTERS / "openai-node.mjs")),
    "ai-sdk": ("node", str(NODE_ADAPTERS / "ai-sdk.mjs")),
    "ai-streamtext": ("node", str(NODE_ADAPTERS / "ai-streamtext.mjs")),
    "oracle": (sys.executable, "-m", "responses_oracle.differential.oracle_candidate"),
    "openai-go": ("go", "openai-go"),
    "axonhub-stream": ("go", "axonhub-stream"),
    "axonhub-stored": ("go", "axonhub-stored"),
}
"""Candidates that ship with the package or the checkout, by name (``--candidate
openai-python``): the real clients, and the reference itself.  A ``go`` entry is a Go
adapter of the checkout, built when a run starts (``go_candidates``)."""


def candidate_command(spec: str, src: str | None = None) -> list[str]:
    """The command line of ``spec``: a built-in candidate's name, or a shell-style command.

    A Node adapter needs the checkout's ``adapters/node`` with its packages installed;
    without them this raises ``CandidateError`` saying what to run.  A Go adapter is
    built first; AxonHub's against the checkout ``src`` (``go_candidates.go_command``).
    """
    if spec not in BUILTIN_CANDIDATES:
        return shlex.split(spec)
    command = list(BUILTIN_CANDIDATES[spec])
    if command[0] == "go":
        from .go_candidates import go_command

        return go_command(command[1], src)
    if command[0] == "node" and not (NODE_ADAPTERS / "node_modules").is_dir():
        hint = (
            f"run `npm ci` in {NODE_ADAPTERS} (Node 20 or later)"
            if NODE_ADAPTERS.is_dir()
            else "they ship with a checkout of responses-oracle, not with the package: run "
            "from a checkout after `npm ci` in its adapters/node"
        )
        raise CandidateError.of(
            command, "needs the Node adapters of a checkout with their packages", hint=hint
        )
    return command


class ProcessCandidate:
    """A candidate program run as one subprocess speaking the candidate protocol."""

    def __init__(self, command: Sequence[str], *, timeout: float = 60.0, sse: bool = False) -> None:
        self.command = list(command)
        self.timeout = timeout
        self.sse = sse
        self._process: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._cases = 0
        self._answered = 0
        """Answers from the current process: none yet means it never ran."""
        self._stderr: collections.deque[str] = collections.deque()

    def _start(self) -> subprocess.Popen[str]:
        process = subprocess.Popen(
            self.command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            errors="surrogateescape",
            bufsize=1 << 16,
            # A group of its own: Ctrl-C reaches the harness, which ends the candidate
            # (``close``) after keeping what was compared; a candidate ended by the same
            # Ctrl-C would first answer the streams in flight wrongly.
            process_group=0,
        )
        self._lines = queue.Queue()
        self._answered = 0
        self._stderr = collections.deque()
        assert process.stdout is not None and process.stderr is not None
        threading.Thread(target=_pump, args=(process.stdout, self._lines), daemon=True).start()
        threading.Thread(target=_keep, args=(process.stderr, self._stderr), daemon=True).start()
        self._process = process
        return process

    def stderr(self) -> str:
        """The last ``STDERR_KEPT`` characters the current process wrote on stderr."""
        return "".join(self._stderr)[-STDERR_KEPT:]

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
                why = ""
            if line is None:
                never_ran = self._answered == 0
                self.close(wait=2.0 if never_ran else 0.0)
                why = why or f"candidate exited (status {process.poll()})"
                if never_ran:
                    time.sleep(0.05)  # let the stderr reader drain the pipe
                    raise CandidateError.of(self.command, f"gave no answer: {why}", self.stderr())
                answers.extend(
                    Failure(f"{why} without answering") for _ in range(len(cases) - len(answers))
                )
                return answers
            self._answered += 1
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


def _keep(stderr: IO[str], kept: collections.deque[str]) -> None:
    """Reader thread: stderr into ``kept``, trimmed to about ``STDERR_KEPT`` characters."""
    size = 0
    for line in stderr:
        kept.append(line)
        size += len(line)
        while size > 2 * STDERR_KEPT and len(kept) > 1:
            size -= len(kept.popleft())


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


def serve_client(build: Callable[[], ParseFn], install_hint: str) -> int:
    """Serve the protocol with the parser ``build()`` makes (a client adapter); when the
    client it needs is not installed, say ``install_hint`` on stderr and return 2 before
    answering anything, which stops ``diff`` with that message."""
    try:
        parse = build()
    except ImportError as error:
        sys.stderr.write(f"{install_hint} ({error})\n")
        return 2
    serve(parse)
    return 0


def _checked(value: Any) -> list[dict[str, Any]]:
    results = _results(value)
    if isinstance(results, Failure):
        raise TypeError(results.message)
    return results
