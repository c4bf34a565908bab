"""The runner's bookkeeping in the UI state: inputs in flight, the queued autosave, toasts and the
opponents' run. Pure, typed; each says whether the runner goes on where it has a choice."""

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from ui.core.state import UIState


def named_tab(s: "UIState", token: str) -> "UIState":
    """This tab's token, written in its saves (two tabs' saves always differ)."""
    s.saving.tab = token
    return s


def match_token(s: "UIState") -> str:
    """The token of a match the page starts now: this tab's token and the flow's generation, so
    every match the player starts, whatever its seed, counts under keys of its own (``ui/features/record.py``)."""
    return s.saving.tab + "." + str(s.link.gen)


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


def save_slot(s: "UIState") -> str:
    """Where the queued autosave goes now: ``lesson`` (a lesson's slot), ``daily`` (the daily deal's
    slot), ``match`` (the match's save) or "" (nothing to save, or another tab has the game meanwhile)."""
    if s.table.state is None:
        return ""
    if s.lesson.on is not None:
        return "lesson"
    if s.day.on_table:
        return "daily"
    return "" if s.saving.elsewhere else "match"


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
