"""The timeline is total: any stream, however broken, is laid out completely.

Over provider-shaped and faulty streams (the testing toolkit's strategies), folded and
not: every event is counted in exactly one mark, every item of every result has its lane, each
lane's segments are contiguous and end in the state the result gives the item, and the
page's data block decodes to the same marks.
"""

from __future__ import annotations

import json
import re
from itertools import pairwise

from fuzz.fuzzkit import fuzz_settings
from hypothesis import given
from hypothesis import strategies as st
from responses_oracle import reduce
from responses_oracle.streamgen.streams import GeneratedStream
from responses_oracle.testing.strategies import faulty_streams, provider_streams
from responses_oracle.timeline import build_timeline, render_timeline

STREAMS = st.one_of(provider_streams(), faulty_streams())


@fuzz_settings(40)
@given(stream=STREAMS, fold_above=st.sampled_from([0, 3, 2000]))
def test_every_event_and_item_is_drawn(stream: GeneratedStream, fold_above: int) -> None:
    timeline = build_timeline(stream.events, fold_above=fold_above)
    assert [r.to_json() for r in timeline.results] == [
        r.to_json() for r in reduce(list(stream.events))
    ]
    marks = [mark for response in timeline.responses for mark in response.marks]
    assert sum(mark.count for mark in marks) == len(stream.events)
    starts = [mark.first for mark in marks if mark.count]
    assert len(set(starts)) == len(starts) and set(starts) <= set(range(len(stream.events)))
    for response in timeline.responses:
        assert [lane.position for lane in response.lanes] == list(range(len(response.result.items)))
        for lane in response.lanes:
            segments = lane.segments
            assert segments and segments[-1].state is lane.entry.state
            assert all(a.end == b.start for a, b in pairwise(segments))
            assert segments[-1].end == response.end + 1
    page = render_timeline(timeline, title="fuzz")
    (block,) = re.findall(r'<script type="application/json" id="timeline-data">(.*?)</script>',
                          page, flags=re.DOTALL)
    data = json.loads(block)["marks"]
    assert [(m["i"], m["n"]) for m in data] == [(mark.first, mark.count) for mark in marks]
