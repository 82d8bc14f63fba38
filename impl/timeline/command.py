"""``responses-oracle explain FILE --html OUT.html``: write the stream's timeline page.

The input is read as every command reads it (``cli.common.InputSession``: format
detection, limits, standard input), reduced with traces once, and drawn; the exit status
is the one ``reduce`` would give (``Tally``), and an input that is no stream gets no
page.  The page is written whole or not at all: an unwritable ``OUT.html`` is a
``CliError`` (exit status 2), raised before the input is read when the link template is
wrong.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from responses_oracle.cli.common import STDIN, CliError, InputSession, Tally
from responses_oracle.words import counted

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
    tally = Tally()
    with InputSession(args, files[0]) as session:
        timeline = build_timeline(session.events(), limits=session.limits)
        reason = session.check.verdict(timeline.results)
        if reason is not None:
            tally.not_a_stream(session.name, reason)
            return tally.exit_status()
        page = render_timeline(timeline, title=session.name, rule_url=args.rules_url)
    try:
        out.write_text(page, encoding="utf-8")
    except OSError as error:
        raise CliError(f"cannot write {out}: {error.strerror or error}") from None
    for result in timeline.results:
        tally.add(result)
    if not args.quiet:
        events, responses = len(timeline.payloads), len(timeline.responses)
        print(
            f"wrote {out}: {counted(events, 'event')}, {counted(responses, 'response')}",
            file=sys.stderr,
        )
    return tally.exit_status()
