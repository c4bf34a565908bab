"""Starting a match, and having a table the engine did not deal checked by it. Pure, typed transitions.

:func:`start_match` is the one way a match starts on the page (the first visit, "New match" and "Play
again", a ``?seed=`` link, the daily deal, the recovery of a lost engine with no save): it reads the
player's house rules itself, and the new table empties every input kept for the old one.
:func:`check_table` is the one way a table drawn from storage (a save, another tab's save, the daily
slot, an imported file) is handed to the engine before it is played: kept as the engine checked it,
or set aside with its reason.
"""

from ui.core import effects as fx
from ui.core import flow, settings, store

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from typing import Any

    from ui.core.effects import Next, Then
    from ui.core.flow import Result
    from ui.core.state import UIState


def start_match(
    s: "UIState", seed: "int | None", daily: str = "", then: "Then | None" = None, lesson: int = 0
) -> "Result":
    """Ask the engine for a new match: the deal ``seed`` under the player's house rules, the daily
    deal of ``daily`` (its own rules) or the table of lesson ``lesson`` (``ui/features/lessons.py``);
    ``then`` takes it (by default :func:`match_started`). Whatever ran stops (``link.gen``), the
    daily deal or the lesson leaves the table and the inputs kept for the old table are dropped."""
    s.link.gen += 1
    s.link.busy = True
    s.link.queued = []
    if not daily:
        s.day.on_table = None
    s.lesson.on = lesson or None
    s.lesson.outcome = None
    s.lesson.asked = None
    answer = then or match_started
    if daily:
        return s, [fx.Call("daily", {"date": daily}, answer)]
    if lesson:
        return s, [fx.Call("lesson_start", {"lesson": lesson}, answer)]
    args = {"seed": seed, "rules": settings.read_rules(s.settings.house_rules)}  # type: dict[str, Any]
    return s, [fx.Call("new_match", args, answer)]


def match_started(s: "UIState", packed: "dict[str, Any]", sent: "str | None" = None) -> "Result":
    """The new match is dealt: a fresh table, then the opponents play."""
    s, effects = flow.started(s, packed)
    effects.append(fx.Drive())
    return s, effects


def check_table(s: "UIState", ok: "Next", refused: "Next", keep_aside: bool = True) -> "Result":
    """Have the engine check the table drawn from a save: ``ok`` goes on once it is the engine's (a
    hand finished before a reload is counted then, once); ``refused`` once the save was set aside
    (``keep_aside`` False: a table that is no save of the player's, the build's prepared one, is
    dropped, not kept in the slots of saves set aside).
    An answer that comes once the table is another one (a ``?seed=`` link's new match) changes
    nothing and goes on as ``ok``. Until the engine answers, the page reads as busy and inputs are
    kept for the checked table (``flow.waiting``)."""
    sent = s.table.state

    def checked(s: "UIState", packed: "dict[str, Any]", _sent: "str | None" = None) -> "Result":
        if s.table.state != sent:
            return ok(s)
        flow.checked(s, packed)
        # The inputs kept meanwhile (``flow.waiting``) are carried out now (at the start, once the
        # engine is ready: ``ui/features/boot.py`` replays them).
        kept = [fx.Replay()] if s.link.engine_ready and s.link.queued else []  # type: list[fx.Effect]
        s, effects = ok(s)
        return s, flow.count_hand(s) + kept + effects

    def rejected(s: "UIState", reason: str) -> "Result":
        if s.table.state != sent:
            return ok(s)
        aside = [fx.SetAsideSave(store.encode(s))] if keep_aside else []  # type: list[fx.Effect]
        save_refused(s)
        s, effects = refused(s)
        return s, [fx.Warn("saved match rejected: " + reason)] + aside + effects

    return s, [fx.Call("check", {"state": sent}, checked, failed=rejected)]


def save_refused(s: "UIState") -> "UIState":
    """The engine refused the saved table (it is set aside): no table until a new match is dealt,
    no question about a ``?seed=`` link over it, and inputs kept for it are dropped (the notice
    that a new match starts says why)."""
    s.table.state = None
    s.table.view = None
    s.table.checked = False
    s.link.ask_seed = None
    s.link.queued = []
    return s


def new_match(s: "UIState") -> "Result":
    """A random new match (the next step of a flow that found no table to go on with)."""
    return s, [fx.NewMatch()]


def drive(s: "UIState") -> "Result":
    """Play goes on: the opponents play until the player has something to do."""
    return s, [fx.Drive()]


def back_to_saved(s: "UIState", saved: "dict[str, Any] | None") -> "Result":
    """Leave what is on the table (a daily deal, a lesson) for the match's save, ``saved``: whatever
    ran stops, the save is resumed and checked by the engine, or a new match starts when there is
    none or it is refused."""
    s.link.gen += 1
    s.table.view = None
    s.table.state = None
    if saved is not None:
        flow.resume(s, saved)
    if s.table.state is None:
        return new_match(s)
    return check_table(s, drive, new_match)
