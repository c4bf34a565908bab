"""The UI state: everything the page knows besides the engine's own state, declared in typed parts.

Pure Python (MicroPython and CPython). ``ui/core/flow.py`` changes it (transitions), ``ui/view/render.py``
draws from it, ``ui/shell/app.py`` (the shell) holds the one instance. The engine state itself is
opaque text; the table is drawn from ``table.view``, seat 0's table view as the engine sent it.

:class:`UIState` holds one part per concern, each a small class with a comment per field: the
table (:class:`TableState`), the engine link (:class:`EngineLink`), the settings
(``ui/core/settings.py``), what the page says and shows (:class:`Screen`), what is moving
(:class:`Motion`), the saves (:class:`Saving`), the player's record (:class:`RecordState`), the daily
deal (:class:`DailyState`), the guided lessons (:class:`LessonState`), the hand review and the match's earlier hands
(``ui/core/review_state.py``).
"""

from gongzhu.vocab import DEFAULT_LEVEL
from ui.core.review_state import ReviewState, StoredHands
from ui.core.settings import Settings

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from typing import Any

    # Seat 0's table view, as the engine sends it (``gongzhu.table_view.table_view(state, 0)``;
    # docs/game-ui.md, "The view"): what the table shows, the UI derives nothing. The engine's
    # declaration, the one there is.
    from gongzhu.table_view import TableView
    from ui.core.words import Message  # noqa: F401  (in type comments)
    from ui.features.record import Record  # noqa: F401  (in type comments)
    from ui.features.transfer import ImportOffer  # noqa: F401  (in type comments)

    #: A refusal as the engine sends it (``{reason, card?, suit?}``), or None: allowed.
    Refusal = dict[str, Any] | None

    #: Seat 0's table view (the one name the UI uses for it).
    View = TableView


class TableState:
    """The match on the table (its fields in :data:`SAVED` are saved with it, ``ui/core/store.py``)."""

    __slots__ = (
        "bots_exposed",
        "checked",
        "expose_sel",
        "focus",
        "hand_level",
        "hold",
        "match_token",
        "selected",
        "speed",
        "state",
        "view",
    )  # fmt: skip

    #: The fields saved with the match beside ``state`` and ``view``, so that a reload resumes exactly
    #: where the player was (no text: the standing notice is made again from the view).
    SAVED = ("hand_level", "bots_exposed", "hold", "speed", "selected", "expose_sel", "match_token")

    def __init__(self) -> None:
        self.state = None  # type: str | None  # the engine state: opaque JSON text, sent back with every request
        self.view = None  # type: View | None  # seat 0's table view (the engine's, or a shape-checked save's until it answers)
        self.checked = False  # type: bool  # the view on the table is the engine's (False: a save drawn before its check)
        self.hand_level = DEFAULT_LEVEL  # type: str  # the difficulty of the hand in play
        self.bots_exposed = False  # type: bool  # the opponents have sent their expose decisions this hand
        self.hold = False  # type: bool  # a completed trick stays on show before play goes on
        self.speed = False  # type: bool  # Speed up was pressed this hand
        self.selected = None  # type: str | None  # the hand card selected to be played, or None
        self.expose_sel = []  # type: list[str]  # the cards chosen to be exposed
        self.focus = None  # type: str | None  # the hand card the arrow keys moved to
        self.match_token = ""  # type: str  # names the match on the table in the record's keys: new for every match started (ui/features/record.py)


class EngineLink:
    """The link to the engine worker and the flow of requests through it."""

    __slots__ = (
        "ask_seed",
        "busy",
        "coach",
        "driving",
        "engine_note",
        "engine_ready",
        "failed",
        "fast",
        "gen",
        "inputs",
        "queued",
        "recovering",
        "seed_chosen",
    )  # fmt: skip

    def __init__(self) -> None:
        self.busy = False  # type: bool  # a request for the player is with the engine
        self.inputs = 0  # type: int  # inputs received whose handling has not started (ui/shell/app.py): the page is busy
        self.fast = False  # type: bool  # ?fast=1: the opponents play at once (tests)
        self.coach = True  # type: bool  # the coach values each finished hand; ?coach=0: it stays idle (tests not about it)
        self.engine_ready = False  # type: bool  # the engine worker has answered
        self.queued = []  # type: list[tuple[str, str]]  # taps and presses made before the engine answered, in order: ("tap", card) or ("action", name)
        self.gen = 0  # type: int  # bumped to stop any flow in progress (new match, engine restart, other tab)
        self.driving = None  # type: int | None  # the generation whose opponents are being run, or None
        self.recovering = False  # type: bool  # a dead engine worker is being replaced
        self.ask_seed = None  # type: int | None  # a ?seed= link waits for "start it or resume?": its seed
        self.seed_chosen = None  # type: int | None  # that link's deal, chosen before the engine answered: the start deals it
        self.failed = ""  # type: str  # why the game could not start, or ""
        self.engine_note = None  # type: Message | None  # the engine restarted (or could not be)


class Screen:
    """What the page says and which of its panels is open."""

    __slots__ = (
        "alert",
        "loading_text",
        "message",
        "notice",
        "notice_said",
        "panel",
        "progress",
        "sheet",
        "turn_said",
    )  # fmt: skip

    def __init__(self) -> None:
        self.notice = None  # type: Message | None  # the hand's standing notice (no card to expose, who exposed what)
        self.notice_said = None  # type: Message | None  # the last notice read out to screen readers
        self.message = None  # type: Message | None  # a passing message (a refusal, a hint), replaced by the next step
        self.alert = None  # type: Message | None  # start-up notices (a save set aside, a bad deal link), until the next tap
        self.turn_said = None  # type: str | None  # the engine state at which "Your turn" was last read out
        self.panel = None  # type: str | None  # the open panel: "captured", "last-trick" or None
        self.sheet = False  # type: bool  # the settings sheet (the menu, opened by ☰) is open
        self.loading_text = None  # type: Message | None  # the loading screen's line
        self.progress = 10  # type: int  # the loading bar, in percent


class Motion:
    """What is moving on the table (the page reads as busy until it has stopped)."""

    __slots__ = ("collecting", "dealing", "flying", "fresh_card", "thinking", "toast", "toast_token")

    def __init__(self) -> None:
        self.toast = None  # type: str | None  # the signal card (pig, goat, transformer) in a toast, or None
        self.toast_token = 0  # type: float  # which toast a pending clear is for
        self.fresh_card = None  # type: str | None  # the card just played (it slides in)
        self.flying = None  # type: str | None  # that card while its slide is not over (the page is busy), or None
        self.collecting = None  # type: int | None  # the seat a finished trick sweeps to, or None
        self.thinking = None  # type: int | None  # the opponent whose card the engine is choosing, or None
        self.dealing = None  # type: int | None  # the hand just dealt, its cards arriving in sequence, or None


class Saving:
    """The saves in storage (``ui/core/store.py``) and the other tabs."""

    __slots__ = ("elsewhere", "save_blocked", "save_pending", "tab", "unsaved")

    def __init__(self) -> None:
        self.unsaved = False  # type: bool  # storage refused a write: the game plays on unsaved
        self.save_pending = False  # type: bool  # an autosave is queued
        self.save_blocked = False  # type: bool  # a refused save holds the slot (never written over)
        self.elsewhere = False  # type: bool  # another tab has the game: this one follows and does not save
        self.tab = ""  # type: str  # this tab's token, in its saves (two tabs' saves always differ)


class RecordState:
    """The player's record (``ui/features/record.py``; stored apart from the match) and its panel."""

    __slots__ = ("confirm_reset", "import_offer", "note", "record", "today")

    def __init__(self) -> None:
        self.record = None  # type: Record | None  # the statistics as last read from storage (None: not read yet)
        self.note = None  # type: Message | None  # why the stored statistics were set aside, or None
        self.today = ""  # type: str  # today's date (UTC, YYYY-MM-DD) as the record was read: later daily results are not shown
        self.confirm_reset = False  # type: bool  # "Reset statistics" waits for its confirmation
        self.import_offer = None  # type: ImportOffer | None  # a checked import file waiting for the player's yes (ui/features/transfer.py)


class DailyState:
    """The daily deal (``ui/features/daily.py``; saved in a slot of its own)."""

    __slots__ = ("date", "on_table", "practice", "result")

    def __init__(self) -> None:
        self.on_table = None  # type: str | None  # the date (YYYY-MM-DD) of the daily deal on the table, or None: the match
        self.practice = False  # type: bool  # the daily deal on the table is a replay for practice (not recorded)
        self.date = ""  # type: str  # the date of the daily deal opened last
        self.result = None  # type: dict[str, Any] | None  # that date's recorded result {score, place, codes}, or None


class LessonState:
    """The guided lessons (``ui/features/lessons.py``; a lesson's table is saved in a slot of its own,
    the progress apart: the match and its save are never touched)."""

    __slots__ = ("asked", "done", "guide", "offer", "on", "outcome", "passed", "said", "step", "until")

    def __init__(self) -> None:
        self.on = None  # type: int | None  # the lesson on the table (1 to 7), or None: the match
        self.until = 13  # type: int  # the tricks played when the lesson on the table is judged (the engine's)
        self.step = None  # type: str | None  # the step the lesson is at, as the engine names it (words: ui/view/lessons_html.py)
        self.guide = None  # type: str | None  # the card the lesson asks the player for now, or None
        self.asked = None  # type: str | None  # the engine state the lesson's step was last asked for (once per state)
        self.said = None  # type: str | None  # the step last read out, with the engine state it was read at
        self.outcome = None  # type: str | None  # the engine's verdict on the lesson's moment (its code), or None: not judged yet
        self.passed = False  # type: bool  # that verdict is the lesson's way
        self.done = []  # type: list[int]  # the lessons the player has done (from storage)
        self.offer = False  # type: bool  # the first visit's offer ("Learn to play · Play now") is up


class UIState:
    """The page's state: its parts, one a line."""

    __slots__ = (
        "day",
        "lesson",
        "link",
        "motion",
        "review",
        "saving",
        "screen",
        "settings",
        "stats",
        "stored",
        "table",
    )

    def __init__(self) -> None:
        self.table = TableState()  # type: TableState  # the match on the table (saved with it)
        self.link = EngineLink()  # type: EngineLink  # the engine worker's link and the requests' flow
        self.settings = Settings()  # type: Settings  # the player's settings (saved apart, ui/core/settings.py)
        self.screen = Screen()  # type: Screen  # what the page says, the panel or sheet open, the loading bar
        self.motion = Motion()  # type: Motion  # what is moving: the deal, a card flying in, the sweep, a toast
        self.saving = Saving()  # type: Saving  # storage and the other tabs
        self.stats = RecordState()  # type: RecordState  # the player's record and its panel
        self.day = DailyState()  # type: DailyState  # the daily deal
        self.lesson = LessonState()  # type: LessonState  # the guided lessons (ui/features/lessons.py)
        self.review = ReviewState()  # type: ReviewState  # the finished hand's review and coach (ui/features/review.py)
        self.stored = StoredHands()  # type: StoredHands  # the match's earlier hands kept reviewable, engine-checked
