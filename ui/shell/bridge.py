"""Main-thread client of the engine worker (MicroPython-compatible).

The engine and the AI run in a Pyodide web worker (``web/engine-worker.js``, a plain module
worker that restores a memory snapshot of the booted engine when it has one, and runs the
Python entry ``call(request) -> answer`` of ``ui/engine_worker.py``). Messages cross the thread
boundary as JSON strings::

    from ui.shell import bridge
    bridge.start_engine()                               # once the UI has painted
    result = await bridge.call("ping", text="hello")    # -> dict decoded from JSON

A request is ``{"op": <name>, "args": {...}}``; the worker replies
``{"ok": true, "result": ...}`` or ``{"ok": false, "error": "..."}``, which
:func:`call` turns into the result or an :class:`EngineError`.

The transport is ``window.gongzhuEngine`` (``web/engine.js``): its promises always resolve
(MicroPython 1.27 cannot reliably catch a rejected one), with ``null`` for a dead worker.
"""

import json

from pyscript import window

#: Seconds a request may take before the worker is taken for dead (``ui.main`` lowers it for
#: ``?fast=1``). A live worker answers every op in well under a second; Hard's search a few.
TIMEOUT_S = 45

_ready = False


from ui.core.ports import EngineDied, EngineError  # noqa: E402  (the runner tells them apart)


def _glue():
    return window.gongzhuEngine


def start_engine():
    """Start the engine worker (idempotent; :func:`engine` calls it too)."""
    _glue().start()


async def engine():
    """Wait until the engine worker has booted (once); raise :class:`EngineError` if it cannot."""
    global _ready
    if not _ready:
        problem = str(await _glue().ready())
        if problem:
            raise EngineError("the engine could not start: " + problem)
        _ready = True
    return _glue()


async def restart():
    """Replace a dead worker by a new one (it restores the snapshot when there is one)."""
    global _ready
    _ready = False
    _glue().restart()
    return await engine()


async def call_raw(request):
    """Send a JSON string to the worker and return its JSON string answer; :class:`EngineDied`
    when it fails or does not answer within :data:`TIMEOUT_S` (web/engine.js runs the race)."""
    glue = await engine()
    answer = await glue.call(request, int(TIMEOUT_S * 1000))
    if answer is None:
        raise EngineDied("the engine did not answer within " + str(TIMEOUT_S) + " s")
    return str(answer)


async def call(op, **args):
    """Run ``op`` in the engine worker with keyword ``args``; return its decoded result."""
    reply = json.loads(await call_raw(json.dumps({"op": op, "args": args})))
    if not reply.get("ok"):
        raise EngineError(reply.get("error") or "engine error")
    return reply.get("result")
