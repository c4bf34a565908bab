"""The daily deal's flows: opening it (its result, or its hand dealt or resumed from its slot),
leaving it for the match, sharing its result. Pure, typed transitions (the runner reads storage
and asks the engine)."""

from ui.core import effects as fx
from ui.core import flow, match
from ui.core.words import said
from ui.features import daily, record_flow

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from typing import Any

    from ui.core.flow import Result
    from ui.core.state import UIState
    from ui.core.words import Message
    from ui.features.record import Record


def open_daily(s: "UIState", date: str, practice: bool, today: str) -> "Result":
    """The daily deal of ``date`` is asked for: the record is read afresh (another tab may have
    played it meanwhile), then its result is shown, or its hand goes on the table. Only today's
    deal is recorded: another day's is practice, and says so. ``date`` "": the one opened last,
    else today's."""
    date = date or s.day.date or today
    practice = practice or daily.practice_only(date, today)

    def record_read(s: "UIState", rec: "Record", problem: "str | None", today: str) -> "Result":
        s, said = record_flow.record_read(s, rec, problem, today)
        s.day.date = date
        s.day.result = rec.daily.get(date)
        if s.day.result and not practice:  # (played already: its result, over the table)
            if s.day.on_table != date:
                s.screen.panel = "daily"
            return s, said + [fx.Drive()]
        notice = daily.other_day_note(date) if daily.practice_only(date, today) else None
        if practice:
            s, effects = _deal(s, date, practice, notice)
        else:
            s, effects = s, [fx.ReadDailySlot(date, lambda s, saved: _slot_read(s, date, notice, saved))]
        return s, said + effects

    return s, [fx.ReadRecord(record_read)]


def _deal(s: "UIState", date: str, practice: bool, notice: "Message | None") -> "Result":
    """The engine deals the daily hand of ``date`` afresh."""

    def dealt(s: "UIState", packed: "dict[str, Any]", sent: "str | None" = None) -> "Result":
        said = _on_table(s, date, practice, notice)
        s, effects = flow.started(s, packed)
        return s, said + effects + [fx.Drive()]

    return match.start_match(s, None, daily=date, then=dealt)


def _slot_read(s: "UIState", date: str, notice: "Message | None", saved: "dict[str, Any] | None") -> "Result":
    """Today's hand resumes from its slot (the engine checks it first), else it is dealt."""
    if saved is None:
        return _deal(s, date, False, notice)
    s.link.gen += 1  # (whatever ran for the match stops)
    s.link.busy = True

    def checked(s: "UIState", packed: "dict[str, Any]", sent: "str | None" = None) -> "Result":
        said = _on_table(s, date, False, notice)
        flow.checked(flow.resume(s, saved), packed)
        s.link.busy = False
        return s, said + flow.count_hand(s) + [fx.Drive()]

    def refused(s: "UIState", reason: str) -> "Result":
        s.link.busy = False
        return _deal(s, date, False, notice)

    return s, [fx.Call("check", {"state": saved["state"]}, checked, failed=refused)]


def _on_table(s: "UIState", date: str, practice: bool, notice: "Message | None") -> "list[fx.Effect]":
    s.day.on_table = date
    s.day.practice = practice
    s.screen.panel = None
    if notice is None:
        return []
    s.screen.alert = notice
    return [fx.Announce(notice)]


def leave(s: "UIState") -> "Result":
    """ "Back to my match": the match's save is read."""
    return s, [fx.ReadSave(back_to_match)]


def back_to_match(s: "UIState", saved: "dict[str, Any] | None", _problem: "str | None" = None) -> "Result":
    """From the daily deal back to the match's save (the engine checks it), or to a new match when
    there is none or it is refused."""
    s.day.on_table = None
    s.day.practice = False
    return match.back_to_saved(s, saved)


def shared(s: "UIState", outcome: str, text: str) -> "Result":
    """The daily result was shared (``outcome``: ``shared``, ``copied``, or neither: the text shown)."""
    if outcome == "shared":
        return flow.say(s, said("Shared."))
    if outcome == "copied":
        return flow.say(s, said("Copied to the clipboard: {text}", text=text))
    return flow.say(s, said("Copy this text to share it: {text}", text=text))
