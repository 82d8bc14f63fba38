"""Run one client against ``serve`` for each scenario, in a temporary HOME, and collect
the verdicts.

Rules
-----
1. A cell is only what the client did when run.  A client that is not installed, that
   does not start, or that sends no request is ``not run`` with the reason, never a
   verdict; a client that sent requests is judged by ``serve`` alone (``verdicts.json``),
   whatever its own exit status.
2. Every process started here is ended here, by its own process group: a client that
   outlives its timeout is sent SIGTERM, then SIGKILL; ``serve`` is sent SIGTERM (which
   makes it write its verdicts) once the client is gone.  An interrupted run (Ctrl-C,
   or SIGTERM turned into ``SystemExit`` by the caller) ends both on its way out.
3. Nothing of the caller's environment reaches the client but ``PATH`` and the locale:
   the client's HOME, XDG folders, temp folder and working folder are new for each run.
4. Every cell runs twice: the scenario, then its clean twin (``serve --twin``: a
   built-in scenario's complete base without its deviations, mapped the same way,
   ``serve/twin.py``), each in its own serve and HOME; the twin is the cell's
   ``twin``.  The report counts a broken verdict only where the client gets the twin
   right (``report.outcome``).
5. A gateway is judged on both sides.  Its downstream client keeps the first answer the
   gateway sent it, exactly (``DOWNSTREAM_FILE``, named to the client by
   ``DOWNSTREAM_ENV``), and the runner hands those bytes back to serve
   (``POST /serve/downstream``) before serve judges, so the cell has serve's
   ``answer_kept`` beside the three verdicts of what the gateway forwarded.  A gateway
   that answered that first request with an HTTP error relayed no byte of the scenario:
   the cell is ``not run`` with the gateway's error, never a dropped call.
6. **Behind the proxy** (``proxy``), ``responses-oracle proxy --upstream SERVE_URL``
   runs between serve and the client, and the client is pointed at the proxy: serve
   still plays the same scenario (and its twin) and judges the client's next request
   (which the proxy forwards unchanged).  The cell's client is named ``CLIENT via
   proxy``; the proxy's repairs are kept in ``PROXY_LOG``.  Agents only.

7. **One cause per broken verdict.**  A built-in scenario with more than one deviation
   (``model.deviations``) whose cell breaks a verdict its clean twin keeps is replayed
   once per deviation, the base with that deviation alone (``serve --deviation``),
   each in its own serve and HOME (``OUT/CLIENT/SCENARIO/alone/DEVIATION/``); the
   cell's ``causes`` maps each deviation to the verdicts it breaks alone that the twin
   keeps -- the deviations with any are what broke the client.

Theory of operation
-------------------
``run_cell`` is one client x one scenario: start ``serve SCENARIO --port P --out DIR``
(``SERVE``, the installed command unless a test names another), read its first line
for the base URL, make a ``Workspace``, run the client's command in it with a timeout,
then end serve with SIGTERM, which makes it judge and write ``DIR/verdicts.json``
(read by ``verdicts.load_verdicts``).  The folders are named by scenario:
``OUT/CLIENT/SCENARIO/`` and the twin's ``OUT/CLIENT/SCENARIO/twin/``.  serve runs
without ``--once``: a client's later requests (a title, a summary) still get an
answer, so the client ends as it would against the real API instead of retrying a
closed port until its timeout.
``run_client`` runs every scenario of one client; for a gateway it first starts the
gateway once, with a fixed upstream port that every scenario's serve then binds, and
runs the downstream client through it.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import IO, Any, Final

from .profiles import DRIVERS, DUMMY_KEY, PROMPT, Profile
from .served_verdicts import CallVerdict, load_verdicts

CLI: Final[tuple[str, ...]] = (
    sys.executable, "-c", "import sys; from responses_oracle.cli import main; sys.exit(main())",
)
"""This interpreter's installed ``responses-oracle``."""

SERVE: Final[tuple[str, ...]] = (*CLI, "serve")
"""How ``serve`` is started."""

PROXY: Final[tuple[str, ...]] = (*CLI, "proxy")
"""How ``proxy`` is started, between serve and the client (rule 6)."""

VIA_PROXY: Final = " via proxy"
"""What a cell's client name gets when the proxy stood between serve and the client."""

PROXY_LOG: Final = "proxy.jsonl"
"""The proxy's repairs (``proxy --log``), in the run's folder."""

LISTENING: Final = re.compile(r"listening on (http://127\.0\.0\.1:\d+/v1)")
"""serve's and the proxy's first stdout line, which names the base URL."""

SERVE_START: Final = 60.0
"""Seconds serve may take to print its first line."""

DOWNSTREAM_ENV: Final = "ORACLE_DOWNSTREAM"
"""The variable that names, to a gateway's downstream client, the file where it keeps the
first answer the gateway sent it (rule 5; ``drivers/openai_python.py`` writes it)."""

DOWNSTREAM_FILE: Final = "downstream.json"
"""That file, in the run's folder: ``{"status", "content_type", "body_base64"}``."""

JUDGE_GRACE: Final = 10.0
"""Seconds serve is given, after SIGTERM, to judge and write its verdicts."""

TAIL: Final = 1200
"""Characters of a client's output kept in a cell (the end, where errors are)."""

ERROR_CHARS: Final = 400
"""Characters of a failed client's error line kept in a cell (an error may quote a whole
event)."""

TRACEBACK: Final = "Traceback (most recent call last):"
"""The line that opens a Python traceback; its exception line is the first line after
it that is not indented."""

CARET: Final = re.compile(r"^\s*\^\s*$")
"""The one caret Node prints under the throwing source line of an uncaught error; the
error's own line follows it, after a blank line.  (Python marks a traceback's source
with several, ``^^^^``, and is read by its header instead.)"""

ERROR_HEAD: Final = re.compile(
    r"^(?:Uncaught )?[A-Za-z_$][\w$.]*(?:Error|Exception|Failure)(?: \[[\w$]+\])?: \S"
    r"|^Error: \S"
)
"""A line that names an error and says it (``TypeError: ...``,
``TypeValidationError [AI_TypeValidationError]: ...``, a Rust ``Error: ...``)."""

NOT_A_REASON: Final = re.compile(r"^Node\.js v\d|^\s|^[{}()\[\],]*$")
"""Lines that end a client's output without saying why it failed: Node's version
banner, indented lines (stack frames, a traceback's source lines, the properties of a
printed error object), closing braces."""


@dataclass
class Cell:
    """What one client did with one scenario: ``ran`` and the verdicts, or why not."""

    client: str
    scenario: str
    ran: bool
    reason: str = ""
    exit_status: int | None = None
    seconds: float = 0.0
    requests: int = 0
    calls: list[CallVerdict] = field(default_factory=list)
    output: str = ""
    error: str = ""
    folder: str = ""
    gateway: dict[str, Any] | None = None
    """serve's gateway verdict (``answer_kept``, its reason, the differences each naming
    its rule), for a gateway whose downstream answer was handed back (rule 5)."""
    not_applicable: str = ""
    """Why the scenario is not applicable to this client (no offered tool takes its
    calls as a model makes them): no verdict."""
    stream: bool | None = None
    """Whether the client streamed the scenario's turn (``False``: a non-streaming
    request, answered with the scenario's terminal response object)."""
    twin: Cell | None = None
    """The same client on the scenario's clean twin (rule 4); None on a twin itself,
    and on a cell recorded before twins were run."""
    causes: dict[str, list[str]] | None = None
    """Rule 7: each deviation of the scenario, replayed alone, and the verdicts it then
    breaks that the clean twin keeps (``report.broken_kept``); the deviations with any are the
    cause(s).  None where no replay was needed (one deviation or none, nothing broken
    that the twin keeps)."""

    def to_json(self) -> dict[str, Any]:
        """The cell as recorded data."""
        return {
            "client": self.client,
            "scenario": self.scenario,
            "ran": self.ran,
            "reason": self.reason,
            "exit_status": self.exit_status,
            "seconds": round(self.seconds, 1),
            "requests": self.requests,
            **({"gateway": self.gateway} if self.gateway is not None else {}),
            **({"not_applicable": self.not_applicable} if self.not_applicable else {}),
            **({"stream": self.stream} if self.stream is not None else {}),
            **({"twin": self.twin.to_json()} if self.twin is not None else {}),
            **({"causes": self.causes} if self.causes is not None else {}),
            "calls": [call.to_json() for call in self.calls],
            "output": self.output,
            "error": self.error,
        }


class Workspace:
    """A fresh HOME for one run: XDG folders, temp folder, working folder, files."""

    def __init__(self, root: Path) -> None:
        self.home = root
        self.work = root / "work"
        for folder in ("work", "tmp", ".config", ".local/share", ".cache", ".local/state"):
            (root / folder).mkdir(parents=True, exist_ok=True)

    def environment(self, extra: Mapping[str, str]) -> dict[str, str]:
        """The client's whole environment: PATH and locale, the isolated folders, the
        dummy key, telemetry and update checks off, then ``extra``."""
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "LANG": os.environ.get("LANG", "C.UTF-8"),
            "HOME": str(self.home),
            "TMPDIR": str(self.home / "tmp"),
            "XDG_CONFIG_HOME": str(self.home / ".config"),
            "XDG_DATA_HOME": str(self.home / ".local/share"),
            "XDG_CACHE_HOME": str(self.home / ".cache"),
            "XDG_STATE_HOME": str(self.home / ".local/state"),
            "OPENAI_API_KEY": DUMMY_KEY,
            "NO_COLOR": "1",
            "TERM": "dumb",
            "CI": "1",
            "DO_NOT_TRACK": "1",
            "NO_UPDATE_NOTIFIER": "1",
            "NPM_CONFIG_UPDATE_NOTIFIER": "false",
            "OTEL_SDK_DISABLED": "true",
            "PYTHONUNBUFFERED": "1",
        }
        env.update(extra)
        return env

    def write(self, files: Sequence[tuple[str, str]], values: Mapping[str, str]) -> None:
        """Write each ``(path under HOME, template)`` with ``values`` filled in."""
        for relative, template in files:
            target = self.home / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(fill(template, values), encoding="utf-8")


def fill(template: str, values: Mapping[str, str]) -> str:
    """``template`` with each ``{name}`` of ``values`` replaced (other braces kept, so
    JSON and TOML templates need no escaping)."""
    for name, value in values.items():
        template = template.replace("{" + name + "}", value)
    return template


def slug(name: str) -> str:
    """``name`` (a profile, a command, a scenario) as a file name."""
    return re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-") or "client"


def free_port() -> int:
    """A port free on 127.0.0.1 now (for a gateway's upstream, fixed across scenarios)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _end(process: subprocess.Popen[Any], grace: float = 5.0) -> None:
    """End ``process`` and its group (started with its own session): TERM, then KILL."""
    if process.poll() is not None:
        # The leader is gone; what it left running in its group goes too.
        with suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGTERM)
        return
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        try:
            process.wait(grace)
            return
        except subprocess.TimeoutExpired:
            continue


def _first_line(stream: IO[str], seconds: float) -> str:
    """The first line of ``stream``, or ``""`` if none comes within ``seconds``."""
    found: list[str] = []
    reader = threading.Thread(target=lambda: found.append(stream.readline()), daemon=True)
    reader.start()
    reader.join(seconds)
    return found[0] if found else ""


def error_line(output: str) -> str:
    """The line of a failed client's output that says why it failed: the exception line
    of a Python traceback (the last traceback's), the line of an uncaught JavaScript
    error (after Node's caret), else the last line naming an error, else the last line
    that is not a version banner, indented or a brace; ``""`` if none is left."""
    lines = [line.rstrip() for line in output.splitlines()]
    opened = [n for n, line in enumerate(lines) if line.startswith(TRACEBACK)]
    if opened:
        raised = [line for line in lines[opened[-1] + 1:] if line and not line[0].isspace()]
        if raised:
            return raised[0].strip()
    carets = [n for n, line in enumerate(lines) if CARET.match(line)]
    if carets:
        thrown = [line for line in lines[carets[-1] + 1:] if line.strip()]
        if thrown:
            return thrown[0].strip()
    named = [line.strip() for line in lines if ERROR_HEAD.match(line.strip())]
    if named:
        return named[-1]
    said = [line for line in lines if line and not NOT_A_REASON.match(line)]
    return said[-1] if said else ""


def _tail(path: Path) -> str:
    text = path.read_text(encoding="utf-8", errors="replace") if path.is_file() else ""
    return text[-TAIL:]


@contextmanager
def listening(command: Sequence[str], log: Path) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """A server that prints ``LISTENING`` first (serve, the proxy): the process and its
    base URL (``""`` if it did not say); its stderr goes to ``log``."""
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "w", encoding="utf-8") as errors:
        process = subprocess.Popen(
            list(command), stdout=subprocess.PIPE, stderr=errors, stdin=subprocess.DEVNULL,
            text=True, start_new_session=True,
        )
        try:
            assert process.stdout is not None
            found = LISTENING.search(_first_line(process.stdout, SERVE_START))
            yield process, found.group(1) if found else ""
        finally:
            _end(process)


@contextmanager
def serving(
    scenario: str, out: Path, port: int, tool_args: Sequence[str], serve: Sequence[str]
) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """serve for one scenario: the process and its base URL (``""`` if it did not say)."""
    command = [*serve, scenario, "--port", str(port), "--out", str(out), *tool_args]
    with listening(command, out / "serve.log") as started:
        yield started


@contextmanager
def proxied(upstream: str, out: Path, proxy: Sequence[str] | None) -> Iterator[str]:
    """The URL the client is pointed at: the proxy's in front of ``upstream`` (rule 6),
    or ``upstream`` itself when ``proxy`` is None; ``""`` if the proxy did not start."""
    if proxy is None:
        yield upstream
        return
    command = [*proxy, "--upstream", upstream, "--log", str(out / PROXY_LOG)]
    with listening(command, out / "proxy.log") as (_, url):
        yield url


def tool_arguments(profile: Profile) -> list[str]:
    """serve's ``--tool NAME --args JSON`` for the tools a profile declares."""
    return [part for name, args in profile.tools for part in ("--tool", name, "--args", args)]


def placeholders(profile: Profile, base_url: str, space: Workspace) -> dict[str, str]:
    """The values of a profile's templates for one run (``profiles`` lists them)."""
    install = profile.install
    return {
        "base_url": base_url,
        "gateway_url": base_url,
        "bin": str(install.executable()),
        "prefix": str(install.prefix()),
        "project_python": sys.executable,
        "drivers": str(DRIVERS),
        "driver": str(space.work / profile.driver) if profile.driver else "",
        "prompt": PROMPT,
        "home": str(space.home),
        "work": str(space.work),
    }


def _place_driver(profile: Profile, space: Workspace) -> None:
    """Copy the profile's driver into the working folder; a Node driver finds the pinned
    install's packages through a ``node_modules`` link beside it."""
    if not profile.driver:
        return
    shutil.copy(DRIVERS / profile.driver, space.work / profile.driver)
    modules = profile.install.prefix() / "node_modules"
    if profile.driver.endswith(".mjs") and modules.is_dir():
        (space.work / "node_modules").symlink_to(modules)


def run_command(
    command: Sequence[str], space: Workspace, env: Mapping[str, str], timeout: float, log: Path
) -> tuple[int | None, str]:
    """Run a client to its end or its timeout: its exit status (None if it was ended),
    and why it was ended."""
    with open(log, "w", encoding="utf-8") as output:
        try:
            process = subprocess.Popen(
                list(command), cwd=space.work, env=dict(env), stdin=subprocess.DEVNULL,
                stdout=output, stderr=subprocess.STDOUT, start_new_session=True,
            )
        except OSError as error:
            return None, f"cannot start {command[0]}: {error.strerror or error}"
        try:
            return process.wait(timeout), ""
        except subprocess.TimeoutExpired:
            return None, f"still running after {timeout:.0f} s: ended"
        finally:
            _end(process)


def _requests(out: Path) -> int:
    path = out / "requests.jsonl"
    if not path.is_file():
        return 0
    return sum(1 for line in path.read_text(encoding="utf-8").splitlines() if line.strip())


def run_cell(
    profile: Profile,
    scenario: str,
    out: Path,
    *,
    gateway_url: str = "",
    port: int = 0,
    serve: Sequence[str] = SERVE,
    twin: bool = False,
    proxy: Sequence[str] | None = None,
    deviations: Sequence[str] = (),
) -> Cell:
    """One client x one scenario (module docstring), or its clean twin with ``twin``,
    or its base with only ``deviations`` of its own (rule 7).
    ``gateway_url``, for a gateway, is the gateway's endpoint the downstream client is
    pointed at (serve then binds ``port``, the gateway's upstream).  ``proxy``: the
    command that starts the proxy to put between serve and the client (rule 6;
    ``PROXY``), or None."""
    name = profile.name + (VIA_PROXY if proxy is not None else "")
    cell = Cell(name, scenario, ran=False, folder=str(out))
    if not profile.install.installed():
        cell.reason = not_installed(profile)
        return cell
    started = time.monotonic()
    arguments = [
        *tool_arguments(profile),
        *(["--twin"] if twin else []),
        *(part for name in deviations for part in ("--deviation", name)),
    ]
    with serving(scenario, out, port, arguments, serve) as (server, served_at):
        if not served_at:
            cell.reason = f"serve did not start: {_tail(out / 'serve.log') or 'no output'}"
            return cell
        with proxied(served_at, out, proxy) as client_url, tempfile.TemporaryDirectory(
            prefix=f"ro-{slug(profile.name)}-"
        ) as root:
            if not client_url:
                cell.reason = f"the proxy did not start: {_tail(out / 'proxy.log') or 'no output'}"
                return cell
            space = Workspace(Path(root))
            values = placeholders(profile, client_url, space)
            values["gateway_url"] = gateway_url or client_url
            space.write(profile.files, values)
            _place_driver(profile, space)
            env = space.environment({k: fill(v, values) for k, v in profile.env})
            if profile.gateway:
                env[DOWNSTREAM_ENV] = str((out / DOWNSTREAM_FILE).resolve())
            command = [fill(part, values) for part in profile.command]
            cell.exit_status, ended = run_command(
                command, space, env, profile.timeout, out / "client.log"
            )
        failed = hand_back(out / DOWNSTREAM_FILE, served_at) if profile.gateway else ""
        # The client is done: SIGTERM makes serve judge and write its verdicts.
        _end(server, JUDGE_GRACE)
    cell.seconds = time.monotonic() - started
    cell.output = _tail(out / "client.log")
    if cell.exit_status not in (0, None):
        log = out / "client.log"
        cell.error = error_line(log.read_text(encoding="utf-8", errors="replace"))[:ERROR_CHARS]
    cell.requests = _requests(out)
    if failed:
        cell.reason = failed
        return cell
    if cell.requests == 0:
        status = ended or f"exit status {cell.exit_status}"
        said = error_line(cell.output)
        cell.reason = f"the client sent no request ({status})" + (f": {said}" if said else "")
        return cell
    cell.ran = True
    served = load_verdicts(out / "verdicts.json")
    cell.calls = served.calls
    cell.gateway = served.gateway
    cell.not_applicable = served.not_applicable
    cell.stream = served.stream
    cell.reason = "; ".join(part for part in (ended, served.problem) if part)
    return cell


def hand_back(kept: Path, base_url: str) -> str:
    """Rule 5: give serve (at ``base_url``) the gateway's first answer its downstream
    client kept in ``kept``; ``""``, or why the cell is not run: the gateway answered
    with an HTTP error, before any byte of the scenario.  Nothing kept (the client
    failed before an answer came) hands nothing back: the cell has no ``answer_kept``."""
    import base64
    import json
    import urllib.error
    import urllib.request

    from responses_oracle.serve.server import DOWNSTREAM_PATH

    try:
        answer = json.loads(kept.read_text(encoding="utf-8"))
        body = base64.b64decode(answer["body_base64"])
        status = int(answer["status"])
    except (OSError, ValueError, KeyError, TypeError):
        return ""
    if not 200 <= status < 300:
        said = " ".join(body.decode("utf-8", "replace").split())[:200] or "no body"
        return (f"the gateway answered HTTP {status} before relaying any byte of the "
                f"scenario: {said}")
    url = base_url.removesuffix("/v1") + DOWNSTREAM_PATH + "?scenario=0"
    request = urllib.request.Request(url, body, {"Content-Type": "text/event-stream"})
    # serve answers 400 when it served no scenario; its verdicts then say so.
    with suppress(urllib.error.URLError), urllib.request.urlopen(request, timeout=60):
        pass
    return ""


def not_installed(profile: Profile) -> str:
    """Why a client is not run when it is not installed: its failed install (the
    profile's note on why, and the install log's last error), or how to install it."""
    log = profile.install.prefix() / "install.log"
    if not log.is_file():
        return f"not installed (run tools/record_agents.py {profile.name})"
    lines = [line for line in _tail(log).splitlines() if line.strip()]
    errors = [line for line in lines if "Error: " in line] or lines
    last = errors[-1].removeprefix("npm error ").strip()[:200] if errors else "no output"
    why = f"{profile.install.note}: " if profile.install.note else ""
    return f"install failed: {why}{last}"


def _wait_for_port(port: int, process: subprocess.Popen[Any], seconds: float) -> bool:
    """Whether something listens on 127.0.0.1:``port`` within ``seconds`` (and
    ``process`` is still running)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and process.poll() is None:
        with socket.socket() as probe:
            probe.settimeout(1.0)
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return True
        time.sleep(0.5)
    return False


def run_client(
    profile: Profile,
    scenarios: Sequence[str],
    out: Path,
    *,
    serve: Sequence[str] = SERVE,
    proxy: Sequence[str] | None = None,
    done: Callable[[Cell], None] = lambda cell: None,
) -> list[Cell]:
    """Every scenario of one client, in order, each with its clean twin (rule 4);
    ``done`` is called after each cell.  ``proxy`` (agents only; ``PROXY``) puts the
    proxy between serve and the client (rule 6)."""
    if proxy is not None and profile.gateway:
        raise ValueError(f"{profile.name} is a gateway: the proxy goes before agents only")
    cells: list[Cell] = []
    folder = out / slug(profile.name + (VIA_PROXY if proxy is not None else ""))
    names = folder_names(scenarios)
    with _gateway(profile, folder) as (upstream, gateway_url, reason):
        for scenario, name in zip(scenarios, names, strict=True):
            if reason:
                cell = Cell(profile.name, scenario, ran=False, reason=reason)
            else:
                cell = run_cell(profile, scenario, folder / name, gateway_url=gateway_url,
                                port=upstream, serve=serve, proxy=proxy)
                cell.twin = run_cell(profile, scenario, folder / name / TWIN_FOLDER,
                                     gateway_url=gateway_url, port=upstream, serve=serve,
                                     twin=True, proxy=proxy)
                cell.causes = one_cause(
                    cell, folder / name / CAUSE_FOLDER,
                    partial(run_cell, profile, scenario, gateway_url=gateway_url,
                            port=upstream, serve=serve, proxy=proxy),
                )
            cells.append(cell)
            done(cell)
    return cells


TWIN_FOLDER: Final = "twin"
"""The twin's folder, inside its scenario's."""

CAUSE_FOLDER: Final = "alone"
"""The folder of the one-deviation replays (rule 7), inside the scenario's."""


def one_cause(cell: Cell, out: Path, replay: Callable[..., Cell]) -> dict[str, list[str]] | None:
    """Rule 7: for a cell of a built-in scenario with several deviations that breaks a
    verdict its twin keeps, ``replay(folder, deviations=(NAME,))`` (``run_cell`` of the
    cell's client and scenario) each deviation alone: each deviation → the verdicts it
    breaks that the twin keeps.  None when no replay is needed."""
    from .report import broken_kept
    from .scenario_list import declared

    scenario = declared(cell.scenario)
    names = list(dict.fromkeys(d.name for d in scenario.deviations)) if scenario else []
    if len(names) < 2 or not broken_kept(cell, cell.twin):
        return None
    return {
        name: broken_kept(replay(out / slug(name), deviations=(name,)), cell.twin)
        for name in names
    }


def scenario_slug(name: str) -> str:
    """A file name for a scenario name (a path, a quirk or a vector name)."""
    return slug(Path(name).stem if name.endswith((".jsonl", ".sse", ".json")) else name)


def folder_names(scenarios: Sequence[str]) -> list[str]:
    """Each scenario's folder name: its ``scenario_slug``, a number added to a repeat."""
    names: list[str] = []
    for scenario in scenarios:
        name = scenario_slug(scenario)
        names.append(name if name not in names else f"{name}-{len(names):02d}")
    return names


@contextmanager
def _gateway(profile: Profile, folder: Path) -> Iterator[tuple[int, str, str]]:
    """A running gateway whose upstream is serve's fixed port: (that port, the gateway's
    endpoint, ``""``), or a reason it could not be started; for a client that is no
    gateway, nothing is started (``0, "", ""``)."""
    if not profile.gateway:
        yield 0, "", ""
        return
    if not profile.install.installed():
        yield 0, "", not_installed(profile)
        return
    upstream, own = free_port(), free_port()
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=f"ro-{slug(profile.name)}-") as root:
        space = Workspace(Path(root))
        values = placeholders(profile, f"http://127.0.0.1:{upstream}/v1", space)
        values["port"] = str(own)
        space.write(profile.files, values)
        env = space.environment({k: fill(v, values) for k, v in profile.env})
        log = folder / "gateway.log"
        with open(log, "w", encoding="utf-8") as output:
            process = subprocess.Popen(
                [fill(part, values) for part in profile.upstream], cwd=space.work, env=env,
                stdin=subprocess.DEVNULL, stdout=output, stderr=subprocess.STDOUT,
                start_new_session=True,
            )
            try:
                if _wait_for_port(own, process, profile.timeout):
                    yield upstream, f"http://127.0.0.1:{own}/v1", ""
                else:
                    yield 0, "", f"the gateway did not start: {_tail(log) or 'no output'}"
            finally:
                _end(process)
