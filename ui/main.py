"""Main-thread entry point of the page (MicroPython).

Runs as ``<script type="mpy" src="./ui/main.py" config="./mpy-config.json">``.
It flips ``<html data-phase>`` through ``loading`` (static HTML) -> ``ui-ready``
(MicroPython running) -> ``engine-ready`` (the Pyodide worker answered) or ``error``,
and leaves ``performance`` marks ``gongzhu:ui-ready``, ``gongzhu:engine-connected`` and
``gongzhu:engine-ready`` for the tests to time the boot.
"""

import asyncio
import json

from pyscript import document, window

from ui import bridge


def set_phase(phase):
    document.documentElement.dataset.phase = phase


def mark(name):
    window.performance.mark("gongzhu:" + name)


def show(element_id, text):
    document.getElementById(element_id).textContent = text


mark("ui-ready")
set_phase("ui-ready")
show("status", "Waking up the opponents…")

# End this task so the browser paints the UI before the engine worker starts; keep
# main-thread tasks short (the e2e tests fail on any task over 200 ms).
await asyncio.sleep(0)  # noqa: F704  (PyScript runs this module with top-level await)
bridge.start_engine()

try:
    await bridge.engine()  # noqa: F704
    mark("engine-connected")
    answer = await bridge.call("ping", text="hello from MicroPython")  # noqa: F704
    mark("engine-ready")
    show("engine-answer", json.dumps(answer))
    show("status", "Engine ready")
    set_phase("engine-ready")
except Exception as exc:
    show("status", "The game engine could not start: " + str(exc))
    set_phase("error")
    window.console.error("engine boot failed: " + str(exc))
