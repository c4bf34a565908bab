"""The page's buttons (``data-action``) and the inputs kept while the engine starts, each handed to
the part it belongs to: the settings sheet and the table (``ui/core/flow.py``), the record and the
daily deal (``ui/features/record_flow.py``), the other tab (``ui/features/tabs.py``), the hand
review (``ui/features/review.py``). Pure, typed: what an input does is the transition it reaches."""

from ui.core import effects as fx
from ui.core import flow, later
from ui.core.words import said

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from ui.core.flow import Result
    from ui.core.state import UIState
    from ui.features import lessons, record_flow, review, tabs
else:  # (imported when first needed, not before the table is drawn: ui/core/later.py)
    lessons, record_flow, review, tabs = later.modules(
        "features.lessons", "features.record_flow", "features.review", "features.tabs"
    )


def on_action(s: "UIState", name: str) -> "Result":
    """A button of the page. The table's own wait for the engine (kept, then carried out by
    :func:`replay`), and do nothing where the player may not act now (a follower tab says why)."""
    if name in ("menu", "menu-close"):
        return flow.menu(s, name == "menu" and not s.screen.sheet)
    if name in flow.TOGGLES:
        return flow.toggle_setting(s, name)
    s.screen.sheet = False  # (any other button of the sheet opens a panel or leaves the table: it closes)
    if name == "close":
        s.screen.panel = None
        return s, []
    if name == "seed-new" or name == "seed-resume":
        return flow.answer_seed(s, name == "seed-new")
    if name in record_flow.ACTIONS:
        return record_flow.on_action(s, name)
    if name == "take-over":
        return tabs.take_over(s)
    if flow.waiting(s):
        s.link.queued.append(("action", name))
        return s, []
    if s.saving.elsewhere and name in flow.TABLE_ACTIONS:
        return flow.say(s, said("This game is being played in another tab."))
    if not flow.open_to_player(s):
        return s, []
    if lessons.handles(name):
        return lessons.on_action(s, name)
    if name == "hint" and s.lesson.on is not None:
        return lessons.hint(s)
    table = flow.table_action(s, name)
    if table is not None:
        return table
    reviewing = review.on_action(s, name)
    return reviewing if reviewing is not None else (s, [])


def replay(s: "UIState") -> "Result":
    """The engine has answered: the first input kept meanwhile (``flow.waiting``) is carried out,
    then the next (``Replay``). Inputs kept for a table that was replaced are dropped (the notice
    that replaced it says why)."""
    if not s.link.queued:
        return s, []
    if not flow.open_to_player(s):
        s.link.queued = []
        return s, []
    kind, value = s.link.queued.pop(0)
    s, effects = flow.tap_card(s, value) if kind == "tap" else on_action(s, value)
    if s.link.queued:
        effects.append(fx.Replay())
    return s, effects
