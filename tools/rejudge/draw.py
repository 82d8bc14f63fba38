"""Draw the counted ✗ cells to re-judge (#42's first Done-when), with a recorded seed.

The pool: every cell of ``docs/real-agents.json`` recorded on the current scenario
list (its ``scenario_list`` is ``real_agents.list_digest()``) whose outcome the page
counts as harm (``report.COUNTED``: broken, and proxy regression behind the proxy).
The draw: ``random.Random(SEED).sample(pool, 16)`` over the pool sorted by
(client, scenario), so the same page and seed give the same cells.  This is the only
script here that imports the project: it asks the page's own rule which cells count.

Each drawn cell says whether ``docs/rejudgement.json`` already judges it, and how:
``judged`` is the verdict and where it was given (the first draw's number, the page
after the fixes, or the second section, judged after the re-recording), or null when
nobody has re-run it yet.  So a new draw on the final page says at once how many of its
cells are known to hold and which still need a re-run.

    python tools/rejudge/draw.py --seed 4242 > /tmp/pages/draw.json
    python tools/rejudge/draw.py --seed 4242 --page /path/to/real-agents.json

Exit status: 0 every drawn cell is judged, 1 some drawn cell is not, 2 bad arguments.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

from responses_oracle.agents.report import COUNTED
from responses_oracle.docsite.real_agents import (
    SCENARIO_LIST,
    _direct,
    _outcome,
    list_digest,
)


def pool(page: dict) -> list[dict]:
    """Every counted cell on the current scenario list, sorted by (client, scenario)."""
    digest = list_digest()
    found = []
    for client in page["clients"]:
        for key in ("cells", "proxy_cells"):
            for cell in client.get(key, []):
                if cell.get(SCENARIO_LIST) != digest:
                    continue
                direct = _direct(client, cell) if key == "proxy_cells" else None
                shown = _outcome(cell, direct)
                if shown in COUNTED:
                    found.append({"client": cell["client"], "scenario": cell["scenario"],
                                  "outcome": shown, "causes": cell.get("causes"),
                                  "reason": cell.get("reason", "")})
    return sorted(found, key=lambda x: (x["client"], x["scenario"]))


RECORD = Path(__file__).resolve().parents[2] / "docs" / "rejudgement.json"


def judgements(record: dict) -> dict[tuple[str, str], str]:
    """(client, scenario) -> how the record judges it, the latest judgement winning.

    The first draw's verdicts come first, then the page after the fixes, then the
    cells judged after the re-recording, so a cell judged again reads its last verdict.
    """
    found: dict[tuple[str, str], str] = {}
    for c in record["cells"]:
        found[c["client"], c["scenario"]] = f"{c['verdict']} (first draw, #{c['n']})"
    for c in record["after_fixes"]["cells"]:
        found[c["client"], c["scenario"]] = f"{c['verdict']} (the page after the fixes)"
    for c in record.get("after_rerecording", {}).get("cells", []):
        found[c["client"], c["scenario"]] = f"{c['verdict']} (judged after the re-recording)"
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, required=True, help="the draw's seed (recorded)")
    parser.add_argument("--count", type=int, default=16, help="cells to draw (default 16)")
    parser.add_argument("--page", type=Path, default=Path("docs/real-agents.json"),
                        help="the Real agents record to draw from")
    parser.add_argument("--record", type=Path, default=RECORD,
                        help="the re-judgement record that says which cells are judged")
    args = parser.parse_args()
    cells = pool(json.loads(args.page.read_text()))
    drawn = random.Random(args.seed).sample(cells, min(args.count, len(cells)))
    known = judgements(json.loads(args.record.read_text(encoding="utf-8")))
    for cell in drawn:
        cell["judged"] = known.get((cell["client"], cell["scenario"]))
    unjudged = [c for c in drawn if c["judged"] is None]
    holding = [c for c in drawn if c["judged"] and c["judged"].startswith("holds")]
    json.dump({"seed": args.seed, "scenario_list": list_digest(), "pool": len(cells),
               "pool_cells": [f"{c['client']}/{c['scenario']}" for c in cells],
               "summary": f"{len(holding)} of {len(drawn)} drawn cells are judged to hold; "
                          f"{len(unjudged)} not judged yet",
               "drawn": drawn}, sys.stdout, indent=1, ensure_ascii=False)
    print()
    return 1 if unjudged else 0


if __name__ == "__main__":
    sys.exit(main())
