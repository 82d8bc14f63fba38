"""The divergence taxonomy: how a parser's answer can differ from the reference, by harm.

A differential run compares another parser's results with the reference's (the result
contract, docs/model).  A raw difference ("``items[1].item.id`` differs") says *where*;
a maintainer needs to know *what it does to the user of the parser*: will a tool run
that the model never asked for, will a call the model confirmed be lost, or is the
difference harmless bookkeeping?  This module names those consequences once, in the
model's vocabulary, and ranks them.

Rule 1: every class a differential tool, audit or report can name is a member of
``Divergence``; its value is the contract string (JSON reports, ``--allow``), so
renaming a value is a breaking change: add members, rename none.

Rule 2: ``HARM`` is the one ranking.  A case with several classes is of its most
harmful one; a cluster of cases counts its cases per class and reads as the class of
its representative, so a cluster never claims a harm most of its streams do not do.

The words used below are the model's (docs/model, R9): a *call* is an item of a type
the catalogue marks ``client_call``; a call is *executable* when its response completed
and the call was confirmed (a ``*.done``, an ``output_item.done`` or the snapshot);
*invalid input* is a stream on which the reference raised an error-severity diagnostic,
which did not end ``completed``, or which has an event the API's event types do not
allow (a required field missing); a *flagged* stream is a valid one on which it raised
a warning (``RAISED``, ``NOT_FLAGGING``).  Nothing here has behaviour; the classifier that
picks a class for a difference is ``responses_oracle.differential.taxonomy``.

Rule 3: a ``Hypothesis`` names a policy a client may follow instead of the rules (it
answers the terminal snapshot verbatim, say); ``HYPOTHESES`` gives each the rule it
breaks and the sentence a report says of it.  A differential run names a hypothesis as
the cause of a cluster only when, on every case, the client's answer is the
hypothesis's wherever the cluster's cause differs from the reference's
(``responses_oracle.differential.hypotheses`` computes those answers).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from responses_oracle.model.vocabulary import Code, Severity


class Divergence(Enum):
    """One class of difference between a parser's answer and the reference's."""

    WRONG_TOOL_RUN = "wrong_tool_run"
    """An executable call whose tool (``name``, ``namespace``, type) or arguments (as
    JSON values) differ, or whose ``call_id`` differs along with one of them: the user's
    tool runs with the wrong function or input."""
    CALL_INVENTED = "call_invented"
    """The parser returns a call the reference does not have at all."""
    CALL_RUN_TWICE = "call_run_twice"
    """One call of the reference appears more than once in the parser's answer."""
    CONFIRMED_CALL_LOST = "confirmed_call_lost"
    """An executable call is missing from the parser's answer (the parser's user never
    runs it, or gets no answer at all)."""
    CANDIDATE_RAISED_ON_VALID = "candidate_raised_on_valid"
    """The parser gave no answer on a clean stream: one the reference reduces without
    an error or a warning."""
    UNCONFIRMED_CALL_KEPT = "unconfirmed_call_kept"
    """A call the reference marks not executable is handed over as runnable: the
    parser's response completed (or it says ``executable: true``)."""
    CALL_REKEYED = "call_rekeyed"
    """An executable call handed over with the reference's tool and JSON-equal
    arguments under another ``call_id``: the right tool runs with the right input, but
    its output is paired with an id the model did not give that call (a gateway that
    re-keys calls in its snapshot, ``fixtures/quirks`` q05)."""
    STATUS_DIFFERS = "status_differs"
    """The response status differs (R9)."""
    RESPONSES_DIFFER = "responses_differ"
    """The number of responses differs: several responses merged, or one split (R1)."""
    CANDIDATE_RAISED_ON_FLAGGED = "candidate_raised_on_flagged"
    """The parser gave no answer on a valid stream the reference flags with a warning:
    a bug, on a stream that is already odd."""
    ITEM_LOST = "item_lost"
    """An output item that is not a call (message, reasoning, ...) is missing."""
    PAYLOAD_DIFFERS = "payload_differs"
    """A payload (text, arguments of a call that is not executable, ...) differs."""
    ID_DIFFERS = "id_differs"
    """An item id differs: replaying the output (R12) names another item."""
    ORDER_DIFFERS = "order_differs"
    """The same items in another order (R10)."""
    ITEM_EXTRA = "item_extra"
    """An output item that is not a call and that the reference does not have."""
    FIELD_DIFFERS = "field_differs"
    """Identity of an item that is not a call, its ``output_index``, or its
    ``executable`` flag where that does not make a call runnable."""
    TWO_DEFENSIBLE_ANSWERS = "two_defensible_answers"
    """A payload differs where the stream itself sent two non-empty payloads that
    disagree (the reference raises ``divergent_payload``: it takes the later source and
    warns): keeping the other is as defensible as the reference's choice."""
    CANDIDATE_RAISED_ON_INVALID = "candidate_raised_on_invalid"
    """The parser gave no answer on an invalid stream: one the reference flags as
    invalid, or one with an event the API's published event types do not allow (a
    required field missing: ``responses_oracle.serve.shapes.type_problems``), whatever
    the reference made of it.  Ranked last: raising is a choice there, and what a report
    asks of the client is a clearer error (``RAISED_ON_INVALID_SAYS``)."""
    UNCONFIRMED_CALL_DROPPED = "unconfirmed_call_dropped"
    """A call the reference keeps but marks not executable is missing: the safe
    choice, reported so that it is a choice."""
    CODES_DIFFER = "codes_differ"
    """Diagnostic codes differ (compared only for ports of the reference)."""


HARM: tuple[Divergence, ...] = (
    Divergence.WRONG_TOOL_RUN,
    Divergence.CALL_INVENTED,
    Divergence.CALL_RUN_TWICE,
    Divergence.CONFIRMED_CALL_LOST,
    Divergence.CANDIDATE_RAISED_ON_VALID,
    Divergence.UNCONFIRMED_CALL_KEPT,
    Divergence.CALL_REKEYED,
    Divergence.STATUS_DIFFERS,
    Divergence.RESPONSES_DIFFER,
    Divergence.CANDIDATE_RAISED_ON_FLAGGED,
    Divergence.ITEM_LOST,
    Divergence.PAYLOAD_DIFFERS,
    Divergence.ID_DIFFERS,
    Divergence.ORDER_DIFFERS,
    Divergence.ITEM_EXTRA,
    Divergence.FIELD_DIFFERS,
    Divergence.TWO_DEFENSIBLE_ANSWERS,
    Divergence.UNCONFIRMED_CALL_DROPPED,
    Divergence.CODES_DIFFER,
    Divergence.CANDIDATE_RAISED_ON_INVALID,
)
"""Every class, most harmful first: a tool run with the wrong input, a tool run that
was never asked for or run twice, a confirmed call lost, no answer on a clean stream;
then a call handed over as runnable too early or under another ``call_id`` (the right
tool, its output mispaired), the classes that lose or misreport what the model said
(no answer on a flagged stream among them), then bookkeeping, then a choice between two
answers the stream itself offered, then a choice a careful client may make on
purpose (dropping an unconfirmed call), diagnostic codes (ports only), and last a raise
on an invalid stream: the stream, not the client, is at fault there."""

RAISED_ON_INVALID_SAYS = "raises a confusing error on an invalid stream"
"""What a report says a ``candidate_raised_on_invalid`` cluster does: the client was
right to give up, and could say why more clearly."""

RAISED: dict[Severity | None, Divergence] = {
    None: Divergence.CANDIDATE_RAISED_ON_VALID,
    Severity.INFO: Divergence.CANDIDATE_RAISED_ON_VALID,
    Severity.WARNING: Divergence.CANDIDATE_RAISED_ON_FLAGGED,
    Severity.ERROR: Divergence.CANDIDATE_RAISED_ON_INVALID,
}
"""The class of a parser's failure by the worst severity the reference raised on the
stream (a stream that did not end ``completed`` counts as ``ERROR``; codes of
``NOT_FLAGGING`` do not count): a raise on a clean stream is a bug in plain sight, one
on a flagged stream a bug on odd input, one on invalid input a choice.  A stream the
API's event types do not allow is invalid whatever the reference raised
(``responses_oracle.differential.taxonomy`` checks that first)."""

NOT_FLAGGING: frozenset[Code] = frozenset({Code.SEQUENCE_GAP, Code.SEQUENCE_REGRESSION})
"""Warnings that do not flag a stream for ``RAISED``: a gap in ``sequence_number`` says
events were lost in transit (or cut by shrinking), not that the events given are odd,
and no client checks it."""

RAISES: frozenset[Divergence] = frozenset(RAISED.values())
"""The classes of a parser that gave no answer."""

TOLERABLE: frozenset[Divergence] = frozenset(
    {Divergence.CANDIDATE_RAISED_ON_INVALID, Divergence.UNCONFIRMED_CALL_DROPPED}
)
"""Classes a client may choose on purpose: a differential run can allow them
(``diff --allow``), and still reports them."""

SEVERE: frozenset[Divergence] = frozenset(
    {
        Divergence.WRONG_TOOL_RUN,
        Divergence.CALL_INVENTED,
        Divergence.CALL_RUN_TWICE,
        Divergence.CONFIRMED_CALL_LOST,
    }
)
"""The classes that run the wrong tool, run one never asked for or twice, or lose a
confirmed call: what a maintainer must see first (a test checks they lead ``HARM``).
A report's severe figure counts the streams of these classes, each stream by its own
class."""


class Hypothesis(Enum):
    """A policy a client may follow instead of the rules: an alternative answer it
    gives for a whole stream.  When a client's answer is that answer wherever a cause
    differs from the reference's, on every case of the cause, that policy is the cause,
    whatever the reference decided on each stream (the answers are computed by
    ``responses_oracle.differential.hypotheses``)."""

    SNAPSHOT_VERBATIM = "snapshot_verbatim"
    """Each response is its terminal event's ``response`` object as it came: status,
    id and ``output`` verbatim."""
    SNAPSHOT_IGNORED = "snapshot_ignored"
    """The rules applied to the stream with every terminal snapshot's ``output`` left
    out: only the streamed events count."""
    COMPLETION_ORDER = "completion_order"
    """The reference's answer, its items in the order they were confirmed
    (``output_item.done``) instead of by slot."""
    ANNOUNCEMENT_ORDER = "announcement_order"
    """The reference's answer, its items in the order the stream first named them (an
    ``output_item.added``, a payload event's ``item_id``) instead of by slot."""
    DONE_ITEMS_VERBATIM = "done_items_verbatim"
    """Each response is the items of its ``output_item.done`` events as they came, in
    the order they came: no item the stream did not confirm so, no payload or id but
    the done item's."""
    TEXT_STREAMED_CALLS_DONE = "text_streamed_calls_done"
    """A streaming client's answer: the rules applied to the stream as such a client
    reads it.  A text item (a message, a reasoning: every payload of it is parts of
    text) is shown from its ``output_item.added`` on and holds what its deltas said, a
    message's text as one string; every other item (a call, a hosted tool) is taken
    from its ``output_item.done``; the terminal snapshot is never read."""


@dataclass(frozen=True)
class Policy:
    """What a hypothesis says of a client: the rule it breaks and what to fix."""

    rule: str
    says: str
    """One sentence: what the client does, and what to do instead."""
    mistake: str
    """The client's mistake in a few words, as a report names the cluster
    ("ignores the terminal snapshot")."""


HYPOTHESES: dict[Hypothesis, Policy] = {
    Hypothesis.SNAPSHOT_VERBATIM: Policy(
        "R9",
        "the client answers the terminal event's snapshot as it came, so whatever the "
        "snapshot leaves out, empties or renames is lost; reconcile the snapshot with the "
        "streamed items instead (the snapshot never erases what was streamed)",
        mistake="answers the terminal snapshot verbatim",
    ),
    Hypothesis.SNAPSHOT_IGNORED: Policy(
        "R6",
        "the client builds its answer from the streamed events only and never reads the "
        "terminal snapshot, so items and payloads found only there are lost; admit "
        "snapshot-only items and take their payloads from it",
        mistake="ignores the terminal snapshot",
    ),
    Hypothesis.COMPLETION_ORDER: Policy(
        "R10",
        "the client orders the output by when each item was confirmed; order it by "
        "output_index, then admission",
        mistake="orders the output by completion",
    ),
    Hypothesis.ANNOUNCEMENT_ORDER: Policy(
        "R10",
        "the client orders the output by when the stream first named each item; order "
        "it by output_index, then admission",
        mistake="orders the output by announcement",
    ),
    Hypothesis.DONE_ITEMS_VERBATIM: Policy(
        "R6",
        "the client answers the items of the output_item.done events as they came, so an "
        "item only added, only in the snapshot or done after the terminal is lost or "
        "invented, and a done item's empty payload or new id replaces the first; admit "
        "items from every source, keep the first id and the last non-empty payload",
        mistake="answers the done items verbatim",
    ),
    Hypothesis.TEXT_STREAMED_CALLS_DONE: Policy(
        "R6",
        "the client shows text as it streams and takes calls from their done items, so a "
        "message or reasoning never announced by output_item.added is lost, its text is "
        "only what its deltas said (a message's in one part), and a call never confirmed "
        "by its own done item is lost; admit items from every source and reconcile each "
        "payload with its done event, done item and snapshot",
        mistake="takes calls only from their done items",
    ),
}
"""Every hypothesis with the rule it breaks and what it says, in the order they are
tried: a cause explained by two is filed under the one that explains more cases of the
run, and of equals under the first (``differential.harness.cluster``)."""
