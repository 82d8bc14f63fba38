"""The DESIGN rules by name, and which rule each diagnostic code reports on.

A divergence report explains itself by rule: the field that differs names one rule
(``compare.py``), and the codes the oracle raised on the stream name the others in
play.  ``RULES`` holds the one-line summary of each rule, R1 to the last; ``CODE_RULES``
maps every ``Code`` to the rule whose clause raises it, read from the code table
(``model.vocabulary.CODES``).
"""

from __future__ import annotations

from collections.abc import Iterable

from responses_oracle.model.vocabulary import CODES, Code

RULES: dict[str, str] = {
    "R1": "dispatch on the JSON type; keepalive is a no-op; unknown and undecodable "
    "events are reported and skipped, never fatal",
    "R2": "output_index routes, item_id is secondary, call_id never routes a payload; "
    "name comes from the item",
    "R3": "a slot's first binding holds for the whole response; done leaves a tombstone; "
    "a second item at a bound slot is kept and the slot becomes shared",
    "R4": "every id an entry was seen with is an alias of it for the whole response",
    "R5": "payload events route by slot, then by item id; ambiguous events are rejected, "
    "unroutable ones dropped, never guessed onto a call",
    "R6": "items are admitted once and matched by slot, call_id, then id; done-only and "
    "snapshot-only items are recovered; first admission wins; a missing id is taken from "
    "item_id, then from the slot's events",
    "R7": "per payload the latest non-empty offer wins; empty never erases; payloads "
    "are opaque strings",
    "R8": "lifecycle added -> streaming -> payload_done -> done -> completed; nothing "
    "reopens a done entry",
    "R9": "the response status follows its terminal event; a call is executable iff the "
    "response completed and the call was confirmed",
    "R10": "output items are ordered by slot, then admission",
    "R11": "an entry that never carried an id gets a deterministic minted id",
    "R12": "replay turns the result into the next request's input items",
    "R13": "a call is executable only when every gate holds: a client-run type, a "
    "completed response, confirmed, a call_id, no answer in the response, a client tool",
    "R14": "an input may hold several responses; the boundary table says which event "
    "opens one and ends the one held",
    "R15": "an annotation event adds its annotation to the output_text part it names, "
    "at its index, while the item is open",
}
"""Each rule in one line (the rule pages, ``docs/rules/``, say them in full)."""

RULE_RANGE = f"R1-R{len(RULES)}"
"""How every text names the whole set of rules ("the rules R1-R15")."""

CODE_RULES: dict[Code, str] = {code: spec.rule for code, spec in CODES.items()}
"""The rule each diagnostic code reports on: the rule column of ``model.vocabulary.CODES``."""


def rules_of_codes(codes: Iterable[str]) -> list[str]:
    """The rules behind contract code names, in rule order, each once."""
    by_name = {code.value: rule for code, rule in CODE_RULES.items()}
    found = {by_name[name] for name in codes if name in by_name}
    return sorted(found, key=lambda rule: int(rule[1:]))
