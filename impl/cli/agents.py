"""``responses-oracle agents``: run real clients against ``serve``, one cell per scenario.

Each CLIENT is a built-in profile name (``responses_oracle.agents.profiles``: codex,
opencode, openai-agents, ...) or a command of your own with ``{base_url}`` in it
(``'python my_app.py {base_url}'``), run through the shell-free template the profiles
use.  For each client x scenario, ``serve SCENARIO`` plays the scenario on
127.0.0.1, then ``serve SCENARIO --twin`` its clean twin, the client runs in a fresh
temporary HOME with a timeout each time, and serve's verdicts are collected
(``agents.runner``).  Output: the terminal summary (verdict first), or ``--json``;
``--html FILE`` writes the page with a timeline per scenario beside it.  Ctrl-C prints
the cells already judged, then exits 130.  Exit status: 0 every verdict holds; 1 a
verdict is broken (on the scenario alone, or on its clean twin too: not judged); 2
unusable arguments; 3 a client was not run or sent no request (nothing to judge).
"""

from __future__ import annotations

import argparse
import shlex
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Final

from .common import CliError, Exit, ExitTable, command_parser, write_json

if TYPE_CHECKING:
    from responses_oracle.agents.profiles import Profile
    from responses_oracle.agents.runner import Cell

    from .common import Subparsers

AGENTS_EXIT: Final[ExitTable] = {
    Exit.OK: "every verdict of every cell holds",
    Exit.FINDING: "a cell breaks a verdict (a call dropped, run wrongly, replayed unfaithfully "
    "or invalid as input), on the scenario alone or on its clean twin too (not judged)",
    Exit.USAGE: "unusable arguments (an unknown client, a command without {base_url})",
    Exit.NO_RESPONSE: "a client was not run or sent no request: nothing was judged",
}


def register(subparsers: Subparsers) -> None:
    """Add ``agents`` to the command set."""
    parser = command_parser(
        subparsers,
        "agents",
        description="Run real agents, agent libraries or gateways against 'responses-oracle "
        "serve', one run per scenario, each in a fresh temporary HOME and in its sandbox, "
        "and report serve's three verdicts per scenario call: executed, history-faithful, "
        "API-valid (docs/usage/agents.md; the recorded results: docs/real-agents.md). A "
        "CLIENT is a built-in profile (--list shows them) or your own command with "
        "{base_url} in it. Install the built-in clients with tools/record_agents.py "
        "--install.",
        examples=(
            "agents openai-agents --scenario q10 --scenario s02",
            "agents codex opencode --html report.html",
            "agents 'python my_app.py {base_url}' --scenario s01 --json",
            "agents codex --scenario q07 --via-proxy",
            "agents --list",
        ),
        run=run,
        exit_status=AGENTS_EXIT,
    )
    parser.add_argument("clients", nargs="*", metavar="CLIENT",
                        help="a profile name, or a command with {base_url}")
    parser.add_argument("--scenario", action="append", default=[], metavar="S",
                        help="a scenario of the list, a quirk (q05), a stream file or a "
                        "vector name; repeatable (default: the whole built-in list)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--html", metavar="FILE", help="write the HTML report to FILE")
    parser.add_argument("--out", metavar="DIR",
                        help="keep each run's requests, verdicts and logs under DIR: "
                        "DIR/CLIENT/SCENARIO/, the clean twin's in its twin/ folder")
    parser.add_argument("--timeout", type=float, metavar="SECONDS",
                        help="a client's timeout (default: its profile's)")
    parser.add_argument("--tool", nargs=2, action="append", default=[],
                        metavar=("NAME", "JSON"),
                        help="for your own command: a tool it offers and the arguments "
                        "serve sends it (serve --tool NAME --args JSON)")
    parser.add_argument("--via-proxy", action="store_true",
                        help="put 'responses-oracle proxy' between serve and each agent: "
                        "does the repaired stream make the verdicts hold? (cells named "
                        "'CLIENT via proxy'; not for gateways)")
    parser.add_argument("--list", action="store_true", help="list the profiles and scenarios")


def custom_profile(command: str, tools: list[list[str]]) -> Profile:
    """A profile for a user's own command (split as a shell would, never run by one)."""
    from responses_oracle.agents.profiles import Install, Profile

    if "{base_url}" not in command:
        raise CliError(
            f"{command!r} is no profile name and has no {{base_url}}: name a profile "
            "(--list) or put {base_url} where your client takes the endpoint"
        )
    return Profile(
        name=command, kind="agent", package="", version="", install=Install("project", "", ()),
        command=tuple(shlex.split(command)), driven="your command", sandbox="yours",
        tools=tuple((name, args) for name, args in tools),
    )


def _listing() -> None:
    from responses_oracle.agents.profiles import PROFILES
    from responses_oracle.agents.scenario_list import builtin

    for profile in PROFILES:
        state = "installed" if profile.install.installed() else "not installed"
        print(f"{profile.name:<18} {profile.kind:<8} {profile.package} {profile.version} "
              f"({state})")
    print()
    for scenario in builtin():
        print(f"{scenario.name:<62} {scenario.what}")
        deviations = ", ".join(d.name for d in scenario.deviations) or "none (the base)"
        print(f"{'':<4}deviations: {deviations}")
        if not scenario.counted:
            print(f"{'':<4}robustness row, never counted: {scenario.robustness}")


def run(args: argparse.Namespace) -> int:
    """Run every client on every scenario and report."""
    from dataclasses import replace

    from responses_oracle.agents.profiles import BY_NAME
    from responses_oracle.agents.report import headline, page, terminal, to_json, write_timelines
    from responses_oracle.agents.runner import PROXY, run_client
    from responses_oracle.agents.scenario_list import builtin, resolve

    if args.list:
        _listing()
        return Exit.OK
    if not args.clients:
        raise CliError("name at least one CLIENT (--list shows the profiles)")
    profiles = [BY_NAME.get(name) or custom_profile(name, args.tool) for name in args.clients]
    if args.timeout:
        profiles = [replace(p, timeout=args.timeout) for p in profiles]
    gateways = [p.name for p in profiles if p.gateway]
    if args.via_proxy and gateways:
        raise CliError(f"--via-proxy puts the proxy before agents; {', '.join(gateways)} "
                       "is a gateway")
    scenarios = resolve(args.scenario) if args.scenario else builtin()
    cells: list[Cell] = []
    arguments = {s.argument(): s.name for s in scenarios}

    def judged(cell: Cell) -> None:
        cell.scenario = arguments.get(cell.scenario, cell.scenario)
        if cell.twin is not None:
            cell.twin.scenario = cell.scenario
        cells.append(cell)

    with tempfile.TemporaryDirectory(prefix="ro-agents-") as scratch:
        out = Path(args.out) if args.out else Path(scratch)
        proxy = PROXY if args.via_proxy else None
        try:
            for profile in profiles:
                run_client(profile, list(arguments), out, proxy=proxy, done=judged)
        except KeyboardInterrupt:
            # The runner ended its processes on the way out; show what was judged.
            print(terminal(cells) if cells else "no cell was judged\n", end="")
            print("interrupted: the cells above were judged before Ctrl-C", flush=True)
            return Exit.INTERRUPTED
        if args.html:
            target = Path(args.html)
            folder = target.parent / f"{target.stem}-timelines"
            links = write_timelines(cells, folder)
            target.write_text(page(cells, lambda n: (
                f"{folder.name}/{links[n]}" if n in links else None)), encoding="utf-8")
    if args.json:
        write_json(to_json(cells), indent=1)
    else:
        print(terminal(cells), end="")
    verdict = headline(cells)
    if verdict.startswith(("FAIL", "NOT JUDGED")):
        return Exit.FINDING
    if verdict.startswith("NOT RUN"):
        return Exit.NO_RESPONSE
    return Exit.OK
