"""A lost engine worker: the page says so, starts a new one and goes on from the last save. Pure,
typed transitions (the runner restarts the worker and reads the save).

A recovery resumes the save and nothing else: every flow waiting on the old worker stops, and the
inputs kept for the table on show are dropped with it (the resumed save replaces that table). With
no save to resume, a new match starts under the player's house rules (``match.start_match``).
"""

from ui.core import effects as fx
from ui.core import flow, match
from ui.core.words import said

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from typing import Any

    from ui.core.flow import Result
    from ui.core.state import UIState


def worker_died(s: "UIState") -> "Result":
    """The engine worker did not answer: restart it, unless a restart is what failed."""
    if s.link.recovering:
        return engine_gone(s, "the new worker did not answer")
    s.link.recovering = True
    s.link.gen += 1
    s.lesson.on = None  # (the match's save is resumed; a lesson's slot stays for the next visit)
    s.link.engine_ready = False
    s.link.busy = False
    s.link.queued = []
    s.motion.thinking = None
    s.link.engine_note = said("The game engine stopped. Restarting it…")
    return s, [fx.Announce(s.link.engine_note), fx.Restart(restarted, engine_gone)]


def restarted(s: "UIState") -> "Result":
    """The new worker is up: the last save is read."""
    return s, [fx.ReadSave(from_save)]


def from_save(s: "UIState", saved: "dict[str, Any] | None", _problem: "str | None" = None) -> "Result":
    """The save read (shape-checked), or None: it is resumed and checked, or a new match starts."""
    if saved is not None:
        flow.resume(s, saved)
    if s.table.state is None:
        return s, [fx.NewMatch(then=_new_match_back)]
    return s, [fx.Call("check", {"state": s.table.state}, engine_back, failed=engine_gone)]


def _new_match_back(s: "UIState", packed: "dict[str, Any]", sent: "str | None" = None) -> "Result":
    s, effects = match.match_started(s, packed)
    return _back(s, effects)


def engine_back(s: "UIState", packed: "dict[str, Any]", sent: "str | None" = None) -> "Result":
    """The new worker checked the saved table: play goes on from it."""
    flow.checked(s, packed)
    return _back(s, [fx.Drive()])


def _back(s: "UIState", effects: "list[fx.Effect]") -> "Result":
    s.link.engine_ready = True
    s.link.recovering = False
    s.link.engine_note = said("The game engine was restarted: play goes on from the last save.")
    return s, [fx.Announce(s.link.engine_note)] + effects


def engine_gone(s: "UIState", reason: str = "") -> "Result":
    """The engine worker could not be restarted: the page says to reload."""
    s.link.recovering = False
    s.link.engine_note = said("The game engine could not be restarted. Reload the page.")
    return s, [fx.Warn("restart failed: " + reason), fx.Announce(s.link.engine_note)]


def request_failed(s: "UIState", text: str) -> "Result":
    """A request to the engine failed with ``text`` (a bug of the page or the engine): play stops
    waiting for it and the page says what went wrong."""
    s.link.busy = False
    s.motion.thinking = None
    return flow.say(s, said("Something went wrong: {error}", error=text or "error"))
