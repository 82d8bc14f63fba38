"""responses-oracle: the reference parser for OpenAI Responses API event streams.

Reduce a stream to its final output items — above all tool calls, with their identity
(``id``, ``call_id``, ``output_index``) and payloads reconciled by the rules of the
model in ``responses_oracle.model`` — and get every finding as a diagnostic::

    from responses_oracle import reduce
    for result in reduce("stream.sse"):
        print(result.to_json())

``Reducer`` is the incremental face; ``replay_input`` turns a result into the next
request's ``input`` items.
"""

from __future__ import annotations

from .reducer import Reducer, reduce
from .replay import replay_input
from .result import Result, ResultItem

__all__ = ["Reducer", "Result", "ResultItem", "reduce", "replay_input"]
