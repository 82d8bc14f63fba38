"""``responses-oracle explain FILE --html OUT.html``: write the stream's timeline page.

The input is read as every command reads it (``cli.common.InputSession``: format
detection, limits, standard input), reduced with traces once, and drawn; the exit status
is the one ``reduce`` would give (``Tally``).  The page is written whole or not at all:
an unwritable ``OUT.html`` is a ``CliError`` (exit status 2), raised before the input is
read when the link template is wrong.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from responses_oracle.cli.common import STDIN, CliError, InputSession, Tally

from .build import build_timeline
from .page import check_rule_url, render_timeline


def write_page(args: argparse.Namespace) -> int:
    """Reduce the one FILE (or standard input), write its timeline to ``args.html``; the
    exit status."""
    try:
        check_rule_url(args.rules_url)
    except ValueError as error:
        raise CliError(f"invalid --rules-url: {error}") from None
    files = args.files or [STDIN]
    if len(files) > 1:
        raise CliError("--html draws one stream: give one FILE")
    out = Path(args.html)
    with InputSession(args, files[0]) as session:
        timeline = build_timeline(session.events(), limits=session.limits)
        page = render_timeline(timeline, title=session.name, rule_url=args.rules_url)
    try:
        out.write_text(page, encoding="utf-8")
    except OSError as error:
        raise CliError(f"cannot write {out}: {error.strerror or error}") from None
    tally = Tally()
    for result in timeline.results:
        tally.add(result)
    if not timeline.results:
        tally.no_response(session.name)
    if not args.quiet:
        print(
            f"wrote {out}: {len(timeline.payloads)} events, {len(timeline.responses)} "
            "responses",
            file=sys.stderr,
        )
    return tally.exit_status()
