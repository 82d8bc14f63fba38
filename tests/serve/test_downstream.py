"""``POST /serve/downstream`` refuses an empty body and keeps the record it has.

A gateway's harness posts what the gateway's client received; a post with nothing in it
(a harness whose capture failed) must not replace a good record with a verdict on no
bytes: it is answered 400, and the earlier record stands in the verdicts.
"""

from __future__ import annotations

import json
import urllib.error
from pathlib import Path

from responses_oracle.serve import load_scenario, running
from responses_oracle.serve.server import DOWNSTREAM_PATH

from .test_clients import PARALLEL
from .test_gateway import _first_turn, _post, gateway


def test_an_empty_downstream_is_refused_and_the_earlier_record_kept(tmp_path: Path) -> None:
    with running([load_scenario(PARALLEL)], out=tmp_path) as server, gateway(
        server.base_url
    ) as through:
        url = server.base_url.removesuffix("/v1") + DOWNSTREAM_PATH
        kept = json.loads(_post(url, _first_turn(through)))
        try:
            _post(url, b"")
        except urllib.error.HTTPError as error:
            status, reply = error.code, json.loads(error.read())
        else:
            raise AssertionError("an empty body was accepted")
        verdicts = server.verdicts()
    assert kept["answer_kept"] is True
    assert status == 400 and reply["error"]["message"].startswith("empty body")
    assert verdicts.scenarios[0].gateway is not None
    assert verdicts.scenarios[0].gateway.value is True
    written = json.loads((tmp_path / "verdicts.json").read_text())
    assert written["scenarios"][0]["gateway"]["answer_kept"] is True
