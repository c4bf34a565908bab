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

from pyscript import document, window, workers

ENGINE_WORKER = "engine"
ENGINE_TEMPLATE_ID = "engine-worker"
#: Seconds a request may take before the worker is taken for dead (``ui.main`` lowers it for
#: ``?fast=1``). A live worker answers every op in well under a second; Hard's search a few.
TIMEOUT_S = 45

_engine = None
_started = False
_name = ENGINE_WORKER
_restarts = 0


class EngineError(Exception):
    """The worker answered a request with an error."""


class EngineDied(Exception):
    """The worker did not answer (terminated, crashed or hung): :func:`restart` it."""


def start_engine():
    """Start the engine worker (idempotent; :func:`engine` calls it too)."""
    global _started
    if _started:
        return
    _started = True
    template = document.getElementById(ENGINE_TEMPLATE_ID)
    fragment = template.content.cloneNode(True)
    fragment.querySelector("script").setAttribute("name", _name)
    document.body.append(fragment)


async def engine():
    """The engine worker's export proxy (awaits the worker's start the first time)."""
    global _engine
    if _engine is None:
        start_engine()
        _engine = await workers[_name]
    return _engine


async def restart():
    """Replace a dead worker by a new one (a new name: PyScript keeps each name's first worker)."""
    global _engine, _started, _name, _restarts
    for script in document.querySelectorAll("script[type=py][worker]"):
        if script.xworker:
            script.xworker.terminate()
        script.remove()
    _restarts += 1
    _name = ENGINE_WORKER + "-" + str(_restarts)
    _engine = None
    _started = False
    return await engine()


async def call_raw(request):
    """Send a JSON string to the worker and return its JSON string answer; :class:`EngineDied`
    when it fails or does not answer within :data:`TIMEOUT_S` (web/engine.js runs the race)."""
    worker = await engine()
    answer = await window.gongzhuEngine.answer(worker.call(request), int(TIMEOUT_S * 1000))
    if answer is None:
        raise EngineDied("the engine did not answer within " + str(TIMEOUT_S) + " s")
    return str(answer)


async def call(op, **args):
    """Run ``op`` in the engine worker with keyword ``args``; return its decoded result."""
    reply = json.loads(await call_raw(json.dumps({"op": op, "args": args})))
    if not reply.get("ok"):
        raise EngineError(reply.get("error") or "engine error")
    return reply.get("result")
