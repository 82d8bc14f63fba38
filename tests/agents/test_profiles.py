"""The agent profiles: pinned, sandboxed, isolated, and each driver where it is named."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

from helpers import QUIRKS, REPO
from responses_oracle.agents.profiles import BY_NAME, DRIVERS, LITELLM_VERSION, PROFILES
from responses_oracle.agents.runner import Workspace, fill, placeholders, tool_arguments
from responses_oracle.agents.scenario_list import builtin


def test_every_client_the_issue_names_has_a_profile() -> None:
    assert set(BY_NAME) == {
        "codex", "opencode", "crush", "openai-agents", "openai-agents-js", "pydantic-ai",
        "langchain", "llm", "vercel-ai", "llamaindex", "litellm-proxy", "portkey-gateway",
        "openai-go", "adk-go", "fantasy", "langchain4j", "openai-java", "rig",
        # #42 part 5: openai-python's own row (the gateways' downstream client), and
        # openai-python, openai-go and openai-java read the other way their docs show.
        "openai-python", "openai-python-events", "openai-go-items", "openai-java-items",
    }
    assert [p.name for p in PROFILES if p.gateway] == ["litellm-proxy", "portkey-gateway"]


def test_every_package_is_pinned_to_the_profile_version() -> None:
    for profile in PROFILES:
        for package in profile.install.packages:
            # name==1.2 (PyPI), name@1.2 (npm, the Rust crate registry; =1.2 exact),
            # module@v1.2 (Go), group:artifact:1.2 (Maven)
            version = package.rsplit("==" if "==" in package else "@" if "@" in package
                                     else ":", 1)[-1]
            assert version.lstrip("=").removeprefix("v")[:1].isdigit(), package
        first = profile.install.packages[0]
        assert first.endswith(profile.version.split(" + ")[0]), (profile.name, first)


def test_a_maven_client_resolves_its_pinned_packages_and_a_rust_driver_is_its_binary() -> None:
    from record_agents import cargo_manifest, install_commands, maven_pom

    java = BY_NAME["langchain4j"].install
    pom = maven_pom(java)
    assert "<artifactId>langchain4j-open-ai</artifactId><version>1.19.0</version>" in pom
    [command] = install_commands(java)
    assert "dependency:build-classpath" in command
    assert any(part.startswith("-Dmaven.repo.local=") for part in command)
    rig = BY_NAME["rig"]
    manifest = tomllib.loads(cargo_manifest(rig.install, rig.driver))
    assert manifest["dependencies"]["rig"] == "=0.44.0"
    assert manifest["bin"] == [{"name": "rig_driver", "path": str(DRIVERS / "rig_driver.rs")}]
    assert rig.install.executable() == rig.install.prefix() / "target/release/rig_driver"


def test_openai_agents_is_the_version_the_test_suite_pins() -> None:
    test = tomllib.loads((REPO / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]["test"]
    assert f"openai-agents=={BY_NAME['openai-agents'].version}" in test


def test_crush_says_why_it_is_not_run() -> None:
    crush = BY_NAME["crush"]
    # Its ordinary install is `go install module@version`; the note says what refuses it.
    assert crush.install.registry == "go" and crush.install.packages == (
        f"github.com/charmbracelet/crush@{crush.version}",)
    assert "Go module proxy refuses" in crush.install.note and crush.version in crush.install.note


def test_crush_runs_headless_on_serve_with_only_its_reading_tools_and_bash(tmp_path: Path) -> None:
    crush = BY_NAME["crush"]
    assert crush.command[1:3] == ("run", "--quiet")
    # `crush run` approves every request itself: no key of the environment may point it
    # elsewhere (OPENAI_API_BASE is not read by it); the config in the cwd does.
    assert "OPENAI_API_BASE" not in dict(crush.env)
    space = Workspace(tmp_path)
    space.write(crush.files, placeholders(crush, "http://127.0.0.1:9/v1", space))
    config = json.loads((space.work / "crush.json").read_text())
    (provider,) = config["providers"].values()
    assert provider["type"] == "openai" and provider["base_url"] == "http://127.0.0.1:9/v1"
    assert all(model["id"].startswith("gpt-5") for model in provider["models"])
    options = config["options"]
    assert options["disable_provider_auto_update"] and options["disable_metrics"]
    assert {"bash", "view", "ls", "grep", "glob"}.isdisjoint(options["disabled_tools"])
    assert {"edit", "write", "multiedit", "fetch", "download", "agent"} <= set(
        options["disabled_tools"])


def test_a_go_client_is_a_driver_built_against_its_pinned_module() -> None:
    from record_agents import install_commands

    for name in ("openai-go", "adk-go", "fantasy"):
        spec = BY_NAME[name].install
        folder = DRIVERS / spec.source
        assert spec.registry == "go" and (folder / "main.go").is_file(), name
        # The committed go.mod requires the profile's pin (its go.sum verifies it).
        module, version = spec.packages[0].split("@")
        assert BY_NAME[name].version == version
        assert f"\t{module} {version}\n" in (folder / "go.mod").read_text().replace(
            f"require {module} {version}\n", f"\t{module} {version}\n")
        assert f"{module} {version} h1:" in (folder / "go.sum").read_text()
        assert install_commands(spec) == [["go", "build", "-o", str(spec.executable()), "."]]
        assert spec.executable() == spec.prefix() / "bin" / spec.bin


def test_litellm_is_not_the_compromised_release() -> None:
    assert LITELLM_VERSION != "1.107.0" and not LITELLM_VERSION.startswith("1.107.")
    assert LITELLM_VERSION not in {"1.82.7", "1.82.8"}


def test_every_named_driver_exists() -> None:
    for profile in PROFILES:
        if profile.driver:
            assert (DRIVERS / profile.driver).is_file(), profile.name
            # A Rust driver runs as the binary cargo built from it at install.
            built = profile.install.registry == "Rust crate registry"
            assert ("{bin}" if built else "{driver}") in profile.command


def test_codex_runs_read_only_never_asking_and_with_serve_as_its_only_provider(
    tmp_path: Path,
) -> None:
    codex = BY_NAME["codex"]
    command = " ".join(codex.command)
    assert "-s read-only" in command and "-c approval_policy=never" in command
    space = Workspace(tmp_path)
    values = placeholders(codex, "http://127.0.0.1:9/v1", space)
    space.write(codex.files, values)
    config = tomllib.loads((tmp_path / ".codex/config.toml").read_text())
    provider = config["model_providers"][config["model_provider"]]
    assert provider["base_url"] == "http://127.0.0.1:9/v1"
    assert provider["wire_api"] == "responses"
    assert provider["request_max_retries"] == provider["stream_max_retries"] == 0
    assert config["analytics"]["enabled"] is False and config["otel"]["exporter"] == "none"
    env = dict(codex.env)
    assert fill(env["CODEX_HOME"], values) == f"{tmp_path}/.codex"


def test_opencode_may_run_echo_only_and_reaches_nothing_but_serve(tmp_path: Path) -> None:
    opencode = BY_NAME["opencode"]
    values = placeholders(opencode, "http://127.0.0.1:9/v1", Workspace(tmp_path))
    env = {key: fill(value, values) for key, value in opencode.env}
    config = json.loads(env["OPENCODE_CONFIG_CONTENT"])
    assert config["provider"]["openai"]["options"]["baseURL"] == "http://127.0.0.1:9/v1"
    assert config["permission"] == {
        "edit": "deny", "webfetch": "deny", "bash": {"*": "deny", "echo *": "allow"}}
    for switch in ("MODELS_FETCH", "AUTOUPDATE", "SHARE", "LSP_DOWNLOAD", "DEFAULT_PLUGINS",
                   "CLAUDE_CODE", "EXTERNAL_SKILLS"):
        assert env[f"OPENCODE_DISABLE_{switch}"] == "1"


def test_a_workspace_isolates_every_folder_a_client_writes(tmp_path: Path) -> None:
    env = Workspace(tmp_path).environment({"EXTRA": "1"})
    for key in ("HOME", "TMPDIR", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME",
                "XDG_STATE_HOME"):
        assert env[key].startswith(str(tmp_path)) and Path(env[key]).is_dir(), key
    assert env["EXTRA"] == "1" and env["DO_NOT_TRACK"] == "1"


def test_the_drivers_tool_gets_the_calls_marker() -> None:
    assert tool_arguments(BY_NAME["pydantic-ai"]) == [
        "--tool", "echo", "--args", '{"text": "{marker}"}']


def test_the_scenario_list_has_every_quirk_and_the_shapes_the_issue_asks_for() -> None:
    scenarios = builtin()
    assert len(scenarios) >= 30
    quirks = sorted(p.name[:3] for p in QUIRKS.glob("q*.jsonl"))
    assert [s.name for s in scenarios if s.kind == "quirk"] == quirks
    names = {s.name for s in scenarios}
    assert {"s02", "s03", "s04", "s05", "s06", "s07", "s08"} <= names
    assert sum(s.kind == "vector" for s in scenarios) >= 10
    assert sum(s.kind == "vector-file" for s in scenarios) == 12
    assert len(names) == len(scenarios)
    for scenario in scenarios:
        assert scenario.base_path().is_file(), scenario.name


def test_serve_accepts_every_name_of_the_list() -> None:
    from responses_oracle.serve.scenarios import load_scenario

    for scenario in builtin():
        served = load_scenario(scenario.name)
        assert served.name == scenario.name and served.built
        assert served.deviations == scenario.deviations, scenario.name
        assert served.events == load_scenario(str(scenario.base_path())).events


