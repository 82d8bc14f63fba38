"""One-line edits of every driver module, made mechanically, each judged by a refinement.

``mutation.DRIVER_EDITS`` are edits someone thought of: whole functions swapped for a
broken one.  A refinement that kills those may still miss the small mistakes a change
brings in.  This module makes every one-line edit of a few kinds, in every function of
the driver -- the reducer's modules (``impl/core``), the canonicalizer and the relay --
and judges a seeded sample of them:

- **changes behaviour**: on some corpus stream the edited reducer gives another result
  than the reference (``mutation.outcome``), or the edited relay other bytes (or it
  raises);
- **refined**: the refinement check of its side refutes it -- the reducer's
  (``refinement.check_stream``, on the corpus, the changed streams first) or the
  relay's (``proxy.relay_refinement.check``, on the same streams cut in chunks) -- on
  a stream the unedited driver refines (``Refinable``; the record names the others);
- **tests** (``--tests``): an edit that changes behaviour and passes its refinement is
  run against the tests of its side in a fresh ``pytest`` (this module is its plugin:
  ``RESPONSES_ORACLE_LINE_EDIT`` names the edit), killed or not.

Theory of operation
-------------------
*The edits* (``line_edits``).  Each function and method of a module is parsed from its
source; every site of these operators is one edit: a comparison flipped (``<`` /
``<=``, ``>`` / ``>=``, ``==`` / ``!=``, ``is`` / ``is not``, ``in`` / ``not in``), a
condition negated (``if``, ``while``, a conditional expression), ``and`` / ``or``
swapped, an integer constant moved by one or a boolean flipped, ``+`` / ``-`` swapped,
a statement dropped (an expression, an assignment, a ``return``).  The edited function
is compiled at its own lines and applied by swapping its ``__code__``: every caller --
another module's ``from .x import f``, a class's method -- runs the edit, and nothing
else changes.  Edits whose function has closures that differ, or that do not compile,
are not made.  Docstrings and the text of diagnostics are not edited (they decide
nothing).

*The sample* is drawn by ``random.Random(seed)`` over every edit of every module; the
seed, the command and each edit's verdict are written to the record (``--out``).

Run it with::

    python -m responses_oracle.proofs.line_edits --sample 60 --seed 4141 \\
        --out proofs/line-edits.json --tests

The record's summary gives the share of behaviour-changing edits each refinement
refutes and the edits that pass both refinement and tests.  ``--retest RECORD`` runs
the tests again on a record's survivors (of its latest judgement); ``--rejudge RECORD``
judges its edits again on today's code (both add their verdicts beside the measured
ones).
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import copy
import importlib
import inspect
import json
import os
import random
import subprocess
import sys
import time
import types
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

PLUGIN = __spec__.name if __spec__ is not None else __name__
"""This module's importable name, the ``pytest`` plugin that applies an edit (run as
``python -m``, its ``__name__`` is ``__main__``: pytest's own, which applies none)."""

ENVIRONMENT = "RESPONSES_ORACLE_LINE_EDIT"
"""The environment variable naming the edit a ``pytest`` run applies (``module:index``)."""

REDUCER_MODULES: tuple[str, ...] = tuple(
    f"responses_oracle.core.{name}"
    for name in (
        "admit",
        "context",
        "dispatch",
        "effects",
        "events",
        "identity",
        "ids",
        "reconcile",
        "route",
        "settle",
        "state",
        "step",
    )
)
"""The reducer's driver modules (not the generated kernels: those are the tables', whose
one-cell mutants ``mutation.table_mutants`` makes; not ``core.view``: the abstraction)."""

PROXY_MODULES: tuple[str, ...] = ("responses_oracle.canonicalizer", "responses_oracle.proxy.relay")
"""The canonicalizer and the relay, judged by the relay's refinement."""

REDUCER_TESTS: tuple[str, ...] = ("tests/core", "tests/test_api.py", "tests/test_replay.py")
"""The tests an edit of the reducer that passes its refinement is run against (each
path must exist: ``run_tests`` takes only pytest's "tests failed" as a kill)."""

PROXY_TESTS: tuple[str, ...] = ("tests/test_canonical.py", "tests/proxy/test_repairs.py")
"""The tests an edit of the canonicalizer or the relay is run against."""

_FLIPPED: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
}
"""Each comparison and the one an off-by-one or a negation turns it into."""


def _docstring(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    )


def _note_text(node: ast.AST) -> bool:
    """An f-string or a string: the text of a diagnostic, which decides nothing."""
    return isinstance(node, ast.JoinedStr) or (
        isinstance(node, ast.Constant) and isinstance(node.value, str)
    )


class _Sites(ast.NodeTransformer):
    """Counts the edit sites of a function, and applies the ``target``-th (if any)."""

    def __init__(self, target: int = -1) -> None:
        self.count = 0
        self.target = target
        self.applied: tuple[int, str] | None = None

    def _hit(self, node: ast.AST, what: str) -> bool:
        hit = self.count == self.target
        self.count += 1
        if hit:
            self.applied = (getattr(node, "lineno", 0), what)
        return hit

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        self.generic_visit(node)
        for k, op in enumerate(node.ops):
            flipped = _FLIPPED.get(type(op))
            if flipped is not None and self._hit(node, f"{_op(op)} -> {_op(flipped())}"):
                node.ops[k] = flipped()
        return node

    def _negate(self, node: ast.If | ast.While | ast.IfExp) -> None:
        if self._hit(node, f"condition negated ({ast.unparse(node.test)[:60]})"):
            # at the test's lines: without them compile() refuses the edit, as it did
            # every negation until sample 9
            node.test = ast.copy_location(ast.UnaryOp(ast.Not(), node.test), node.test)

    def visit_If(self, node: ast.If) -> ast.AST:
        self._negate(node)
        self.generic_visit(node)
        return node

    def visit_While(self, node: ast.While) -> ast.AST:
        self._negate(node)
        self.generic_visit(node)
        return node

    def visit_IfExp(self, node: ast.IfExp) -> ast.AST:
        self._negate(node)
        self.generic_visit(node)
        return node

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.AST:
        self.generic_visit(node)
        other = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        if self._hit(node, f"{_op(node.op)} -> {_op(other)}"):
            node.op = other
        return node

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.op, ast.Add | ast.Sub) and not _note_text(node.left):
            other = ast.Sub() if isinstance(node.op, ast.Add) else ast.Add()
            if self._hit(node, f"{_op(node.op)} -> {_op(other)}"):
                node.op = other
        return node

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        value = node.value
        if isinstance(value, bool):
            if self._hit(node, f"{value} -> {not value}"):
                return ast.copy_location(ast.Constant(not value), node)
        elif isinstance(value, int):
            moved = value - 1 if value > 0 else value + 1
            if self._hit(node, f"{value} -> {moved}"):
                return ast.copy_location(ast.Constant(moved), node)
        return node

    def visit_JoinedStr(self, node: ast.JoinedStr) -> ast.AST:
        return node  # the text of a diagnostic: not edited

    def _statements(self, body: list[ast.stmt]) -> list[ast.stmt]:
        kept: list[ast.stmt] = []
        for statement in body:
            droppable = isinstance(
                statement, ast.Expr | ast.Assign | ast.AugAssign | ast.AnnAssign | ast.Return
            ) and not _docstring(statement)
            if droppable and self._hit(statement, f"dropped: {ast.unparse(statement)[:60]}"):
                kept.append(ast.copy_location(ast.Pass(), statement))
                continue
            kept.append(self.visit(statement))
        return kept

    def generic_visit(self, node: ast.AST) -> ast.AST:
        for name in ("body", "orelse", "finalbody"):
            body = getattr(node, name, None)
            if isinstance(body, list) and body and isinstance(body[0], ast.stmt):
                setattr(node, name, self._statements(body))
        for name, value in ast.iter_fields(node):
            if name in ("body", "orelse", "finalbody") and isinstance(value, list):
                continue
            if name in _NOT_RUN or (name == "args" and isinstance(node, ast.FunctionDef)):
                continue  # annotations, decorators, defaults: not the function's code
            if isinstance(value, list):
                setattr(
                    node,
                    name,
                    [self.visit(item) if isinstance(item, ast.AST) else item for item in value],
                )
            elif isinstance(value, ast.AST):
                setattr(node, name, self.visit(value))
        return node


_NOT_RUN = frozenset({"decorator_list", "returns", "annotation", "type_comment"})
"""Fields of a node whose expressions the swapped code object does not run."""

_OPS: dict[type[ast.AST], str] = {
    ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=",
    ast.Is: "is", ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in",
    ast.And: "and", ast.Or: "or", ast.Add: "+", ast.Sub: "-",
}  # fmt: skip


def _op(op: ast.AST) -> str:
    return _OPS[type(op)]


@dataclass(frozen=True)
class LineEdit:
    """One edit of one line of one function: where, what, and the code that runs it."""

    module_name: str
    index: int
    function: str
    line: int
    change: str
    source: str
    target: Any
    """The function object whose ``__code__`` the edit swaps."""
    code: types.CodeType

    @property
    def name(self) -> str:
        """``module:line: change`` (a module's edits are numbered by ``index``)."""
        return f"{self.module_name.rsplit('.', 1)[-1]}:{self.line} {self.function}: {self.change}"

    @property
    def module(self) -> types.ModuleType:
        """The edited module."""
        return sys.modules[self.module_name]

    @contextlib.contextmanager
    def applied(self) -> Iterator[None]:
        """The driver with this edit, for the duration of the block."""
        original = self.target.__code__
        self.target.__code__ = self.code
        try:
            yield
        finally:
            self.target.__code__ = original


def _functions(module: types.ModuleType, tree: ast.Module) -> Iterator[tuple[ast.AST, Any, str]]:
    """Each function of ``tree`` with the live function object it compiled to."""

    def live(holder: Any, name: str) -> Any:
        found = inspect.getattr_static(holder, name, None)
        for attribute in ("fget", "__func__", "__wrapped__"):
            found = getattr(found, attribute, found)
        return found if isinstance(found, types.FunctionType) else None

    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            function = live(module, node.name)
            if function is not None:
                yield node, function, node.name
        elif isinstance(node, ast.ClassDef):
            holder = getattr(module, node.name, None)
            for inner in node.body:
                if isinstance(inner, ast.FunctionDef) and holder is not None:
                    function = live(holder, inner.name)
                    if function is not None:
                        yield inner, function, f"{node.name}.{inner.name}"


def _compiled(
    node: ast.FunctionDef, filename: str, name: str, method: bool = False
) -> types.CodeType | None:
    """``node`` compiled at its own lines; a ``method`` that calls ``super()`` inside a
    class, so that its code closes over ``__class__`` as the live one does."""
    top: ast.stmt = (
        ast.copy_location(ast.ClassDef("_", [], [], [node], []), node) if method else node
    )
    try:
        code = compile(ast.Module([top], []), filename, "exec")
    except (SyntaxError, ValueError, TypeError):
        return None
    if method:
        code = next(c for c in code.co_consts if isinstance(c, types.CodeType))
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType) and constant.co_name == name:
            return constant
    return None


def line_edits(module_name: str) -> list[LineEdit]:
    """Every one-line edit of the functions of ``module_name``, in source order."""
    module = importlib.import_module(module_name)
    filename = inspect.getsourcefile(module) or ""
    source = Path(filename).read_text(encoding="utf-8")
    lines = source.splitlines()
    tree = ast.parse(source)
    edits: list[LineEdit] = []
    for node, function, qualname in _functions(module, tree):
        if function.__code__.co_filename != filename:
            continue  # a function generated or taken from elsewhere
        counter = _Sites()
        counter.visit(copy.deepcopy(node))
        for target in range(counter.count):
            sites = _Sites(target)
            edited = sites.visit(copy.deepcopy(node))
            assert isinstance(edited, ast.FunctionDef)
            edited.decorator_list = []
            method = "__class__" in function.__code__.co_freevars
            code = _compiled(edited, filename, edited.name, method)
            if code is None or code.co_freevars != function.__code__.co_freevars:
                continue
            line, change = sites.applied or (0, "")
            text = lines[line - 1].strip() if 0 < line <= len(lines) else ""
            edits.append(
                LineEdit(module_name, len(edits), qualname, line, change, text, function, code)
            )
    return edits


def every_edit() -> list[LineEdit]:
    """Every one-line edit of every driver module (reducer first, then the proxy's)."""
    return [edit for name in (*REDUCER_MODULES, *PROXY_MODULES) for edit in line_edits(name)]


def sample(edits: Sequence[LineEdit], count: int, seed: int) -> list[LineEdit]:
    """``count`` edits drawn with ``random.Random(seed)``, in the order drawn."""
    return random.Random(seed).sample(list(edits), min(count, len(edits)))


# -- judging ---------------------------------------------------------------------------


@dataclass(frozen=True)
class EditVerdict:
    """What one edit does and what refutes it."""

    edit: str
    side: str
    source: str
    changes_behaviour: bool
    refined: bool | None
    """Refuted by the refinement of its side (``None``: not run, behaviour unchanged)."""
    tests: str
    """``killed``, ``survived``, or ``not run``."""
    witness: str
    seconds: float


def _proxy_streams(streams: Sequence[Any]) -> list[Any]:
    return [s for s in streams if any(e.get("type") == "response.created" for e in s.events)]


def _cuts(data: bytes) -> list[int]:
    """Fixed chunk boundaries: a third and two thirds through, and every 97 bytes."""
    return sorted({len(data) // 3, 2 * len(data) // 3, *range(97, len(data), 97)})


def _relay_out(events: Sequence[Any]) -> Any:
    from responses_oracle.proxy.relay_refinement import body, relay_output

    data = body(events, sentinel=True)
    try:
        return relay_output(data, _cuts(data))[0]
    except Exception as error:  # an edited relay may crash: a changed answer
        return f"raised {type(error).__name__}"


def _relay_refuted(events: Sequence[Any]) -> bool:
    from responses_oracle.proxy.relay_refinement import body, check

    data = body(events, sentinel=True)
    try:
        return bool(check(events, _cuts(data), sentinel=True))
    except Exception:
        return True


@dataclass(frozen=True)
class Refinable:
    """The corpus streams the unedited driver refines, per side: only these can refute
    an edit (a stream the reference fails would refute every edit, as one did in every
    sample's relay column until sample 9)."""

    reducer: frozenset[int]
    proxy: frozenset[int]

    @classmethod
    def of(cls, corpus: Any, expected_relay: dict[int, Any]) -> Refinable:
        """Each side's refinement run on the unedited driver, stream by stream."""
        from .refinement import check_stream

        return cls(
            frozenset(i for i, s in enumerate(corpus.streams) if not check_stream(s.events)),
            frozenset(i for i in expected_relay if not _relay_refuted(corpus.streams[i].events)),
        )

    def failed(self, corpus: Any, expected_relay: dict[int, Any]) -> dict[str, list[str]]:
        """The names of the streams the unedited driver does not refine, per side."""
        streams = corpus.streams
        return {
            "reducer": [s.name for i, s in enumerate(streams) if i not in self.reducer],
            "proxy": [streams[i].name for i in expected_relay if i not in self.proxy],
        }


def judge(
    edit: LineEdit, corpus: Any, expected_relay: dict[int, Any], refinable: Refinable
) -> EditVerdict:
    """The verdict on one edit: behaviour on the corpus, then its side's refinement on
    the streams the unedited driver refines."""
    from .mutation import judge_edit

    started = time.perf_counter()
    if edit.module_name in REDUCER_MODULES:
        verdict = judge_edit(edit, corpus, refinable.reducer)  # type: ignore[arg-type]
        return EditVerdict(
            edit.name,
            "reducer",
            edit.source,
            verdict.changes_behaviour,
            verdict.refinement,
            "not run",
            verdict.witness,
            time.perf_counter() - started,
        )
    changed: list[int] = []
    refuted: bool | None = None
    with edit.applied():
        for i, out in expected_relay.items():
            if _relay_out(corpus.streams[i].events) != out:
                changed.append(i)
        if changed:
            order = [*changed, *(i for i in expected_relay if i not in set(changed))]
            refuted = any(
                _relay_refuted(corpus.streams[i].events) for i in order if i in refinable.proxy
            )
    return EditVerdict(
        edit.name,
        "proxy",
        edit.source,
        bool(changed),
        refuted,
        "not run",
        corpus.streams[changed[0]].name if changed else "",
        time.perf_counter() - started,
    )


def run_tests(edit: LineEdit, repo: Path) -> str:
    """``killed`` when the tests of the edit's side fail with it applied, ``survived``
    when they pass (a fresh ``pytest``, this module as its plugin); any other exit
    (a path that is not there, no test collected, an internal error) is no verdict:
    ``error (exit N)``."""
    tests = REDUCER_TESTS if edit.module_name in REDUCER_MODULES else PROXY_TESTS
    environment = {**os.environ, ENVIRONMENT: f"{edit.module_name}:{edit.index}"}
    command = [sys.executable, "-m", "pytest", "-p", "no:xdist", "-p", PLUGIN, "-q", "-x"]
    command += ["-m", "not slow", *tests]
    done = subprocess.run(command, cwd=repo, env=environment, capture_output=True, check=False)
    verdicts = {0: "survived", 1: "killed"}
    return verdicts.get(done.returncode, f"error (exit {done.returncode})")


def pytest_configure(config: Any) -> None:
    """The plugin: apply the edit ``RESPONSES_ORACLE_LINE_EDIT`` names for the session."""
    named = os.environ.get(ENVIRONMENT)
    if not named:
        return
    module_name, index = named.rsplit(":", 1)
    edit = line_edits(module_name)[int(index)]
    edit.target.__code__ = edit.code


def corpus_for_edits() -> Any:
    """The streams edits are judged on: the recorded streams (fixtures, examples,
    captures), the edge streams and two generated streams per generator, one per cell."""
    from .mutation import build_corpus, edge_streams, generated_streams, recorded_streams

    return build_corpus([*recorded_streams(), *edge_streams(), *generated_streams(2)], 1)


def summary(verdicts: Sequence[EditVerdict]) -> dict[str, Any]:
    """Per side: edits judged, behaviour-changing, refuted by the refinement, and the
    ones passing both refinement and tests."""
    sides: dict[str, Any] = {}
    for side in ("reducer", "proxy"):
        mine = [v for v in verdicts if v.side == side]
        changing = [v for v in mine if v.changes_behaviour]
        refuted = [v for v in changing if v.refined]
        sides[side] = {
            "edits": len(mine),
            "change_behaviour": len(changing),
            "refined_refutes": len(refuted),
            "share": f"{100 * len(refuted) / len(changing):.1f} %" if changing else "n/a",
            "pass_refinement_and_tests": [
                v.edit for v in changing if not v.refined and v.tests == "survived"
            ],
            "pass_refinement_killed_by_tests": [
                v.edit for v in changing if not v.refined and v.tests == "killed"
            ],
        }
    return sides


def retest(path: Path, edits: Sequence[LineEdit], argv: list[str] | None) -> int:
    """Run the tests of their side again on the edits of the record at ``path`` that
    change behaviour and pass the refinement -- by its latest judgement: ``rejudged``
    where the record was judged again, else as measured -- and add the verdicts to the
    record as ``retest`` (its verdicts are left as they were).  An edit is found by its
    name, or without its line number where the lines above it moved."""
    record = json.loads(path.read_text(encoding="utf-8"))
    find = _finder(edits)
    repo = Path(__file__).resolve().parents[1]
    found: dict[str, str] = {}
    for verdict in record.get("rejudged", record)["verdicts"]:
        if not verdict["changes_behaviour"] or verdict["refined"]:
            continue
        name = verdict["edit"]
        edit = find(name, verdict.get("source"))
        found[name] = "edit not found" if edit is None else run_tests(edit, repo)
        print(f"{name}: tests {found[name]}", flush=True)
    record["retest"] = {
        "command": "python -m responses_oracle.proofs.line_edits "
        + " ".join(argv if argv is not None else sys.argv[1:]),
        "tests": {"reducer": list(REDUCER_TESTS), "proxy": list(PROXY_TESTS)},
        "verdicts": found,
    }
    path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    return 1 if "survived" in found.values() else 0


def rejudge(path: Path, edits: Sequence[LineEdit], argv: list[str] | None) -> int:
    """Judge again, on this code and by this judge, every edit of the record at
    ``path`` still found here (by name, or without its line number), and add the
    verdicts and their summary to the record as ``rejudged`` (its measured verdicts are
    left as they were).  Exit 1 when a behaviour-changing edit passes the refinement."""
    record = json.loads(path.read_text(encoding="utf-8"))
    find = _finder(edits)
    corpus, expected_relay, refinable = _judging()
    verdicts: list[EditVerdict] = []
    missing: list[str] = []
    for name, source in ((v["edit"], v.get("source")) for v in record["verdicts"]):
        edit = find(name, source)
        if edit is None:
            missing.append(name)
            continue
        verdicts.append(judge(edit, corpus, expected_relay, refinable))
        print(f"{name}: behaviour {verdicts[-1].changes_behaviour}, refined {verdicts[-1].refined}")
    record["rejudged"] = {
        "command": "python -m responses_oracle.proofs.line_edits "
        + " ".join(argv if argv is not None else sys.argv[1:]),
        "not_found": missing,
        "summary": summary(verdicts),
        "verdicts": [asdict(v) for v in verdicts],
    }
    path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    return 1 if any(v.changes_behaviour and not v.refined for v in verdicts) else 0


def _finder(edits: Sequence[LineEdit]) -> Any:
    """The edit of a recorded name and source line: the one of that name without its
    line number whose source is the record's (lines above it moved, and a function may
    hold two edits of one change: ``_added_item``'s two ``in -> not in``); else by its
    name; else the only one of that name without its line number (None if several)."""
    by_name = {edit.name: edit for edit in edits}
    unplaced_names: dict[str, list[LineEdit]] = {}
    for edit in edits:
        unplaced_names.setdefault(unplaced(edit.name), []).append(edit)

    def find(name: str, source: str | None = None) -> LineEdit | None:
        same = unplaced_names.get(unplaced(name), [])
        exact = [edit for edit in same if edit.source == source]
        if exact:
            return by_name[name] if by_name.get(name) in exact else exact[0]
        return by_name.get(name) or (same[0] if len(same) == 1 else None)

    return find


def _judging() -> tuple[Any, dict[int, Any], Refinable]:
    """The corpus, the unedited relay's output on each of its proxy streams, and the
    streams each side's unedited driver refines."""
    corpus = corpus_for_edits()
    index_of = {id(s): i for i, s in enumerate(corpus.streams)}
    expected_relay = {index_of[id(s)]: _relay_out(s.events) for s in _proxy_streams(corpus.streams)}
    return corpus, expected_relay, Refinable.of(corpus, expected_relay)


def unplaced(name: str) -> str:
    """An edit's name without its line number: an edit drawn before is still excluded
    after the lines above it moved (its change and function are the same)."""
    module, _, rest = name.partition(":")
    return f"{module}:{rest.partition(' ')[2]}"


def main(argv: list[str] | None = None) -> int:
    """Judge a seeded sample of one-line driver edits and record the verdicts."""
    parser = argparse.ArgumentParser(
        prog="python -m responses_oracle.proofs.line_edits",
        description=(
            "Judge one-line edits of the driver (impl/core, the canonicalizer, the relay) "
            "by the refinement checks. Example: --sample 60 --seed 4141 --tests "
            "--out proofs/line-edits.json. Exit 0: every behaviour-changing edit refuted "
            "by its refinement or the tests; 1: one passes both; 2: bad arguments."
        ),
    )
    parser.add_argument("--sample", type=int, default=40, help="edits to draw (0: all)")
    parser.add_argument("--seed", type=int, default=4141, help="the sample's seed")
    parser.add_argument("--side", choices=("all", "reducer", "proxy"), default="all")
    parser.add_argument(
        "--exclude", type=Path, action="append", default=[], help="a record not to draw from"
    )
    parser.add_argument("--tests", action="store_true", help="run the tests on survivors")
    parser.add_argument("--out", type=Path, help="write the record here (JSON)")
    parser.add_argument("--list", action="store_true", help="list the edits and stop")
    parser.add_argument(
        "--retest",
        type=Path,
        help="run the tests again on a record's survivors and add their verdicts to it",
    )
    parser.add_argument(
        "--rejudge",
        type=Path,
        help="judge a record's edits again on this code and add the verdicts to it",
    )
    args = parser.parse_args(argv)
    edits = every_edit()
    if args.retest is not None:
        return retest(args.retest, edits, argv)
    if args.rejudge is not None:
        return rejudge(args.rejudge, edits, argv)
    if args.side != "all":
        edits = [e for e in edits if (e.module_name in REDUCER_MODULES) == (args.side == "reducer")]
    if args.list:
        for edit in edits:
            print(edit.name)
        print(f"{len(edits)} edits")
        return 0
    excluded: set[str] = set()
    for record in args.exclude:
        excluded |= {unplaced(v["edit"]) for v in json.loads(record.read_text())["verdicts"]}
    pool = [edit for edit in edits if unplaced(edit.name) not in excluded]
    drawn = sample(pool, args.sample or len(pool), args.seed)
    corpus, expected_relay, refinable = _judging()
    repo = Path(__file__).resolve().parents[1]
    verdicts: list[EditVerdict] = []
    for edit in drawn:
        verdict = judge(edit, corpus, expected_relay, refinable)
        if args.tests and verdict.changes_behaviour and not verdict.refined:
            verdict = EditVerdict(**{**asdict(verdict), "tests": run_tests(edit, repo)})
        verdicts.append(verdict)
        print(
            f"{verdict.edit}: behaviour {verdict.changes_behaviour}, "
            f"refined {verdict.refined}, tests {verdict.tests}",
            flush=True,
        )
    record = {
        "command": "python -m responses_oracle.proofs.line_edits "
        + " ".join(argv if argv is not None else sys.argv[1:]),
        "seed": args.seed,
        "pool": len(pool),
        "drawn": len(drawn),
        "corpus": len(corpus.streams),
        "unrefined_by_the_reference": refinable.failed(corpus, expected_relay),
        "summary": summary(verdicts),
        "verdicts": [asdict(v) for v in verdicts],
    }
    text = json.dumps(record, indent=1)
    if args.out is not None:
        args.out.write_text(text + "\n", encoding="utf-8")
    print(json.dumps(record["summary"], indent=1))
    both = any(s["pass_refinement_and_tests"] for s in record["summary"].values())
    return 1 if both else 0


if __name__ == "__main__":
    raise SystemExit(main())
