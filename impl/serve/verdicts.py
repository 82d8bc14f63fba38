"""The verdicts, declared once: name, rule, meanings -- three per scenario call, and
one per scenario in gateway mode.

Every report (``verdicts.json``, the ``agents`` pages) reads this table; none restates
it.  A verdict is ``True`` (holds), ``False`` (fails) or ``None`` (does not apply), and
always carries a reason; the judge (``judge.py``) decides, this module only names.

=================  =====  ===========================================================
verdict            rule   holds when
=================  =====  ===========================================================
executed           R13    an executable call ran with the oracle's arguments (its
                          output shows the marker of those arguments, or the tool
                          does not echo and an output answers it), and a call the
                          oracle says is not executable did not run
history_faithful   R12    the next request replays the call under a ``call_id`` the
                          provider gave it, paired with its output, with its ``name``
                          and arguments JSON-equal to what ran; its ``id`` one the
                          provider gave it (absent allowed unless it follows a
                          replayed reasoning item).  Another of the provider's ids,
                          or other bytes of JSON-equal arguments, is a note
api_valid          R12    the call and its output in the next request validate
                          against the published request schema (``request_schema.py``) under
                          the request's ``store`` mode
answer_kept        --     (gateway mode, per scenario) the gateway's client can do
                          what the answer of the stream ``serve`` sent upstream
                          lets it do: the same items, payloads and executability;
                          each difference names its rule (a response id of the
                          gateway's own, or a status of the same meaning, is
                          reported, not counted)
=================  =====  ===========================================================
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final


class VerdictName(Enum):
    """The verdicts of one call; the values are the keys of ``verdicts.json``."""

    EXECUTED = "executed"
    HISTORY_FAITHFUL = "history_faithful"
    API_VALID = "api_valid"


@dataclass(frozen=True)
class VerdictSpec:
    """What a verdict checks: the rule it applies, when it holds, when it does not apply."""

    rule: str
    holds: str
    not_applicable: str


VERDICTS: Final[dict[VerdictName, VerdictSpec]] = {
    VerdictName.EXECUTED: VerdictSpec(
        "R13",
        "an executable call ran with the oracle's arguments; a call that is not "
        "executable did not run",
        "the call is not executable and its tool does not show what ran",
    ),
    VerdictName.HISTORY_FAITHFUL: VerdictSpec(
        "R12",
        "the next request replays the call under a call_id the provider gave it, paired "
        "with its output, with its name and arguments JSON-equal to what ran, and an id "
        "the provider gave it (absent allowed unless it follows a replayed reasoning item "
        "of its response); another of the provider's ids, or other bytes of JSON-equal "
        "arguments, is a note, not a failure",
        "no next request (the call was dropped), the client sends its history by "
        "previous_response_id, or a call that may not run was neither replayed nor "
        "answered (nothing to pair)",
    ),
    VerdictName.API_VALID: VerdictSpec(
        "R12",
        "the replayed call and its output validate against the published request "
        "schema under the request's store mode",
        "no next request, or it carries neither the call nor its output",
    ),
}
"""Verdict → its rule and meanings (the module's table, cell by cell)."""

ANSWER_KEPT: Final = "answer_kept"
"""The gateway verdict's key in ``verdicts.json`` (per scenario, gateway mode only)."""

GATEWAY_VERDICT: Final = VerdictSpec(
    "each difference names its own rule",
    "through a gateway, the client's stream reduces to the answer of the stream serve "
    "sent upstream as far as the client can tell: the same items, payloads and "
    "executability (a response id of the gateway's own, or another status under which "
    "nothing may run, is reported, not counted), and the first request forwarded "
    "upstream is valid input",
    "no downstream recording was handed back (not a gateway run)",
)
"""What ``answer_kept`` checks (``gateway.py``); not one of a call's verdicts."""

ID_RULE: Final = "R6"
"""The rule that decides which ``call_id`` a call keeps (identity is fixed at
confirmation; a later item with another ``call_id`` does not rename the call): what a
reason names when a client answered a call under another one (``judge.py`` rule 4)."""

RULE_PAGES: Final = "docs/rules/{rule}.md"
"""Where a verdict's rule is explained (the docs site)."""
