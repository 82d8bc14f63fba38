"""Measure the unedited relay against its own refinement on generated hostile streams.

Run from the checkout (under ``nice``: a seed takes about 10 ms, 2,500 seeds half a
minute)::

    nice -n 15 python tools/relay_hostile.py 2500-4999      # the fresh range of #39 part 1
    nice -n 15 python tools/relay_hostile.py 1000-2499 --json failures.json

Prints the verdict first (``12 of 2500 seeds fail``), then the failing seeds grouped by
the rules they break, each group with its shortest stream (the one to reproduce), its
edits (``streamgen`` labels) and its first problem.  Exit codes: 0 every seed refines,
1 some fail, 2 bad arguments, 130 interrupted, 141 closed pipe.

Theory of operation
-------------------
Each seed is ``streamgen.edits.edited_stream(RandomChooser(seed))`` -- the generator
``tests/proxy/test_silent.py`` pins seeds of -- played through a ``Relay`` with
``data: [DONE]`` after it and judged by ``proxy.relay_refinement.check`` (rules 1-9).
Nothing is decided here: a failure is what ``check`` says, grouped by the rule numbers
its problems name, so a stream that breaks rules 2 and 9 is its own group.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterable

from responses_oracle.proxy.relay_refinement import check
from responses_oracle.streamgen.choices import RandomChooser
from responses_oracle.streamgen.edits import edited_stream

EXAMPLES = """examples:
  nice -n 15 python tools/relay_hostile.py 2500-4999
  nice -n 15 python tools/relay_hostile.py 0-299 --json /tmp/failures.json

exit codes: 0 every seed refines, 1 some fail, 2 bad arguments, 130 interrupted,
141 closed pipe
"""


def failures(seeds: Iterable[int]) -> dict[int, list[str]]:
    """The seeds whose stream the relay fails its refinement on, with the problems."""
    found = {}
    for seed in seeds:
        problems = check(list(edited_stream(RandomChooser(seed)).events), [], sentinel=True)
        if problems:
            found[seed] = problems
    return found


def groups(found: dict[int, list[str]]) -> dict[str, list[int]]:
    """The failing seeds by the rules their problems name (``rule 1+8``)."""
    grouped: dict[str, list[int]] = {}
    for seed, problems in found.items():
        rules = sorted({int(m.group(1)) for p in problems if (m := re.match(r"rule (\d+)", p))})
        grouped.setdefault("rule " + "+".join(map(str, rules)), []).append(seed)
    return grouped


def _seeds(text: str) -> range:
    """``A-B`` (both included) as a range."""
    first, _, last = text.partition("-")
    try:
        return range(int(first), int(last or first) + 1)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a seed range: {text!r} (say 2500-4999)") from None


def main(argv: list[str] | None = None) -> int:
    """Measure, print, and say by the exit code whether any seed failed."""
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("seeds", type=_seeds, help="seeds to measure, A-B (both included)")
    parser.add_argument("--json", metavar="FILE", help="also write every failure to FILE")
    args = parser.parse_args(argv)
    found = failures(args.seeds)
    print(f"{len(found)} of {len(args.seeds)} seeds fail")
    for name, seeds in sorted(groups(found).items(), key=lambda kv: -len(kv[1])):
        sizes = {s: len(edited_stream(RandomChooser(s)).events) for s in seeds}
        shortest = min(seeds, key=lambda s: (sizes[s], s))
        labels = ", ".join(edited_stream(RandomChooser(shortest)).labels)
        print(f"\n{name}: {len(seeds)} ({', '.join(map(str, sorted(seeds)))})")
        print(f"  shortest: seed {shortest}, {sizes[shortest]} events ({labels})")
        print(f"  {found[shortest][0]}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(found, out, indent=1)
    return 1 if found else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(141)
