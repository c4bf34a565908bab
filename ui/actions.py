"""The page's buttons (``data-action``), its keys and the inputs kept while the engine starts, each
handed to the part it belongs to: the settings sheet and the table (``ui/core/flow.py``), the record
and the daily deal (``ui/features/record_flow.py``), the other tab (``ui/features/tabs.py``), the hand
review (``ui/features/review.py``). Pure, typed: what an input does is the transition it reaches; what
a key does is a :class:`KeyPlan` the shell carries out."""

from ui.core import bookkeeping, flow, later
from ui.core import effects as fx
from ui.core.words import said

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from collections.abc import Callable
    from typing import Any

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


#: The settings sheet's dialog: Tab and Shift+Tab keep the focus inside it while it is open.
SHEET_DIALOG = "#sheet [role=dialog]"


class KeyPlan:
    """What a key press does, decided by :func:`on_key`; ``ui/shell/app.py`` only carries it out."""

    def __init__(
        self,
        prevent: bool = False,
        trap: "str | None" = None,
        focus: "str | None" = None,
        transition: "Callable[..., Result] | None" = None,
        args: "tuple[Any, ...]" = (),
    ) -> None:
        self.prevent = prevent  # type: bool  # the browser's own action for the key is stopped
        self.trap = trap  # type: str | None  # Tab keeps the focus inside this dialog (a CSS selector)
        self.focus = focus  # type: str | None  # the hand card the keyboard focus moves to (then a redraw)
        self.transition = transition  # type: Callable[..., Result] | None  # the input the key makes
        self.args = args  # type: tuple[Any, ...]  # its arguments after the state (runner.take_input)

    def __repr__(self) -> str:
        name = getattr(self.transition, "__name__", None)
        return "KeyPlan(prevent={}, trap={}, focus={}, input={}{})".format(
            self.prevent, self.trap, self.focus, name, self.args
        )


def on_key(s: "UIState", key: str, card: "str | None" = None, repeat: bool = False) -> KeyPlan:
    """A key pressed (``key``: the browser's ``KeyboardEvent.key``; ``card``: the hand card that has
    the focus, or None; ``repeat``: the key is held down). The settings sheet, when open, takes
    Escape (it closes) and Tab (the focus stays inside it) and nothing else; an open hand review takes
    the arrows, Home, End and Escape; in the hand, the arrows, Home and End move the focus (roving
    tabindex: the state keeps the card at once) and Enter or Space taps the card (selects it, then
    plays it; a held key taps once); Escape closes a panel."""
    if s.screen.sheet:
        if key == "Escape":
            return KeyPlan(prevent=True, transition=flow.menu, args=(False,))
        if key == "Tab":
            return KeyPlan(trap=SHEET_DIALOG)
        return KeyPlan()
    if s.review.trick and review.takes_key(s, key):
        return KeyPlan(prevent=True, transition=review.key_pressed, args=(key,))
    if card is not None and (key in flow.MOVES or key in ("Home", "End")):
        _state, code = flow.arrow(s, card, key)
        return KeyPlan(prevent=True, focus=code)
    if card is not None and key in ("Enter", " "):
        if repeat:
            return KeyPlan(prevent=True)
        bookkeeping.focus(s, card)
        return KeyPlan(prevent=True, transition=flow.tap_card, args=(card,))
    if key == "Escape" and s.screen.panel:
        return KeyPlan(transition=on_action, args=("close",))
    return KeyPlan()
