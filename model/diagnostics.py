"""Diagnostic codes: what each one means, how bad it is, which rule raises it.

Every finding of the reducer is a diagnostic with a code (``Code``, part of the result
contract: codes are added, never renamed).  One table says everything else about a
code: ``vocabulary.CODES`` gives its severity (``error`` means the result cannot be
trusted as is), the rule whose clause raises it, and its meaning in one line.  The
severities of the result contract, the rule of each code in divergence reports
(``testing.rules.CODE_RULES``), the code list of ``docs/schema/result.schema.json`` and
the codes page of the docs (``docs/model/codes.md``) are made from it.

The lifecycle table names *that* a row reports (``NOTE_*`` effects, R8); ``NOTE_CODES``
here says *what* it reports.  The proofs read it to compute the codes a step raises
(``proofs.encoding.Encoding.raised``), so that a diagnostic dropped or changed by a row
is visible to Z3; the driver (``impl/core/effects.py``) raises the code it gives, and
``tests/proofs/test_diagnostics.py`` checks on generated streams that it does.
"""

from __future__ import annotations

from .vocabulary import NOTE_EFFECTS, Code, Effect

NOTE_CODES: dict[Effect, Code] = {
    Effect.NOTE_DUPLICATE_ITEM: Code.DUPLICATE_ITEM,
    Effect.NOTE_LATE_EVENT: Code.LATE_EVENT,
    Effect.NOTE_UNCONFIRMED: Code.UNCONFIRMED_ITEM,
    Effect.NOTE_MISSING_FROM_SNAPSHOT: Code.SNAPSHOT_MISSING_ITEM,
    Effect.NOTE_ORPHAN: Code.ORPHAN_EVENT,
}
"""The code of each note effect (``NOTE_MISSING_FROM_SNAPSHOT`` only when the snapshot
has items: an empty snapshot is reported once, as ``snapshot_absent``)."""

assert set(NOTE_CODES) == NOTE_EFFECTS
