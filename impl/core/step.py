"""The driver: one event in, the state of one response updated.  Pure and total.

Theory of operation
-------------------
Every decision is taken by a kernel generated from a model table, and every choice of
which cell applies is made by a classifier written once in ``model/`` (against
``model.ops``) that the proofs run too.  The driver reads facts off the state, calls
the classifiers and kernels, and executes the named effects.  The flow is one way:

    event ─ dispatch (R1) ─► route (R5) / admit or match (R6) ─► entry
          ─ lifecycle kernel (R8, effects) ─► slots (R3), identity (R6), payload (R7)
    terminal / end of input ─ settle (R9, R11)

One rule, one module:

================  ====================================================================
``dispatch``      R1: terminal gate, sequence numbers, the event class picks the rule
``route``         R5: a payload or progress event's entry (``model.routing``)
``admit``         R6: admitting added items, matching done and snapshot items
                  (``model.admission``: ``added_view``, ``fit_key``, ``match_view``)
``identity``      R6: ``call_id``, ``name``, ``namespace`` and id merged into an entry
``effects``       R8: the lifecycle kernel and its effects; R3: slot moves
``payload``       R7: deltas, offers, the payload kernel (``model.payload``)
``settle``        R9, R11: snapshot reconciliation, aborts, minted ids, executability
``context``       the event's context: diagnostics and the identity maps of R4
================  ====================================================================

The state is updated in place (see ``state.py``); the diagnostics an event raises are
appended to the state (and their codes to the trace).  This module is the public face
of the driver: import from here.

Fast paths, each pinned by ``tests/core/test_fast_path.py`` (every capture and
Hypothesis streams reduced with and without traces, ``advance``/``advancer``/``step``
in lock step): the routing classifiers run as traced from ``model/`` into
``generated_classifiers.py`` (generated; compared with the ``ops.PYTHON`` run on every small
input); ``dispatch`` checks a following sequence number inline and ``advancer`` reuses
one context per response; ``payload.attach`` skips the lookup for an entry's own
channel; ``effects`` does not re-add a known alias; ``events.parse_event`` validates a
well-formed delta in one step.

Debugging a decision: the kernels in ``generated_kernels.py`` are generated straight-line code,
each ``return`` commented with the table cell it returns (``lifecycle[ADDED][DELTA]``).
To step through the tables themselves, run the same driver on the dict interpreter:
``Reducer(kernels=table_kernels())`` or ``reduce(source, kernels=table_kernels())``,
with ``table_kernels`` from ``responses_oracle.model.interpreter`` (tests hold the two
to the same answers).

WARNING — what still lives in driver code rather than a table: the argument JSON check
(``settle``) and the realignment of streamed parts (``payload.align_parts``).  (Who runs
a call is ``model.execution.decide`` over its data, ``settle`` only asks it; whether a
done item fills a missing slot is ``model.admission.FILLS_MISSING_SLOT``, which
``admit`` reads through the ``fills_slot`` kernel; the reclassification of a delta on a
closed channel is the table of ``model/channels.py``, run through the ``reclassify``
kernel.)
"""

from __future__ import annotations

from .context import DEFAULT_LIMITS, ReducerLimits
from .dispatch import StepTrace, advance, advancer, end_of_input, step, tracer
from .route import resolve_route

__all__ = [
    "DEFAULT_LIMITS",
    "ReducerLimits",
    "StepTrace",
    "advance",
    "advancer",
    "end_of_input",
    "resolve_route",
    "step",
    "tracer",
]
