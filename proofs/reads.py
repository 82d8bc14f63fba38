"""Which tables a proof reads: recorded while it runs, remembered across its caches.

A proof row's verdict depends only on the ``ModelTables`` fields its proof looks up.
``Reading`` wraps a model's tables and records every field read, into each open
*record* (``recording``); the proof record's fingerprints (``docsite.proofs``) and the
mutation score (``mutation.proof_reads``) are built on it.  A cache of the proofs that
keeps a value computed from the tables (``induction``'s lemmas and symbolic steps,
``any_channels``' agreement check) goes through ``remembered``: it keeps the fields the
computation read with the value, and a later proof that gets the cached value has read
them too.  So a row's reads do not depend on which rows ran before it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, MutableMapping
from contextlib import contextmanager
from typing import Any, TypeVar

_V = TypeVar("_V")


class Reading:
    """A model's tables, recording which of their fields a proof reads (``read``: all
    reads since it was made; each open ``recording`` gets them too)."""

    def __init__(self, tables: Any) -> None:
        object.__setattr__(self, "tables", tables)
        object.__setattr__(self, "read", set())
        object.__setattr__(self, "open", [])

    def __getattr__(self, name: str) -> Any:
        self.note((name,))
        return getattr(self.tables, name)

    def note(self, names: Any) -> None:
        """Count ``names`` as read (by the proof running now)."""
        self.read.update(names)
        for record in self.open:
            record.update(names)


@contextmanager
def recording(tables: Any) -> Iterator[set[str]]:
    """The fields of ``tables`` read inside the block (empty unless it is a
    ``Reading``)."""
    record: set[str] = set()
    if isinstance(tables, Reading):
        tables.open.append(record)
    try:
        yield record
    finally:
        if isinstance(tables, Reading):
            # By identity: two records that read the same fields are equal sets.
            tables.open[:] = [other for other in tables.open if other is not record]


def remembered(
    cache: MutableMapping[Any, tuple[Any, frozenset[str], Any]],
    key: Any,
    tables: Any,
    compute: Callable[[], _V],
) -> _V:
    """``compute()`` for ``tables`` (by identity) and ``key``, once; a caller that gets
    the cached value is counted as reading what computing it read."""
    cached = cache.get(key)
    if cached is not None and cached[0] is tables:
        if isinstance(tables, Reading):
            tables.note(cached[1])
        value: _V = cached[2]
        return value
    with recording(tables) as read:
        value = compute()
    cache[key] = (tables, frozenset(read), value)
    return value
