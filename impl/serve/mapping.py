"""Tool mapping: a scenario's calls become calls of the tools the client offered.

Rules
-----
1. **Shape is kept.**  Ids, ``call_id``s, slots, event order, sequence numbers, blank
   names and blank arguments stay exactly as the scenario has them, and every item
   keeps its type; only a call's ``name`` (and the same name where ``response.tools``
   declares it) and its payload text change: ``arguments`` of a ``function_call``,
   ``input`` of a ``custom_tool_call``, the commands of a built-in shell call
   (``SHELL_COMMANDS``).  A test holds the mapped stream to the original's answer.
2. **One text, one image.**  Every payload text goes through one function,
   ``TextMap.image`` of (payload kind, text), whatever event or item carries it: an
   ``added`` item, a ``*.done`` event, a ``done`` item and the terminal snapshot that
   carry the same original text carry the same new text, and texts that differ stay
   different in the same way (JSON-equal originals give JSON-equal images, byte forms
   apart; a cut gives the same cut; whitespace around a text is kept; the empty text
   stays empty).  A run of deltas is split so that it concatenates to the image of its
   concatenation, an empty delta staying empty.
3. **Harmless by construction.**  What a client could run is built only from
   ``marker(k)`` strings (``responses-oracle-k``), ``echo`` of a marker for shell tools
   and shell calls, and the neutral values of ``_NEUTRAL`` (the schema's minimum or 1,
   false, empty arrays); a text that is no whole payload is spelled in capital letters.
   Nothing of the scenario's own arguments reaches the client.  A tool of ``AVOID``
   (file writes, patches, fetches) is never chosen, and a scenario holding a client
   call this module cannot rewrite (an ``apply_patch_call``, a ``computer_call``) is
   refused (``MappingError``).
4. **Routing is the oracle's.**  Which entry a delta or ``*.done`` event belongs to is
   read from the reducer's own trace (``Reducer(trace=True)``), never guessed from keys;
   a payload event the oracle routes nowhere is still mapped, as a text of its own.
5. **Only what a model could produce.**  A zero-argument call is mapped only onto a
   function tool of no parameter (``ping()``), any other function call only onto a
   tool with parameters, a ``custom_tool_call`` only onto a custom (freeform) tool, a
   client ``tool_search_call`` only where the request declared a client tool search;
   hosted calls are served as they are.  Where no offered tool fits, the scenario is
   not applicable to the client (``NotApplicable``), never a verdict.

Theory of operation: ``choose_tools`` picks, per (call type, original name), the offered
tool of that kind to use (an ``--tool`` override first, then a shell tool of
``PROFILES``, then a tool of the same name, then the first tool not in ``AVOID``, a tool
no other name took first).  ``map_scenario`` walks the events once with a tracing
reducer to learn each payload event's entry, collects every payload text with the tool
of the first call it appears under, builds the ``TextMap`` and rewrites the events.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from responses_oracle.model.catalogue import ITEM_TYPES, WIRE_EVENTS, ChannelKind
from responses_oracle.model.vocabulary import Trigger

Event = dict[str, Any]

MARKER_PREFIX: Final = "responses-oracle-"
"""Every harmless string the server sends starts so: ``marker(k)`` is ``responses-oracle-k``."""

PAYLOAD_FIELDS: Final[dict[str, str]] = {
    item_type: location.field
    for item_type, spec in ITEM_TYPES.items()
    if spec.client_call
    for location in spec.channels
    if location.field is not None and not location.container and location.array is None
}
"""Client call type → its one scalar payload field (catalogue): ``function_call`` →
``arguments``, ``custom_tool_call`` → ``input``.  These are the calls ``serve`` maps."""

SHELL_COMMANDS: Final[dict[str, tuple[str, str, bool]]] = {
    "shell_call": ("action", "commands", False),
    "local_shell_call": ("action", "command", True),
}
"""Built-in shell call type → where its commands sit (container, field) and whether the
field is one argv (``["ls", "-l"]``) rather than a list of command lines.  A shell call
names no tool, so nothing is renamed: each command becomes ``echo`` of a marker."""

MAPPED_TYPES: Final = frozenset(PAYLOAD_FIELDS) | frozenset(SHELL_COMMANDS)
"""The client call types whose payloads mapping rewrites."""

RUNS_NOTHING: Final[dict[str, str]] = {
    "tool_search_call": "a client tool search lists the offered tools; it runs nothing",
}
"""Client call types served as they are, and why that is harmless."""



@dataclass(frozen=True)
class ShellProfile:
    """A known agent's shell tool: the field that takes the command and its form."""

    command_field: str
    as_argv: bool
    """The command is an argv array (``["echo", "..."]``), not one shell string."""
    agents: str


PROFILES: Final[dict[str, ShellProfile]] = {
    "shell": ShellProfile("command", True, "codex (function tool shell)"),
    "exec_command": ShellProfile("cmd", False, "codex (unified exec)"),
    "shell_command": ShellProfile("command", False, "codex (shell_command)"),
    "bash": ShellProfile("command", False, "opencode, crush"),
    "Bash": ShellProfile("command", False, "Claude-style agents"),
    "run_shell_command": ShellProfile("command", False, "gemini-cli style agents"),
}
"""Offered tool name → how to make it ``echo`` a marker.  Shell tools are preferred:
their output shows which marker ran, which is what ``executed`` reads."""

AVOID: Final = frozenset(
    {
        "apply_patch",
        "write",
        "edit",
        "multiedit",
        "patch",
        "write_file",
        "edit_file",
        "download",
        "fetch",
        "webfetch",
        "web_fetch",
        "websearch",
        "sourcegraph",
        "agent",
        "task",
    }
)
"""Offered tools never chosen: they write files, patch, or reach the network."""

_NEUTRAL: Final[dict[str, Any]] = {"boolean": False, "array": [], "null": None}
"""JSON-schema type → the value a field of that type gets (strings get a marker,
numbers their minimum or 1, objects their required fields)."""


class MappingError(ValueError):
    """The scenario cannot be made harmless for the offered tools; says why."""


class NotApplicable(MappingError):
    """No offered tool fits a call of the scenario as a model could make it (a
    zero-argument call and no zero-parameter tool, a custom tool call and no custom
    tool, a client tool search the request did not declare): the scenario is not
    applicable to this client, which is no verdict on it (rule 5)."""


def marker(k: int) -> str:
    """The k-th harmless marker string."""
    return f"{MARKER_PREFIX}{k}"


RAN_WITHOUT_ARGUMENTS: Final = marker(0)
"""What a driver's zero-parameter tool (``ping()``) returns: no argument can carry a
call's marker to its output, so this one says it ran (the judge reads it; markers of
arguments start at 1)."""


@dataclass(frozen=True)
class OfferedTool:
    """One tool of the request's ``tools``: its name, kind and parameter schema."""

    name: str
    kind: str
    """``function``, ``custom`` or ``tool_search`` (a client tool search, nameless)."""
    parameters: Mapping[str, Any] = field(default_factory=dict)

    @property
    def takes_nothing(self) -> bool:
        """Whether it is a function tool of no parameter (what a zero-argument call
        calls)."""
        properties = self.parameters.get("properties")
        return self.kind == "function" and not properties

    @property
    def echoes(self) -> bool:
        """Whether its output shows the command it ran (a ``PROFILES`` shell tool)."""
        return self.kind == "function" and self.name in PROFILES


def offered_tools(body: Mapping[str, Any]) -> list[OfferedTool]:
    """The function and custom tools a request offers (Responses or Chat-style entries),
    and its client tool search (``{"type": "tool_search", "execution": "client"}``)."""
    tools = body.get("tools")
    found: list[OfferedTool] = []
    for tool in tools if isinstance(tools, list) else []:
        if not isinstance(tool, dict):
            continue
        if tool.get("type") == "tool_search" and tool.get("execution") == "client":
            found.append(OfferedTool("", "tool_search"))
            continue
        nested = tool.get("function")
        spec: dict[str, Any] = nested if isinstance(nested, dict) else tool
        name, kind = spec.get("name"), tool.get("type")
        if not isinstance(name, str) or kind not in ("function", "custom"):
            continue
        parameters = spec.get("parameters")
        found.append(OfferedTool(name, kind, parameters if isinstance(parameters, dict) else {}))
    return found


@dataclass(frozen=True)
class Override:
    """``--tool NAME --args JSON``: map calls onto ``name`` with these arguments (the
    string ``{marker}`` inside ``args`` strings becomes the call's marker)."""

    name: str
    args: Any


def harmless_arguments(tool: OfferedTool, k: int, override: Override | None = None) -> Any:
    """The arguments call value ``k`` gets on ``tool`` (rule 3)."""
    if override is not None:
        return _fill_marker(override.args, marker(k))
    if tool.kind == "command":
        return f"echo {marker(k)}"
    if tool.kind == "custom":
        return marker(k)
    value = _from_schema(tool.parameters, marker(k), tool.parameters, 0)
    args = value if isinstance(value, dict) else {}
    profile = PROFILES.get(tool.name)
    if profile is not None:
        args[profile.command_field] = (
            ["echo", marker(k)] if profile.as_argv else f"echo {marker(k)}"
        )
    return args


def _fill_marker(value: Any, text: str) -> Any:
    if isinstance(value, str):
        return value.replace("{marker}", text)
    if isinstance(value, list):
        return [_fill_marker(v, text) for v in value]
    if isinstance(value, dict):
        return {key: _fill_marker(v, text) for key, v in value.items()}
    return value


def _from_schema(schema: Any, text: str, root: Mapping[str, Any], depth: int) -> Any:
    """A harmless value fitting ``schema``: markers for strings, neutral values else."""
    if not isinstance(schema, dict) or depth > 8:
        return text
    if "$ref" in schema and isinstance(schema["$ref"], str):
        return _from_schema(_resolve(schema["$ref"], root), text, root, depth + 1)
    if "const" in schema:
        return schema["const"]
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return schema["enum"][0]
    for union in ("anyOf", "oneOf", "allOf"):
        branches = schema.get(union)
        if isinstance(branches, list) and branches:
            typed = [b for b in branches if not (isinstance(b, dict) and b.get("type") == "null")]
            return _from_schema((typed or branches)[0], text, root, depth + 1)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind == "object" or (kind is None and "properties" in schema):
        properties = schema.get("properties")
        properties = properties if isinstance(properties, dict) else {}
        required = schema.get("required")
        required = required if isinstance(required, list) else []
        return {
            name: _from_schema(properties.get(name, {}), text, root, depth + 1)
            for name in required
            if isinstance(name, str)
        }
    if kind in ("integer", "number"):
        minimum = schema.get("minimum")
        return minimum if isinstance(minimum, int | float) else 1
    if kind == "array":
        if isinstance(schema.get("minItems"), int) and schema["minItems"] > 0:
            return [_from_schema(schema.get("items", {}), text, root, depth + 1)]
        return []
    if kind in _NEUTRAL:
        return copy.deepcopy(_NEUTRAL[kind])
    return text


def _resolve(ref: str, root: Mapping[str, Any]) -> Any:
    node: Any = root
    for part in ref.removeprefix("#/").split("/"):
        node = node.get(part) if isinstance(node, dict) else None
    return node


COMMAND_TOOL: Final = OfferedTool("shell", "command")
"""What maps the commands of a built-in shell call (``SHELL_COMMANDS``): no offered tool."""

FALLBACK_TOOL: Final = OfferedTool("", "function")
"""What maps argument events of a scenario holding no function call (their arguments
become ``{}``): nothing a client could run."""

CallKey = tuple[str, str]
"""A scenario call as mapping knows it: (item type, original name)."""

TOOL_KINDS: Final[dict[str, str]] = {"function_call": "function", "custom_tool_call": "custom"}
"""Call type → the kind of offered tool that can take it (the item type never changes)."""


def choose_tools(
    calls: Sequence[CallKey],
    offered: Sequence[OfferedTool],
    overrides: Sequence[Override] = (),
    zero_argument: frozenset[CallKey] = frozenset(),
) -> dict[CallKey, tuple[OfferedTool, Override | None]]:
    """Each call → the offered tool of its kind it becomes (and its override, if any):
    an override first, then a ``PROFILES`` shell tool, then a tool of the call's own
    name, then the first tool not in ``AVOID``, a tool not yet taken by another name
    first.  A call of ``zero_argument`` takes only a tool of no parameter, any other
    call only a tool with parameters, and overrides take only the latter (rule 5);
    ``NotApplicable`` when no tool fits as a model could call it."""
    chosen: dict[CallKey, tuple[OfferedTool, Override | None]] = {}
    for number, (item_type, name) in enumerate(calls):
        kind = TOOL_KINDS[item_type]
        bare = (item_type, name) in zero_argument
        if overrides and kind == "function" and not bare:
            # Several overrides take the scenario's calls in turn.
            override = overrides[number % len(overrides)]
            chosen[(item_type, name)] = (OfferedTool(override.name, kind), override)
            continue
        fitting = [
            tool
            for tool in offered
            if tool.kind == kind and tool.name not in AVOID
            and (kind != "function" or tool.takes_nothing == bare)
        ]
        # Distinct names get distinct tools while there are enough, so that a name
        # conflict of the scenario stays a conflict; then tools are shared.
        taken = {tool.name for tool, _ in chosen.values()}
        fitting = [t for t in fitting if t.name not in taken] or fitting
        tool = (
            next((t for t in fitting if t.echoes), None)
            or next((t for t in fitting if t.name == name), None)
            or next(iter(fitting), None)
        )
        if tool is None:
            offered_names = ", ".join(t.name for t in offered if t.name) or "none"
            wanted = (
                "a zero-argument call, and no offered tool takes no parameter" if bare
                else f"a {item_type}, and no offered {kind} tool"
                + (" with parameters" if kind == "function" else " (freeform)")
                + " can take it harmlessly"
            )
            raise NotApplicable(f"{name!r} is {wanted} (offered: {offered_names})")
        chosen[(item_type, name)] = (tool, None)
    return chosen


class TextMap:
    """Rule 2: original payload text → new text, one image per distinct text.

    The image depends on the text alone, never on where it appears, so a scenario
    whose call changes its name between events keeps its payloads' relations; the
    arguments are built for the tool of the first call the text appears under.  Texts
    are kept apart by payload kind (``function``: JSON; ``custom``: free text).
    """

    def __init__(self) -> None:
        self._values: dict[str, int] = {}
        self._codes: dict[str, int] = {}
        self._forms: dict[int, list[str]] = {}
        self.images: dict[tuple[str, str], str] = {}

    def build(self, texts: Mapping[tuple[str, str], tuple[OfferedTool, Override | None]]) -> None:
        """Assign an image to every (kind, text) of ``texts``, each with the tool (and
        override) of the first call it appeared under, in order of appearance."""
        for kind in ("function", "custom", "command"):
            seen = [text for (k, text) in texts if k == kind]
            complete = [t for t in seen if _complete(t, seen, kind == "function")]
            for text in complete:
                tool, override = texts[(kind, text)]
                self._image_of_complete(tool, override, text, kind == "function")
            for text in seen:
                if (kind, text) not in self.images:
                    self.images[(kind, text)] = self._image_of_partial(kind, text, complete)

    def image(self, kind: str, text: str) -> str:
        """The new text of ``text`` (``build`` saw every text); blank stays blank."""
        return self.images[(kind, text)] if text else ""

    def _image_of_complete(
        self, tool: OfferedTool, override: Override | None, text: str, json_payload: bool
    ) -> None:
        stripped = text.strip()
        key = _canonical(stripped) if json_payload else text
        k = self._values.setdefault(f"{tool.kind}\0{key}", len(self._values) + 1)
        forms = self._forms.setdefault(k, [])
        if stripped not in forms:
            forms.append(stripped)
        args = harmless_arguments(tool, k, override)
        lead = text[: len(text) - len(text.lstrip())]
        trail = text[len(text.rstrip()) :]
        body = args if isinstance(args, str) else _form(args, forms.index(stripped))
        self.images[(tool.kind, text)] = lead + body + trail

    def _image_of_partial(self, kind: str, text: str, complete: list[str]) -> str:
        """A text that is no whole payload: a cut of one (a stream cut short) is the
        same cut of its image; one that extends a whole text extends its image; any
        other is spelled in ``_letters`` (never JSON), so that two texts of which
        neither starts the other keep that relation."""
        if not text:
            return ""
        whole = min((c for c in complete if c.startswith(text)), key=len, default=None)
        if whole is not None:
            target = self.images[(kind, whole)]
            size = round(len(text) * len(target) / len(whole))
            return target[: max(1, min(len(target) - 1, size))]
        start = max((c for c in complete if text.startswith(c)), key=len, default="")
        head = self.images[(kind, start)] if start else ""
        return head + "".join(self._letters(char) for char in text[len(start) :])

    def _letters(self, char: str) -> str:
        """Two capital letters per distinct character, assigned in order of appearance."""
        code = self._codes.setdefault(char, len(self._codes))
        return chr(65 + code // 26 % 26) + chr(65 + code % 26)


def _canonical(text: str) -> str:
    return json.dumps(json.loads(text), sort_keys=True, separators=(",", ":"))


def _parses(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def _complete(text: str, seen: Sequence[str], json_payload: bool) -> bool:
    """A text is complete when it parses (JSON payloads) or, for free text, when no
    other text of the tool extends it; empty texts are never complete."""
    if not text:
        return False
    if json_payload:
        return _parses(text.strip())
    return not any(other != text and other.startswith(text) for other in seen)


def _form(args: Any, variant: int) -> str:
    """The ``variant``-th byte form of ``args``: compact, then spaced, then indented."""
    if variant == 0:
        return json.dumps(args, separators=(",", ":"))
    if variant == 1:
        return json.dumps(args)
    return json.dumps(args, indent=variant - 1)


def split_like(pieces: Sequence[str], whole: str) -> list[str]:
    """``whole`` cut into ``len(pieces)`` parts sized like ``pieces``: an empty piece
    gives an empty part, and every other piece at least one character while any
    remain (the parts always concatenate to ``whole``)."""
    sizes = [len(piece) for piece in pieces]
    nonempty = [i for i, size in enumerate(sizes) if size]
    if not nonempty:
        return ["" for _ in pieces[:-1]] + [whole] if pieces else []
    total, room = sum(sizes), len(whole)
    parts = [0] * len(pieces)
    floor = 1 if room >= len(nonempty) else 0
    spare = room - floor * len(nonempty)
    shares = [(sizes[i] * spare / total, i) for i in nonempty]
    for share, i in shares:
        parts[i] = floor + int(share)
    left = room - sum(parts)
    for _, i in sorted(shares, key=lambda s: (int(s[0]) - s[0], s[1]))[:left]:
        parts[i] += 1
    cuts, start = [], 0
    for size in parts:
        cuts.append(whole[start : start + size])
        start += size
    cuts[nonempty[-1]] += whole[start:]
    return cuts


@dataclass(frozen=True)
class CallMapping:
    """How one original call name was mapped, for ``verdicts.json`` and the report."""

    original: str
    tool: str
    kind: str
    override: bool
    echoes: bool
    arguments: dict[str, Any]
    """Original text → the new text it became (every text of the scenario)."""


@dataclass(frozen=True)
class Mapped:
    """A scenario after mapping: the events to serve and how each call name was mapped."""

    events: tuple[Event, ...]
    calls: tuple[CallMapping, ...]

    def to_dict(self) -> list[dict[str, Any]]:
        """The mapping as ``verdicts.json`` shows it."""
        return [
            {
                "original_name": call.original,
                "tool": call.tool,
                "kind": call.kind,
                "override": call.override,
                "echoes": call.echoes,
                "arguments": call.arguments,
            }
            for call in self.calls
        ]


@dataclass
class _Routed:
    """What the tracing pass learned about the events."""

    entry_of: dict[int, tuple[int, int, str, str]] = field(default_factory=dict)
    """Event position → (response number, entry ordinal, item type, call name)."""
    names: list[str] = field(default_factory=list)


def _route(events: Sequence[Event]) -> _Routed:
    from responses_oracle.reducer import Reducer

    reducer = Reducer(trace=True)
    routed = _Routed()
    assert reducer.traces is not None
    for position, event in enumerate(events):
        before = len(reducer.traces)
        reducer.feed(event)
        trace = reducer.traces[-1] if len(reducer.traces) > before else None
        entries = reducer.snapshot().entries
        if trace is None or trace.entry is None or trace.entry >= len(entries):
            payload = _payload_event(event)
            if payload is not None:
                # Routed to no entry: still sent, so still mapped, as a text of its own.
                routed.entry_of[position] = (-1, position, _UNROUTED[payload[2]], "")
            continue
        if trace.entry < len(entries):
            entry = entries[trace.entry]
            routed.entry_of[position] = (
                len(reducer.results),
                entry.ordinal,
                entry.item_type,
                entry.name or "",
            )
    return routed


def items_of(event: Event) -> list[dict[str, Any]]:
    """Every item object an event carries: its ``item``, its response's ``output``."""
    found: list[dict[str, Any]] = []
    item = event.get("item")
    if isinstance(item, dict):
        found.append(item)
    response = event.get("response")
    output = response.get("output") if isinstance(response, dict) else None
    if isinstance(output, list):
        found.extend(i for i in output if isinstance(i, dict))
    return found


_UNROUTED: Final[dict[ChannelKind, str]] = {
    ChannelKind.ARGUMENTS: "function_call",
    ChannelKind.INPUT: "custom_tool_call",
    ChannelKind.COMMAND: "shell_call",
}
"""A payload event's channel → the call type whose tool maps it when it reaches no entry."""


def _payload_event(event: Event) -> tuple[Trigger, str, ChannelKind, Any] | None:
    """A payload event of a mapped channel: its trigger, value field, channel and part
    index (a shell call's ``command_index``; None for single-part channels)."""
    spec = WIRE_EVENTS.get(str(event.get("type")))
    if spec is None or spec.channel not in _UNROUTED:
        return None
    if spec.trigger not in (Trigger.DELTA, Trigger.PAYLOAD_DONE) or spec.value_field is None:
        return None
    part = event.get(spec.index_field) if spec.index_field is not None else None
    return spec.trigger, spec.value_field, spec.channel, part


def payload_key(item_type: str) -> str:
    """Where a mapped call carries what it runs: its payload field, or its shell
    command's container (``action``)."""
    shell = SHELL_COMMANDS.get(item_type)
    return shell[0] if shell is not None else PAYLOAD_FIELDS.get(item_type, "arguments")


def _commands(item: Mapping[str, Any]) -> list[str]:
    """A shell call's command texts (an argv counts as one text, its words joined)."""
    where = SHELL_COMMANDS.get(str(item.get("type")))
    container = item.get(where[0]) if where is not None else None
    value = container.get(where[1]) if isinstance(container, dict) and where else None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        return []
    return [" ".join(value)] if where and where[2] else list(value)


def _map_commands(item: dict[str, Any], text_map: TextMap) -> None:
    where = SHELL_COMMANDS.get(str(item.get("type")))
    commands = _commands(item)
    if where is None or not commands:
        return
    images = [text_map.image(COMMAND_TOOL.kind, text) for text in commands]
    item[where[0]][where[1]] = images[0].split() if where[2] else images


def scenario_calls(events: Sequence[Event]) -> list[CallKey]:
    """The scenario's mappable calls, in order of first appearance; ``MappingError``
    for a client call of a type that cannot be made harmless."""
    calls: list[CallKey] = []
    for event in events:
        for item in items_of(event):
            kind = item.get("type")
            spec = ITEM_TYPES.get(kind) if isinstance(kind, str) else None
            if spec is None or not spec.client_call or kind in RUNS_NOTHING:
                continue
            if kind in SHELL_COMMANDS:
                continue
            if kind not in PAYLOAD_FIELDS:
                raise MappingError(
                    f"the scenario holds a {kind}; serve makes only "
                    f"{', '.join(sorted(MAPPED_TYPES))} calls harmless"
                )
            key = (str(kind), _name(item))
            if key not in calls:
                calls.append(key)
    return calls


def _name(item: Mapping[str, Any]) -> str:
    name = item.get("name")
    return name if isinstance(name, str) else ""


def zero_argument_calls(events: Sequence[Event], routed: _Routed) -> frozenset[CallKey]:
    """The function calls every payload text of which (item arguments, argument
    deltas joined per entry, ``arguments.done``) is empty or the empty object."""
    texts: dict[CallKey, list[str]] = {}
    runs: dict[tuple[int, int, str], str] = {}
    for position, event in enumerate(events):
        for item in items_of(event):
            if item.get("type") == "function_call" and isinstance(item.get("arguments"), str):
                texts.setdefault(("function_call", _name(item)), []).append(item["arguments"])
        payload, where = _payload_event(event), routed.entry_of.get(position)
        if payload is None or where is None or where[2] != "function_call":
            continue
        value = event.get(payload[1])
        if payload[0] is Trigger.DELTA:
            run = (where[0], where[1], where[3])
            runs[run] = runs.get(run, "") + (value if isinstance(value, str) else "")
        elif isinstance(value, str):
            texts.setdefault(("function_call", where[3]), []).append(value)
    for (_, _, name), joined in runs.items():
        texts.setdefault(("function_call", name), []).append(joined)
    return frozenset(key for key, found in texts.items() if all(map(_says_nothing, found)))


def _says_nothing(text: str) -> bool:
    """An argument text of a call of no argument: empty, or the empty object."""
    stripped = text.strip()
    return not stripped or (_parses(stripped) and json.loads(stripped) == {})


def map_scenario(
    events: Sequence[Event], offered: Sequence[OfferedTool], overrides: Sequence[Override] = ()
) -> Mapped:
    """The scenario's events with every call mapped onto an offered tool (rules 1-5)."""
    calls = scenario_calls(events)
    searches = [item for event in events for item in items_of(event)
                if item.get("type") == "tool_search_call" and item.get("execution") == "client"]
    if searches and not any(tool.kind == "tool_search" for tool in offered):
        raise NotApplicable(
            "the scenario holds a client tool_search_call, and the request declared no "
            "client tool search"
        )
    routed = _route(events)
    tools = choose_tools(calls, offered, overrides, zero_argument_calls(events, routed))

    def chosen(where: tuple[int, int, str, str]) -> tuple[OfferedTool, Override | None]:
        # A shell call's commands map without a tool; an entry without a name of its
        # own takes the first call of its type's tool.
        if where[2] in SHELL_COMMANDS:
            return COMMAND_TOOL, None
        same_type = (v for k, v in tools.items() if k[0] == where[2])
        fallback = next(iter(tools.values()), (FALLBACK_TOOL, None))
        return tools.get((where[2], where[3])) or next(same_type, fallback)

    texts: dict[tuple[str, str], tuple[OfferedTool, Override | None]] = {}
    # A run of deltas is one payload text: it ends at any other event of its entry
    # (a replayed ``added``, a ``done``), after which the oracle may ignore later deltas.
    groups: dict[tuple[int, int, int, Any], tuple[list[int], OfferedTool]] = {}
    runs: dict[tuple[int, int], int] = {}

    def note(by: tuple[OfferedTool, Override | None], text: Any) -> None:
        if isinstance(text, str):
            texts.setdefault((by[0].kind, text), by)

    for position, event in enumerate(events):
        for item in items_of(event):
            field_name = PAYLOAD_FIELDS.get(str(item.get("type")))
            if field_name is not None:
                note(tools[(str(item["type"]), _name(item))], item.get(field_name))
            for command in _commands(item):
                note((COMMAND_TOOL, None), command)
        payload, where = _payload_event(event), routed.entry_of.get(position)
        if where is None or where[2] not in MAPPED_TYPES:
            continue
        entry = (where[0], where[1])
        if payload is None or payload[0] is not Trigger.DELTA:
            runs[entry] = runs.get(entry, 0) + 1
        if payload is None:
            continue
        if payload[0] is Trigger.DELTA:
            key = (*entry, runs.get(entry, 0), payload[3])
            groups.setdefault(key, ([], chosen(where)[0]))[0].append(position)
        else:
            note(chosen(where), event.get(payload[1]))
    for positions, tool in groups.values():
        text = "".join(_delta_text(events[p]) for p in positions)
        by = next((v for v in tools.values() if v[0] is tool), (tool, None))
        note(by, text)
    text_map = TextMap()
    text_map.build(texts)
    served = [copy.deepcopy(event) for event in events]
    for position, event in enumerate(served):
        _rename_declared(event, tools)
        for item in items_of(event):
            _map_commands(item, text_map)
            field_name = PAYLOAD_FIELDS.get(str(item.get("type")))
            if field_name is None:
                continue
            tool = tools[(str(item["type"]), _name(item))][0]
            if _name(item):
                item["name"] = tool.name
            if isinstance(item.get(field_name), str):
                item[field_name] = text_map.image(tool.kind, item[field_name])
        payload, where = _payload_event(event), routed.entry_of.get(position)
        if payload is None or where is None or where[2] not in MAPPED_TYPES:
            continue
        if payload[0] is Trigger.PAYLOAD_DONE and isinstance(event.get(payload[1]), str):
            kind = chosen(where)[0].kind
            event[payload[1]] = text_map.image(kind, event[payload[1]])
    for positions, tool in groups.values():
        pieces = [_delta_text(events[p]) for p in positions]
        image = text_map.image(tool.kind, "".join(pieces))
        for position, part in zip(positions, split_like(pieces, image), strict=True):
            if isinstance(served[position].get("delta"), str):
                served[position]["delta"] = part
    return Mapped(tuple(served), _describe(calls, tools, texts, text_map))


def _delta_text(event: Event) -> str:
    """A delta's text; none for one without a string ``delta`` (R1 reports it, and it
    adds nothing), so the run's image is split over the deltas that carry text."""
    text = event.get("delta")
    return text if isinstance(text, str) else ""


_DECLARED_CALL: Final = {kind: item_type for item_type, kind in TOOL_KINDS.items()}
"""Declared tool kind → the call type it makes."""


def _rename_declared(
    event: Event, tools: Mapping[CallKey, tuple[OfferedTool, Override | None]]
) -> None:
    """A ``response.tools`` the stream echoes declares the mapped tools in place of the
    original ones (R13 reads it to decide who runs a call)."""
    response = event.get("response")
    declared = response.get("tools") if isinstance(response, dict) else None
    pending = list(declared) if isinstance(declared, list) else []
    while pending:
        tool = pending.pop()
        if not isinstance(tool, dict):
            continue
        if tool.get("type") == "namespace" and isinstance(tool.get("tools"), list):
            # A namespace declares its members: a call names the member, so the member
            # is what the mapping renames (the namespace's own name stays the call's).
            pending += tool["tools"]
            continue
        if not isinstance(tool.get("name"), str):
            continue
        key = (_DECLARED_CALL.get(str(tool.get("type")), ""), tool["name"])
        if key in tools:
            tool["name"] = tools[key][0].name


def _describe(
    calls: Sequence[CallKey],
    tools: Mapping[CallKey, tuple[OfferedTool, Override | None]],
    texts: Mapping[tuple[str, str], tuple[OfferedTool, Override | None]],
    text_map: TextMap,
) -> tuple[CallMapping, ...]:
    described = []
    for key in calls:
        tool, override = tools[key]
        described.append(
            CallMapping(
                key[1],
                tool.name,
                tool.kind,
                override is not None,
                tool.echoes,
                {
                    text: text_map.image(kind, text)
                    for (kind, text), (owner, _) in texts.items()
                    if owner is tool
                },
            )
        )
    commands = {text: text_map.image(kind, text) for (kind, text) in texts if kind == "command"}
    if commands:
        described.append(CallMapping("(shell commands)", "echo", "command", False, True, commands))
    return tuple(described)
