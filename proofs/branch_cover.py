"""Which branches of the driver the refinement's generated streams reach.

The refinement (``refinement.check_stream``) proves the driver's steps are the model's
on the streams it is given, and says nothing of a branch of ``impl/core`` no stream
takes: an edit there passes it unseen.  This module measures that gap.  Run::

    python -m responses_oracle.proofs.branch_cover

    branches of impl/core reached: 360 of 386
      and of its generated modules (table cells): 434 of 794
    not reached:
      admit.py admission_refused: `if len(state.entries) < step.limits.max_entries:` -> ...
      ...

(about 1,000 streams, 2 minutes of CPU; ``--scale 2`` draws twice as many.)  Exit
codes: 0 every hand-written branch reached, 1 some not reached, 2 bad arguments, 130
interrupted, 141 closed pipe.

Theory of operation
-------------------
*A branch* is an arc of coverage.py's branch measurement (``coverage.parser``) that
leaves a line with more than one way out, inside a function of ``impl/core``
(module-level code runs at import, before any stream).  It is named by its module, its
function, the text of its line and the text of the line it jumps to (``exit`` when it
leaves the function), and by its rank among branches of the same name, never by line
number: a name survives an edit above it, and disappears with the line it names.

*Reached* is measured with coverage.py's ``Coverage(branch=True)`` around the driver's
run of each stream, exactly as the refinement runs it (``refinement.driver_steps``:
the traced step and the untraced ``advancer``, response by response, and the end of
input).  The streams are drawn from the Hypothesis strategies the refinement's tests draw
from (``testing.strategies``: ``families``, each on its own and derandomized), so a run
is reproducible.

*Not taken* branches are listed with why beside the test that holds the measure
(``tests/proofs/test_branch_cover.py``): the ones no stream of a test's budget can take,
and the ones the strategies do not take yet.  The test fails on an unreached branch not
listed, on a listed branch a stream reaches and on a listed name that no longer exists.
The generated modules (``GENERATED``) are counted apart.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CORE = Path(__file__).resolve().parent.parent / "impl" / "core"
"""The driver's package in the checkout (``responses_oracle.core``)."""


@dataclass(frozen=True, order=True)
class Branch:
    """One way out of a branching line of a driver function, named without line
    numbers: ``settle.py _settle: `if x:` -> `return y``` (rank 0 left out)."""

    module: str
    function: str
    source: str
    target: str
    rank: int = 0

    def __str__(self) -> str:
        rank = f" #{self.rank}" if self.rank else ""
        return f"{self.module} {self.function}: `{self.source}` -> `{self.target}`{rank}"


def _functions(tree: ast.Module) -> list[tuple[int, int, str]]:
    """Every function's (first line, last line, qualified name), innermost last."""
    found: list[tuple[int, int, str]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = f"{prefix}{child.name}"
                if not isinstance(child, ast.ClassDef):
                    found.append((child.lineno, child.end_lineno or child.lineno, name))
                visit(child, f"{name}.")
            else:
                visit(child, prefix)

    visit(tree, "")
    return found


def _function_of(line: int, functions: Sequence[tuple[int, int, str]]) -> str | None:
    """The innermost function whose lines hold ``line``."""
    inside = [(first, name) for first, last, name in functions if first <= line <= last]
    return max(inside)[1] if inside else None


def _parser(path: Path) -> Any:
    """coverage.py's parse of one module (its arcs, its branching lines)."""
    from coverage.parser import PythonParser

    parser = PythonParser(text=path.read_text(encoding="utf-8"), filename=str(path))
    parser.parse_source()
    return parser


def branch_arcs(path: Path, parser: Any) -> dict[tuple[int, int], Branch]:
    """Every branch of the functions of one module, by its arc (line, target line;
    a negative target leaves the function)."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    functions = _functions(ast.parse(text))
    exits = parser.exit_counts()
    arcs: dict[tuple[int, int], Branch] = {}
    ranks: dict[tuple[str, str, str, str], int] = {}
    for start, end in sorted(parser.arcs()):
        function = _function_of(start, functions)
        if exits.get(start, 0) < 2 or function is None or start < 0:
            continue
        target = "exit" if end < 0 else lines[end - 1].strip()
        name = (path.name, function, lines[start - 1].strip(), target)
        rank = ranks[name] = ranks.get(name, -1) + 1
        arcs[(start, end)] = Branch(*name, rank)
    return arcs


class Reach:
    """The branches of the driver the code run inside ``measuring()`` takes."""

    def __init__(self, core: Path = CORE) -> None:
        import coverage

        self._parsers = {path: _parser(path) for path in sorted(core.glob("*.py"))}
        self.branches = {path: branch_arcs(path, p) for path, p in self._parsers.items()}
        self._coverage = coverage.Coverage(
            branch=True, data_file=None, include=[str(path) for path in self.branches]
        )

    @contextmanager
    def measuring(self) -> Iterator[None]:
        """Measure the branches taken while the block runs (adds to earlier blocks)."""
        self._coverage.start()
        try:
            yield
        finally:
            self._coverage.stop()

    def reached(self) -> frozenset[Branch]:
        """Every branch taken in some measured block."""
        data = self._coverage.get_data()
        taken: set[Branch] = set()
        for path, arcs in self.branches.items():
            # A statement of several lines is measured at its lines; named at its first.
            measured = self._parsers[path].translate_arcs(data.arcs(str(path)) or ())
            taken.update(arcs[arc] for arc in measured if arc in arcs)
        return frozenset(taken)

    def every(self) -> frozenset[Branch]:
        """Every branch of the driver."""
        return frozenset(b for arcs in self.branches.values() for b in arcs.values())


def drive(events: Sequence[Mapping[str, Any]], kernels: Any) -> None:
    """Run the driver on one stream as the refinement runs it (every response, then
    its end of input), its own obligations checked but not the Z3 query."""
    from responses_oracle.model.tables import REFERENCE

    from .refinement import driver_steps, responses

    for response in responses(events):
        driver_steps(response, kernels, REFERENCE)


def measure(
    streams: Callable[[Callable[[Sequence[Mapping[str, Any]]], None]], None],
) -> tuple[frozenset[Branch], frozenset[Branch]]:
    """(every branch, the branches reached) when ``streams(visit)`` calls ``visit`` on
    each generated stream's events."""
    # The reducer's own kernels: the same text as ``load_kernels(REFERENCE)``, which the
    # refinement runs (a test fails on drift), but in the file whose branches count.
    from responses_oracle.core.generated_kernels import KERNELS

    reach = Reach()

    def visit(events: Sequence[Mapping[str, Any]]) -> None:
        with reach.measuring():
            drive(events, KERNELS)

    streams(visit)
    return reach.every(), reach.reached()


def families(scale: int = 1) -> dict[str, tuple[Any, int]]:
    """The refinement's strategies (``testing.strategies``) and how many streams of each
    the measure draws: the edited ones most, since they take the hostile branches.
    Each is drawn on its own: under ``st.one_of`` Hypothesis draws the first ones far
    more often than the others."""
    from responses_oracle.testing import strategies

    return {
        "valid": (strategies.valid_streams(), 60 * scale),
        "provider": (strategies.provider_streams(), 100 * scale),
        "model-guided": (strategies.model_guided_streams(), 100 * scale),
        "faulty": (strategies.faulty_streams(), 100 * scale),
        "edited": (strategies.edited_streams(), 600 * scale),
    }


def hypothesis_streams(
    examples: int, strategy: Any
) -> Callable[[Callable[[Sequence[Mapping[str, Any]]], None]], None]:
    """``examples`` streams of ``strategy``, drawn derandomized: the same streams on
    every run."""
    from hypothesis import HealthCheck, Phase, given, settings

    def run(visit: Callable[[Sequence[Mapping[str, Any]]], None]) -> None:
        @settings(
            max_examples=examples,
            derandomize=True,
            database=None,
            phases=[Phase.generate],
            deadline=None,
            suppress_health_check=list(HealthCheck),
        )
        @given(strategy)
        def each(stream: Any) -> None:
            visit(stream.events)

        each()

    return run


def every_family(scale: int = 1) -> Callable[[Callable[[Sequence[Mapping[str, Any]]], None]], None]:
    """The streams of every family of ``families(scale)``, one family after another."""

    def run(visit: Callable[[Sequence[Mapping[str, Any]]], None]) -> None:
        for strategy, examples in families(scale).values():
            hypothesis_streams(examples, strategy)(visit)

    return run


GENERATED = frozenset({"generated_kernels.py", "generated_classifiers.py"})
"""The driver's generated modules: each branch of theirs is one table cell, which the
proofs and the interpreter tests exercise (the kernels, the dict interpreter and the Z3
encoding agree on every cell).  Counted apart."""


def report(every: Iterable[Branch], reached: Iterable[Branch]) -> list[str]:
    """The lines ``main`` prints: the counts first, then each hand-written branch not
    reached."""
    every, reached = sorted(every), set(reached)
    generated = [branch for branch in every if branch.module in GENERATED]
    every = [branch for branch in every if branch.module not in GENERATED]
    missed = [branch for branch in every if branch not in reached]
    lines = [
        f"branches of impl/core reached: {len(every) - len(missed)} of {len(every)}",
        f"  and of its generated modules (table cells): "
        f"{sum(b in reached for b in generated)} of {len(generated)}",
    ]
    if missed:
        lines.append("not reached:")
        lines.extend(f"  {branch}" for branch in missed)
    return lines


def main(argv: list[str] | None = None) -> int:
    """Measure and print which driver branches the generated streams reach."""
    parser = argparse.ArgumentParser(
        prog="python -m responses_oracle.proofs.branch_cover",
        description="Which branches of impl/core the refinement's generated streams reach.",
        epilog="example: python -m responses_oracle.proofs.branch_cover --scale 2\n"
        "exit codes: 0 every hand-written branch reached, 1 some not reached, "
        "2 bad arguments, 130 interrupted, 141 closed pipe",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--scale", type=int, default=1, help="draw this many times the streams of each family"
    )
    args = parser.parse_args(argv)
    try:
        every, reached = measure(every_family(args.scale))
    except KeyboardInterrupt:
        return 130
    lines = report(every, reached)
    try:
        print("\n".join(lines))
    except BrokenPipeError:
        return 141
    return 1 if len(lines) > 2 else 0


if __name__ == "__main__":
    sys.exit(main())
