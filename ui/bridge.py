"""Main-thread client of the engine worker (MicroPython-compatible).

The engine and the AI run in a Pyodide web worker named ``engine`` (see
``ui/engine_worker.py``). Messages cross the thread boundary as JSON strings::

    from ui import bridge
    bridge.start_engine()                               # once the UI has painted
    result = await bridge.call("ping", text="hello")    # -> dict decoded from JSON

A request is ``{"op": <name>, "args": {...}}``; the worker replies
``{"ok": true, "result": ...}`` or ``{"ok": false, "error": "..."}``, which
:func:`call` turns into the result or an :class:`EngineError`.

The worker's ``<script type="py" worker name="engine">`` tag sits inert in
``<template id="engine-worker">`` in index.html; :func:`start_engine` puts it in the
page. Starting it after the UI's first paint keeps the main thread free of long tasks:
compiling Pyodide's 9.6 MB of WebAssembly takes both cores of a small machine for a while.
"""

import json

from pyscript import document, workers

ENGINE_WORKER = "engine"
ENGINE_TEMPLATE_ID = "engine-worker"

_engine = None
_started = False


class EngineError(Exception):
    """The worker answered a request with an error."""


def start_engine():
    """Start the engine worker (idempotent; :func:`engine` calls it too)."""
    global _started
    if _started:
        return
    _started = True
    template = document.getElementById(ENGINE_TEMPLATE_ID)
    document.body.append(template.content.cloneNode(True))


async def engine():
    """The engine worker's export proxy (awaits the worker's start the first time)."""
    global _engine
    if _engine is None:
        start_engine()
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
