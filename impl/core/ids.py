"""Deterministic item ids: the ones we mint (R11) and the ones replay synthesizes (R12).

Both kinds are ``<prefix>_`` followed by a hyphenated UUIDv5, so the same input always
yields the same id.  That matters twice: the oracle's answer must not change between
runs (a test can compare it byte for byte), and an id that goes back to the server in
the next request's ``input`` must be stable across retries, or the prompt cache misses.

* Minted ids (R11) are given to an entry that never carried a wire id.  The UUIDv5 name
  is the JSON array ``[response_id, slot, ordinal, item_type]`` written compactly
  (``json.dumps(..., separators=(",", ":"))``, so ``null`` stands for a missing response
  id or slot), under ``MINT_NAMESPACE``.  The prefix is the item type's wire prefix from
  ``model.catalogue.ITEM_TYPES`` (``item`` for a type the catalogue does not know), so a
  replayed minted id passes OpenAI's prefix check (protocol-notes section 3.1).
* Synthetic output ids (R12) match openai/codex's ``synthetic_output_id`` byte for byte
  (codex PR #30327, "stabilize synthesized call output IDs"): the name is
  ``"<output prefix>:<source call item id>"`` under codex's own namespace, so our
  replay and codex's prompt normalization produce the same bytes for the same history.
"""

from __future__ import annotations

import json
import uuid

from ..model.catalogue import ITEM_TYPES, UNKNOWN_ITEM_TYPE

MINT_NAMESPACE: uuid.UUID = uuid.UUID("848a5b50-1732-5f3f-947b-996986389d09")
"""The namespace of minted item ids.

It is ``uuid5(NAMESPACE_URL, "https://responses-oracle/minted-item-id")``, written out
as a literal because changing it would change every minted id the oracle has ever
reported.
"""

SYNTHETIC_OUTPUT_NAMESPACE: uuid.UUID = uuid.UUID("90d38d3e-6a5b-4d52-bfe2-2f1e634bfac4")
"""codex's ``SYNTHETIC_OUTPUT_ID_NAMESPACE`` (normalize.rs @ 0803cc58); must never change."""


def mint_item_id(response_id: str | None, slot: int | None, ordinal: int, item_type: str) -> str:
    """The id R11 mints for an entry of ``item_type`` that never carried a wire id.

    ``slot`` is the entry's ``output_index`` (None for an entry admitted without one) and
    ``ordinal`` its admission ordinal within the response; together with the response id
    they identify the entry within a stream, so distinct entries get distinct ids.
    """
    prefix = ITEM_TYPES.get(item_type, UNKNOWN_ITEM_TYPE).id_prefix
    name = json.dumps([response_id, slot, ordinal, item_type], separators=(",", ":"))
    return f"{prefix}_{uuid.uuid5(MINT_NAMESPACE, name)}"


def synthetic_output_id(output_prefix: str, call_item_id: str | None) -> str | None:
    """The id of the synthetic output replay inserts after a call whose item id is given.

    None when the call has no id or an empty one: codex then sends the output without an
    id (its legacy behaviour), and so do we.
    """
    if not call_item_id:
        return None
    name = f"{output_prefix}:{call_item_id}"
    return f"{output_prefix}_{uuid.uuid5(SYNTHETIC_OUTPUT_NAMESPACE, name)}"
