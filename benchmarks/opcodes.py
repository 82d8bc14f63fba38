"""Where one event's bytecode goes: Python opcodes per event, by function, in ``reduce``.

Run from the repository root, with the package installed::

    python benchmarks/opcodes.py                 # 2,000 and 6,000 events
    python benchmarks/opcodes.py --events 1000,4000

``reduce`` of the benchmark stream (``streams.generate``) as JSON Lines, with the json
module alone (``RESPONSES_ORACLE_JSON=stdlib``), is traced with ``sys.settrace`` and
opcode events; the count of each function at the larger size less the count at the
smaller, over the events apart, is its steady-state share of an event (start-up and
the per-response work cancel out).  Exact and stable on a loaded machine, unlike time;
an opcode is not an instruction (callgrind's figures are in ``ratios.py``), but it is
what the driver's per-event path is made of.  Prints one line a function (those of half
an opcode an event or more), most first, then the total.  Nothing here is asserted by
a test.  Exit status 0.
"""

from __future__ import annotations

import argparse
import collections
import os
import sys
from pathlib import Path
from types import FrameType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ["RESPONSES_ORACLE_JSON"] = "stdlib"

from responses_oracle import reduce
from streams import generate


def opcodes(events: int) -> collections.Counter[str]:
    """Opcodes executed in each function by ``reduce`` of ``events`` events."""
    data = b"".join(text + b"\n" for text in generate(events).texts)
    counts: collections.Counter[str] = collections.Counter()

    def tracer(frame: FrameType, event: str, arg: Any) -> Any:
        frame.f_trace_opcodes = True
        if event == "opcode":
            counts[frame.f_code.co_name] += 1
        return tracer

    sys.settrace(tracer)
    try:
        reduce(data)
    finally:
        sys.settrace(None)
    return counts


def main(argv: list[str] | None = None) -> int:
    """Print the opcodes an event costs, by function."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument(
        "--events", default="2000,6000", help="the two stream sizes, SMALL,LARGE"
    )
    args = parser.parse_args(argv)
    small, large = (int(n) for n in args.events.split(","))
    before, after = opcodes(small), opcodes(large)
    share = {name: (after[name] - before[name]) / (large - small) for name in after}
    for name, per_event in sorted(share.items(), key=lambda item: -item[1]):
        if per_event >= 0.5:
            print(f"{per_event:7.1f}  {name}")
    print(f"{sum(share.values()):7.1f}  opcodes an event in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
