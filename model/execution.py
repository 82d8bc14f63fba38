"""Who runs a call: the evidence that makes an output item executable by the client.

An item is *executable* when the client is the one to run it and nothing has run it
yet.  The item type alone does not say so: xAI's server-run ``x_search`` streams
``custom_tool_call`` items (``xs_call_…``) the request never declared, and OpenAI's
hosted container shell streams ``shell_call`` items the server already ran, their
``shell_call_output`` in the same response.  The response object says what the client
declared: ``response.tools``, echoed by ``response.created`` / ``in_progress`` /
``completed``.  This module holds that knowledge as data, and ``decide`` reads it.

Theory of operation
-------------------
``decide(facts)`` walks the gates below in order; where the walk stops (a ``Stop``:
the first gate that fails, or the declared tools' answer) picks the cell of the
execution table ``EXECUTION``, whose value is the verdict (an ``Execution``), so every
non-executable item says why.  The walk is ``execution_stop``, written against
``model.ops`` like the other classifiers: the reducer runs it on Python facts, the
proofs on Z3 terms (``proofs/execution_z3.py``), and the table is a field of
``ModelTables`` (a mutant is one cell of it changed).  Reading the declared tools
(gate 6, ``declared``) is plain Python over JSON: it gathers one fact, which the Z3
encoding leaves free; the two decisions in it are tables of ``ModelTables`` too — a
shell's environment (the wire's ``environment.type``, an ``EnvironmentType``, →
``ENVIRONMENT_TYPES`` → ``ShellEnvironment`` → ``ENVIRONMENT_RUNNER``) and a tool
search's ``execution`` (the wire value, an ``ExecutionValue``, → ``EXECUTION_VALUES`` →
``SearchExecution`` → ``EXECUTION_RUNNER``), decided by the ``reads_environment``,
``shell_runner``, ``reads_execution`` and ``search_runner`` kernels the reducer passes
to ``decide``, and proved by the contracts of ``proofs/runners_z3.py`` (over the wire
values, so a cell of either table that misreads one is refuted).  The gates:

1. the item is a client-run call type (``CLIENT_CALLS``: the catalogue's item records
   with a ``call``, ``catalogue.ClientCall``);
2. the response completed (a cut-off call must not be run);
3. the entry is confirmed (by its ``done`` or the snapshot, R8);
4. it has a non-empty ``call_id`` (an output must name it);
5. no output item for its ``call_id`` is in the same response (``OUTPUT_OF``, paired by
   the output's ``output_key``): a call that is already answered was run by the server;
6. the declared tools say the client runs it (their answer, a ``Declared``, leaves the
   walk at the ``DECLARED`` cell; a declared tool's type is read by meaning,
   ``catalogue.tool_type``, and one the catalogue does not know is never silent:
   ``UNKNOWN_TYPE``), read the way ``CLIENT_CALLS`` says for the type
   (``Declaration``): function and custom tools by name (a namespace's tools and the
   tools a ``tool_search_output`` loaded count), a shell by its declared environment
   (``ENVIRONMENT_TYPES``, ``ENVIRONMENT_RUNNER``), local shell / computer / apply_patch
   by the tool type being declared, a ``tool_search_call`` by its own ``execution``,
   else its declared tool's (``stated_execution``, ``EXECUTION_VALUES``,
   ``EXECUTION_RUNNER``).

When the stream carries no declared tools (no ``tools`` field, or an empty list, which
OpenAI echoes even when a ``local_shell`` tool was sent: vercel/ai fixture
``openai-local-shell-tool.1``), the verdict is ``TOOLS_UNKNOWN``: the call is
executable by its type, and the verdict says that no declaration confirmed it — the
reducer does not guess silently.

Evidence: issue #11 (the captures ``xai__xai-x-search-tool``,
``openai__openai-shell-skills.1``, ``openai__openai-shell-container.1``, the tool-search
fixtures); openai-python's tool and item types (``FunctionShellTool.environment`` is
``local`` | ``container_auto`` | ``container_reference``; ``ToolSearchTool.execution``
and ``ResponseToolSearchCall.execution`` are ``server`` | ``client``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from enum import Enum
from typing import TYPE_CHECKING, Any, Final, Protocol

from .catalogue import ITEM_TYPES, ClientCall, Declaration, tool_type
from .ops import PYTHON, Fact, Ops, Text, Value
from .recordkit import record

if TYPE_CHECKING:  # model.tables imports this module
    from .tables import KernelSet


class Execution(Enum):
    """Why an item is or is not executable: the verdict in the result contract."""

    CLIENT = "client"
    """Executable: the declared tools say the client runs it."""
    TOOLS_UNKNOWN = "tools_unknown"
    """Executable by its type; the stream declared no tools to confirm it."""
    NOT_A_CALL = "not_a_call"
    """Not a client-run call type (a message, reasoning, a hosted tool's item)."""
    NOT_COMPLETED = "not_completed"
    """The response did not complete: nothing in it is run."""
    UNCONFIRMED = "unconfirmed"
    """Neither its ``done`` nor the snapshot confirmed the item."""
    NO_CALL_ID = "no_call_id"
    """No ``call_id``: an output could not name it."""
    ANSWERED = "answered"
    """An output item for its ``call_id`` is in the same response: the server ran it."""
    SERVER = "server"
    """The declared tool says the server runs it (hosted environment, ``execution``)."""
    UNDECLARED = "undeclared"
    """The stream declares tools, and none of them is this call's."""
    UNKNOWN_TOOL_TYPE = "unknown_tool_type"
    """The stream declares tools, none the catalogue reads is this call's, and one is of
    a type the catalogue does not know (``catalogue.TOOL_TYPES``): it may be this call's,
    so the call is not run, and the verdict says why (with an ``unknown_tool_type``
    diagnostic naming the type)."""


EXECUTABLE: Final[frozenset[Execution]] = frozenset({Execution.CLIENT, Execution.TOOLS_UNKNOWN})
"""The verdicts under which an item is ``executable``."""


class Stop(Enum):
    """Where ``decide``'s walk through the gates stops: the first gate an item fails, or
    (every gate passed) what the declared tools say.  The key of ``EXECUTION``."""

    NOT_A_CALL = "not_a_call"
    """Gate 1: not a client call type."""
    NOT_COMPLETED = "not_completed"
    """Gate 2: the response did not complete."""
    UNCONFIRMED = "unconfirmed"
    """Gate 3: nothing confirmed the item."""
    NO_CALL_ID = "no_call_id"
    """Gate 4: no non-empty ``call_id``."""
    ANSWERED = "answered"
    """Gate 5: an output for its ``call_id`` is in the response."""
    NO_TOOLS = "no_tools"
    """Gate 6 cannot be read: the stream declared no tools."""
    DECLARED_CLIENT = "declared_client"
    """Gate 6: the declared tools say the client runs it."""
    DECLARED_SERVER = "declared_server"
    """Gate 6: the declared tool says the server runs it."""
    UNDECLARED = "undeclared"
    """Gate 6: tools are declared, and none is this call's."""
    UNKNOWN_TOOL_TYPE = "unknown_tool_type"
    """Gate 6: no declared tool the catalogue knows is this call's, and a declared tool's
    type is one it does not know."""


DECLARATION_STOPS: Final[tuple[Stop, ...]] = (
    Stop.DECLARED_CLIENT,
    Stop.DECLARED_SERVER,
    Stop.UNDECLARED,
    Stop.UNKNOWN_TOOL_TYPE,
)
"""The stops the declared tools' answer can be (what ``declared`` returns)."""

ExecutionTable = dict[Stop, Execution]
"""Where the walk stops → the verdict."""

EXECUTION: Final[ExecutionTable] = {
    Stop.NOT_A_CALL: Execution.NOT_A_CALL,
    Stop.NOT_COMPLETED: Execution.NOT_COMPLETED,
    Stop.UNCONFIRMED: Execution.UNCONFIRMED,
    Stop.NO_CALL_ID: Execution.NO_CALL_ID,
    Stop.ANSWERED: Execution.ANSWERED,
    # Executable by its type, but nothing confirmed the client runs it: said so (R13).
    Stop.NO_TOOLS: Execution.TOOLS_UNKNOWN,
    Stop.DECLARED_CLIENT: Execution.CLIENT,
    Stop.DECLARED_SERVER: Execution.SERVER,
    Stop.UNDECLARED: Execution.UNDECLARED,
    Stop.UNKNOWN_TOOL_TYPE: Execution.UNKNOWN_TOOL_TYPE,
}
"""The execution table (R13): the verdict of each stop, cell by cell.  Only two cells
are executable (``EXECUTABLE``); the proofs hold every other to its gate
(``proofs/execution_z3.py``)."""

WITHHELD: Final[dict[Execution, bool]] = {
    # Not a call: nothing to run, nothing withheld.
    Execution.NOT_A_CALL: False,
    # A cut-off response: its end says so already (missing_terminal, response_error).
    Execution.NOT_COMPLETED: False,
    # Said already, by the lifecycle's row: unconfirmed_item (NOTE_UNCONFIRMED, R9).
    Execution.UNCONFIRMED: False,
    # A call of a completed response that is not run: said, with its verdict.
    Execution.NO_CALL_ID: True,
    Execution.ANSWERED: True,
    Execution.SERVER: True,
    # A vLLM gateway echoes a namespace's tools under flattened names
    # (``agentic_ns__mcp__agentic_fixture__add_numbers``) and sends the call with the
    # namespace restored: no echoed tool names it, and the client must hear why (#41).
    Execution.UNDECLARED: True,
    Execution.UNKNOWN_TOOL_TYPE: True,
    # Executable: nothing withheld.
    Execution.CLIENT: False,
    Execution.TOOLS_UNKNOWN: False,
}
"""Which verdicts ``call_withheld`` reports (R13): the driver raises it, naming the
verdict, for each entry whose verdict's cell is true (``impl/core/settle.py``).  The
obligation ``withheld_reported`` (``model.completeness``, proved by
``proofs/execution_z3.py``) holds every cell to its meaning: a call of a completed
response that is not executable is reported exactly once — ``unconfirmed_item`` when
nothing confirmed it (the lifecycle's row, ``unconfirmed_reported``), ``call_withheld``
otherwise — so no completed call is withheld in silence, and no other item is said to
be."""


class Runner(Enum):
    """Who runs a declared tool."""

    CLIENT = "client"
    SERVER = "server"


CLIENT_CALLS: Final[dict[str, ClientCall]] = {
    kind: spec.call for kind, spec in ITEM_TYPES.items() if spec.call is not None
}
"""Every call type a client may run → its record (``catalogue.ITEM_TYPES``' ``call``)."""

OUTPUT_OF: Final[dict[str, str]] = {call.output: kind for kind, call in CLIENT_CALLS.items()}
"""Each ``*_output`` item type → the call type it answers (paired by the output's
``ClientCall.output_key`` field: ``call_id``, or a local shell output's ``id``)."""


class Pairable(Protocol):
    """An output item of a response as ``answered_ordinals`` reads it (the reducer's
    ``Entry``, the invariants' ``EntrySnapshot``)."""

    @property
    def ordinal(self) -> int:
        """Its place in the order the stream admitted the response's items."""

    @property
    def item_type(self) -> str:
        """Its wire ``type``."""

    @property
    def call_id(self) -> str | None:
        """Its ``call_id`` (None: it names none)."""

    @property
    def item_id(self) -> str | None:
        """Its wire ``id`` (None: it has none yet)."""


def answered_ordinals(entries: Iterable[Pairable]) -> frozenset[int]:
    """The ordinals of the calls an output item of the same response answers -- the
    pairing of a call with its output, one function for the reducer (gate 5's fact,
    ``settle``), the proxy's early release and the invariants.

    1. An output names its call by its ``ClientCall.output_key`` field (``call_id``, or
       a local shell output's ``id``): it answers every call of the type it answers
       (``OUTPUT_OF``) with that ``call_id``.
    2. An output keyed by ``call_id`` that names none answers the nearest call before
       it, in the order the stream admitted them, of the type it answers that names
       no ``call_id`` either and that no other output answered so: a server-run tool
       search streams ``tool_search_call`` and then its ``tool_search_output``, both
       with ``call_id: null`` (OpenAI and Azure, captured by the AI SDK and
       pydantic-ai).  A call that names no ``call_id`` stops at gate 4, before this
       fact is read: rule 2 changes no verdict, only what a reader may pair."""
    ordered = sorted(entries, key=lambda entry: entry.ordinal)
    named: set[tuple[str, str]] = set()
    unnamed: dict[str, list[int]] = {}
    answered: set[int] = set()
    for entry in ordered:
        kind = entry.item_type
        call_type = OUTPUT_OF.get(kind)
        if kind in CLIENT_CALLS and not entry.call_id:
            unnamed.setdefault(kind, []).append(entry.ordinal)
        if call_type is None:
            continue
        by_id = CLIENT_CALLS[call_type].output_key == "id"
        key = entry.item_id if by_id else entry.call_id
        if key:
            named.add((call_type, key))
        elif not by_id and unnamed.get(call_type):
            answered.add(unnamed[call_type].pop())
    answered.update(
        entry.ordinal for entry in ordered if (entry.item_type, entry.call_id) in named
    )
    return frozenset(answered)

class ShellEnvironment(Enum):
    """What a declared shell tool says of where it runs: its ``environment.type``
    (openai-python's ``FunctionShellTool.environment``).  The key of
    ``ENVIRONMENT_RUNNER``."""

    NONE = "none"
    """No ``environment`` (or no ``type`` in it): the original shell tool."""
    LOCAL = "local"
    """``local``: the client's own machine."""
    CONTAINER_AUTO = "container_auto"
    """``container_auto``: a container the server creates."""
    CONTAINER_REFERENCE = "container_reference"
    """``container_reference``: a container the server already holds."""
    OTHER = "other"
    """Any other type: an environment the model does not know."""


class ExecutionValue(Enum):
    """The ``execution`` a tool search or its declared tool states on the wire: the
    finite domain of that field as the model reads it (the member's value is the wire
    string).  The key of ``EXECUTION_VALUES``."""

    CLIENT = "client"
    """``execution: "client"``."""
    SERVER = "server"
    """``execution: "server"``."""
    OTHER = "other"
    """No ``execution``, one that is no string, or a string the model does not know."""


class EnvironmentType(Enum):
    """The ``environment.type`` a declared shell tool states on the wire: the finite
    domain of that field as the model reads it (the member's value is the wire string,
    but for ``ABSENT`` and ``OTHER``).  The key of ``ENVIRONMENT_TYPES``."""

    ABSENT = "absent"
    """No ``environment``, or no ``type`` in it."""
    LOCAL = "local"
    """``local``."""
    CONTAINER_AUTO = "container_auto"
    """``container_auto``."""
    CONTAINER_REFERENCE = "container_reference"
    """``container_reference``."""
    OTHER = "other"
    """A type that is no string, or a string the model does not know."""


class SearchExecution(Enum):
    """What a tool search says of who runs it: its ``execution`` (openai-python's
    ``ToolSearchTool.execution``, ``ResponseToolSearchCall.execution``).  The key of
    ``EXECUTION_RUNNER``."""

    CLIENT = "client"
    """``execution: "client"``."""
    SERVER = "server"
    """``execution: "server"``."""
    UNSET = "unset"
    """No ``execution`` (a value the model does not know is read as none)."""


ENVIRONMENT_RUNNER: Final[dict[ShellEnvironment, Runner]] = {
    # The original client-run shell (vercel/ai openai-shell-tool.1: declared
    # {"type":"shell"}, the call answered by the client in the next request).
    ShellEnvironment.NONE: Runner.CLIENT,
    ShellEnvironment.LOCAL: Runner.CLIENT,
    # Hosted containers (openai-shell-container.1: container_auto; the server runs the
    # call and streams its shell_call_output).
    ShellEnvironment.CONTAINER_AUTO: Runner.SERVER,
    ShellEnvironment.CONTAINER_REFERENCE: Runner.SERVER,
    # A hosted environment the model does not know yet: never run by the client.
    ShellEnvironment.OTHER: Runner.SERVER,
}
"""A declared shell tool's environment → who runs its calls (R13; decided by the
``shell_runner`` kernel, proved by ``proofs/runners_z3.py``)."""

EXECUTION_RUNNER: Final[dict[SearchExecution, Runner]] = {
    SearchExecution.CLIENT: Runner.CLIENT,
    SearchExecution.SERVER: Runner.SERVER,
    # Unset is the hosted search (vercel/ai openai-tool-search.1: execution "server",
    # no call_id).
    SearchExecution.UNSET: Runner.SERVER,
}
"""A tool search's ``execution`` → who runs it (R13; decided by the ``search_runner``
kernel, proved by ``proofs/runners_z3.py``)."""

ENVIRONMENT_TYPES: Final[dict[EnvironmentType, ShellEnvironment]] = {
    EnvironmentType.ABSENT: ShellEnvironment.NONE,
    EnvironmentType.LOCAL: ShellEnvironment.LOCAL,
    EnvironmentType.CONTAINER_AUTO: ShellEnvironment.CONTAINER_AUTO,
    EnvironmentType.CONTAINER_REFERENCE: ShellEnvironment.CONTAINER_REFERENCE,
    EnvironmentType.OTHER: ShellEnvironment.OTHER,
}
"""The wire's ``environment.type`` → the environment it names (R13; decided by the
``reads_environment`` kernel, proved with ``ENVIRONMENT_RUNNER`` by the contract
``shell_runners``, which is stated over the wire value)."""

EXECUTION_VALUES: Final[dict[ExecutionValue, SearchExecution]] = {
    ExecutionValue.CLIENT: SearchExecution.CLIENT,
    ExecutionValue.SERVER: SearchExecution.SERVER,
    ExecutionValue.OTHER: SearchExecution.UNSET,
}
"""The wire's ``execution`` → what it says of the tool search (R13; decided by the
``reads_execution`` kernel, proved with ``EXECUTION_RUNNER`` by the contract
``search_runners``, which is stated over the wire value)."""


_NOT_ON_THE_WIRE: Final = frozenset({EnvironmentType.ABSENT, EnvironmentType.OTHER})
"""The ``EnvironmentType`` members no wire string names (a string equal to their value
is one the model does not know: ``OTHER``)."""


def environment_type(tool: Mapping[str, Any]) -> EnvironmentType:
    """The wire ``environment.type`` of a declared shell ``tool`` as a member of its
    domain (``OTHER``: no string, or a string the model does not know)."""
    environment = tool.get("environment")
    kind = environment.get("type") if isinstance(environment, Mapping) else None
    if kind is None:
        return EnvironmentType.ABSENT
    for member in EnvironmentType:
        if member.value == kind and member not in _NOT_ON_THE_WIRE:
            return member
    return EnvironmentType.OTHER


def shell_environment(
    tool: Mapping[str, Any], reads: ReadsEnvironment = ENVIRONMENT_TYPES.__getitem__
) -> ShellEnvironment:
    """The environment a declared shell ``tool`` names (its ``environment.type``): the
    cell of ``ENVIRONMENT_TYPES`` (``reads``: its kernel, the reference table unless
    told)."""
    return reads(environment_type(tool))


def execution_value(value: object) -> ExecutionValue:
    """The wire ``execution`` ``value`` as a member of its domain (``OTHER``: absent, no
    string, or a string the model does not know)."""
    if isinstance(value, str) and value != ExecutionValue.OTHER.value:
        for member in ExecutionValue:
            if member.value == value:
                return member
    return ExecutionValue.OTHER


def search_execution(
    value: object, reads: ReadsExecution = EXECUTION_VALUES.__getitem__
) -> SearchExecution:
    """The ``execution`` a tool search or its declared tool states (``value``): the cell
    of ``EXECUTION_VALUES`` (``reads``: its kernel, the reference table unless told)."""
    return reads(execution_value(value))


def stated_execution(ops: Ops, own: Value, tool: Value) -> Value:
    """The execution that decides who runs a tool search: its own (``own``), when it
    states one; else its declared tool's (``tool``).  Written against ``model.ops``: the
    reducer runs it on ``SearchExecution`` members, the contract ``search_runners`` on
    Z3 terms."""
    return ops.cond(ops.is_(own, SearchExecution.UNSET), tool, own)


ShellRunner = Callable[[ShellEnvironment], Runner]
"""The kernel deciding ``ENVIRONMENT_RUNNER``'s cells (``KernelSet.shell_runner``)."""

SearchRunner = Callable[[SearchExecution], Runner]
"""The kernel deciding ``EXECUTION_RUNNER``'s cells (``KernelSet.search_runner``)."""

ReadsExecution = Callable[[ExecutionValue], SearchExecution]
"""The kernel deciding ``EXECUTION_VALUES``' cells (``KernelSet.reads_execution``)."""

ReadsEnvironment = Callable[[EnvironmentType], ShellEnvironment]
"""The kernel deciding ``ENVIRONMENT_TYPES``' cells (``KernelSet.reads_environment``)."""


NAMESPACE: Final = "namespace"
"""The declared tool type that groups tools under a name (item field ``namespace``)."""

LOADED_TOOLS: Final = "tool_search_output"
"""The output item whose ``tools`` a tool search loaded into the response."""


@record(frozen=True, slots=True)
class CallFacts:
    """What ``decide`` reads about one item, gathered by the reducer."""

    item: Mapping[str, Any]
    completed: bool
    confirmed: bool
    call_id: str | None
    answered: bool
    tools: tuple[Mapping[str, Any], ...] | None
    """The declared tools (``response.tools`` plus any a tool search loaded), or None
    when the stream declared none."""


def declared_tools(
    response_tools: object, loaded: Iterable[Mapping[str, Any]] = ()
) -> tuple[Mapping[str, Any], ...] | None:
    """The declared tools: a non-empty ``response.tools`` list plus loaded ones.

    An absent, malformed or empty ``response.tools`` declares nothing (None), since an
    empty list is echoed even when tools were sent (see the module docstring).
    """
    base = response_tools if isinstance(response_tools, list) else []
    tools = tuple(tool for tool in (*base, *loaded) if isinstance(tool, Mapping))
    return tools if base else None


def _flattened(tools: Iterable[Mapping[str, Any]], space: str | None) -> Iterable[
    tuple[str | None, Mapping[str, Any]]
]:
    """(namespace, tool) for every tool, a namespace's own tools included."""
    for tool in tools:
        inner = tool.get("tools")
        if tool_type(tool.get("type")) == NAMESPACE and isinstance(inner, list):
            name = tool.get("name")
            members = (t for t in inner if isinstance(t, Mapping))
            yield from _flattened(members, name if isinstance(name, str) else None)
        else:
            yield space, tool


def _runner(
    call: ClientCall,
    item: Mapping[str, Any],
    tools: Iterable[Mapping[str, Any]],
    shell: ShellRunner,
    search: SearchRunner,
    reads: ReadsExecution,
    environments: ReadsEnvironment,
) -> Runner | None:
    """Who the declared tools say runs ``item`` (None: no declared tool is its);
    ``shell`` and ``search`` decide ``ENVIRONMENT_RUNNER``'s and ``EXECUTION_RUNNER``'s
    cells, ``reads`` ``EXECUTION_VALUES``', ``environments`` ``ENVIRONMENT_TYPES``'."""
    mine = [
        (space, tool) for space, tool in _flattened(tools, None)
        if tool_type(tool.get("type")) in call.tool_types
    ]
    if call.declaration is Declaration.BY_NAME:
        # A tool inside a namespace answers only to calls of that namespace; a top-level
        # one to any (OpenAI names a deferred top-level function's call by the
        # function: ``namespace: "get_weather"``, vercel/ai ``openai-tool-search.1``).
        name, space = item.get("name"), item.get("namespace")
        named = [
            tool
            for where, tool in mine
            if tool.get("name") == name and where in (None, space)
        ]
        return Runner.CLIENT if named else None
    if call.declaration is Declaration.BY_EXECUTION:
        # The call's own execution, when it states one; else its declared tool's.
        own = search_execution(item.get("execution"), reads)
        if own is SearchExecution.UNSET and not mine:
            return None
        tool = search_execution(mine[0][1].get("execution"), reads) if mine else own
        return search(stated_execution(PYTHON, own, tool))
    if not mine:
        return None
    if call.declaration is Declaration.BY_ENVIRONMENT:
        runners = {shell(shell_environment(tool, environments)) for _, tool in mine}
        # Two shells, one local and one hosted: only the output can tell (gate 5).
        return Runner.CLIENT if Runner.CLIENT in runners else Runner.SERVER
    return Runner.CLIENT


class Declared(Enum):
    """What reading the declared tools finds for a call (gate 6): the key of
    ``DECLARED``."""

    CLIENT = "client"
    """A declared tool is the call's, and the client runs it."""
    SERVER = "server"
    """A declared tool is the call's, and the server runs it."""
    NONE = "none"
    """No declared tool is the call's, and the catalogue knows every declared type."""
    UNKNOWN_TYPE = "unknown_type"
    """No declared tool the catalogue knows is the call's, and a declared tool is of a
    type it does not know (``unknown_tool_types``)."""


DECLARED: Final[dict[Declared, Stop]] = {
    Declared.CLIENT: Stop.DECLARED_CLIENT,
    Declared.SERVER: Stop.DECLARED_SERVER,
    # xAI's server-run x_search streams custom_tool_call items no declared tool names
    # (issue #11, capture xai__xai-x-search-tool): never the client's.
    Declared.NONE: Stop.UNDECLARED,
    Declared.UNKNOWN_TYPE: Stop.UNKNOWN_TOOL_TYPE,
}
"""Where the declared tools' answer leaves the walk (gate 6): a table of
``ModelTables`` (``declared``), decided by the ``declares`` kernel and proved with the
execution table (``proofs/execution_z3.py`` states its invariants over the answer)."""

Declares = Callable[[Declared], Stop]
"""The kernel deciding ``DECLARED``'s cells (``KernelSet.declares``)."""

_ANSWERS: Final[dict[Runner, Declared]] = {
    Runner.CLIENT: Declared.CLIENT,
    Runner.SERVER: Declared.SERVER,
}


def unknown_tool_types(tools: Iterable[Mapping[str, Any]]) -> list[str]:
    """The wire types of the declared ``tools`` the catalogue does not know
    (``catalogue.tool_type``), each once, in declaration order (a namespace's own tools
    included)."""
    found: list[str] = []
    for _, tool in _flattened(tools, None):
        kind = tool.get("type")
        if tool_type(kind) is None and str(kind) not in found:
            found.append(str(kind))
    return found


def declared_answer(
    facts: CallFacts,
    shell: ShellRunner = ENVIRONMENT_RUNNER.__getitem__,
    search: SearchRunner = EXECUTION_RUNNER.__getitem__,
    reads: ReadsExecution = EXECUTION_VALUES.__getitem__,
    environments: ReadsEnvironment = ENVIRONMENT_TYPES.__getitem__,
) -> Declared:
    """What the declared tools say of the item (gate 6); ``NONE`` also when there is
    nothing to read (not a call type, or no tools declared — the gates before it stop
    the walk there).  ``shell``, ``search``, ``reads`` and ``environments`` are the
    kernels of ``ENVIRONMENT_RUNNER``, ``EXECUTION_RUNNER``, ``EXECUTION_VALUES`` and
    ``ENVIRONMENT_TYPES`` (the reference tables unless told)."""
    call = CLIENT_CALLS.get(str(facts.item.get("type")))
    if call is None or facts.tools is None:
        return Declared.NONE
    runner = _runner(call, facts.item, facts.tools, shell, search, reads, environments)
    if runner is not None:
        return _ANSWERS[runner]
    return Declared.UNKNOWN_TYPE if unknown_tool_types(facts.tools) else Declared.NONE


def declared(
    facts: CallFacts,
    shell: ShellRunner = ENVIRONMENT_RUNNER.__getitem__,
    search: SearchRunner = EXECUTION_RUNNER.__getitem__,
    declares: Declares = DECLARED.__getitem__,
    reads: ReadsExecution = EXECUTION_VALUES.__getitem__,
    environments: ReadsEnvironment = ENVIRONMENT_TYPES.__getitem__,
) -> Stop:
    """Where the declared tools' answer (``declared_answer``) leaves the walk: the cell
    of ``DECLARED`` (``declares``: its kernel, the reference table unless told;
    ``shell``, ``search``, ``reads``, ``environments``: as ``declared_answer`` takes
    them)."""
    return declares(declared_answer(facts, shell, search, reads, environments))


def execution_stop(
    ops: Ops,
    call: Fact,
    completed: Fact,
    confirmed: Fact,
    call_id: Text,
    answered: Fact,
    tools: Fact,
    declaration: Value,
) -> Value:
    """Where the walk through the gates stops (the cell of ``EXECUTION``): the first gate
    the item fails, else the declaration's answer.

    ``call``: the item is a client call type (``CLIENT_CALLS``); ``tools``: the stream
    declared tools; ``declaration``: ``declared``'s answer (one of ``DECLARATION_STOPS``).
    """
    return ops.cond(
        ops.not_(call),
        Stop.NOT_A_CALL,
        ops.cond(
            ops.not_(completed),
            Stop.NOT_COMPLETED,
            ops.cond(
                ops.not_(confirmed),
                Stop.UNCONFIRMED,
                ops.cond(
                    ops.not_(ops.present(call_id)),
                    Stop.NO_CALL_ID,
                    ops.cond(
                        answered,
                        Stop.ANSWERED,
                        ops.cond(ops.not_(tools), Stop.NO_TOOLS, declaration),
                    ),
                ),
            ),
        ),
    )


def stop_of(
    facts: CallFacts,
    shell: ShellRunner = ENVIRONMENT_RUNNER.__getitem__,
    search: SearchRunner = EXECUTION_RUNNER.__getitem__,
    declares: Declares = DECLARED.__getitem__,
    reads: ReadsExecution = EXECUTION_VALUES.__getitem__,
    environments: ReadsEnvironment = ENVIRONMENT_TYPES.__getitem__,
) -> Stop:
    """``execution_stop`` on the Python facts of one item (``shell``, ``search``,
    ``declares``, ``reads``, ``environments``: as ``declared`` takes them).  The
    declared tools are read only when every gate before them passed (the walk stops at
    None, which stands for their answer), so a runner cell is consulted only for a call
    whose verdict it decides."""
    stop: Stop | None = execution_stop(
        PYTHON,
        str(facts.item.get("type")) in CLIENT_CALLS,
        facts.completed,
        facts.confirmed,
        facts.call_id,
        facts.answered,
        facts.tools is not None,
        None,
    )
    return (
        declared(facts, shell, search, declares, reads, environments) if stop is None else stop
    )


def decide(
    facts: CallFacts,
    verdict: Callable[[Stop], Execution] = EXECUTION.__getitem__,
    shell: ShellRunner = ENVIRONMENT_RUNNER.__getitem__,
    search: SearchRunner = EXECUTION_RUNNER.__getitem__,
    declares: Declares = DECLARED.__getitem__,
    reads: ReadsExecution = EXECUTION_VALUES.__getitem__,
    environments: ReadsEnvironment = ENVIRONMENT_TYPES.__getitem__,
) -> Execution:
    """The verdict for one item: the ``EXECUTION`` cell of the gate it stops at
    (``verdict``, ``shell``, ``search``, ``declares``, ``reads``, ``environments`` are
    the kernels of ``EXECUTION``, ``ENVIRONMENT_RUNNER``, ``EXECUTION_RUNNER``,
    ``DECLARED``, ``EXECUTION_VALUES`` and ``ENVIRONMENT_TYPES``; the reference tables
    unless told)."""
    return verdict(stop_of(facts, shell, search, declares, reads, environments))


def decide_by(facts: CallFacts, kernels: KernelSet) -> Execution:
    """``decide`` with the six kernels of one ``KernelSet`` (the generated reducer's or
    an interpreted model's): the argument list written once for every caller that holds
    a whole set."""
    return decide(
        facts,
        kernels.execute,
        kernels.shell_runner,
        kernels.search_runner,
        kernels.declares,
        kernels.reads_execution,
        kernels.reads_environment,
    )
