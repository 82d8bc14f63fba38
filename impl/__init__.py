"""responses-oracle: the reference parser for OpenAI Responses API event streams.

Reduce a stream to its final output items — above all tool calls, with their identity
(``id``, ``call_id``, ``output_index``) and payloads reconciled by the rules of the
model in ``responses_oracle.model`` — and get every finding as a diagnostic::

    from responses_oracle import reduce
    for result in reduce("stream.sse"):
        print(result.to_dict())

The public API is this package's root; everything below it is an implementation
detail that may move:

- ``reduce`` (one call: a path, bytes, a binary or text file, or events → results) and
  ``Reducer`` (the incremental face, one event at a time);
- ``Result`` and ``ResultItem`` (the result contract; ``to_dict()`` / ``to_json()``),
  ``Diagnostic`` with its ``Code`` and the code's ``Severity`` (``SEVERITY[code]``);
- ``ReducerLimits`` and ``Limits`` (the reducer's and the front end's bounds for hostile
  input) and ``InputFormat`` (force a format instead of detecting it);
- ``replay_input``: a result's items as the next request's ``input``;
- ``canonical`` (events → the stream's answer re-emitted as a complete, valid stream)
  and ``Canonicalizer`` (its incremental face, for a proxy; ``repairs`` says what it
  changed).

Theory of operation: the names are imported on first use (PEP 562 ``__getattr__``), so
that ``import responses_oracle.cli`` -- every ``responses-oracle`` command, ``--help``
first -- does not pay for the reducer, its tables and the front end before it needs
them.  ``from responses_oracle import reduce`` works as with eager imports; type
checkers see the imports below ``TYPE_CHECKING``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from responses_oracle.canonicalizer import Canonicalizer as Canonicalizer
    from responses_oracle.canonicalizer import canonical as canonical
    from responses_oracle.core.state import Diagnostic as Diagnostic
    from responses_oracle.core.step import ReducerLimits as ReducerLimits
    from responses_oracle.model.vocabulary import SEVERITY as SEVERITY
    from responses_oracle.model.vocabulary import Code as Code
    from responses_oracle.model.vocabulary import Severity as Severity
    from responses_oracle.next_input import replay_input as replay_input
    from responses_oracle.reducer import Reducer as Reducer
    from responses_oracle.reducer import Source as Source
    from responses_oracle.reducer import reduce as reduce
    from responses_oracle.result import Result as Result
    from responses_oracle.result import ResultItem as ResultItem
    from responses_oracle.wire import InputFormat as InputFormat
    from responses_oracle.wire import Limits as Limits

    __version__: str
    """The installed distribution's version."""

_HOMES: Final[dict[str, str]] = {
    "Canonicalizer": "responses_oracle.canonicalizer",
    "Code": "responses_oracle.model.vocabulary",
    "Diagnostic": "responses_oracle.core.state",
    "InputFormat": "responses_oracle.wire",
    "Limits": "responses_oracle.wire",
    "Reducer": "responses_oracle.reducer",
    "ReducerLimits": "responses_oracle.core.step",
    "Result": "responses_oracle.result",
    "ResultItem": "responses_oracle.result",
    "SEVERITY": "responses_oracle.model.vocabulary",
    "canonical": "responses_oracle.canonicalizer",
    "Severity": "responses_oracle.model.vocabulary",
    "Source": "responses_oracle.reducer",
    "reduce": "responses_oracle.reducer",
    "replay_input": "responses_oracle.next_input",
}
"""Each public name → the module that defines it (where it lives today)."""

__all__ = [
    "SEVERITY",
    "Canonicalizer",
    "Code",
    "Diagnostic",
    "InputFormat",
    "Limits",
    "Reducer",
    "ReducerLimits",
    "Result",
    "ResultItem",
    "Severity",
    "Source",
    "__version__",
    "canonical",
    "reduce",
    "replay_input",
]


def __getattr__(name: str) -> Any:
    """Import a public name on first use, then keep it as a plain module attribute."""
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            value: Any = version("responses-oracle")
        except PackageNotFoundError:
            value = "unknown"
    elif name in _HOMES:
        value = getattr(importlib.import_module(_HOMES[name]), name)
    else:
        raise AttributeError(f"module 'responses_oracle' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The module's attributes with the public names not yet imported."""
    return sorted({*globals(), *__all__})
