"""The result schema's list of diagnostic codes, written from the code table.

``docs/schema/result.schema.json`` is written by hand but for one list: the
``examples`` of a diagnostic's ``code``, which are every code of
``model.vocabulary.CODES`` in table order.  The generator splices that list into the
committed text (nothing else of the file is touched, its layout kept), and the
``$comment`` beside it says so; ``--check`` fails when the list differs from the table.
"""

from __future__ import annotations

import json

from responses_oracle.model.vocabulary import CODES

from .docs_folder import docs_dir

SCHEMA_PAGE = "schema/result.schema.json"
"""The schema's path under ``docs/``."""

_ANCHOR = '"$comment": "The examples are every code of model/vocabulary.py CODES'
"""The start of the comment that marks the generated list (the ``examples`` after it)."""


def render_schema(committed: str) -> str:
    """``committed`` (the schema's text) with the code list written from ``CODES``."""
    anchor = committed.index(_ANCHOR)
    start = committed.index('"examples": [', anchor) + len('"examples": [')
    end = committed.index("]", start)
    line_start = committed.rindex("\n", 0, start) + 1
    indent = committed[line_start : committed.index('"', line_start)]
    values = ",\n".join(f"{indent}  {json.dumps(code.value)}" for code in CODES)
    return f"{committed[:start]}\n{values}\n{indent}{committed[end:]}"


def schema_page() -> str:
    """The schema as the generator writes it: the committed file, its code list current."""
    return render_schema((docs_dir() / SCHEMA_PAGE).read_text(encoding="utf-8"))
