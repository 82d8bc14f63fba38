"""Which branches of the driver the refinement's generated streams reach.

The refinement (``refinement.check_stream``) proves the driver's steps are the model's
on the streams it is given, and says nothing of a branch of ``impl/core`` no stream
takes: an edit there passes it unseen.  This module measures that gap.  Run::

    python -m responses_oracle.proofs.branch_cover

    branches of impl/core reached: 371 of 386
      and of its generated modules (table cells): 434 of 794
    not reached:
      admit.py admission_refused: `if len(state.entries) < step.limits.max_entries:` -> ...
      ...

(about 1,000 streams, 2 minutes of CPU; ``--scale 2`` draws twice as many.)  Exit
codes: 0 every hand-written branch reached and every obligation met, 1 some branch not
reached or some obligation missed (the stream is named), 2 bad arguments, 130
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
input), whose own obligations are checked on every stream (``Measured.problems``); the
first stream that takes each branch is its witness (``Measured.witnesses``), which the
test runs through the whole refinement (the Z3 step check).

*The streams* are the generators the refinement's Hypothesis strategies wrap
(``testing.strategies``: ``families``), each stream run with a ``RandomChooser`` seeded
by its family and index (``stream``), so the measure is the same in every process.  It
was not when the streams were drawn through Hypothesis, even derandomized: Hypothesis
now and then draws a constant it collected from the source of the local modules
imported so far, so a script and a pytest run (which imports the tests) drew other
edited streams from the same test.

*Not taken* branches are listed with why beside the test that holds the measure
(``tests/proofs/test_branch_cover.py``, ``UNREACHABLE``): those no stream can take.
Every other branch must be taken; a listed one must not be, and must still exist.
The generated modules (``GENERATED``) are counted apart.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
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


def drive(events: Sequence[Mapping[str, Any]], kernels: Any) -> list[str]:
    """Run the driver on one stream as the refinement runs it (every response, then
    its end of input): the problems its own obligations find (``DriverStep.problems``),
    without the Z3 query."""
    from responses_oracle.model.tables import REFERENCE

    from .refinement import driver_steps, responses

    return [
        problem
        for response in responses(events)
        for step in driver_steps(response, kernels, REFERENCE)
        for problem in step.problems
    ]


StreamName = tuple[str, int]
"""A generated stream by its family and its index in the family (``stream``)."""


@dataclass(frozen=True)
class Measured:
    """What ``measure`` found: every branch, the branches taken, the first stream that
    took each, and each stream on which the driver missed an obligation."""

    every: frozenset[Branch]
    reached: frozenset[Branch]
    witnesses: Mapping[Branch, StreamName]
    problems: tuple[tuple[StreamName, str], ...]


def measure(streams: Iterable[tuple[StreamName, Sequence[Mapping[str, Any]]]]) -> Measured:
    """Run the driver on each named stream's events, measuring the branches it takes."""
    # The reducer's own kernels: the same text as ``load_kernels(REFERENCE)``, which the
    # refinement runs (a test fails on drift), but in the file whose branches count.
    from responses_oracle.core.generated_kernels import KERNELS

    reach = Reach()
    witnesses: dict[Branch, StreamName] = {}
    problems: list[tuple[StreamName, str]] = []
    for name, events in streams:
        with reach.measuring():
            found = drive(events, KERNELS)
        problems += [(name, problem) for problem in found]
        for branch in reach.reached() - witnesses.keys():
            witnesses[branch] = name
    return Measured(reach.every(), reach.reached(), witnesses, tuple(problems))


def families(scale: int = 1) -> dict[str, tuple[Callable[[Any], Any], int]]:
    """The generators the refinement's strategies draw from (``testing.strategies``
    wraps each) and how many streams of each the measure draws: the edited ones most,
    since they take the hostile branches."""
    from responses_oracle.streamgen.cases import profile_stream
    from responses_oracle.streamgen.edits import edited_stream
    from responses_oracle.streamgen.streams import openai_stream
    from responses_oracle.streamgen.walk import model_guided_stream

    return {
        "valid": (openai_stream, 60 * scale),
        "provider": (profile_stream, 100 * scale),
        "model-guided": (model_guided_stream, 100 * scale),
        "faulty": (partial(model_guided_stream, fault=True), 100 * scale),
        "edited": (edited_stream, 600 * scale),
    }


def stream(family: str, index: int) -> Sequence[Mapping[str, Any]]:
    """The events of stream ``index`` of ``family``: its generator run with a
    ``RandomChooser`` seeded by the name alone, so the same in every process."""
    from responses_oracle.streamgen.choices import RandomChooser

    generator, _ = families()[family]
    events: Sequence[Mapping[str, Any]] = generator(RandomChooser(f"{family}:{index}")).events
    return events


def generated_streams(
    scale: int = 1,
) -> Iterator[tuple[StreamName, Sequence[Mapping[str, Any]]]]:
    """Every stream of every family of ``families(scale)``, one family after another."""
    for family, (_, count) in families(scale).items():
        for index in range(count):
            yield (family, index), stream(family, index)


GENERATED = frozenset({"generated_kernels.py", "generated_classifiers.py"})
"""The driver's generated modules: each branch of theirs is one table cell, which the
proofs and the interpreter tests exercise (the kernels, the dict interpreter and the Z3
encoding agree on every cell).  Counted apart."""


def report(measured: Measured) -> list[str]:
    """The lines ``main`` prints: the counts first, then each hand-written branch not
    reached and each obligation the driver missed."""
    every, reached = sorted(measured.every), set(measured.reached)
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
    if measured.problems:
        lines.append("obligations the driver missed:")
        lines.extend(f"  {name[0]} {name[1]}: {problem}" for name, problem in measured.problems)
    return lines


def main(argv: list[str] | None = None) -> int:
    """Measure and print which driver branches the generated streams reach."""
    parser = argparse.ArgumentParser(
        prog="python -m responses_oracle.proofs.branch_cover",
        description="Which branches of impl/core the refinement's generated streams reach.",
        epilog="example: python -m responses_oracle.proofs.branch_cover --scale 2\n"
        "exit codes: 0 every hand-written branch reached and every obligation met, "
        "1 some branch not reached or some obligation missed, "
        "2 bad arguments, 130 interrupted, 141 closed pipe",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--scale", type=int, default=1, help="draw this many times the streams of each family"
    )
    args = parser.parse_args(argv)
    try:
        measured = measure(generated_streams(args.scale))
    except KeyboardInterrupt:
        return 130
    lines = report(measured)
    try:
        print("\n".join(lines))
    except BrokenPipeError:
        return 141
    return 1 if len(lines) > 2 else 0


if __name__ == "__main__":
    sys.exit(main())
