"""Entry point of the ``engine`` web worker (Pyodide, i.e. CPython 3.14 — not MicroPython).

Runs as ``<script type="py" worker name="engine" src="./ui/engine_worker.py"
config="./worker-config.json">``. PyScript makes every name listed in ``__export__``
callable from the main thread::

    engine = await workers["engine"]          # from pyscript import workers
    reply_json = await engine.call(request_json)

Only strings cross the boundary: a request is the JSON text of
``{"op": <name>, "args": {...}}`` and the answer the JSON text of
``{"ok": true, "result": ...}`` or ``{"ok": false, "error": "<Type>: <message>"}``.
Errors never propagate as exceptions, so the main thread always gets an answer.
This needs no SharedArrayBuffer (no COOP/COEP headers): the worker never touches
``window`` or ``document``.

The module is plain CPython and is unit-tested outside the browser.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

import gongzhu

Handler = Callable[[dict[str, Any]], Any]


def _ping(args: dict[str, Any]) -> dict[str, Any]:
    return {
        "pong": True,
        "echo": args.get("text"),
        "python": sys.version.split()[0],
        "platform": sys.platform,
        "engine": gongzhu.__name__,
    }


OPS: dict[str, Handler] = {
    "ping": _ping,
}


def call(request: str) -> str:
    """Handle one JSON request and return the JSON answer (never raises)."""
    try:
        message = json.loads(request)
        if not isinstance(message, dict) or not isinstance(message.get("op"), str):
            raise ValueError("request must be an object with a string 'op'")
        handler = OPS.get(message["op"])
        if handler is None:
            raise KeyError(f"unknown op {message['op']!r}")
        args = message.get("args") or {}
        if not isinstance(args, dict):
            raise ValueError("'args' must be an object")
        return json.dumps({"ok": True, "result": handler(args)})
    except Exception as exc:
        return json.dumps({"ok": False, "error": f"{type(exc).__name__}: {exc}"})


__export__ = ["call"]
