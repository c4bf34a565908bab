"""The engine worker's entry point: it exposes only the engine service's ``call`` (the ops and the wire
format are tested in tests/test_service.py)."""

from __future__ import annotations

import json

from gongzhu import service
from ui import engine_worker


def test_exports_only_the_services_call() -> None:
    assert engine_worker.__all__ == ["call"]
    assert engine_worker.call is service.call
    reply = json.loads(engine_worker.call(json.dumps({"op": "ping", "args": {"text": "hi"}})))
    assert reply["ok"] is True and reply["result"]["engine"] == "gongzhu"
