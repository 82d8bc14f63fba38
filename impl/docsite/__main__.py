"""``python -m responses_oracle.docsite [--prove | --check]``: write or verify the generated pages.

Writing reuses each row of the committed proof record ``docs/proofs.json`` while it is
current (its fingerprint matches what the row read: ``docsite.fingerprint``) and
re-proves only the stale rows (``proofs.run_proofs``), so a change to prose, a rule
page, the CLI, the reducer, a provider quirk or an item type regenerates the site in
seconds, and a table change re-proves the rows that read that table; ``--prove``
re-proves every row (about twelve minutes).  The counterexamples are replayed through
the reducer on every run, writing and checking alike (``proofs.replayed``, seconds).
openai-python is run on the peer scenarios every time (``sdk.run_sdk``, seconds) into
``docs/peers-openai-python.json``; where it cannot run, a committed record that is
still current is reused.  ``--check`` runs no proof and no client: it compares every
page with what the generator renders from the committed records, and reports a record
stale when what it was made from (what a proof row read, the scenario streams) changed,
naming the stale rows.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Protocol, TypeVar

from .docs_folder import docs_dir
from .example_vectors import OWNED
from .pages import COMMAND, render_pages
from .proofs import RECORD_NAME as PROOFS_RECORD
from .proofs import ProofRecord, proofs_available, replayed, run_proofs
from .proofs import load_record as load_proofs
from .sdk import RECORD_NAME as SDK_RECORD
from .sdk import SdkRecord, run_sdk, sdk_available
from .sdk import load_record as load_sdk


def stale_pages(directory: Path, pages: dict[str, str]) -> list[str]:
    """The pages (paths under ``directory``) that are missing or differ from ``pages``."""
    return [
        path
        for path, text in pages.items()
        if not (directory / path).is_file()
        or (directory / path).read_text(encoding="utf-8") != text
    ]


def leftovers(directory: Path, pages: dict[str, str]) -> list[Path]:
    """Files in the folder the generator owns (``vectors.OWNED``) that it no longer makes."""
    owned = directory / OWNED
    if not owned.is_dir():
        return []
    return sorted(
        path for path in owned.iterdir() if path.relative_to(directory).as_posix() not in pages
    )


class _Record(Protocol):
    def current(self) -> bool: ...


_R = TypeVar("_R", bound=_Record)


def _trusted(name: str, record: _R | None, available: bool, problems: list[str]) -> _R | None:
    """``record`` if it is current; else None, with the reason appended to ``problems``."""
    if record is None:
        if available:
            problems.append(f"{name} is missing (it can be made here)")
        return None
    if not record.current():
        problems.append(f"{name} was made from other sources")
        return None
    return record


def check(directory: Path) -> list[str]:
    """What is stale under ``directory``, each with the reason; empty when all is current."""
    problems: list[str] = []
    proofs = load_proofs(directory / PROOFS_RECORD)
    stale = proofs.stale() if proofs is not None else []
    if stale:
        shown = ", ".join(stale[:10]) + (f" and {len(stale) - 10} more" if len(stale) > 10 else "")
        problems.append(
            f"{PROOFS_RECORD}: {len(stale)} rows were made from other sources ({shown})"
        )
        proofs = None
    elif proofs is None and proofs_available():
        problems.append(f"{PROOFS_RECORD} is missing (it can be made here)")
    proofs = replayed(proofs) if proofs is not None else None
    sdk = _trusted(SDK_RECORD, load_sdk(directory / SDK_RECORD), sdk_available(), problems)
    pages = render_pages(proofs, sdk, agents_record(directory))
    problems += [
        f"{path} differs from what the generator renders" for path in stale_pages(directory, pages)
    ]
    problems += [
        f"{path.relative_to(directory)} is no longer generated"
        for path in leftovers(directory, pages)
    ]
    return problems


def agents_record(directory: Path) -> dict[str, Any] | None:
    """The Real agents record (``docsite.real_agents``), whose runs the peers page shows."""
    from .real_agents import RECORD_NAME as AGENTS_RECORD
    from .real_agents import load

    return load(directory) if (directory / AGENTS_RECORD).is_file() else None


def current_records(
    directory: Path, prove: bool = False
) -> tuple[ProofRecord | None, SdkRecord | None]:
    """Where the proofs run here, the committed proof record with its stale rows
    re-proved (every row with ``prove``) and its counterexamples replayed; elsewhere the
    committed record if current.  A fresh SDK record where openai-python runs, else the
    committed one if current."""
    proofs = load_proofs(directory / PROOFS_RECORD)
    if proofs_available():
        print(f"proving the rows of {directory / PROOFS_RECORD} that are stale", flush=True)
        proofs = run_proofs(proofs, everything=prove) or proofs
    sdk = run_sdk() or load_sdk(directory / SDK_RECORD)
    return (
        proofs if proofs is not None and proofs.current() else None,
        sdk if sdk is not None and sdk.current() else None,
    )


def main(argv: list[str] | None = None) -> int:
    """Write the generated pages into ``docs/``, or with ``--check`` exit 1 if one is stale."""
    parser = argparse.ArgumentParser(
        prog=COMMAND,
        description="Regenerate the rule, peer and invariant pages of docs/ by running "
        "the reducer on their example streams; a Z3 proof row runs again only when what it "
        "read changed (or with --prove).",
    )
    parser.add_argument(
        "--check", action="store_true", help="exit 1 if a page is stale (runs no proof)"
    )
    parser.add_argument(
        "--prove",
        action="store_true",
        help="re-prove every row of docs/proofs.json, current or not (about 12 minutes)",
    )
    args = parser.parse_args(argv)
    if args.check and args.prove:
        parser.error("--check runs no proof: give --check or --prove, not both")
    directory = docs_dir()
    if args.check:
        problems = check(directory)
        for problem in problems:
            print(f"{directory}: {problem}: run {COMMAND}", file=sys.stderr)
        return 1 if problems else 0
    proofs, sdk = current_records(directory, args.prove)
    if proofs is None:
        print("the Z3 proofs are not available: the invariants page has no proof column")
    if sdk is None:
        print("openai-python is not installed: the peers page has no column for it")
    pages = render_pages(proofs, sdk, agents_record(directory))
    for path, text in pages.items():
        target = directory / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        print(f"wrote {target}")
    for leftover in leftovers(directory, pages):
        leftover.unlink()
        print(f"removed {leftover}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
