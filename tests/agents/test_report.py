"""Why a failed client's cell broke: the error's own line, read from its real output."""

from __future__ import annotations

from pathlib import Path

import pytest
from responses_oracle.agents.report import cell_from_json, why
from responses_oracle.agents.runner import Cell, error_line
from responses_oracle.agents.served_verdicts import CallVerdict

CAPTURED = Path(__file__).resolve().parent / "stderr"


@pytest.mark.parametrize(("log", "line"), [
    ("openai-agents-js-q01.txt",
     "UserError: Runner.run() and Runner.runStreamed() only auto-execute built-in client "
     "tool_search calls with { paths: string[] }. Custom client tool_search schemas require "
     'toolSearchTool({ execution: "client", execute }) or a custom model loop before '
     "re-processing call call_B."),
    ("openai-agents-q01.txt",
     "agents.exceptions.ModelBehaviorError: Client-executed tool_search calls are not "
     "supported by the standard agent runner. Handle the tool_search_call yourself and "
     "return a matching tool_search_output item with the same call_id."),
    ("vercel-ai-s05.txt", "StreamProviderError [AI_StreamProviderError]: The model failed."),
])
def test_the_error_line_is_the_thrown_errors_not_the_last_line(log: str, line: str) -> None:
    output = (CAPTURED / log).read_text(encoding="utf-8")
    assert error_line(output) == line
    if "js" in log or "vercel" in log:
        # What the cell said before: the last line, Node's version banner.
        assert output.rstrip().splitlines()[-1].startswith("Node.js v")


def test_without_a_traceback_or_a_caret_the_last_named_error_then_the_last_line() -> None:
    assert error_line("starting\nError: connection refused\n    at x (y.js:1:1)\n}\n") == (
        "Error: connection refused")
    assert error_line("booting\nno provider configured\n\nNode.js v22.23.5\n") == (
        "no provider configured")
    assert error_line("") == ""


def test_a_python_chained_exception_gives_the_last_one() -> None:
    output = (
        "Traceback (most recent call last):\n  File \"a.py\", line 1\nKeyError: 'x'\n\n"
        "During handling of the above exception, another exception occurred:\n\n"
        "Traceback (most recent call last):\n  File \"a.py\", line 3\n    raise X\n"
        "    ^^^^^^^\nRuntimeError: the model sent no arguments\n"
    )
    assert error_line(output) == "RuntimeError: the model sent no arguments"


def test_a_dropped_call_of_a_failed_client_shows_its_error_line() -> None:
    output = (CAPTURED / "openai-agents-js-q01.txt").read_text(encoding="utf-8")
    dropped = CallVerdict.from_json({
        "call_id": "call_B", "name": "echo", "executable": True,
        "executed": False, "history_faithful": None, "api_valid": None,
        "reasons": {"executed": "dropped: no later request carries an output for this call",
                    "history_faithful": "no next request", "api_valid": "no next request"},
    })
    held = CallVerdict.from_json({"call_id": "call_B", "executed": True,
                                  "history_faithful": True, "api_valid": True})
    cell = Cell("openai-agents-js", "q01", ran=True, exit_status=1, calls=[dropped],
                output=output[-1200:], error=error_line(output),
                twin=Cell("openai-agents-js", "q01", ran=True, calls=[held]))
    shown = why(cell_from_json(cell.to_json()))  # as the page shows it, from the record
    assert shown == (
        "call_B: executed: dropped: no later request carries an output for this call; "
        "the client exited 1: " + error_line(output)[:200])
    assert "Node.js" not in shown
