"""UI modules the table does not need to be drawn: imported once the game is interactive, or on first use.

A repeat visit draws the saved table before anything else, and MicroPython compiles every module it
imports on the main thread first. The modules that serve only later moments (the hand review, the
statistics and their chart, the daily deal, the lessons, export and import, the memory aid, the settings sheet)
are therefore named through a :class:`Deferred` stand-in instead of imported: its first attribute
read imports the module, so a panel opened before :func:`import_rest` got to it works all the same,
and ``ui/main.py`` runs :func:`import_rest` once the table is interactive (a step at a time, with a
yield between, so no step is a long task). Typed code names the real module for mypy::

    if TYPE_CHECKING:
        from ui.features import review
        from ui.view import chart
    else:
        review, chart = later.modules("features.review", "view.chart")

``ui/view/extras.py`` names the later panels, menu entries and summary buttons, one explicit list each.
"""

import asyncio
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from types import ModuleType
    from typing import Any

#: The deferred modules (``ui.<name>``), a step each tuple, in the order :func:`import_rest` takes them.
STEPS = (
    ("features.record", "features.record_flow", "features.daily", "features.daily_flow"),
    ("features.lessons", "view.lessons_html"),
    ("features.review", "features.review_store", "features.tabs"),
    ("view.review_html", "view.chart"),
    ("view.daily_view", "view.stats_view"),
    ("view.settings_view", "view.memory_html", "features.transfer", "features.transfer_flow"),
)


def load(name: str) -> "ModuleType":
    """The module ``ui.<name>``, imported now if it was not yet."""
    full = "ui." + name
    if full not in sys.modules:
        __import__(full)
    return sys.modules[full]


class Deferred:
    """Stands for the module ``ui.<name>`` until it is needed: the first attribute read imports it."""

    def __init__(self, name: str) -> None:
        self._deferred_name = name  # type: str  # the module's name in the ``ui`` package

    def __getattr__(self, attr: str) -> "Any":
        return getattr(load(self._deferred_name), attr)


def modules(*names: str) -> "tuple[Deferred, ...]":
    """A :class:`Deferred` stand-in for each of the modules ``ui.<name>``, in order."""
    return tuple(Deferred(name) for name in names)


async def import_rest() -> None:
    """Import every deferred module not imported yet, one step of :data:`STEPS` per task."""
    for step in STEPS:
        for name in step:
            load(name)
        await asyncio.sleep(0)
