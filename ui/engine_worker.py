"""Entry point of the ``engine`` web worker (Pyodide, i.e. CPython 3.14 — not MicroPython).

Runs as ``<script type="py" worker name="engine" src="./ui/engine_worker.py"
config="./engine-worker.json">``. PyScript makes every name listed in ``__export__``
callable from the main thread::

    engine = await workers["engine"]          # from pyscript import workers
    reply_json = await engine.call(request_json)

Only strings cross the boundary. The operations, the wire format and their tests live in the engine
package (:mod:`gongzhu.service`); this file only exposes its ``call``. No SharedArrayBuffer is needed
(no COOP/COEP headers): the worker never touches ``window`` or ``document``.
"""

from __future__ import annotations

from gongzhu.service import call

__export__ = ["call"]
__all__ = ["call"]
