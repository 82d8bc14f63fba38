"""The generator: model tables → straight-line reducer kernels (``impl/core/generated_kernels.py``).

Each table becomes one function of nested ``if … is …`` tests that returns a
precomputed constant: no dict lookups, no loops, nothing that a reader (or CrossHair)
has to trust beyond what is written.  The tests compare with module-level aliases of
the enum members (``_EntryState_ADDED = EntryState.ADDED``): on CPython 3.11 reading a
member off its class goes through a descriptor and costs about ten global lookups, and
the kernels run several times per event.  Every kernel carries a PEP 316 ``post:``
contract derived from its table ("moves only along table edges"), so the contract is
generated too.  The output is committed; ``tests/model/test_generated.py``
regenerates it in memory and fails on any difference.

Regenerate with::

    python -m responses_oracle.model.codegen          # writes impl/core/generated_kernels.py
                                                      # (and the classifiers, the records' methods)
    python -m responses_oracle.model.codegen --check  # exit 1 if the file is stale

A mutant is generated the same way from a different ``ModelTables`` and loaded with
``load_kernels`` — that is how the proofs replay a counterexample through "the
generated reducer built from the mutant".
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import sys
import types
from collections.abc import Mapping
from dataclasses import fields
from enum import Enum
from pathlib import Path
from typing import Any

from .classgen import classifiers_path, render_classifiers
from .recordgen import records_path, render_records
from .tables import REFERENCE, KernelSet, ModelTables, table_cells

REGENERATE_COMMAND = "python -m responses_oracle.model.codegen"
"""The command that regenerates the kernels; written into the generated header."""


def kernels_path() -> Path:
    """Where the reference kernels live in the source tree (links resolved)."""
    spec = importlib.util.find_spec("responses_oracle.core")
    assert spec is not None and spec.origin is not None
    return Path(spec.origin).resolve().parent / "generated_kernels.py"


class _Kernel:
    """One kernel to emit: its name, argument names and types, table and result type."""

    def __init__(
        self,
        name: str,
        table: Mapping[Any, Any],
        args: tuple[tuple[str, str], ...],
        result: str,
        doc: str,
    ) -> None:
        self.name, self.table, self.args, self.result, self.doc = name, table, args, result, doc


def _kernels(tables: ModelTables) -> tuple[_Kernel, ...]:
    return (
        _Kernel(
            "lifecycle",
            tables.lifecycle,
            (("state", "EntryState"), ("trigger", "Trigger")),
            "Transition",
            "The lifecycle table (R8): an entry's next state and effects.",
        ),
        _Kernel(
            "slot",
            tables.slots,
            (("state", "SlotState"), ("trigger", "SlotTrigger")),
            "SlotTransition",
            "The slot table (R3): a slot's next state and diagnostic.",
        ),
        _Kernel(
            "route",
            tables.routing,
            (("slot_view", "SlotView"), ("id_view", "IdView")),
            "Route",
            "The routing table (R5): where a payload event goes.",
        ),
        _Kernel(
            "namespace",
            tables.namespaces,
            (("kind", "ItemKind"),),
            "ItemKind",
            "The call_id namespace of an item kind (R6).",
        ),
        _Kernel(
            "admit_added",
            tables.added_admission,
            (("view", "AddedView"),),
            "Admission",
            "Admission of an output_item.added item (R6).",
        ),
        _Kernel(
            "fit",
            tables.matching,
            (
                ("type_fit", "TypeFit"),
                ("call_fit", "CallFit"),
                ("id_fit", "IdFit"),
                ("slot_fit", "SlotFit"),
            ),
            "Fit",
            "The matching table (R6): does a done or snapshot item fit one proposed entry.",
        ),
        _Kernel(
            "admit_done",
            tables.done_admission,
            (("view", "MatchView"),),
            "Admission",
            "Matching of an output_item.done or snapshot item (R6).",
        ),
        _Kernel(
            "payload",
            tables.payload,
            (("held", "PayloadHeld"), ("relation", "OfferRelation")),
            "PayloadDecision",
            "The payload table (R7): keep the held value or take the offer.",
        ),
        _Kernel(
            "identity",
            tables.identity,
            (("field", "IdentityField"), ("stage", "MergeStage"), ("relation", "IdentityRelation")),
            "IdentityDecision",
            "The identity table (R6): keep an entry's call_id, name, namespace or take the item's.",
        ),
        _Kernel(
            "reclassify",
            tables.reclassification,
            (("trigger", "Trigger"), ("state", "ChannelState")),
            "Trigger",
            "The reclassification table (R7): the trigger a channel event delivers.",
        ),
        _Kernel(
            "boundary",
            tables.boundary,
            (("opening", "Opening"), ("held", "Held"), ("match", "IdMatch")),
            "Boundary",
            "The boundary table (R14): an opening event continues the held response or not.",
        ),
        _Kernel(
            "frame",
            tables.frames,
            (("kind", "ClientFrame"),),
            "Boundary",
            "The client frames table (R14): a frame ends the held response or nothing.",
        ),
        _Kernel(
            "fills_slot",
            tables.fills_missing_slot,
            (("item", "MatchedItem"),),
            "bool",
            "The slot fill rule (R6): a matched item's output_index fills a missing slot.",
        ),
        _Kernel(
            "merge_part",
            tables.part_merge,
            (("view", "PositionView"),),
            "PartMerge",
            "The part merge table (R15): where a progress event's value goes in its part.",
        ),
        _Kernel(
            "terminal_status",
            tables.terminal_status,
            (("terminal", "Terminal"),),
            "ResponseStatus",
            "The terminal status table (R9): the status a terminal event gives its response.",
        ),
        _Kernel(
            "amends",
            tables.amendable,
            (("terminal", "Terminal"),),
            "bool",
            "The amendable terminals (R14): the terminal right after this one describes it.",
        ),
        _Kernel(
            "execute",
            tables.execution,
            (("stop", "Stop"),),
            "Execution",
            "The execution table (R13): the verdict of where the gates stopped.",
        ),
        _Kernel(
            "names_one",
            tables.names_one_entry,
            (("field", "IdentityField"),),
            "bool",
            "Whether a field's value names one entry (R6): another entry's value is TAKEN.",
        ),
        _Kernel(
            "shell_runner",
            tables.environment_runner,
            (("environment", "ShellEnvironment"),),
            "Runner",
            "The shell environments (R13): who runs the calls of a declared shell tool.",
        ),
        _Kernel(
            "search_runner",
            tables.execution_runner,
            (("execution", "SearchExecution"),),
            "Runner",
            "The tool search executions (R13): who runs a tool search.",
        ),
        _Kernel(
            "declares",
            tables.declared,
            (("answer", "Declared"),),
            "Stop",
            "The declared tools' answer (R13): where it leaves the walk through the gates.",
        ),
        _Kernel(
            "reads_execution",
            tables.execution_values,
            (("value", "ExecutionValue"),),
            "SearchExecution",
            "The wire's execution (R13): what it says of a tool search.",
        ),
        _Kernel(
            "reads_environment",
            tables.environment_types,
            (("kind", "EnvironmentType"),),
            "ShellEnvironment",
            "The wire's environment.type (R13): the environment a declared shell names.",
        ),
        _Kernel(
            "reads_opening",
            tables.openings,
            (("kind", "OpeningType"),),
            "Opening",
            "The wire's type of an opening event (R14): the kind of opening it is.",
        ),
        _Kernel(
            "reads_frame",
            tables.client_frames,
            (("kind", "FrameType"),),
            "ClientFrame",
            "The wire's type of a client frame (R14): the frame it is.",
        ),
        _Kernel(
            "reads_matched",
            tables.matched_items,
            (("trigger", "MatchTrigger"),),
            "MatchedItem",
            "The trigger of a matched item (R6): where the item comes from.",
        ),
        _Kernel(
            "reads_addition",
            tables.part_additions,
            (("kind", "AdditionType"),),
            "PartAddition",
            "The wire's type of a part addition event (R15): what it adds where.",
        ),
        _Kernel(
            "withholds",
            tables.withheld,
            (("verdict", "Execution"),),
            "bool",
            "The withheld verdicts (R13): a completed call not run, reported call_withheld.",
        ),
        _Kernel(
            "notes",
            tables.note_codes,
            (("effect", "Effect"),),
            "Code | None",
            "The note codes (R8): the diagnostic a lifecycle row's note effect raises.",
        ),
        _Kernel(
            "waives",
            tables.resume_waived,
            (("effect", "Effect"),),
            "bool",
            "The resume waivers (R14): a note effect that raises nothing in a resumed response.",
        ),
        _Kernel(
            "announces",
            tables.announced_parts,
            (("kind", "ChannelKind"),),
            "bool",
            "The announced parts (R7): a delta opening such a channel owes part_not_added.",
        ),
    )


def _literal(value: Any) -> str:
    """Python source for a table value: enums, None, booleans, strings, tuples and
    NamedTuples of those."""
    if isinstance(value, Enum):
        return f"{type(value).__name__}.{value.name}"
    if value is None or isinstance(value, bool | str):
        return repr(value)
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        inner = ", ".join(_literal(part) for part in value)
        return f"{type(value).__name__}({inner})"
    if isinstance(value, tuple):
        inner = ", ".join(_literal(part) for part in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    raise TypeError(f"cannot emit table value {value!r}")


def _check_total(kernel: _Kernel) -> None:
    """A kernel must decide every combination of its arguments: the core never raises."""

    def check(table: Mapping[Any, Any], depth: int, where: str) -> None:
        first_key = next(iter(table))
        missing = [member for member in type(first_key) if member not in table]
        if missing:
            names = ", ".join(str(member) for member in missing)
            raise ValueError(f"table {kernel.name}{where} has no cell for {names}")
        if depth > 1:
            for key, inner in table.items():
                check(inner, depth - 1, f"{where}[{key}]")

    check(kernel.table, len(kernel.args), "")


def _constant_name(value: Any) -> str:
    """A module-level name for a table value, made from its content (so one changed cell
    changes the lines of that cell only): ``Route(RouteAction.BY_SLOT, None)`` is
    ``_ROUTE__BY_SLOT__NONE``."""
    source = _literal(value)
    words = [word for word in re.split(r"[^A-Za-z0-9_]+", source) if word]
    return "_" + "__".join([words[0].upper(), *(w for w in words[1:] if w.isupper())])


def _table_field(tables: ModelTables, table: Mapping[Any, Any]) -> str:
    """The ``ModelTables`` field holding ``table``: the name each branch's comment gives."""
    [name] = [f.name for f in fields(tables) if getattr(tables, f.name) is table]
    return name


def _emit_kernel(
    kernel: _Kernel, field: str, constants: dict[str, str], members: dict[str, str]
) -> list[str]:
    _check_total(kernel)

    def member(value: Enum) -> str:
        source = _literal(value)
        name = "_" + source.replace(".", "_")
        members[name] = source
        return name

    def constant(value: Any) -> str:
        source = _literal(value)
        if source not in constants:
            name = _constant_name(value)
            if name in constants.values():
                raise ValueError(f"two table values would be named {name}")
            constants[source] = name
        return constants[source]

    signature = ", ".join(f"{name}: {type_}" for name, type_ in kernel.args)
    arguments = ", ".join(name for name, _ in kernel.args)
    post = f'post: ({arguments}, __return__) in edges("{kernel.name}")'
    lines = [
        f"def {kernel.name}({signature}) -> {kernel.result}:",
        f'    """{kernel.doc}',
        "",
        f"    {post}",
        '    """',
    ]

    def emit(table: Mapping[Any, Any], level: int, indent: str, cell_of: str) -> None:
        name = kernel.args[level][0]
        rows = list(table.items())
        for number, (key, cell) in enumerate(rows):
            last = number == len(rows) - 1
            inner = indent
            if not last:
                lines.append(f"{indent}if {name} is {member(key)}:")
                inner = indent + "    "
            where = f"{cell_of}[{key.name}]"
            if level == len(kernel.args) - 1:
                # The cell on the return line itself: a changed cell is one changed line.
                lines.append(f"{inner}return {constant(cell)}  # {where}")
            else:
                emit(cell, level + 1, inner, where)

    emit(kernel.table, 0, "    ", field)
    return lines


def _edges(kernel: _Kernel, constants: dict[str, str]) -> list[str]:
    """The table as a frozenset of (arguments..., result) tuples, for the contracts: one
    entry of ``_EDGE_SETS``'s dict.

    Each result is the constant its kernel returns (``constants``: source → name), not
    a second copy of it."""
    entries = [
        f"        ({', '.join(_literal(k) for k in path)}, {constants[_literal(value)]}),"
        for path, value in table_cells(kernel.table)
    ]
    return [f'    "{kernel.name}": frozenset({{', *entries, "    }),"]


_EDGES_FUNCTIONS = '''\
@cache
def _edge_sets() -> dict[str, frozenset[tuple[Any, ...]]]:
    """Every kernel's edges, by kernel (``edges``), made on the first call."""
    return {{
{sets}
    }}


def edges(kernel: str) -> frozenset[tuple[Any, ...]]:
    """The table of ``kernel`` (a ``KernelSet`` field) as (arguments..., result) tuples:
    the edges its ``post:`` contract says it moves along.

    Made on first use (CrossHair's, a test's): no reduction reads them, and hashing
    their enum members cost 3.5M instructions of a small ``reduce`` at import.
    """
    return _edge_sets()[kernel]'''


_HEADER = '''\
# GENERATED FILE — DO NOT EDIT.
# Generated from the tables of model "{name}" by `{command}`.
# Change a table in model/ and rerun that command; a test fails when this file is stale.
"""Straight-line decision kernels generated from the model tables.

Each function decides one table cell by identity tests on enum members and returns a
precomputed constant; the comment on each ``return`` names the cell it returns, as
``ModelTables`` field and member names (``lifecycle[ADDED][DELTA]`` is
``REFERENCE.lifecycle[EntryState.ADDED][Trigger.DELTA]``, ``model/tables.py``).  The
``edges(kernel)`` gives the same tables as data; each kernel's PEP 316 ``post:``
contract says it only ever returns one of its table's edges.  To step through the tables
themselves instead, run ``Reducer(kernels=table_kernels())``
(``responses_oracle.model.interpreter``).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from responses_oracle.model.admission import (
    Admission,
    IdentityDecision,
    MatchedItem,
    MatchTrigger,
)
from responses_oracle.model.annotations import (
    AdditionField,
    AdditionType,
    PartAddition,
    PartMerge,
    PositionView,
)
from responses_oracle.model.catalogue import ChannelKind, Terminal
from responses_oracle.model.execution import (
    Declared,
    EnvironmentType,
    Execution,
    ExecutionValue,
    Runner,
    SearchExecution,
    ShellEnvironment,
    Stop,
)
from responses_oracle.model.lifecycle import Transition
from responses_oracle.model.payload import PayloadDecision
from responses_oracle.model.responses import (
    Boundary,
    ClientFrame,
    FrameType,
    Held,
    IdMatch,
    Opening,
    OpeningType,
)
from responses_oracle.model.routing import Route
from responses_oracle.model.slots import SlotTransition
from responses_oracle.model.tables import KernelSet
from responses_oracle.model.vocabulary import (
    AddedView,
    AdmissionAction,
    CallFit,
    ChannelState,
    Code,
    Effect,
    EntryState,
    Fit,
    IdentityField,
    IdentityRelation,
    IdFit,
    IdView,
    ItemKind,
    MatchView,
    MergeStage,
    OfferRelation,
    PayloadAction,
    PayloadHeld,
    ResponseStatus,
    RouteAction,
    SlotFit,
    SlotState,
    SlotTrigger,
    SlotView,
    Trigger,
    TypeFit,
)
'''


def render_kernels(tables: ModelTables = REFERENCE) -> str:
    """The source text of the kernels module for ``tables``."""
    constants: dict[str, str] = {}
    members: dict[str, str] = {}
    bodies: list[str] = []
    edges: list[str] = []
    kernels = _kernels(tables)
    for kernel in kernels:
        field = _table_field(tables, kernel.table)
        bodies.extend(["", "", *_emit_kernel(kernel, field, constants, members)])
        edges.extend(_edges(kernel, constants))
    member_lines = [f"{name} = {source}" for name, source in members.items()]
    constant_lines = [f"{name} = {source}" for source, name in constants.items()]
    names = ", ".join(f"{k.name}={k.name}" for k in kernels)
    footer = [
        "",
        "",
        f"KERNELS = KernelSet({names})",
        '"""The generated kernels as one value, for the driver."""',
        "",
    ]
    header = _HEADER.format(name=tables.name, command=REGENERATE_COMMAND)
    edge_functions = _EDGES_FUNCTIONS.format(sets="\n".join(f"    {line}" for line in edges))
    return "\n".join(
        [header, *member_lines, *constant_lines, "", "", edge_functions, *bodies, *footer]
    )


def load_kernels(tables: ModelTables) -> KernelSet:
    """Generate kernels for ``tables`` and load them without touching the file system."""
    module = types.ModuleType(f"responses_oracle_kernels_{tables.name}")
    exec(compile(render_kernels(tables), module.__name__, "exec"), module.__dict__)
    kernels = module.__dict__["KERNELS"]
    assert isinstance(kernels, KernelSet)
    return kernels


def main(argv: list[str] | None = None) -> int:
    """Write (or with ``--check`` verify) the generated kernels, classifiers and records
    files."""
    parser = argparse.ArgumentParser(
        prog=REGENERATE_COMMAND,
        description="Regenerate impl/core/generated_kernels.py (from the model tables), "
        "impl/core/generated_classifiers.py (traced from the model's routing classifiers) "
        "and model/generated_records.py (the methods of the @record classes).",
    )
    parser.add_argument("--check", action="store_true", help="exit 1 if a file is stale")
    args = parser.parse_args(argv)
    stale = 0
    for path, source in (
        (kernels_path(), render_kernels()),
        (classifiers_path(), render_classifiers()),
        (records_path(), render_records()),
    ):
        current = path.read_text(encoding="utf-8") if path.exists() else ""
        if args.check:
            if current != source:
                print(f"{path} is stale: run {REGENERATE_COMMAND}", file=sys.stderr)
                stale += 1
            continue
        path.write_text(source, encoding="utf-8")
        print(f"wrote {path}")
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
