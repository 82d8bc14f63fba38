"""One generator, two sources of choices: a seeded ``random.Random`` or Hypothesis.

Every stream generator in this package takes a ``Chooser`` and asks it for each
decision (how many items, which kind, where a delta is cut).  ``RandomChooser`` answers
from a seeded ``random.Random``, so the command line (``diff --seed``, ``vectors
export``) is deterministic and needs no Hypothesis; the Hypothesis strategies
(``responses_oracle.testing.strategies``) answer with ``draw(...)`` instead, so the very
same generators shrink.
Writing the generators once against this interface is what keeps the two from drifting.

Shrinking works towards the *first* option of ``choice`` and the *low* end of
``integer``: generators list their options simplest first.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol, TypeVar

T = TypeVar("T")


class Chooser(Protocol):
    """The decisions a stream generator can ask for."""

    def integer(self, low: int, high: int) -> int:
        """An integer in ``low..high`` (both included)."""
        ...

    def boolean(self) -> bool:
        """True or False."""
        ...

    def choice(self, options: Sequence[T]) -> T:
        """One of ``options`` (non-empty)."""
        ...


class RandomChooser:
    """A ``Chooser`` backed by ``random.Random``: deterministic for a given seed."""

    __slots__ = ("_random",)

    def __init__(self, seed: int | str) -> None:
        self._random = random.Random(seed)

    def integer(self, low: int, high: int) -> int:
        """An integer in ``low..high``."""
        return self._random.randint(low, high)

    def boolean(self) -> bool:
        """A fair coin."""
        return self._random.random() < 0.5

    def choice(self, options: Sequence[T]) -> T:
        """A uniformly chosen option."""
        return options[self._random.randrange(len(options))]


def case_chooser(seed: int, index: int) -> RandomChooser:
    """The chooser of generated case ``index`` under ``seed``.

    Each case has its own stream of choices, so case *i* is the same whatever other
    cases are generated, in whatever order or process.
    """
    return RandomChooser(f"{seed}:{index}")
