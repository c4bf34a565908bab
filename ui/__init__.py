"""Browser UI of the Gong Zhu game.

Everything here except :mod:`ui.engine_worker` runs under MicroPython on the page's main
thread, so it must stay MicroPython-compatible: no ``typing`` or ``__future__`` imports,
no dataclasses, only the small stdlib MicroPython ships (``json``, ``asyncio``, ...). Types for
mypy go in string annotations, ``# type:`` comments and ``if TYPE_CHECKING:`` blocks (a local
``TYPE_CHECKING = False``), which MicroPython never evaluates.
:mod:`ui.engine_worker` runs under Pyodide (CPython) in a web worker.
"""
