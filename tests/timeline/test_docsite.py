"""Every rule page embeds the timeline of its worked example, drawn from the same run."""

from __future__ import annotations

import pytest
from responses_oracle.docsite.examples import run
from responses_oracle.docsite.pages import rule_page
from responses_oracle.docsite.rule_texts import RULES, Rule
from responses_oracle.docsite.timelines import RULE_URL, frame_height, timeline_page

from .test_timeline import Page


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.key)
def test_the_rule_page_embeds_and_links_its_timeline(rule: Rule) -> None:
    text = rule_page(rule)
    outcome = run(rule.example)
    assert (
        f'<iframe class="timeline" src="../../timelines/{rule.key}.html" '
        f'title="{rule.key}: timeline of the worked example" height="{frame_height(outcome)}">'
    ) in text
    assert f"[open it on its own](../timelines/{rule.key}.html)" in text
    page = Page(timeline_page(rule, "GENERATED FILE"))
    assert len(page.having("section", "response")) == len(outcome.responses)
    lanes = [a["data-lane"] for a in page.having("div", "lane") if "data-lane" in a]
    assert lanes == [str(n) for r in outcome.responses for n in range(len(r.result.items))]
    codes = [g[0] for m in page.data()["marks"] for g in m["g"]]
    assert codes == [d.code.value for r in outcome.responses for d in r.result.diagnostics]
    keys = {r.key for r in RULES}
    hrefs = {a["href"] for a in page.having("a", "rule")}
    assert hrefs <= {RULE_URL.replace("{rule}", key) for key in keys}
    assert all(r["h"] == RULE_URL.replace("{rule}", k) for k, r in page.data()["rules"].items())
