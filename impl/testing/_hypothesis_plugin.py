"""Hypothesis entry point: ``st.from_type(GeneratedStream)`` draws ``valid_streams()``.

Hypothesis calls ``_register`` while it is being imported (entry-point group
``hypothesis``).  The hook imports Hypothesis's strategies module only inside the
function, and our strategies module (which needs Hypothesis at import) only when a
strategy for the type is first asked for, so responses-oracle itself never needs
Hypothesis.  ``HYPOTHESIS_NO_PLUGINS=1`` turns the hook off.
"""

from __future__ import annotations

from typing import Any


def _streams_for(_: type) -> Any:
    from .strategies import valid_streams

    return valid_streams()


def _register() -> None:
    """Register ``valid_streams()`` as the strategy for ``GeneratedStream``."""
    from hypothesis import strategies as st
    from responses_oracle.streamgen.streams import GeneratedStream

    st.register_type_strategy(GeneratedStream, _streams_for)
