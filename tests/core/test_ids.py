"""Deterministic ids: R11 minted item ids and R12 synthetic output ids."""

from __future__ import annotations

import uuid

import pytest
from responses_oracle.core.ids import (
    MINT_NAMESPACE,
    SYNTHETIC_OUTPUT_NAMESPACE,
    mint_item_id,
    synthetic_output_id,
)


@pytest.mark.parametrize(
    ("prefix", "call_item_id", "expected"),
    [
        # peer-implementations B.2: codex normalize.rs @ 0803cc58, computed with uuid.uuid5.
        ("fco", "fc_1", "fco_d08ee114-ed5d-5706-8dbd-16ccacd40aa4"),
        ("ctco", "ctc_1", "ctco_ffd2c872-81a7-5a00-b6f6-884096d1f522"),
        ("tso", "tsc_1", "tso_f380c6b3-5815-5031-91ee-dd1c77f963ee"),
        ("fco", "lsh_1", "fco_37093384-5cd0-5813-8a86-723bfcccbbb2"),
        ("fco", "fc_b67b889bf314b375", "fco_d354f698-e2e8-5a2e-b90e-4960c3e3f224"),
    ],
)
def test_synthetic_output_id_matches_codex_byte_for_byte(
    prefix: str, call_item_id: str, expected: str
) -> None:
    assert synthetic_output_id(prefix, call_item_id) == expected


def test_synthetic_output_namespace_is_codex_namespace() -> None:
    codex_namespace = uuid.UUID(int=0x90D38D3E_6A5B_4D52_BFE2_2F1E634BFAC4)
    assert codex_namespace == SYNTHETIC_OUTPUT_NAMESPACE


@pytest.mark.parametrize("call_item_id", [None, ""])
def test_call_without_id_gives_no_synthetic_output_id(call_item_id: str | None) -> None:
    assert synthetic_output_id("fco", call_item_id) is None


def test_mint_namespace_is_the_documented_uuid5() -> None:
    documented = uuid.uuid5(uuid.NAMESPACE_URL, "https://responses-oracle/minted-item-id")
    assert documented == MINT_NAMESPACE


def test_minted_id_is_uuid5_of_the_compact_json_name() -> None:
    # Pinned literal: a change here changes every minted id ever reported.
    assert mint_item_id("resp_1", 0, 0, "function_call") == (
        "fc_cd3cf4b8-ac03-5b70-b017-0a4d3823efa5"
    )
    name = '["resp_1",0,0,"function_call"]'
    assert mint_item_id("resp_1", 0, 0, "function_call") == (
        f"fc_{uuid.uuid5(MINT_NAMESPACE, name)}"
    )
    unknown_name = '[null,null,3,"mystery"]'
    assert mint_item_id(None, None, 3, "mystery") == (
        f"item_{uuid.uuid5(MINT_NAMESPACE, unknown_name)}"
    )


def test_minting_is_deterministic() -> None:
    first = [mint_item_id("resp_a", slot, slot, "message") for slot in range(5)]
    second = [mint_item_id("resp_a", slot, slot, "message") for slot in range(5)]
    assert first == second


@pytest.mark.parametrize(
    "args",
    [
        ("resp_b", 1, 2, "function_call"),
        ("resp_a", 9, 2, "function_call"),
        ("resp_a", None, 2, "function_call"),
        ("resp_a", 1, 7, "function_call"),
        (None, 1, 2, "function_call"),
    ],
)
def test_each_name_component_changes_the_minted_id(
    args: tuple[str | None, int | None, int, str],
) -> None:
    assert mint_item_id(*args) != mint_item_id("resp_a", 1, 2, "function_call")


@pytest.mark.parametrize(
    ("item_type", "prefix"),
    [
        ("function_call", "fc"),
        ("custom_tool_call", "ctc"),
        ("message", "msg"),
        ("reasoning", "rs"),
        ("compaction", "cmp"),
        ("web_search_call", "ws"),
        ("some_future_item", "item"),
    ],
)
def test_minted_id_prefix_follows_the_item_type(item_type: str, prefix: str) -> None:
    minted = mint_item_id("resp_1", 0, 0, item_type)
    head, _, tail = minted.partition("_")
    assert head == prefix
    assert uuid.UUID(tail).version == 5
    assert str(uuid.UUID(tail)) == tail  # hyphenated, lower case
