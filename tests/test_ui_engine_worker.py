"""The engine worker's JSON entry point, run under CPython (the browser runs it in Pyodide)."""

from __future__ import annotations

import json

from ui import engine_worker


def _call(request: object) -> dict[str, object]:
    text = request if isinstance(request, str) else json.dumps(request)
    reply = json.loads(engine_worker.call(text))
    assert isinstance(reply, dict)
    return reply


def test_exports_call() -> None:
    assert engine_worker.__export__ == ["call"]


def test_ping_answers_with_the_engine_package() -> None:
    reply = _call({"op": "ping", "args": {"text": "hi"}})
    assert reply["ok"] is True
    result = reply["result"]
    assert isinstance(result, dict)
    assert result["pong"] is True
    assert result["echo"] == "hi"
    assert result["engine"] == "gongzhu"


def test_args_are_optional() -> None:
    assert _call({"op": "ping"})["ok"] is True


def test_errors_are_answers_not_exceptions() -> None:
    for bad in ["not json", "[]", {"op": 3}, {"op": "nope"}, {"op": "ping", "args": [1]}]:
        reply = _call(bad)
        assert reply["ok"] is False
        assert isinstance(reply["error"], str) and reply["error"]
    assert "unknown op 'nope'" in str(_call({"op": "nope"})["error"])
