"""Executability (R9) as a table: which entries the client is told to run.

Today the driver decides it with a formula in ``impl/core/settle.py`` (``_settle``:
``completed and client_call and confirmed and call_id is not None``), outside every
table and every proof.  This table states the same rule cell by cell, so that it can be
read, proved and checked: ``proofs.refinement`` holds the driver's ``executable`` flag
to it on every stream it checks.  (Wiring the driver to read this table instead of its
formula is left to the driver's owner; until then the refinement check is what keeps
the two the same.)

The key, in order: the response completed; the item type is one the client executes
(``ItemTypeSpec.client_call``); the entry was confirmed (a ``*.done``, a done item or
the snapshot); the entry holds a ``call_id`` to answer with.
"""

from __future__ import annotations

from typing import NamedTuple


class ExecutableKey(NamedTuple):
    """What executability reads about one entry at the end of its response."""

    completed: bool
    client_call: bool
    confirmed: bool
    has_call_id: bool


EXECUTABLE: dict[ExecutableKey, bool] = {
    # Only a completed response's confirmed client call with a call_id is run: an
    # interrupted or failed response, a hosted tool, a call known only from its deltas,
    # or a call the client cannot answer (no call_id) is kept but not executable.
    ExecutableKey(True, True, True, True): True,
    ExecutableKey(True, True, True, False): False,
    ExecutableKey(True, True, False, True): False,
    ExecutableKey(True, True, False, False): False,
    ExecutableKey(True, False, True, True): False,
    ExecutableKey(True, False, True, False): False,
    ExecutableKey(True, False, False, True): False,
    ExecutableKey(True, False, False, False): False,
    ExecutableKey(False, True, True, True): False,
    ExecutableKey(False, True, True, False): False,
    ExecutableKey(False, True, False, True): False,
    ExecutableKey(False, True, False, False): False,
    ExecutableKey(False, False, True, True): False,
    ExecutableKey(False, False, True, False): False,
    ExecutableKey(False, False, False, True): False,
    ExecutableKey(False, False, False, False): False,
}
"""Executability per key (R9); every key has a cell."""

assert len(EXECUTABLE) == 16
