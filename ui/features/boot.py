"""The page's start: the table drawn at the first paint, then, once the engine answers, the match
checked or dealt and the inputs kept meanwhile carried out. Pure, typed transitions.

``ui/main.py`` reads what the platform holds (storage, the address, the languages) into a
:class:`BootPlan` with :func:`first_paint`, draws it, starts the engine worker and, once it answers,
hands the rest to the runner as :func:`engine_ready`.
"""

from ui.core import effects as fx
from ui.core import flow, match, store
from ui.core.words import joined, said

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from typing import Any

    from ui.core.flow import Result
    from ui.core.settings import Settings
    from ui.core.state import UIState
    from ui.core.words import Message
    from ui.features import daily, record_flow
else:  # (imported when first needed, not before the table is drawn: ui/core/later.py)
    from ui.core import later

    daily, record_flow = later.modules("features.daily", "features.record_flow")


class BootPlan:
    """What the start decided before the engine answered."""

    def __init__(self) -> None:
        self.decision = "new"  # type: str  # "new", "resume" (the save) or "ask" (a ?seed= link over it)
        self.seed = None  # type: int | None  # the deal of a new match (None: a random one)
        self.save_notice = None  # type: Message | None  # why the save was set aside, or None
        self.seed_valid = True  # type: bool  # the ?seed= link's deal was valid (or absent)
        self.daily_text = None  # type: str | None  # the ?daily link's value ("" today), or None


def save_problem(problem: "str | None") -> "Message | None":
    """The notice for a save that was set aside (``store.load``'s problem), or None."""
    if problem == "newer":
        return said("Your saved game comes from a newer version and was kept aside: a new match starts.")
    if problem:
        return said("Your saved game could not be read: a new match starts.")
    return None


def first_paint(
    s: "UIState",
    usable: bool,
    fast: bool,
    settings: "Settings",
    loaded: "tuple[dict[str, Any] | None, str | None]",
    blocked: bool,
    seed_text: "str | None",
    daily_text: "str | None",
) -> "BootPlan":
    """The table drawn before the engine starts, from storage (``usable`` False: the game plays
    unsaved, with a notice; ``loaded``: the save and its problem; ``blocked``: a save that could not
    be read still holds its slot) and the address (``?fast=1``, ``?seed=``, ``?daily``): a save to
    resume (drawn now: it passed the shape check; the engine's check follows), the same with the
    question of a ``?seed=`` link, or the loading state. A new match over a blocked slot plays
    unsaved rather than write over it."""
    saved, problem = loaded
    s.saving.unsaved = not usable
    s.link.fast = fast
    s.settings = settings
    plan = BootPlan()
    seed, seed_valid = store.parse_seed(seed_text)
    plan.decision, plan.seed = store.start_decision(saved, seed)
    if plan.decision == "new" and problem and blocked:
        s.saving.unsaved = True
        s.saving.save_blocked = True
    if plan.decision in ("resume", "ask") and saved is not None:
        flow.resume(s, saved)
    if plan.decision == "ask":
        s.link.ask_seed = plan.seed
    s.screen.loading_text = said("Waking up the opponents…")
    plan.save_notice = save_problem(problem)
    plan.seed_valid = seed_valid
    plan.daily_text = daily_text
    return plan


def engine_ready(s: "UIState", plan: "BootPlan") -> "Result":
    """The engine answered its first request: the record is read, the drawn save checked (or a new
    match dealt), the start-up notices shown, then the inputs kept meanwhile are carried out and
    play goes on (or the daily deal of a ``?daily`` link opens). The page reads as starting
    (``link.engine_ready`` False: inputs are kept, nothing is settled) until the table is the
    engine's."""
    notices = [plan.save_notice, None]  # type: list[Message | None]
    date, date_valid = daily.parse_date(plan.daily_text)
    if not date_valid:
        notices.append(said("The date in this link is not valid: it was ignored."))
    if not plan.seed_valid:
        notices.append(said("The deal number in this link is not valid: it was ignored."))

    def record_read(s: "UIState", rec: "Any", problem: "str | None", today: str) -> "Result":
        s, said = record_flow.record_read(s, rec, problem, today)
        notices[1] = record_flow.problem_note(problem)
        if plan.decision in ("resume", "ask") and not s.saving.elsewhere:
            s, effects = match.check_table(s, ready, refused)
            return s, said + effects
        s, effects = deal(s)
        return s, said + effects

    def refused(s: "UIState") -> "Result":
        plan.seed = plan.seed if plan.decision == "ask" else None
        plan.decision = "new"
        notices[0] = save_problem("unreadable")
        return deal(s)

    def deal(s: "UIState") -> "Result":
        if plan.decision == "new" and not s.saving.elsewhere:
            return s, [fx.NewMatch(plan.seed, then=dealt)]
        return ready(s)

    def dealt(s: "UIState", packed: "dict[str, Any]", sent: "str | None" = None) -> "Result":
        s, effects = flow.started(s, packed)
        s, more = ready(s)
        return s, effects + more

    def ready(s: "UIState") -> "Result":
        s.link.engine_ready = True
        s.screen.alert = joined(*notices) if any(notices) else None
        effects = [fx.Mark("table-ready"), fx.ImportRest(), fx.Replay()]  # type: list[fx.Effect]
        if plan.daily_text is not None and date_valid and not s.saving.elsewhere:
            effects.append(fx.OpenDaily(date=date or ""))
        else:
            effects.append(fx.LessonsAtStart())  # (a lesson in progress resumes, else play goes on)
        return s, effects

    return s, [fx.ReadRecord(record_read)]


def loading(s: "UIState", percent: int) -> "UIState":
    """The loading bar, from what has really arrived (at most 95 %: the deal is still to come)."""
    s.screen.progress = min(percent, 95)
    return s


def start_failed(s: "UIState", reason: str) -> "UIState":
    """The game could not start once the engine was ready: the table gives way to ``reason``."""
    s.link.failed = reason or "error"
    return s
