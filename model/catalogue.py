"""The wire catalogue: which event types exist, which item types exist, where payloads live.

This is the model's view of ``reference/protocol-notes.md`` sections 2-4, as data.  The
driver classifies every wire event through ``WIRE_EVENTS`` and finds every payload inside
an item through ``ITEM_TYPES``; nothing else in the code knows a wire event name.  An
item type is one record (``ItemTypeSpec``): its id prefix, its channels, its ``call_id``
namespace and, for a call a client may run, its ``ClientCall`` — the tool types that
declare it, the output that answers it, what replay inserts for it (R12, R13).
"""

from __future__ import annotations

from enum import Enum
from typing import Final

from .recordkit import record
from .vocabulary import ItemKind, ResponseStatus, Trigger


class EventClass(Enum):
    """What kind of thing a wire event is, before it is routed to an entry."""

    RESPONSE_STARTED = "response_started"
    RESPONSE_PROGRESS = "response_progress"
    RESPONSE_COMPLETED = "response_completed"
    RESPONSE_INCOMPLETE = "response_incomplete"
    RESPONSE_FAILED = "response_failed"
    RESPONSE_CANCELLED = "response_cancelled"
    ERROR = "error"
    KEEPALIVE = "keepalive"
    UNROUTABLE = "unroutable"
    ITEM_ADDED = "item_added"
    ITEM_DONE = "item_done"
    ITEM_SCOPED = "item_scoped"


class ChannelKind(Enum):
    """One kind of streamed payload (DESIGN section 2, "channel")."""

    # Hashed by identity, in C: an entry's channels are keyed by ``(kind, index)``, a
    # lookup on the path of every delta, and ``Enum.__hash__`` is a Python function
    # (one frame per delta).  A member is equal only to itself, so the keys compare as
    # before; a member's hash differs between processes either way (``Enum`` hashes
    # its name, and string hashes are randomised per process).
    __hash__ = object.__hash__

    ARGUMENTS = "arguments"
    INPUT = "input"
    TEXT = "text"
    REFUSAL = "refusal"
    SUMMARY = "summary"
    REASONING_TEXT = "reasoning_text"
    CODE = "code"
    DIFF = "diff"
    COMMAND = "command"


@record(frozen=True, slots=True)
class WireEventSpec:
    """How one wire event type is read.

    ``trigger`` is set for item-scoped events; ``value_field`` names the field that
    carries the payload (``delta``, ``arguments``, ...), or the field of the ``part``
    object for part events; ``index_field`` names the part index (``content_index``,
    ``summary_index``, ``command_index``) for channels that have several parts.
    """

    event_class: EventClass
    trigger: Trigger | None = None
    channel: ChannelKind | None = None
    value_field: str | None = None
    index_field: str | None = None
    value_in_part: bool = False


def _scoped(
    trigger: Trigger,
    channel: ChannelKind | None = None,
    value_field: str | None = None,
    index_field: str | None = None,
    value_in_part: bool = False,
) -> WireEventSpec:
    return WireEventSpec(
        EventClass.ITEM_SCOPED, trigger, channel, value_field, index_field, value_in_part
    )


_PROGRESS = _scoped(Trigger.PROGRESS)
_D, _PD = Trigger.DELTA, Trigger.PAYLOAD_DONE
_C = ChannelKind

WIRE_EVENTS: dict[str, WireEventSpec] = {
    "response.created": WireEventSpec(EventClass.RESPONSE_STARTED),
    "response.queued": WireEventSpec(EventClass.RESPONSE_PROGRESS),
    "response.in_progress": WireEventSpec(EventClass.RESPONSE_PROGRESS),
    "response.completed": WireEventSpec(EventClass.RESPONSE_COMPLETED),
    "response.incomplete": WireEventSpec(EventClass.RESPONSE_INCOMPLETE),
    "response.failed": WireEventSpec(EventClass.RESPONSE_FAILED),
    "response.cancelled": WireEventSpec(EventClass.RESPONSE_CANCELLED),
    "error": WireEventSpec(EventClass.ERROR),
    "keepalive": WireEventSpec(EventClass.KEEPALIVE),
    "response.output_item.added": WireEventSpec(EventClass.ITEM_ADDED),
    "response.output_item.done": WireEventSpec(EventClass.ITEM_DONE),
    # Content parts of messages and raw reasoning: the part's type picks the channel.
    "response.content_part.added": _scoped(
        Trigger.PART_ADDED, None, None, "content_index", value_in_part=True
    ),
    "response.content_part.done": _scoped(_PD, None, None, "content_index", value_in_part=True),
    # Bedrock Mantle names the raw-reasoning part events so (fixtures/peers/opencode).
    "response.reasoning_part.added": _scoped(
        Trigger.PART_ADDED, None, None, "content_index", value_in_part=True
    ),
    "response.reasoning_part.done": _scoped(_PD, None, None, "content_index", value_in_part=True),
    "response.output_text.delta": _scoped(_D, _C.TEXT, "delta", "content_index"),
    "response.output_text.done": _scoped(_PD, _C.TEXT, "text", "content_index"),
    "response.refusal.delta": _scoped(_D, _C.REFUSAL, "delta", "content_index"),
    "response.refusal.done": _scoped(_PD, _C.REFUSAL, "refusal", "content_index"),
    "response.reasoning_summary_part.added": _scoped(
        Trigger.PART_ADDED, _C.SUMMARY, "text", "summary_index", value_in_part=True
    ),
    "response.reasoning_summary_part.done": _scoped(
        _PD, _C.SUMMARY, "text", "summary_index", value_in_part=True
    ),
    "response.reasoning_summary_text.delta": _scoped(_D, _C.SUMMARY, "delta", "summary_index"),
    "response.reasoning_summary_text.done": _scoped(_PD, _C.SUMMARY, "text", "summary_index"),
    "response.reasoning_text.delta": _scoped(_D, _C.REASONING_TEXT, "delta", "content_index"),
    "response.reasoning_text.done": _scoped(_PD, _C.REASONING_TEXT, "text", "content_index"),
    # Open Responses still uses the old OpenAI names for raw reasoning.
    "response.reasoning.delta": _scoped(_D, _C.REASONING_TEXT, "delta", "content_index"),
    "response.reasoning.done": _scoped(_PD, _C.REASONING_TEXT, "text", "content_index"),
    "response.function_call_arguments.delta": _scoped(_D, _C.ARGUMENTS, "delta"),
    "response.function_call_arguments.done": _scoped(_PD, _C.ARGUMENTS, "arguments"),
    "response.custom_tool_call_input.delta": _scoped(_D, _C.INPUT, "delta"),
    "response.custom_tool_call_input.done": _scoped(_PD, _C.INPUT, "input"),
    "response.mcp_call_arguments.delta": _scoped(_D, _C.ARGUMENTS, "delta"),
    "response.mcp_call_arguments.done": _scoped(_PD, _C.ARGUMENTS, "arguments"),
    "response.mcp_call.arguments_delta": _scoped(_D, _C.ARGUMENTS, "delta"),
    "response.mcp_call.arguments_done": _scoped(_PD, _C.ARGUMENTS, "arguments"),
    "response.code_interpreter_call_code.delta": _scoped(_D, _C.CODE, "delta"),
    "response.code_interpreter_call_code.done": _scoped(_PD, _C.CODE, "code"),
    "response.code_interpreter_call.code.delta": _scoped(_D, _C.CODE, "delta"),
    "response.code_interpreter_call.code.done": _scoped(_PD, _C.CODE, "code"),
    "response.apply_patch_call_operation_diff.delta": _scoped(_D, _C.DIFF, "delta"),
    "response.apply_patch_call_operation_diff.done": _scoped(_PD, _C.DIFF, "diff"),
    "response.shell_call_command.added": _scoped(
        Trigger.PART_ADDED, _C.COMMAND, None, "command_index"
    ),
    "response.shell_call_command.delta": _scoped(_D, _C.COMMAND, "delta", "command_index"),
    "response.shell_call_command.done": _scoped(_PD, _C.COMMAND, "command", "command_index"),
    # Progress events: routed like payload events, no payload of their own.
    **{
        name: _PROGRESS
        for name in (
            "response.output_text.annotation.added",
            "response.output_text_annotation.added",
            "response.shell_call_output_content.delta",
            "response.shell_call_output_content.done",
            "response.web_search_call.in_progress",
            "response.web_search_call.searching",
            "response.web_search_call.completed",
            "response.file_search_call.in_progress",
            "response.file_search_call.searching",
            "response.file_search_call.completed",
            "response.code_interpreter_call.in_progress",
            "response.code_interpreter_call.interpreting",
            "response.code_interpreter_call.completed",
            "response.image_generation_call.in_progress",
            "response.image_generation_call.generating",
            "response.image_generation_call.completed",
            "response.image_generation_call.partial_image",
            "response.mcp_call.in_progress",
            "response.mcp_call.completed",
            "response.mcp_call.failed",
            "response.mcp_list_tools.in_progress",
            "response.mcp_list_tools.completed",
            "response.mcp_list_tools.failed",
            "response.compaction.compacting",
        )
    },
    # Audio events carry no item keys (protocol-notes 2.3): nothing to route them to.
    **{
        name: WireEventSpec(EventClass.UNROUTABLE)
        for name in (
            "response.audio.delta",
            "response.audio.done",
            "response.audio.transcript.delta",
            "response.audio.transcript.done",
        )
    },
}
"""Every wire event type the reducer understands.  Anything else is ``unknown_event``."""


PART_CHANNELS: dict[str, ChannelKind] = {
    "output_text": ChannelKind.TEXT,
    "refusal": ChannelKind.REFUSAL,
    "reasoning_text": ChannelKind.REASONING_TEXT,
    "summary_text": ChannelKind.SUMMARY,
}
"""A content part's ``type`` → the channel it carries (for ``content_part.*`` events)."""

MAX_INDEX: Final = 1 << 20
"""The largest ``output_index`` or part index (``content_index``, ``summary_index``) a
stream may carry (R1): a larger one, or one below 0, is ``invalid_field``.  Real streams
use a handful; a larger value is hostile input and would only make the slot table
grow.  The parser (``core.events``) and the refinement (``proofs/refinement.py``) read
this bound."""

PART_VALUE_FIELDS: dict[ChannelKind, str] = {
    ChannelKind.TEXT: "text",
    ChannelKind.REFUSAL: "refusal",
    ChannelKind.REASONING_TEXT: "text",
    ChannelKind.SUMMARY: "text",
}
"""The field of a part object that holds the channel's text."""


@record(frozen=True, slots=True)
class ChannelLocation:
    """Where a channel's value sits inside a wire item.

    ``container`` is a path of object keys from the item; then either a scalar
    ``field``, or an ``array`` of parts (of ``part_type``, or plain strings when
    ``part_type`` is None) whose position is the channel's part index.
    """

    channel: ChannelKind
    field: str | None
    container: tuple[str, ...] = ()
    array: str | None = None
    part_type: str | None = None


class Declaration(Enum):
    """How the declared tools tell who runs a call of one type (R13)."""

    BY_NAME = "by_name"
    """A declared tool of the type with the call's ``name`` (function, custom)."""
    BY_ENVIRONMENT = "by_environment"
    """The declared tool's ``environment.type`` (shell): ``execution.ENVIRONMENT_RUNNER``."""
    BY_TOOL_TYPE = "by_tool_type"
    """A declared tool of the type at all (local shell, computer, apply_patch)."""
    BY_EXECUTION = "by_execution"
    """The item's own ``execution`` (tool search), else the declared tool's."""


TOOL_TYPES: Final[dict[str, str]] = {
    # The tools a client declares and runs (``ClientCall.tool_types``).
    "function": "function",
    "custom": "custom",
    "local_shell": "local_shell",
    "shell": "shell",
    "apply_patch": "apply_patch",
    "computer": "computer",
    # openai-python's ``ComputerTool.type`` is ``computer_use_preview``; the response
    # echoes ``computer-use-preview-2025-03-11`` (issue #35).
    "computer_use": "computer",
    "tool_search": "tool_search",
    # A group of declared tools (``execution.NAMESPACE``).
    "namespace": "namespace",
    # Hosted tools: the provider runs their calls (openai-python's ``Tool`` union;
    # ``web_search_preview_2025_03_11``, ``web_search_2025_08_26``; xAI's ``x_search``;
    # OpenAI's ``programmatic_tool_calling``, vercel/ai fixture
    # ``openai__programmatic-tool-calling``).
    "web_search": "web_search",
    "file_search": "file_search",
    "code_interpreter": "code_interpreter",
    "image_generation": "image_generation",
    "mcp": "mcp",
    "x_search": "x_search",
    "programmatic_tool_calling": "programmatic_tool_calling",
}
"""A declared tool's type, in its base form, → the tool type it names.  The base form is
the wire's ``type`` lowercased, hyphens read as underscores, without the variant words
that end it (``VARIANT_WORDS``, a date, a version): ``computer-use-preview-2025-03-11``
is ``computer_use``, the ``computer`` tool.  A type whose base form is not here is one
the catalogue does not know (``unknown_tool_type``, R13)."""

VARIANT_WORDS: Final[frozenset[str]] = frozenset({"preview", "latest"})
"""Words that end a tool type's name without changing the tool it names (besides a date
``2025_03_11`` / ``20250311`` and a version ``v2``): ``web_search_preview`` is
``web_search``."""


def tool_type(wire: object) -> str | None:
    """The tool type a declared tool's wire ``type`` names (``TOOL_TYPES``), or None when
    the catalogue does not know it (or it is no string)."""
    if not isinstance(wire, str):
        return None
    known = TOOL_TYPES.get(wire)
    if known is not None:  # nearly every declared tool: its exact name
        return known
    words = wire.lower().replace("-", "_").split("_")
    while len(words) > 1 and _variant(words[-1]):
        words.pop()
    return TOOL_TYPES.get("_".join(words))


def _variant(word: str) -> bool:
    """Whether ``word`` only marks a variant: a date part, a version, ``VARIANT_WORDS``."""
    version = word[1:] if word[:1] == "v" else word
    return version.isdigit() or word in VARIANT_WORDS


@record(frozen=True, slots=True)
class ClientCall:
    """What makes an item type a call a client may run (R13), and what answers it.

    ``tool_types`` are the declared tool types that declare it (``TOOL_TYPES``' tool
    types: a declared tool's wire ``type`` is read through ``tool_type``), read as ``declaration``
    says; ``output`` is the item type that answers it on the wire, whose
    ``output_key`` field holds the call's ``call_id`` (``local_shell_call_output`` has
    no ``call_id``: its ``id`` is the call's, protocol-notes §3.1); ``replay_output`` is
    the synthetic output (type, id prefix) replay inserts for a call nothing answered
    (R12, codex's ``normalize.rs``), or None where codex inserts none.
    """

    tool_types: frozenset[str]
    declaration: Declaration
    output: str
    output_key: str = "call_id"
    replay_output: tuple[str, str] | None = None


@record(frozen=True, slots=True)
class ItemTypeSpec:
    """What the model knows about one output item type: one record per type.

    ``id_prefix`` is used only when an id must be minted (R11); ``call`` is set for the
    items a client may run (the only ones that can be ``executable``, R13); ``kind`` is
    the ``call_id`` namespace of the type (R6): a call and its output carry one
    ``call_id`` and are two items.
    """

    id_prefix: str
    channels: tuple[ChannelLocation, ...] = ()
    call: ClientCall | None = None
    kind: ItemKind = ItemKind.OTHER

    @property
    def client_call(self) -> bool:
        """Whether a client may run an item of this type (``call`` is set)."""
        return self.call is not None

    @property
    def payload_fields(self) -> frozenset[str]:
        """The item's top-level fields that hold its channels: their values are decided
        by R7 (``model/payload.py``), not by the merge of the item's other fields."""
        fields = (
            location.container[0] if location.container else location.array or location.field
            for location in self.channels
        )
        return frozenset(field for field in fields if field is not None)


_L = ChannelLocation
_CALL, _OUTPUT = ItemKind.CALL, ItemKind.OUTPUT
_BY_NAME, _BY_TOOL_TYPE = Declaration.BY_NAME, Declaration.BY_TOOL_TYPE

ITEM_TYPES: dict[str, ItemTypeSpec] = {
    "message": ItemTypeSpec(
        "msg",
        (
            _L(ChannelKind.TEXT, "text", array="content", part_type="output_text"),
            _L(ChannelKind.REFUSAL, "refusal", array="content", part_type="refusal"),
        ),
    ),
    "reasoning": ItemTypeSpec(
        "rs",
        (
            _L(ChannelKind.SUMMARY, "text", array="summary", part_type="summary_text"),
            _L(ChannelKind.REASONING_TEXT, "text", array="content", part_type="reasoning_text"),
        ),
    ),
    "function_call": ItemTypeSpec(
        "fc",
        (_L(ChannelKind.ARGUMENTS, "arguments"),),
        ClientCall(
            frozenset({"function"}),
            _BY_NAME,
            "function_call_output",
            replay_output=("function_call_output", "fco"),
        ),
        _CALL,
    ),
    "custom_tool_call": ItemTypeSpec(
        "ctc",
        (_L(ChannelKind.INPUT, "input"),),
        ClientCall(
            frozenset({"custom"}),
            _BY_NAME,
            "custom_tool_call_output",
            replay_output=("custom_tool_call_output", "ctco"),
        ),
        _CALL,
    ),
    # The wire answer is a local_shell_call_output whose ``id`` is the call's call_id
    # (openai-python 3.57 ``LocalShellCallOutput.id`` and ``LocalShellCall.call_id`` are
    # both "the unique ID of the local shell tool call generated by the model");
    # replay inserts codex's answer, a function_call_output (normalize.rs @ 0803cc58).
    "local_shell_call": ItemTypeSpec(
        "lsh",
        (),
        ClientCall(
            frozenset({"local_shell"}),
            _BY_TOOL_TYPE,
            "local_shell_call_output",
            output_key="id",
            replay_output=("function_call_output", "fco"),
        ),
        _CALL,
    ),
    "shell_call": ItemTypeSpec(
        "sh",
        (_L(ChannelKind.COMMAND, None, ("action",), "commands"),),
        ClientCall(frozenset({"shell"}), Declaration.BY_ENVIRONMENT, "shell_call_output"),
        _CALL,
    ),
    "apply_patch_call": ItemTypeSpec(
        "apc",
        (_L(ChannelKind.DIFF, "diff", ("operation",)),),
        ClientCall(frozenset({"apply_patch"}), _BY_TOOL_TYPE, "apply_patch_call_output"),
        _CALL,
    ),
    "computer_call": ItemTypeSpec(
        "cu",
        (),
        # ``computer_use_preview`` (and its dated echo) is a form of ``computer``:
        # ``TOOL_TYPES``.
        ClientCall(frozenset({"computer"}), _BY_TOOL_TYPE, "computer_call_output"),
        _CALL,
    ),
    "tool_search_call": ItemTypeSpec(
        "tsc",
        (),
        ClientCall(
            frozenset({"tool_search"}),
            Declaration.BY_EXECUTION,
            "tool_search_output",
            replay_output=("tool_search_output", "tso"),
        ),
        _CALL,
    ),
    "mcp_call": ItemTypeSpec("mcp", (_L(ChannelKind.ARGUMENTS, "arguments"),)),
    "code_interpreter_call": ItemTypeSpec("ci", (_L(ChannelKind.CODE, "code"),)),
    "web_search_call": ItemTypeSpec("ws"),
    "file_search_call": ItemTypeSpec("fs"),
    "image_generation_call": ItemTypeSpec("ig"),
    "mcp_list_tools": ItemTypeSpec("mcpl"),
    "mcp_approval_request": ItemTypeSpec("mcpr"),
    "mcp_approval_response": ItemTypeSpec("mcpa"),
    "function_call_output": ItemTypeSpec("fco", kind=_OUTPUT),
    "custom_tool_call_output": ItemTypeSpec("ctco", kind=_OUTPUT),
    "computer_call_output": ItemTypeSpec("cuo", kind=_OUTPUT),
    "local_shell_call_output": ItemTypeSpec("lsho", kind=_OUTPUT),
    "shell_call_output": ItemTypeSpec("sho", kind=_OUTPUT),
    "apply_patch_call_output": ItemTypeSpec("apco", kind=_OUTPUT),
    "tool_search_output": ItemTypeSpec("tso", kind=_OUTPUT),
    "compaction": ItemTypeSpec("cmp"),
    "program": ItemTypeSpec("cm", kind=_CALL),
    "program_output": ItemTypeSpec("cmo", kind=_OUTPUT),
    "additional_tools": ItemTypeSpec("at"),
}
"""Every output item type of protocol-notes section 3, one record each (client calls:
protocol-notes §3 and §3.1).  Unknown types pass through with the generic prefix
``item`` and no channels."""

PART_INDEXED_CHANNELS: frozenset[ChannelKind] = frozenset(
    spec.channel
    for spec in WIRE_EVENTS.values()
    if spec.trigger is Trigger.DELTA and spec.channel is not None and spec.index_field is not None
)
"""The channels whose delta events name their part by an index (``WireEventSpec.index_field``):
what the wire says of parts, read by the contract ``parts_announced`` against
``ANNOUNCED_PARTS`` (what the item types say).  A proof reads this derived set, not the
whole wire catalogue, so a new item type whose events name no part re-runs no proof row."""

ANNOUNCED_PARTS: frozenset[ChannelKind] = frozenset(
    location.channel
    for spec in ITEM_TYPES.values()
    for location in spec.channels
    if location.array is not None
)
"""The channels that sit at a position of an array in their item (a message's content
parts, a reasoning item's summary and text parts, a shell call's commands): the API
announces each such part with its part-added event before the part's first delta
(R7).  A delta that opens one is reported, ``part_not_added``: openai-node's stream
accumulator throws on it.  A resumed stream (R14) waives it for no item: a delta reaches
only an item the stream itself announced, after the resume point, so its parts'
added events were due after it too (issue #41).  The driver asks it through the
``announces`` kernel (``ModelTables.announced_parts``, one cell per channel kind); the
contract ``parts_announced`` (``proofs/reports_z3.py``) proves it against the wire: a
channel is announced exactly when its deltas name a part (``WireEventSpec.index_field``)."""

UNKNOWN_ITEM_TYPE = ItemTypeSpec("item")
"""The spec used for an item type the catalogue does not know (it still passes through)."""

STRAY_ITEM_FIELDS: tuple[str, ...] = ("item_id", "output_index")
"""Fields some gateways put inside items (Bedrock Mantle); never part of a wire item."""

STARTING_EVENT: str = "response.created"
"""The event type that opens a response (and closes the one before it, R1)."""

class Terminal(Enum):
    """The events that end a response (the key of ``TERMINAL_STATUS``)."""

    COMPLETED = "completed"
    """``response.completed``."""
    INCOMPLETE = "incomplete"
    """``response.incomplete``."""
    FAILED = "failed"
    """``response.failed``."""
    CANCELLED = "cancelled"
    """``response.cancelled``."""
    ERROR = "error"
    """``error``: a failure reported by itself (or just before ``response.failed``)."""


TERMINALS: dict[EventClass, Terminal] = {
    EventClass.RESPONSE_COMPLETED: Terminal.COMPLETED,
    EventClass.RESPONSE_INCOMPLETE: Terminal.INCOMPLETE,
    EventClass.RESPONSE_FAILED: Terminal.FAILED,
    EventClass.RESPONSE_CANCELLED: Terminal.CANCELLED,
    EventClass.ERROR: Terminal.ERROR,
}
"""The event classes that end a response."""

TERMINAL_STATUS: dict[Terminal, ResponseStatus] = {
    # Only a completed response runs its calls (R9): the driver delivers
    # ``response.completed``'s trigger for this status and an abort for every other.
    Terminal.COMPLETED: ResponseStatus.COMPLETED,
    Terminal.INCOMPLETE: ResponseStatus.INCOMPLETE,
    Terminal.FAILED: ResponseStatus.FAILED,
    Terminal.CANCELLED: ResponseStatus.CANCELLED,
    # OpenAI's error event is a failure (vercel/ai fixture openai-error.1).
    Terminal.ERROR: ResponseStatus.FAILED,
}
"""The status each terminal gives its response (R9); decided by the
``terminal_status`` kernel, proved by the contract ``terminal_status``
(``proofs/responses_z3.py``)."""

ITEM_LEVEL_CLASSES: frozenset[EventClass] = frozenset(
    {EventClass.ITEM_ADDED, EventClass.ITEM_DONE, EventClass.ITEM_SCOPED}
)
"""Event classes that touch at most one entry."""
