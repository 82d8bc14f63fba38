"""An output folder that cannot be written is named as the argument at fault.

``audit --out``, ``agents --out`` (and ``serve --out``: ``tests/serve/test_cli.py``) exit
2 naming ``--out``, with no traceback, before anything is run or served.
"""

from __future__ import annotations

import pytest

from .cli_helpers import EXAMPLES, run


def test_audit_names_its_out_folder(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pyarrow")
    status, _, err = run(capsys, "audit", EXAMPLES / "parallel-calls.sse", "--out",
                         "/proc/nope", "-q")
    assert status == 2
    assert err.startswith("responses-oracle: error: --out /proc/nope: cannot write /proc/nope")


def test_agents_names_its_out_folder(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "agents", "python my_app.py {base_url}", "--scenario", "s01",
                         "--out", "/proc/nope")
    assert status == 2
    assert err.startswith("responses-oracle: error: --out /proc/nope: cannot write there")
