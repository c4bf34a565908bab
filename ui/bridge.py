"""Main-thread client of the engine worker (MicroPython-compatible).

The engine and the AI run in a Pyodide web worker named ``engine`` (see
``ui/engine_worker.py``). Messages cross the thread boundary as JSON strings::

    from ui import bridge
    result = await bridge.call("ping", text="hello")   # -> dict decoded from JSON

A request is ``{"op": <name>, "args": {...}}``; the worker replies
``{"ok": true, "result": ...}`` or ``{"ok": false, "error": "..."}``, which
:func:`call` turns into the result or an :class:`EngineError`.
"""

import json

from pyscript import workers

ENGINE_WORKER = "engine"

_engine = None


class EngineError(Exception):
    """The worker answered a request with an error."""


async def engine():
    """The engine worker's export proxy (awaits the worker's start the first time)."""
    global _engine
    if _engine is None:
        _engine = await workers[ENGINE_WORKER]
    return _engine


async def call_raw(request):
    """Send a JSON string to the worker and return its JSON string answer."""
    worker = await engine()
    return str(await worker.call(request))


async def call(op, **args):
    """Run ``op`` in the engine worker with keyword ``args``; return its decoded result."""
    reply = json.loads(await call_raw(json.dumps({"op": op, "args": args})))
    if not reply.get("ok"):
        raise EngineError(reply.get("error") or "engine error")
    return reply.get("result")
