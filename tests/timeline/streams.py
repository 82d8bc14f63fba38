"""The streams the timeline tests draw: a tool-loop turn with trouble, and a hostile one.

``CAPTURE`` is shaped like a real parallel-call turn (OpenAI's event order, ids in its
style) with two things gone wrong: a second call is admitted at the slot of a finished
one (``slot_reused``, R3) and a delta that names only that slot cannot be routed
(``ambiguous_route``, an error, R5).  ``HOSTILE`` puts markup, a ``</script>`` and
``javascript:`` URLs wherever a stream can put a string: arguments, names, ids, the
response id, an unknown event type, and bytes that are not JSON.
"""

from __future__ import annotations

import json
from typing import Any

from responses_oracle.docsite.wire_builders import (
    added,
    args_delta,
    args_done,
    call,
    completed,
    created,
    done,
    sse_frame,
)

Event = dict[str, Any]

PARIS = '{"city":"Paris"}'
TOKYO = '{"city":"Tokyo"}'
TIME = '{"tz":"CET"}'

CAPTURE: list[Event] = [
    created("resp_capture"),
    added(0, call("fc_paris", "call_paris")),
    added(1, call("fc_tokyo", "call_tokyo")),
    args_delta(0, "fc_paris", '{"city":'),
    args_delta(1, "fc_tokyo", '{"city":'),
    args_delta(0, "fc_paris", '"Paris"}'),
    args_delta(1, "fc_tokyo", '"Tokyo"}'),
    args_done(0, "fc_paris", PARIS),
    done(0, call("fc_paris", "call_paris", arguments=PARIS, status="completed")),
    added(0, call("fc_time", "call_time", name="get_time")),
    args_delta(0, None, TIME),
    args_delta(0, "fc_time", TIME),
    done(0, call("fc_time", "call_time", name="get_time", arguments=TIME, status="completed")),
    args_done(1, "fc_tokyo", TOKYO),
    done(1, call("fc_tokyo", "call_tokyo", arguments=TOKYO, status="completed")),
    completed("resp_capture"),
]
"""Three calls, slot 0 reused, one unroutable delta (event 10)."""

AMBIGUOUS_EVENT = 10
"""The index of ``CAPTURE``'s delta that only names the shared slot."""

SCRIPT = "</script><script>alert('script')</script>"
MARKUP = '"><img src=x onerror="alert(\'img\')"><b id="pwned">pwned</b><!--'
URL = "javascript:alert('url')"

HOSTILE_ARGUMENTS = json.dumps({"html": MARKUP, "url": URL, "s": SCRIPT})
"""Arguments a model could be tricked into writing (valid JSON, hostile text)."""

HOSTILE: list[Event] = [
    created(f"resp_{SCRIPT}"),
    added(0, call(f"fc_{MARKUP}", URL, name=SCRIPT)),
    args_delta(0, f"fc_{MARKUP}", HOSTILE_ARGUMENTS[:20]),
    args_delta(0, f"fc_{MARKUP}", HOSTILE_ARGUMENTS[20:]),
    {"type": f"acme.{SCRIPT}", "note": MARKUP, "link": URL},
    args_delta(3, f"{URL}", "\u2028</script>\u2029"),
    done(
        0,
        call(f"fc_{MARKUP}", URL, name=SCRIPT, arguments=HOSTILE_ARGUMENTS, status="completed"),
    ),
    completed(f"resp_{SCRIPT}"),
]
"""Every string a stream controls, hostile; event 5 is an orphan delta."""

HOSTILE_SSE = (
    "".join(sse_frame(event) for event in HOSTILE[:-1])
    + f'data: {{"type":"response.output_text.delta","delta":"{SCRIPT}{MARKUP}\n\n'
    + sse_frame(HOSTILE[-1])
).encode()
"""``HOSTILE`` as raw SSE, with one more event whose bytes are not JSON (the page shows
its raw text)."""

HOSTILE_STRINGS = (SCRIPT, MARKUP, URL, HOSTILE_ARGUMENTS)
"""What must reach the reader as text, never as markup."""
