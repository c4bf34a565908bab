"""The page's start: the table drawn at the first paint, then, once the engine answers, the match
checked or dealt and the inputs kept meanwhile carried out. Pure, typed transitions.

A first visit draws a table too: one of the build's prepared tables (``sitebuild/first_tables.py``:
new matches the engine dealt at build time, shipped as saves), drawn exactly as a save is and checked
by the engine like one before anyone plays on it.

``ui/main.py`` reads what the platform holds (storage, the address, the languages) into a
:class:`BootPlan` with :func:`first_paint`, draws it and hands the rest to the runner as
:func:`connect`: the engine worker started and, once it answers, :func:`engine_ready`.
"""

import json

from ui.core import bookkeeping, flow, match, settings, store
from ui.core import effects as fx
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
        self.decision = "new"  # type: str  # "new", "resume" (the save), "ask" (a ?seed= link over it) or "prepared" (a first table the build dealt)
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


def prepared_table(text: str, choice: float) -> "dict[str, Any] | None":
    """One of the build's prepared first tables (the JSON text of ``first-tables.json``), picked by
    ``choice`` in [0, 1), as ``store.decode`` reads a save (its shape checked), or None when there is
    none usable."""
    try:
        tables = json.loads(text)["tables"]
        pick = tables[min(int(choice * len(tables)), len(tables) - 1)]
        return store.decode(pick) if isinstance(pick, str) else None
    except Exception:  # (a missing or broken file: the loading state, as before)
        return None


def wants_prepared(
    loaded: "tuple[dict[str, Any] | None, str | None]", seed_text: "str | None", daily_text: "str | None"
) -> bool:
    """Whether this start may draw a prepared table (no save, no ``?seed=``, no ``?daily``): the page
    then fetches them before its first paint."""
    return loaded[0] is None and seed_text is None and daily_text is None


def takes_prepared(plan: "BootPlan", chosen: "Settings") -> bool:
    """A prepared table stands for the new match of this start: a random deal (no ``?seed=``, no
    ``?daily``) under the settings the build dealt it with (the standard rules, the default level)."""
    return (
        plan.decision == "new"
        and plan.seed is None
        and plan.daily_text is None
        and chosen.house_rules == settings.default_rules()
        and chosen.level == settings.Settings().level
    )


def first_paint(
    s: "UIState",
    usable: bool,
    fast: bool,
    chosen: "Settings",
    loaded: "tuple[dict[str, Any] | None, str | None]",
    blocked: bool,
    seed_text: "str | None",
    daily_text: "str | None",
    prepared: "dict[str, Any] | None" = None,
    coach: bool = True,
) -> "BootPlan":
    """The table drawn before the engine starts, from storage (``usable`` False: the game plays
    unsaved, with a notice; ``loaded``: the save and its problem; ``blocked``: a save that could not
    be read still holds its slot) and the address (``?fast=1``, ``?coach=0``, ``?seed=``, ``?daily``): a save to
    resume (drawn now: it passed the shape check; the engine's check follows), the same with the
    question of a ``?seed=`` link, the build's ``prepared`` table (:func:`prepared_table`) for a new
    match it stands for (:func:`takes_prepared`), or the loading state. A new match over a blocked
    slot plays unsaved rather than write over it."""
    saved, problem = loaded
    s.saving.unsaved = not usable
    s.link.fast = fast
    s.link.coach = coach
    s.settings = chosen
    plan = BootPlan()
    plan.daily_text = daily_text
    seed, seed_valid = store.parse_seed(seed_text)
    plan.decision, plan.seed = store.start_decision(saved, seed)
    if plan.decision == "new" and problem and blocked:
        s.saving.unsaved = True
        s.saving.save_blocked = True
    if plan.decision in ("resume", "ask") and saved is not None:
        flow.resume(s, saved)
    if plan.decision == "ask":
        s.link.ask_seed = plan.seed
    if prepared is not None and takes_prepared(plan, chosen):
        plan.decision = "prepared"
        flow.resume(s, prepared)
        s.table.match_token = bookkeeping.match_token(s)  # (a match of this page's own)
    s.screen.loading_text = said("Waking up the opponents…")
    plan.save_notice = save_problem(problem)
    plan.seed_valid = seed_valid
    return plan


def connect(s: "UIState", plan: "BootPlan") -> "Result":
    """The table is drawn: the engine worker starts, and once it answers, :func:`engine_ready`."""

    def engine_answered(s: "UIState") -> "Result":
        return engine_ready(s, plan)

    return s, [fx.Connect(engine_answered)]


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
        if plan.decision in ("resume", "ask", "prepared") and not s.saving.elsewhere:
            s, effects = match.check_table(s, ready, refused, keep_aside=plan.decision != "prepared")
            return s, said + effects
        s, effects = deal(s)
        return s, said + effects

    def refused(s: "UIState") -> "Result":
        plan.seed = plan.seed if plan.decision == "ask" else None
        if plan.decision != "prepared":  # (a prepared table is no save of the player's: nothing lost)
            notices[0] = save_problem("unreadable")
        plan.decision = "new"
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
        if plan.decision == "prepared":
            effects.insert(0, fx.Save())  # (the prepared table is the player's match now)
        chosen, s.link.seed_chosen = s.link.seed_chosen, None
        if chosen is not None and plan.decision == "ask" and not s.saving.elsewhere:
            # The link's deal, chosen while the engine started (a save refused meanwhile was
            # replaced by it already): the inputs kept for the table it replaces are dropped.
            effects[-1] = fx.NewMatch(chosen)
        elif plan.daily_text is not None and date_valid and not s.saving.elsewhere:
            effects.append(fx.OpenDaily(date=date or ""))
        else:
            effects.append(fx.LessonsAtStart())  # (a lesson in progress resumes, else play goes on)
        return s, effects

    return s, [fx.ReadRecord(record_read)]


#: Files whose download the loading bar follows, with their share of the wait (in percent).
PROGRESS_FILES = (
    ("pyodide.asm.wasm", 45),
    ("python_stdlib.zip", 15),
    ("pyodide.asm.mjs", 10),
    ("pyodide.mjs", 5),
    ("pyodide-lock.json", 3),
    ("engine_worker.py", 7),
)


def loading(s: "UIState", received: "tuple[int, int] | None", fetched: "list[str]") -> bool:
    """The loading bar, from what has really arrived: the bytes the service worker has received
    (``received``, with their total) where it tells, else the runtime files already fetched
    (``fetched``: their URLs, from the browser's resource timing). At most 95 %: the deal is still to
    come. False once the table has its view: the bar is gone and the ticker stops.

    >>> from ui.core.state import UIState
    >>> s = UIState()
    >>> loading(s, None, ["https://x/runtime/pyodide/pyodide.asm.wasm"]), s.screen.progress
    (True, 55)
    >>> loading(s, (50, 100), []), s.screen.progress
    (True, 52)
    """
    if s.table.view is not None:
        return False
    if received is not None and received[1] > 0:
        percent = 10 + received[0] * 85 // received[1]
    else:
        percent = 10 + sum(
            share for url in fetched for suffix, share in PROGRESS_FILES if url.endswith(suffix)
        )
    s.screen.progress = min(percent, 95)
    return True


def start_failed(s: "UIState", reason: str) -> "UIState":
    """The game could not start once the engine was ready: the table gives way to ``reason``."""
    s.link.failed = reason or "error"
    return s
