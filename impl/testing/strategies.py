"""Hypothesis strategies for Responses API event streams, for your own test suites.

Requires Hypothesis (``pip install responses-oracle[testing]``).  Every strategy draws
a ``GeneratedStream``: ``.events`` is the list of decoded events, ``.to_sse()`` and
``.to_jsonl()`` give bytes, ``.labels`` say how it was made.

- ``valid_streams()`` — protocol-valid streams as OpenAI sends them: messages,
  reasoning, parallel interleaved function and custom tool calls, hosted tools,
  realistic ids, ``response.completed`` or ``response.incomplete``.
- ``provider_streams()`` — a valid stream rewritten by one provider profile
  (``PROFILES``: Bedrock Mantle, GitHub Copilot, LM Studio, the Codex backend,
  gateways that blank terminal arguments, SGLang, vLLM, keepalives and unknown events).
- ``model_guided_streams()`` — streams whose every event is a move the lifecycle table
  enables; ``faulty_streams()`` — such a valid prefix, exactly one fault, the rest.
- ``edited_streams()`` — a valid, provider, two-response or model-guided stream with one
  to four hostile edits (``edits``): resumes anywhere, extra terminals, bad fields,
  changed snapshots and items.

The generators themselves live in plain modules (``streams``, ``profiles``, ``walk``,
``faults``, ``edits``) and ask a ``Chooser`` for every decision; here the chooser is Hypothesis's
``draw``, so every stream shrinks — to fewer items, plainer text, no interleaving, the
fault moved to the front.  ``data_chooser(data)`` gives the same chooser over
``st.data()`` for stateful tests that build a stream rule by rule.

The package also registers ``valid_streams()`` for ``st.from_type(GeneratedStream)``
through a ``hypothesis`` entry point.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from hypothesis import strategies as st
from responses_oracle.streamgen.choices import Chooser, RandomChooser
from responses_oracle.streamgen.edits import edited_stream
from responses_oracle.streamgen.faults import fault_stream
from responses_oracle.streamgen.provider_profiles import PROFILES, apply_profiles
from responses_oracle.streamgen.streams import ITEM_BUILDERS, GeneratedStream, openai_stream
from responses_oracle.streamgen.walk import model_guided_stream

T = TypeVar("T")

__all__ = [
    "PROFILES",
    "GeneratedStream",
    "data_chooser",
    "edited_streams",
    "faulty_streams",
    "model_guided_streams",
    "provider_streams",
    "valid_streams",
]


class _DrawChooser:
    """A ``Chooser`` that draws every decision from Hypothesis."""

    __slots__ = ("_draw",)

    def __init__(self, draw: Any) -> None:
        self._draw = draw

    def integer(self, low: int, high: int) -> int:
        """``st.integers(low, high)``."""
        value: int = self._draw(st.integers(low, high))
        return value

    def boolean(self) -> bool:
        """``st.booleans()``."""
        value: bool = self._draw(st.booleans())
        return value

    def choice(self, options: Sequence[T]) -> T:
        """An option by drawn index, so that it shrinks to the first."""
        return options[self.integer(0, len(options) - 1)]


def data_chooser(data: st.DataObject) -> Chooser:
    """A ``Chooser`` over ``st.data()``, for tests that generate step by step."""
    return _DrawChooser(data.draw)


@st.composite
def valid_streams(
    draw: st.DrawFn, max_items: int = 4, kinds: Sequence[str] = tuple(ITEM_BUILDERS)
) -> GeneratedStream:
    """Protocol-valid streams as OpenAI sends them, with 1..``max_items`` items."""
    return openai_stream(_DrawChooser(draw), max_items, kinds)


@st.composite
def provider_streams(
    draw: st.DrawFn, profiles: Sequence[str] = tuple(PROFILES), max_items: int = 4
) -> GeneratedStream:
    """A valid stream rewritten by one of ``profiles`` (names of ``PROFILES``)."""
    choose = _DrawChooser(draw)
    stream = openai_stream(choose, max_items)
    return apply_profiles(stream, (choose.choice(tuple(profiles)),), choose)


@st.composite
def model_guided_streams(
    draw: st.DrawFn, max_entries: int = 3, max_steps: int = 16
) -> GeneratedStream:
    """Streams whose every event is a move the lifecycle table enables."""
    return model_guided_stream(_DrawChooser(draw), max_entries, max_steps)


@st.composite
def faulty_streams(
    draw: st.DrawFn,
    base: st.SearchStrategy[GeneratedStream] | None = None,
    max_entries: int = 3,
    max_steps: int = 16,
) -> GeneratedStream:
    """A valid prefix, exactly one fault, then the rest of the stream.

    Without ``base`` the prefix and the rest are model-guided and the fault may also be
    a move the table disables (late, replayed, orphan).  With ``base`` (for example
    ``provider_streams()``) one list fault is applied to a stream drawn from it.
    """
    choose = _DrawChooser(draw)
    if base is None:
        return model_guided_stream(choose, max_entries, max_steps, fault=True)
    stream, _ = fault_stream(draw(base), choose)
    return stream


@st.composite
def edited_streams(draw: st.DrawFn, most: int = 4) -> GeneratedStream:
    """A valid, provider, two-response or model-guided stream with 1..``most`` hostile
    edits (``streamgen.edits``: resumes anywhere, extra terminals, bad fields, changed
    snapshots and items, every catalogued item type, dropped or moved events).

    Its choices come from a seeded ``RandomChooser`` over a seed Hypothesis draws: drawn
    one by one, Hypothesis keeps a stream's many small choices near their first option,
    and uniform ones take far more of the driver's branches (``proofs/branch_cover.py``,
    ``proofs/MEASURED.md``).  A failure shrinks only to another seed."""
    seed = draw(st.integers(0, 2**32 - 1))
    return edited_stream(RandomChooser(seed), most)
