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

A gateway may replace the upstream's response id with one of its own
(``OWN_ID_ASPECTS``): LiteLLM's proxy does, so that a later ``previous_response_id``
finds its way back to the upstream.  The client loses nothing by it, so it is reported
(``rewritten``) and not counted: the items, their order, their states and the response's
status are the answer.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from responses_oracle.testing.compare import Aspect
from responses_oracle.words import counted

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
    rewritten: tuple[dict[str, Any], ...] = ()
    """The differences a gateway makes by design (``OWN_ID_ASPECTS``): not counted."""

    def to_dict(self) -> dict[str, Any]:
        """As ``verdicts.json`` writes it, under the scenario's ``gateway``."""
        return {
            ANSWER_KEPT: self.value,
            "reason": self.reason,
            "differences": list(self.differences),
            "downstream_responses": self.downstream_responses,
            "upstream_problems": list(self.upstream_problems),
            "rewritten": list(self.rewritten),
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
    found = tuple(
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
    rewritten = tuple(d for d in found if d["aspect"] in OWN_ID_ASPECTS)
    differences = tuple(d for d in found if d["aspect"] not in OWN_ID_ASPECTS)
    problems = tuple(_request_problems(upstream_request))
    if differences:
        first = differences[0]
        reason = (
            f"{counted(len(differences), 'difference')}; first: {first['path']} is "
            f"{_shown(first['downstream'])} downstream, {_shown(first['upstream'])} in the "
            f"served answer ({first['rule']}: {first['why']})"
        )
    elif problems:
        reason = f"the request forwarded upstream is invalid: {problems[0]}"
    else:
        reason = (
            f"the downstream reduces to the served answer ({counted(len(received), 'response')})"
        )
    if rewritten:
        reason += (
            f"; the gateway gave {counted(len(rewritten), 'response')} an id of its own "
            "(reported, not counted)"
        )
    ok = not differences and not problems
    return GatewayVerdict(ok, reason, differences, len(received), problems, rewritten)


OWN_ID_ASPECTS: Final = frozenset({Aspect.RESPONSE_ID.value})
"""Differences a gateway makes by design, reported and not counted: a response id of
its own in place of the upstream's (the module docstring)."""


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
