"""A deliberately naive candidate parser, the kind DESIGN warns about.

It keeps only ``output_item.done`` items, keyed by ``output_index`` (codex's done-only
rule with an opencode-style slot map), and takes each item as it is: an item whose id
arrived as ``item_id`` (Amazon Bedrock) keeps no id, a done item that blanked its
arguments keeps them blank, a snapshot-only item is lost.  Run as a script it speaks
the candidate protocol.
"""

from __future__ import annotations

from typing import Any

from responses_oracle.differential.candidate import serve

_ENDS = {
    "response.completed": "completed",
    "response.incomplete": "incomplete",
    "response.failed": "failed",
    "response.cancelled": "cancelled",
    "error": "failed",
}


def parse(events: list[dict[str, Any]]) -> dict[str, Any]:
    """One result object: done items by slot, the first terminal event's status."""
    response_id, status = None, "interrupted"
    items: dict[int, dict[str, Any]] = {}
    for event in events:
        kind = event.get("type")
        if kind == "response.created":
            response_id = event["response"]["id"]
        elif kind == "response.output_item.done" and status == "interrupted":
            items[event.get("output_index", 0)] = dict(event["item"])
        elif kind in _ENDS and status == "interrupted":
            status = _ENDS[kind]
    for item in items.values():
        item.pop("item_id", None)
        item.pop("output_index", None)
    return {
        "response": {"id": response_id, "status": status},
        "items": [{"item": items[slot]} for slot in sorted(items)],
    }


if __name__ == "__main__":
    serve(parse)
