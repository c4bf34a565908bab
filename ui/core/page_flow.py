"""The page's transitions around the table: the boot, the engine link, other tabs, the daily deal
in and out, saves, toasts and the opponents' run. Pure, unit-tested in CPython.

``ui/core/flow.py`` holds the table's own transitions (taps, buttons, engine answers, the opponents'
next step); these are what the shell (``ui/shell/app.py``, ``ui/main.py``) did by itself before: each
takes the :class:`~ui.core.state.UIState` and what happened, updates the state and returns it (with the
effects to run, or the answer the shell needs: ``True`` to go on). No ``pyscript``, no DOM.
"""

from ui.core import effects as fx
from ui.core import flow
from ui.view.i18n import _

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from typing import Any

    from ui.core.flow import Result
    from ui.core.settings import Settings
    from ui.core.state import UIState
    from ui.features.record import Record


# --------------------------------------------------------------------------- the boot (ui/main.py)


def storage_opened(s: "UIState", usable: bool, fast: bool) -> "UIState":
    """Storage is open (``usable`` False: the game plays unsaved, with a notice); ``?fast=1``."""
    s.saving.unsaved = not usable
    s.link.fast = fast
    return s


def take_settings(s: "UIState", settings: "Settings") -> "UIState":
    """The settings as ``store.load_settings`` read them (checked there, defaults for the rest)."""
    s.settings = settings
    return s


def loading(s: "UIState", percent: int) -> "UIState":
    """The loading bar, from what has really arrived (at most 95 %: the deal is still to come)."""
    s.screen.progress = min(percent, 95)
    return s


def boot_table(
    s: "UIState", decision: str, saved: "dict[str, Any] | None", seed: "int | None", blocked: bool
) -> "UIState":
    """The table drawn before the engine starts, by ``store.start_decision``: a save to ``resume``
    (drawn now: it passed the shape check; the engine's check follows), the same with the question
    of a ``?seed=`` link (``ask``), or the loading state (``new``). ``blocked``: a save that could not
    be read still holds its slot (storage refused to set it aside): the new match plays unsaved
    rather than write over it."""
    if decision == "new" and blocked:
        s.saving.unsaved = True
        s.saving.save_blocked = True
    if decision in ("resume", "ask") and saved is not None:
        flow.resume(s, saved)
    if decision == "ask":
        s.link.ask_seed = seed
    s.screen.loading_text = _("Waking up the opponents…")
    return s


def engine_started(s: "UIState") -> "UIState":
    """The engine worker answered its first request: the table may act (once checked)."""
    s.link.engine_ready = True
    return s


def decision_after_refusal(decision: str, seed: "int | None") -> "tuple[str, int | None]":
    """The start decision once the engine refused the resumed save: a new match, the deal of the
    ``?seed=`` link that was asking to replace it (``ask``), else a random one."""
    return "new", (seed if decision == "ask" else None)


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


def start_notices(s: "UIState", notices: "list[str]") -> "UIState":
    """The start-up notices (a save set aside, a bad link...), shown until the next tap."""
    s.screen.alert = " · ".join(n for n in notices if n)
    return s


def start_failed(s: "UIState", reason: str) -> "UIState":
    """The game could not start once the engine was ready: the table gives way to ``reason``."""
    s.link.failed = reason or "error"
    return s


def named_tab(s: "UIState", token: str) -> "UIState":
    """This tab's token, written in its saves (two tabs' saves always differ)."""
    s.saving.tab = token
    return s


# --------------------------------------------------------------------------- the engine link


def engine_lost(s: "UIState") -> "Result":
    """The engine worker died: every flow waiting on it stops, and the page says it restarts it."""
    s.link.recovering = True
    s.link.gen += 1
    s.link.engine_ready = False
    s.link.busy = False
    s.link.engine_note = _("The game engine stopped. Restarting it…")
    return s, [fx.Announce(s.link.engine_note)]


def engine_back(s: "UIState", packed: "dict[str, Any]") -> "Result":
    """The new engine worker checked the table (or dealt a new match): play goes on."""
    flow.checked(s, packed)
    s.link.engine_ready = True
    s.link.recovering = False
    s.link.engine_note = _("The game engine was restarted: play goes on from the last save.")
    return s, [fx.Announce(s.link.engine_note)]


def engine_gone(s: "UIState") -> "UIState":
    """The engine worker could not be restarted."""
    s.link.recovering = False
    s.link.engine_note = _("The game engine could not be restarted. Reload the page.")
    return s


def request_failed(s: "UIState", text: str) -> "Result":
    """A request to the engine failed (``text``, empty when the worker died: the shell restarts it)."""
    s.link.busy = False
    s.motion.thinking = None
    if not text:
        return s, []
    return flow.say(s, _("Something went wrong: {error}").format(error=text))


def dealing_new(s: "UIState") -> "UIState":
    """A new match is asked of the engine (:func:`started` takes it): whatever ran stops."""
    s.day.on_table = None
    s.link.gen += 1
    s.link.busy = True
    return s


# --------------------------------------------------------------------------- other tabs and the daily deal


def follow(s: "UIState", saved: "dict[str, Any]") -> "UIState":
    """Another tab saved the match (``saved``, shape-checked): this tab follows it and neither plays
    nor saves until the player takes the game back (:func:`take_back`). Its flows stop; taps kept
    for its table are dropped (the other tab has the game)."""
    s.link.gen += 1
    s.saving.elsewhere = True
    s.link.busy = False
    s.link.ask_seed = None
    s.link.queued = []
    return flow.resume(s, saved)


def take_back(s: "UIState", saved: "dict[str, Any] | None") -> "UIState":
    """ "Play here": this tab takes the game from the latest save (the engine checks it next)."""
    if saved is not None:
        flow.resume(s, saved)
    s.saving.elsewhere = False
    return s


def playing_here(s: "UIState") -> "UIState":
    """This tab took the game back and the engine checked it: any flow of its following stops."""
    s.link.gen += 1
    return s


def back_to_match(s: "UIState", saved: "dict[str, Any] | None") -> "UIState":
    """From the daily deal back to the match's save (``saved``), or to no table (a new match)."""
    s.day.on_table = None
    s.day.practice = False
    s.link.gen += 1
    s.table.view = None
    s.table.state = None
    if saved is not None:
        flow.resume(s, saved)
    return s


def daily_asked(s: "UIState", date: str, result: "dict[str, Any] | None", practice: bool) -> bool:
    """The daily deal of ``date`` is asked for (``result``: its recorded result, or None). Played
    already and not for practice: its result is shown (a panel over the match) and False is returned;
    else True: the shell asks the engine for its hand (whatever ran stops)."""
    s.day.date = date
    s.day.result = result
    if result and not practice:
        if s.day.on_table != date:
            s.screen.panel = "daily"
        return False
    s.link.gen += 1
    s.link.busy = True
    return True


def daily_dealt(
    s: "UIState",
    date: str,
    practice: bool,
    packed: "dict[str, Any]",
    saved: "dict[str, Any] | None",
    notice: str = "",
) -> "Result":
    """The daily hand is on the table: dealt by the engine, or resumed from its slot (``saved``) as
    the engine checked it (``packed``). ``notice``: what is said first (another day's deal is only
    practice), or nothing."""
    s.day.on_table = date
    s.day.practice = practice
    s.screen.panel = None
    said = [fx.Announce(notice)] if notice else []
    if notice:
        s.screen.alert = notice
    if saved is None:
        s, effects = flow.started(s, packed)
        return s, said + effects
    flow.checked(flow.resume(s, saved), packed)
    s.link.busy = False
    return s, said + [fx.CountHand()]


def shared(s: "UIState", outcome: str, text: str) -> "Result":
    """The daily result was shared (``outcome``: ``shared``, ``copied``, or neither: the text shown)."""
    if outcome == "shared":
        return flow.say(s, _("Shared."))
    if outcome == "copied":
        return flow.say(s, _("Copied to the clipboard: {text}").format(text=text))
    return flow.say(s, _("Copy this text to share it: {text}").format(text=text))


# --------------------------------------------------------------------------- the shell's bookkeeping


def input_received(s: "UIState") -> "UIState":
    """An input arrived; its handling starts in a task of its own (busy until then)."""
    s.link.inputs += 1
    return s


def input_started(s: "UIState") -> "UIState":
    """The handling of an input starts (its first step changes the state)."""
    s.link.inputs -= 1
    return s


def save_asked(s: "UIState") -> bool:
    """An autosave is to be queued (True), or there is nothing to save, one is queued already, or
    saving is not this tab's (another tab has the game, or a refused save holds the slot)."""
    if s.table.state is None or s.saving.save_pending or s.saving.elsewhere or s.saving.save_blocked:
        return False
    s.saving.save_pending = True
    return True


def save_done(s: "UIState", written: bool) -> "UIState":
    """The queued autosave ran; ``written`` False: storage refused it (the game plays on unsaved)."""
    s.saving.save_pending = False
    if not written:
        s.saving.unsaved = True
    return s


def toast_shown(s: "UIState", card: str, token: float) -> "UIState":
    """The signal card ``card`` in a toast; ``token`` names this toast (for :func:`toast_over`)."""
    s.motion.toast = card
    s.motion.toast_token = token
    return s


def toast_over(s: "UIState", token: float) -> bool:
    """The toast ``token`` has been shown long enough: it goes, unless a later one replaced it."""
    if s.motion.toast_token != token:
        return False
    s.motion.toast = None
    return True


def driving(s: "UIState", gen: int) -> bool:
    """The opponents of generation ``gen`` are to be run: False when they run already, another tab
    has the game or a ``?seed=`` question is up."""
    if s.link.driving == gen or s.saving.elsewhere or s.link.ask_seed is not None:
        return False
    s.link.driving = gen
    return True


def driven(s: "UIState", gen: int) -> "UIState":
    """The run of generation ``gen``'s opponents ended."""
    if s.link.driving == gen:
        s.link.driving = None
    return s


def focus(s: "UIState", code: str) -> "UIState":
    """The keyboard focus is on the hand card ``code`` (Enter or Space acts on it)."""
    s.table.focus = code
    return s


def imported(
    s: "UIState", rec: "Record", fields: "dict[str, Any] | None", packed: "dict[str, Any] | None"
) -> "Result":
    """The file's data is stored: its statistics are the player's, and its match (``fields``, a
    save's, ``packed`` its engine check) is on the table unless the daily deal is; any flow in
    progress stops (``link.gen``) and the table goes on from the file's match."""
    s.stats.record = rec
    s.stats.note = ""
    s.screen.panel = None
    resumed = False
    if fields is not None and packed is not None and not s.day.on_table:
        resumed = True
        s.link.gen += 1
        flow.checked(flow.resume(s, fields), packed)
    s.screen.message = _("Your data was imported.")
    said = fx.Announce(s.screen.message)
    return s, [said, fx.Drive()] if resumed else [said]
