"""Browser UI of the Gong Zhu game, in parts: :mod:`ui.core` (the state, its transitions, the
effects, the saves), :mod:`ui.features` (record, review, daily deal, house rules, export, sound),
:mod:`ui.view` (HTML and words) and :mod:`ui.shell` (the adapters to the browser); the entries
:mod:`ui.main` (the page) and :mod:`ui.engine_worker` (the engine worker) at the top.

Everything here except :mod:`ui.engine_worker` runs under MicroPython on the page's main
thread, so it must stay MicroPython-compatible: no ``typing`` or ``__future__`` imports,
no dataclasses, only the small stdlib MicroPython ships (``json``, ``asyncio``, ...). Types for
mypy go in string annotations, ``# type:`` comments and ``if TYPE_CHECKING:`` blocks (a local
``TYPE_CHECKING = False``), which MicroPython never evaluates.
:mod:`ui.engine_worker` runs under Pyodide (CPython) in a web worker.
"""
