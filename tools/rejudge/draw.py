"""Draw the counted ✗ cells to re-judge (#42's first Done-when), with a recorded seed.

The pool: every cell of ``docs/real-agents.json`` recorded on the current scenario
list (its ``scenario_list`` is ``real_agents.list_digest()``) whose outcome the page
counts as harm (``report.COUNTED``: broken, and proxy regression behind the proxy).
The draw: ``random.Random(SEED).sample(pool, 16)`` over the pool sorted by
(client, scenario), so the same page and seed give the same cells.  This is the only
script here that imports the project: it asks the page's own rule which cells count.

    python tools/rejudge/draw.py --seed 4242 > /tmp/pages/draw.json
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--count", type=int, default=16)
    parser.add_argument("--page", type=Path, default=Path("docs/real-agents.json"))
    args = parser.parse_args()
    cells = pool(json.loads(args.page.read_text()))
    drawn = random.Random(args.seed).sample(cells, min(args.count, len(cells)))
    json.dump({"seed": args.seed, "scenario_list": list_digest(), "pool": len(cells),
               "pool_cells": [f"{c['client']}/{c['scenario']}" for c in cells],
               "drawn": drawn}, sys.stdout, indent=1, ensure_ascii=False)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
