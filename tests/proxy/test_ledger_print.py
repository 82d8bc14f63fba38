"""The change log's print of a field (``canonicalizer._json_print``) is the print of its
JSON text: the same length, and equal for two values exactly when their texts are.

The log compares the upstream's item fields with canonical's by these prints and names
a changed field with both lengths; a long string is set aside instead of copied into
the text, which must change neither.  Strings are set aside from 4 characters on here
(``_ASIDE``), so that every generated value has some.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from responses_oracle import canonicalizer

_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=3), inner, max_size=4),
    max_leaves=12,
)


def _text(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=repr)


@pytest.fixture(autouse=True)
def _short_aside(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(canonicalizer, "_ASIDE", 4)


@settings(max_examples=400, deadline=None)
@given(_VALUES)
def test_a_print_has_the_length_of_the_json_text(value: Any) -> None:
    found = canonicalizer._json_print(value)
    assert found is not None and found[0] == len(_text(value))


@settings(max_examples=400, deadline=None)
@given(_VALUES, _VALUES)
def test_two_prints_are_equal_exactly_when_the_texts_are(one: Any, other: Any) -> None:
    same = _text(one) == _text(other)
    assert (canonicalizer._json_print(one) == canonicalizer._json_print(other)) is same


@settings(max_examples=200, deadline=None)
@given(_VALUES)
def test_the_same_value_built_in_another_key_order_prints_the_same(value: Any) -> None:
    def reordered(found: Any) -> Any:
        if isinstance(found, dict):
            return {key: reordered(found[key]) for key in reversed(list(found))}
        if isinstance(found, list):
            return [reordered(nested) for nested in found]
        return found

    assert canonicalizer._json_print(reordered(value)) == canonicalizer._json_print(value)


def test_a_value_without_a_long_string_prints_as_its_text() -> None:
    value = {"b": [1, "ab"], "a": None}
    assert canonicalizer._json_print(value) == (len(_text(value)), hash(_text(value)))


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=127), min_size=1) | st.text())
def test_a_strings_length_is_the_length_the_json_module_writes(text: str) -> None:
    # ``_json_length`` reads an ASCII string's from msgspec's encoding (the fast extra),
    # which spells DEL as it is; every control character, quote and backslash is here.
    written = json.encoder.encode_basestring_ascii(text)  # type: ignore[attr-defined]
    assert canonicalizer._json_length(text) == len(written)


@pytest.mark.parametrize("text", ["\x7f", 'a"b\\c\x00\x1f\n\t', "é\x7f"])
def test_the_escapes_msgspec_and_the_json_module_spell_apart(text: str) -> None:
    written = json.encoder.encode_basestring_ascii(text)  # type: ignore[attr-defined]
    assert canonicalizer._json_length(text) == len(written)
