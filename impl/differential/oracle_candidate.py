"""The reference parser itself as a protocol candidate: ``--candidate oracle``.

Run as ``python -m responses_oracle.differential.oracle_candidate``.  Comparing the oracle
with itself through the whole protocol must find nothing; that is how the harness, the
protocol and the vectors are tested end to end, and a template for a Python candidate.
"""

from __future__ import annotations

from typing import Any

from responses_oracle import reduce

from .candidate import serve


def parse(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The result contract of every response in ``events``."""
    return [result.to_dict() for result in reduce(events)]


if __name__ == "__main__":
    serve(parse)
