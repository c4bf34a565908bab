"""Entry point of the engine web worker (Pyodide, i.e. CPython 3.14 — not MicroPython).

``web/engine-worker.js`` boots Pyodide, imports this module and answers each of the page's requests
with :func:`call` (JSON text in, JSON text out). The operations, the wire format and their tests live
in the engine package (:mod:`gongzhu.service`); this file only names its ``call``. No
SharedArrayBuffer is needed (no COOP/COEP headers): the worker never touches ``window`` or ``document``.
"""

from __future__ import annotations

from gongzhu.service import call

__all__ = ["call"]
