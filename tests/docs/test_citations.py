"""The docs say the same thing about the rules everywhere, and every citation leads somewhere.

- The set of rules is one list: the one-line summaries (``testing.rules.RULES``) name
  the rules the rule pages are generated for (``docsite.rules.RULES``), and every
  "R1-Rn" (a hyphen or an en dash) in the README, the hand-written pages and the help
  texts names that last rule.
- Every "protocol notes §N" and "peer notes §X" of a rule page points at a section the
  published notes (``docs/notes/``) have, and is a link there on the generated page.
- No page cites a GitHub thread (```owner/repo#N```) without linking it.
"""

from __future__ import annotations

import re
from pathlib import Path

from helpers import REPO
from responses_oracle.docsite.citations import citations, linked
from responses_oracle.docsite.rule_texts import RULES as RULE_PAGES
from responses_oracle.testing.rule_codes import RULE_RANGE, RULES

DOCS = REPO / "docs"
_RANGE = re.compile(r"R1\s*(?:\u2013|-|\.\.|to)\s*R(\d+)")  # \u2013: an en dash
_ANCHOR = re.compile(r"\{#([\w-]+)\}")
_UNLINKED_THREAD = re.compile(r"(?<!\[)`[\w.-]+/[\w.-]+#\d+`(?!\])")


def _pages() -> list[Path]:
    return [*sorted(DOCS.rglob("*.md")), REPO / "README.md"]


def test_the_rule_summaries_and_the_rule_pages_name_the_same_rules() -> None:
    assert list(RULES) == [rule.key for rule in RULE_PAGES]
    assert f"R1-{RULE_PAGES[-1].key}" == RULE_RANGE


def test_every_rule_range_in_the_docs_names_the_last_rule() -> None:
    last = len(RULE_PAGES)
    texts = {path: path.read_text(encoding="utf-8") for path in _pages()}
    found = [(path, int(n)) for path, text in texts.items() for n in _RANGE.findall(text)]
    assert found, "no page names the rules' range"
    assert [(path, n) for path, n in found if n != last] == []


def test_every_notes_citation_of_a_rule_page_has_its_section() -> None:
    anchors = {
        f"notes/{page.name}": set(_ANCHOR.findall(page.read_text(encoding="utf-8")))
        for page in (DOCS / "notes").glob("*.md")
    }
    cited = [
        cited
        for rule in RULE_PAGES
        for text in (rule.statement, *rule.evidence)
        for cited in citations(text)
    ]
    assert len(cited) > 40
    assert [(page, anchor) for page, anchor in cited if anchor not in anchors[page]] == []


def test_citations_are_links_on_the_generated_pages() -> None:
    text = "see protocol notes §6 and peer notes §A.1, §C.2 (`openai/codex#30876`, `#31261`)"
    assert linked(text, "../") == (
        "see protocol notes [§6](../notes/protocol.md#protocol-6) and peer notes "
        "[§A.1](../notes/peers.md#peer-a-1), [§C.2](../notes/peers.md#peer-c-2) "
        "([`openai/codex#30876`](https://github.com/openai/codex/issues/30876), "
        "[`#31261`](https://github.com/openai/codex/issues/31261))"
    )
    assert linked(linked(text, "../"), "../") == linked(text, "../")
    r2 = (DOCS / "rules" / "R2.md").read_text(encoding="utf-8")
    assert "protocol notes [§2.6](../notes/protocol.md#protocol-2-6)" in r2


def test_no_page_cites_a_thread_without_a_link() -> None:
    unlinked = [
        (path.relative_to(REPO).as_posix(), ref)
        for path in _pages()
        for ref in _UNLINKED_THREAD.findall(path.read_text(encoding="utf-8"))
    ]
    assert unlinked == []
