"""``proofs/README.md`` is what ``python -m responses_oracle.proofs.readme`` writes from
the proof inventory, and every file it names exists."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from helpers import REPO
from responses_oracle.model.tables import REFERENCE
from responses_oracle.proofs import readme
from responses_oracle.proofs.mutants import CHANNEL_MUTANTS, Mutant
from responses_oracle.proofs.mutation import Reads, proof_reads


@pytest.fixture(scope="module")
def reads() -> Reads:
    """What each proof row reads: recorded once (about ten seconds)."""
    return proof_reads()


def test_committed_page_equals_the_generator_output(reads: Reads) -> None:
    assert readme.readme_path() == REPO / "proofs" / "README.md"
    assert readme.readme_path().read_text(encoding="utf-8") == readme.render_page(reads)


def test_check_fails_on_a_stale_page_and_writing_fixes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reads: Reads
) -> None:
    page = tmp_path / "README.md"
    monkeypatch.setattr(readme, "readme_path", lambda: page)
    assert readme.main(["--check"], lambda: reads) == 1  # no page at all
    assert readme.main([], lambda: reads) == 0
    assert readme.main(["--check"], lambda: reads) == 0
    page.write_text(page.read_text(encoding="utf-8").replace("`unbounded.py`", "`x.py`"))
    assert readme.main(["--check"], lambda: reads) == 1


def test_the_page_follows_the_inventory(monkeypatch: pytest.MonkeyPatch, reads: Reads) -> None:
    # A new named mutant shows on its row; one that breaks no row of prove is refused.
    extra = Mutant(replace(REFERENCE, name="a-new-mutant"), "a bug class", "slot_fill", "a test")
    monkeypatch.setattr(readme, "CHANNEL_MUTANTS", (*CHANNEL_MUTANTS, extra))
    row = next(
        line
        for line in readme.render_page(reads).splitlines()
        if line.startswith("| `slot_fill` |")
    )
    assert row.endswith(
        "`snapshot-position-fills-slot`, `snapshot-item-read-as-done`, `a-new-mutant` |"
    )
    stray = Mutant(extra.tables, "a bug class", "no_such_row", "a test")
    monkeypatch.setattr(readme, "CHANNEL_MUTANTS", (stray,))
    with pytest.raises(ValueError, match="no_such_row"):
        readme.render_page(reads)


def test_every_file_the_page_names_exists() -> None:
    text = readme.readme_path().read_text(encoding="utf-8")
    named = set(re.findall(r"(?<![\w./])([\w/]+\.(?:py|md|json))\b", text))
    assert {"unbounded.py", "model/invariants.py", "tests/proofs/test_invariant_proofs.py"} <= named
    missing = [
        name
        for name in sorted(named)
        if not (REPO / name if "/" in name else REPO / "proofs" / name).is_file()
    ]
    assert missing == []
