"""audit from Python: the docs' snippet runs as a plain script, workers that cannot start
stop the audit with the cause and the fix, and the summary opens with its verdict.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

from cli.cli_helpers import EXAMPLES
from helpers import REPO
from responses_oracle.audit import AuditOptions, run_audit

PAGE = REPO / "docs" / "usage" / "audit.md"


def snippet() -> str:
    """The "From Python" block of docs/usage/audit.md, as written."""
    blocks: list[str] = re.findall(r"```python\n(.*?)```", PAGE.read_text(), re.S)
    [block] = [b for b in blocks if "run_audit" in b]
    return block


def _run_script(folder: Path, text: str) -> subprocess.CompletedProcess[str]:
    # An empty folder: the snippet's examples/ streams are the package's own copies.
    (folder / "audit_traffic.py").write_text(text, encoding="utf-8")
    return subprocess.run(
        [sys.executable, "audit_traffic.py"], cwd=folder, capture_output=True, text=True,
        timeout=300,
    )


def test_the_docs_snippet_runs_as_a_plain_script(tmp_path: Path) -> None:
    done = _run_script(tmp_path, snippet())
    assert done.returncode == 0, done.stderr
    verdict, totals = done.stdout.splitlines()
    assert verdict.startswith("0 every input was reduced")
    # Two streams named, one response each, none failed, every one reconciles.
    assert totals == "2 0 True"
    assert (tmp_path / "audit-out" / "summary.md").read_text().startswith("# Exit status 0: ")


def test_a_script_without_the_guard_is_told_to_add_it(tmp_path: Path) -> None:
    # The snippet without its `if __name__ == "__main__":`, on the local pool.
    lines = snippet().replace("engine=Engine.DASK", "jobs=2").splitlines()
    unguarded = "\n".join(
        line.removeprefix("    ") for line in lines if not line.startswith("if __name__")
    )
    done = _run_script(tmp_path, unguarded)
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("responses_oracle.audit.engines.EngineError: the local pool's")
    assert "audit_traffic.py" in last and 'if __name__ == "__main__":' in last
    assert "worker_lost" not in done.stdout


def test_the_summary_opens_with_the_exit_status_and_its_reason(tmp_path: Path) -> None:
    traffic = tmp_path / "traffic"
    traffic.mkdir()
    shutil.copy(EXAMPLES / "parallel-calls.sse", traffic)
    (traffic / "notes.txt").write_text("no stream here\n")
    report = run_audit(AuditOptions(sources=(str(traffic),), out=tmp_path / "out", jobs=1))
    assert report.exit_status == 3
    first = "Exit status 3: not_a_stream: 1 input with no Responses stream (audit of 2 inputs)"
    assert (tmp_path / "out" / "summary.md").read_text().splitlines()[0] == f"# {first}"
    assert f"<h1>{first}</h1>" in (tmp_path / "out" / "summary.html").read_text()
    (traffic / "notes.txt").unlink()
    cut = (EXAMPLES / "mantle-missing-id.jsonl").read_text().splitlines()[:11]
    (traffic / "cut.jsonl").write_text("\n".join(cut) + "\n")
    report = run_audit(AuditOptions(sources=(str(traffic),), out=tmp_path / "again", jobs=1))
    assert report.verdict == (1, "1 response with an error-severity diagnostic")
