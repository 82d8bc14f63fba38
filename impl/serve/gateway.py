"""Gateway mode: ``serve`` is a gateway's upstream; does the gateway keep the answer?

Client → gateway → ``serve``.  ``serve`` knows the stream it sent upstream; the client
records what the gateway sent it downstream (the raw bytes, any format the front end
reads) and hands that recording back (``Running.record_downstream`` in-process, or
``POST /serve/downstream`` with the bytes as the body and ``?scenario=N``, default the
last served).  Both are reduced by the oracle and compared with the differential
harness's own comparison (``testing.compare.compare``, modulo minted ids: an id the
gateway mints for an item without one matches the oracle's minted id); every
difference names its rule.  The requests the gateway forwarded upstream are what
``serve`` received, so the ordinary verdicts (``api_valid`` above all) already judge
them; ``upstream_problems`` adds the first request's own input items.

Verdict ``answer_kept`` (``verdicts.GATEWAY_VERDICT``): no difference.  Not recorded: the
verdict is absent (``None``), the scenario was not judged as a gateway's.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from .schema import item_problems
from .verdicts import ANSWER_KEPT


@dataclass(frozen=True)
class GatewayVerdict:
    """The downstream comparison of one scenario."""

    value: bool
    reason: str
    differences: tuple[dict[str, Any], ...]
    downstream_responses: int
    upstream_problems: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        """As ``verdicts.json`` writes it, under the scenario's ``gateway``."""
        return {
            ANSWER_KEPT: self.value,
            "reason": self.reason,
            "differences": list(self.differences),
            "downstream_responses": self.downstream_responses,
            "upstream_problems": list(self.upstream_problems),
        }


def compare_downstream(
    served_events: Sequence[Mapping[str, Any]],
    downstream: bytes,
    upstream_request: Mapping[str, Any] | None = None,
) -> GatewayVerdict:
    """Reduce both sides and compare: the answer the gateway's client gets must be the
    answer of the stream ``serve`` sent (plus the first forwarded request's items)."""
    from responses_oracle.reducer import reduce
    from responses_oracle.testing.compare import compare

    oracle = [result.to_dict() for result in reduce(list(served_events))]
    received = [result.to_dict() for result in reduce(downstream)]
    differences = tuple(
        {
            "aspect": d.aspect.value,
            "path": d.path,
            "upstream": d.oracle,
            "downstream": d.candidate,
            "rule": d.rule,
            "why": d.why,
        }
        for d in compare(list(served_events), oracle, received)
    )
    problems = tuple(_request_problems(upstream_request))
    if differences:
        first = differences[0]
        reason = (
            f"{len(differences)} difference(s); first: {first['path']} is "
            f"{_shown(first['downstream'])} downstream, {_shown(first['upstream'])} in the "
            f"served answer ({first['rule']}: {first['why']})"
        )
    elif problems:
        reason = f"the request forwarded upstream is invalid: {problems[0]}"
    else:
        reason = f"the downstream reduces to the served answer ({len(received)} response(s))"
    ok = not differences and not problems
    return GatewayVerdict(ok, reason, differences, len(received), problems)


SHOWN: Final = 60
"""Characters of a differing value a reason quotes (a gateway's minted id can be long)."""


def _shown(value: Any) -> str:
    """A differing value as a reason quotes it: its JSON, cut at ``SHOWN`` characters."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= SHOWN else text[: SHOWN - 1] + "…"


def _request_problems(request: Mapping[str, Any] | None) -> list[str]:
    body = request.get("body") if request is not None else None
    if not isinstance(body, Mapping) or not isinstance(body.get("input"), list):
        return []
    store = body.get("store") is not False
    return [
        f"input[{n}]: {problem}"
        for n, item in enumerate(body["input"])
        for problem in item_problems(item, store)
    ]
