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

The answer is what the client can do with it: the items, their payloads and whether
each call may run.  A difference that changes none of that is reported (``uncounted``,
each with ``because``) and not counted (``uncounted_because``):

- a response id of the gateway's own: LiteLLM's proxy mints one, so that a later
  ``previous_response_id`` finds its way back to the upstream;
- a status of the same meaning: neither side ``completed``, so nothing in the response
  may run (R9; ``model/execution.py`` gate 2).  LiteLLM ends a cut upstream with an
  explicit ``response.failed``, where the oracle's status for a stream with no terminal
  is ``interrupted``: both say "run nothing".  ``completed`` on one side only counts.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from responses_oracle.model.vocabulary import ResponseStatus
from responses_oracle.testing.compare import Aspect
from responses_oracle.words import counted

from .request_schema import item_problems
from .verdicts import ANSWER_KEPT


@dataclass(frozen=True)
class GatewayVerdict:
    """The downstream comparison of one scenario."""

    value: bool
    reason: str
    differences: tuple[dict[str, Any], ...]
    downstream_responses: int
    upstream_problems: tuple[str, ...]
    uncounted: tuple[dict[str, Any], ...] = ()
    """The differences that change nothing the client can do (``uncounted_because``),
    each with its ``because``: reported, not counted."""

    def to_dict(self) -> dict[str, Any]:
        """As ``verdicts.json`` writes it, under the scenario's ``gateway``."""
        return {
            ANSWER_KEPT: self.value,
            "reason": self.reason,
            "differences": list(self.differences),
            "downstream_responses": self.downstream_responses,
            "upstream_problems": list(self.upstream_problems),
            "uncounted": list(self.uncounted),
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
            "downstream": d.answer,
            "rule": d.rule,
            "why": d.why,
        }
        for d in compare(list(served_events), oracle, received)
    )
    uncounted = tuple(
        {**d, "because": because} for d in found if (because := uncounted_because(d))
    )
    differences = tuple(d for d in found if not uncounted_because(d))
    problems = tuple(_request_problems(upstream_request))
    if differences:
        first = differences[0]
        reason = (
            f"{counted(len(differences), 'difference')}; first: {first['path']} is "
            f"{quoted(first['downstream'])} downstream, {quoted(first['upstream'])} in the "
            f"served answer ({first['rule']}: {first['why']})"
        )
    elif problems:
        reason = f"the request forwarded upstream is invalid: {problems[0]}"
    else:
        reason = (
            f"the downstream reduces to the served answer ({counted(len(received), 'response')})"
            if not uncounted
            else f"the downstream keeps the served answer ({counted(len(received), 'response')}: "
            "the same items, payloads and executability)"
        )
    for because in dict.fromkeys(d["because"] for d in uncounted):
        reason += f"; {because} (reported, not counted)"
    ok = not differences and not problems
    return GatewayVerdict(ok, reason, differences, len(received), problems, uncounted)


def uncounted_because(difference: Mapping[str, Any]) -> str:
    """Why a difference changes nothing the client can do (the module docstring), or
    ``""`` when it counts."""
    if difference["aspect"] == Aspect.RESPONSE_ID.value:
        return "the gateway gave a response an id of its own"
    if difference["aspect"] == Aspect.STATUS.value and COMPLETED not in (
        difference["upstream"],
        difference["downstream"],
    ):
        return (
            f"status {difference['downstream']} downstream, {difference['upstream']} "
            f"served: neither completed, so nothing in it may run ({difference['rule']})"
        )
    return ""


COMPLETED: Final = ResponseStatus.COMPLETED.value
"""The one status under which a response's calls may run (R9, execution gate 2)."""


SHOWN: Final = 60
"""Characters of a differing value a reason quotes (a gateway's minted id can be long)."""


def quoted(value: Any) -> str:
    """A value as a reason quotes it (a differing one, an output): its JSON, cut at
    ``SHOWN`` characters."""
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
