"""Two tabs of the game: the one that saved last has the game; the other follows it (its table
redrawn from that save, after the shape check; the engine re-checks it) and neither plays nor saves
until the player takes the game back with "Play here" — so neither tab's moves are lost to the
other's writes. Pure, typed transitions (the runner reads storage and asks the engine)."""

from ui.core import effects as fx
from ui.core import flow, match, store

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from typing import Any

    from ui.core.flow import Result
    from ui.core.state import UIState


def other_tab_saved(s: "UIState", text: "Any") -> "Result":
    """Another tab saved the match (``text``, as storage holds it): this tab follows it. Its flows
    stop, and inputs kept for its table are dropped (the other tab has the game). The daily deal
    or a lesson on this tab's table is its own (the other tab's match waits in the save)."""
    if not isinstance(text, str) or s.day.on_table or s.lesson.on is not None:
        return s, []
    try:
        saved = store.decode(text)
    except Exception as exc:
        return s, [fx.Warn("another tab's save ignored: " + str(exc))]
    s.link.gen += 1
    s.saving.elsewhere = True
    s.link.busy = False
    s.link.ask_seed = None
    flow.resume(s, saved)
    if not s.link.engine_ready:
        return s, []
    return s, [fx.Call("check", {"state": saved["state"]}, engine_view, failed=_ignored)]


def engine_view(s: "UIState", packed: "dict[str, Any]", sent: "str | None" = None) -> "Result":
    """The engine's own view of the state another tab saved (replaces the saved view)."""
    return flow.checked(s, packed, sent), []


def _ignored(s: "UIState", reason: str) -> "Result":
    return s, [fx.Warn("another tab's match rejected: " + reason)]


def take_over(s: "UIState") -> "Result":
    """ "Play here": this tab takes the game from the other one, from the latest save."""
    if not s.saving.elsewhere:
        return s, []
    return s, [fx.ReadSave(take_back)]


def take_back(s: "UIState", saved: "dict[str, Any] | None", _problem: "str | None" = None) -> "Result":
    """The latest save, read: this tab's table from now on, once the engine checked it (a new
    match when there is none or it is refused)."""
    if saved is not None:
        flow.resume(s, saved)
    s.saving.elsewhere = False
    s.screen.message = None
    if s.table.state is None:
        return match.new_match(s)
    return match.check_table(s, playing_here, match.new_match)


def playing_here(s: "UIState") -> "Result":
    """This tab took the game back: the other tab now follows it (this tab's save), play goes on."""
    s.link.gen += 1
    return s, [fx.Save(), fx.Drive()]
