"""Transitions of the player's record panel (pure, like ``ui/core/flow.py``, which hands them the
buttons named in :data:`ACTIONS`)."""

from ui.core import effects as fx
from ui.core.words import lined, said
from ui.features import daily

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from ui.core.effects import Effect
    from ui.core.state import UIState
    from ui.core.words import Message
    from ui.features.record import Record
    from ui.features.transfer import ImportOffer

#: The buttons (``data-action``) handled here.
ACTIONS = (
    "statistics",
    "reset-statistics",
    "reset-confirm",
    "reset-cancel",
    "daily",
    "daily-practice",
    "daily-leave",
    "share",
    "export",
    "import",
    "import-confirm",
    "import-cancel",
)


def problem_note(problem: "str | None") -> "Message | None":
    """The notice for statistics that could not be read (``record.load``'s problem), or None."""
    if problem and problem.startswith("newer"):
        return said("Your statistics come from a newer version and were kept aside: they start again.")
    if problem:
        return said("Your statistics could not be read and were set aside: they start again.")
    return None


def record_read(
    s: "UIState", rec: "Record", problem: "str | None", today: str
) -> "tuple[UIState, list[Effect]]":
    """The record as storage holds it now (read afresh, or just counted: another tab may have
    counted meanwhile); a record that could not be read is said once, and it starts again."""
    s.stats.record = rec
    s.stats.today = today  # (a daily result of a later date, from an old record, is not shown)
    note = problem_note(problem)
    if not note:
        return s, []
    s.stats.note = note
    return s, [fx.Announce(note)]


def daily_counted(
    s: "UIState", rec: "Record", problem: "str | None", today: str
) -> "tuple[UIState, list[Effect]]":
    """Today's daily deal was counted: its result is the one on show (and shared)."""
    s.day.result = rec.daily.get(s.day.on_table) if s.day.on_table else None
    return record_read(s, rec, problem, today)


def record_reset(s: "UIState", rec: "Record") -> "tuple[UIState, list[Effect]]":
    """The player confirmed Reset: the record starts again."""
    s.stats.record = rec
    return s, [fx.Announce(said("Your statistics were reset."))]


def take_offer(s: "UIState") -> "ImportOffer | None":
    """The import the player said yes to, taken off the panel (it is offered once)."""
    offer = s.stats.import_offer
    s.stats.import_offer = None
    return offer


def import_said(s: "UIState", message: "Message") -> "tuple[UIState, list[Effect]]":
    """What became of an import (a refusal with its reason, or done), on the page and said."""
    s.screen.message = message
    return s, [fx.Announce(message)]


def offered(s: "UIState", offer: "ImportOffer") -> "tuple[UIState, list[Effect]]":
    """A file was checked whole: the statistics panel says what it would replace and asks first
    (like Reset); nothing is replaced before the player's yes (``import-confirm``)."""
    s.stats.import_offer = offer
    s.stats.confirm_reset = False
    s.screen.panel = "statistics"
    s.screen.message = None
    return s, [fx.Announce(lined(offer.lines(), " "))]


def on_action(s: "UIState", name: str) -> "tuple[UIState, list[Effect]]":
    """Open or close the statistics (read afresh from storage), and reset them after confirming;
    the daily deal: open it, replay it for practice, leave it, share its result."""
    if name in ("daily", "daily-practice"):
        if s.link.busy or not s.link.engine_ready:
            return s, []
        s.screen.panel = None
        return s, [fx.OpenDaily(practice=name == "daily-practice")]
    if name == "daily-leave":
        return (s, [fx.LeaveDaily()]) if s.day.on_table and not s.link.busy else (s, [])
    if name == "export":
        return s, [fx.Export()]
    if name == "import-confirm":
        if s.stats.import_offer is None or s.link.busy:
            return s, []
        return s, [fx.ApplyImport(take_offer(s))]
    if name == "import-cancel" and s.stats.import_offer is not None:
        s.stats.import_offer = None
        s.screen.message = said("Nothing was imported: your data is unchanged.")
        return s, [fx.Announce(s.screen.message)]
    s.stats.import_offer = None  # (any other action of the panel drops the offer: it is asked again)
    if name == "import":
        s.screen.message = None
        return (s, [fx.Import()]) if s.link.engine_ready and not s.link.busy else (s, [])
    if name == "share":
        if not s.day.result:
            return s, []
        return s, [fx.Share(daily.share_message(s.day.on_table or s.day.date, s.day.result))]
    if name == "statistics":
        s.stats.confirm_reset = False
        if s.screen.panel == "statistics":
            s.screen.panel = None
            return s, []
        s.screen.panel = "statistics"
        return s, [fx.ReadRecord()]
    if name == "reset-statistics" and s.screen.panel == "statistics":
        s.stats.confirm_reset = True
        return s, []
    if name == "reset-confirm" and s.stats.confirm_reset:
        s.stats.confirm_reset = False
        return s, [fx.ResetRecord()]
    s.stats.confirm_reset = False
    return s, []
