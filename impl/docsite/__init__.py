"""The documentation site generator: the pages of ``docs/`` that are computed, not written.

The site (``mkdocs.yml``, built with mkdocs-material) has three kinds of page:

- the model pages ``docs/model/*.md`` — diagrams and tables drawn from the model's
  tables by ``python -m responses_oracle.model.diagrams``;
- the pages this package generates — one per rule R1 to R15 with a worked example, the
  table of where the peer implementations differ, and the invariants with their proof
  status — by ``python -m responses_oracle.docsite``;
- hand-written pages (overview, usage, how it is built).

A generated page is rebuilt from data in this package (``rule_texts``, ``peers``), from
the model and from what the reducer does with the example streams, so a change to a
rule's table changes the traces and results the docs show.  Every generated page says
so in its first lines, and ``--check`` (run by the test suite) fails when a committed
page differs from what the generator produces now.

Modules: ``wire_builders`` (builders for example streams), ``examples`` (running the reducer
with traces), ``rule_texts`` and ``peers`` (the data), ``markdown`` (building blocks),
``proofs`` (the proof status, when the proofs are available), ``pages`` (the pages),
``docs_folder`` (where the pages go), ``axonhub_run`` (AxonHub's recorded run, on the
peers page), ``__main__`` (the command).
"""

from __future__ import annotations

from .docs_folder import docs_dir
from .pages import COMMAND, render_pages

__all__ = ["COMMAND", "docs_dir", "render_pages"]
