"""What a transition asks the effect runner (``ui/runner.py``) to do, as plain data.

Pure Python (MicroPython and CPython): the runner runs each effect in order; the tests of the flows
read them. What comes back (an engine answer, what storage holds) goes to the transition the effect
names (:attr:`Call.then` and the like).
"""

from gongzhu.vocab import GOAT, PIG, TRANSFORMER

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from collections.abc import Callable
    from typing import Any

    from ui.core.state import UIState
    from ui.core.words import Message

    Result = tuple[UIState, list["Effect"]]
    #: A transition that takes an engine answer: (UI state, the answer, the engine state sent).
    Then = Callable[[UIState, Any, "str | None"], Result]
    #: A transition that takes why the engine refused a request (its error text).
    Failed = Callable[[UIState, str], Result]
    #: A transition that takes no more than the UI state (a step that follows another).
    Next = Callable[[UIState], Result]


class Effect:
    """What a transition asks the shell to do (the base of every effect)."""


class Call(Effect):
    """Send ``op`` with ``args`` to the engine worker; the answer goes to the transition ``then``."""

    def __init__(
        self,
        op: str,
        args: "dict[str, Any]",
        then: "Then",
        pace: int = -1,
        measure: str = "",
        failed: "Failed | None" = None,
    ) -> None:
        self.op = op  # the worker op: step, bots_expose, bot_step, hint, new_match, check
        self.args = args  # its arguments (the engine state among them, as sent)
        self.then = then  # the transition that takes (UI state, answer, the engine state sent)
        self.pace = pace  # the answer takes at least this part of the pace (0: an opponent's card), or -1
        self.measure = measure  # a gongzhu:<measure> performance measure of the wait (benches), or ""
        self.failed = failed  # the transition that takes the engine's refusal, or None: a request failed

    def __repr__(self) -> str:
        return "Call(" + self.op + " -> " + self.then.__name__ + ")"


class Connect(Effect):
    """Start the engine worker and wait until it answers (the page's start); then the transition
    ``then``. An engine that cannot start fails the start (the loading watchdog says so)."""

    def __init__(self, then: "Next") -> None:
        self.then = then  # the transition that takes the UI state once the engine answers

    def __repr__(self) -> str:
        return "Connect(-> " + self.then.__name__ + ")"


class Save(Effect):
    """Autosave the match (soon, in a task of its own)."""

    def __repr__(self) -> str:
        return "Save()"


class SaveSettings(Effect):
    """Save the settings (level, four-colour deck)."""

    def __repr__(self) -> str:
        return "SaveSettings()"


class Announce(Effect):
    """Read ``message`` out to screen readers (the live log), worded by the view."""

    def __init__(self, message: "Message") -> None:
        self.message = message  # what is said: a message of ui/core/words.py

    def __repr__(self) -> str:
        return "Announce(" + repr(self.message) + ")"


class Toast(Effect):
    """Show the signal card ``card`` in a toast for a moment."""

    def __init__(self, card: str) -> None:
        self.card = card  # QS, JD or TC

    def __repr__(self) -> str:
        return "Toast(" + self.card + ")"


#: The sound each signal card makes when it is played (``ui.features.sound.SOUNDS`` plays them).
SIGNAL_SOUNDS = {PIG: "pig", GOAT: "goat", TRANSFORMER: "transformer"}


class Sound(Effect):
    """Play the sound ``kind`` (one of ``ui.features.sound.SOUNDS``), when the player turned sound on."""

    def __init__(self, kind: str) -> None:
        self.kind = kind  # card, trick, pig, goat or transformer

    def __repr__(self) -> str:
        return "Sound(" + self.kind + ")"


class Deal(Effect):
    """The hand ``hand`` was just dealt: its cards arrive in sequence, then ``flow.dealt`` ends it."""

    def __init__(self, hand: int) -> None:
        self.hand = hand  # the hand number

    def __repr__(self) -> str:
        return "Deal(" + str(self.hand) + ")"


class Fly(Effect):
    """The card ``card`` flies in to the trick; once its flight is over ``flow.landed`` ends it."""

    def __init__(self, card: str) -> None:
        self.card = card  # the card played

    def __repr__(self) -> str:
        return "Fly(" + self.card + ")"


class HandOver(Effect):
    """The table's hand just ended: the review keeps it (``review.kept``)."""

    def __repr__(self) -> str:
        return "HandOver()"


class AfterHand(Effect):
    """Play waits on the hand's end: the review's requests go on (``review.after_hand``)."""

    def __repr__(self) -> str:
        return "AfterHand()"


class Replay(Effect):
    """Carry out the next input kept while the engine was starting or checking the table
    (``actions.replay``)."""

    def __repr__(self) -> str:
        return "Replay()"


class Drive(Effect):
    """Run the computer opponents until the player has something to do (``flow.next_step``)."""

    def __repr__(self) -> str:
        return "Drive()"


class NewMatch(Effect):
    """Deal a new match (``seed`` None: a random one): ``ui.core.match.start_match``."""

    def __init__(self, seed: "int | None" = None, then: "Then | None" = None) -> None:
        self.seed = seed  # the deal, or None
        self.then = then  # the transition that takes the dealt match, or None: the match starts

    def __repr__(self) -> str:
        return "NewMatch(" + str(self.seed) + ")"


class Background(Effect):
    """Run ``call`` in a task of its own: the flow goes on without waiting for it (the coach)."""

    def __init__(self, call: Call) -> None:
        self.call = call  # the engine request; its answer goes to ``call.then`` as usual

    def __repr__(self) -> str:
        return "Background(" + repr(self.call) + ")"


class KeepReview(Effect):
    """Store finished hand ``hand`` for review: its engine state and the coach's analyses so far
    (``ui/features/review_store.py``; not for the daily deal)."""

    def __init__(self, hand: int, state: str, analyses: "list[dict[str, Any]]") -> None:
        self.hand = hand  # the hand's number in the match
        self.state = state  # its engine state (the hand over)
        self.analyses = analyses  # the coach's analyses of it so far

    def __repr__(self) -> str:
        return "KeepReview(" + str(self.hand) + ")"


class CheckReviews(Effect):
    """Read the stored reviews and have the engine check them against the match ``table``, in the
    background (``check_reviews`` op; the answer goes to ``review.reviews_checked``)."""

    def __init__(self, table: str) -> None:
        self.table = table  # the table's engine state (the match over)

    def __repr__(self) -> str:
        return "CheckReviews()"


class StoreReviews(Effect):
    """Store the reviews the engine checked in place of those read (``set_aside`` of them refused:
    the text read is kept aside first)."""

    def __init__(self, hands: "list[dict[str, Any]]", set_aside: int) -> None:
        self.hands = hands  # the engine's answer: {hand_number, scores, state, analyses}
        self.set_aside = set_aside  # how many stored reviews the engine refused

    def __repr__(self) -> str:
        return "StoreReviews(" + str(len(self.hands)) + ", " + str(self.set_aside) + ")"


class CountHand(Effect):
    """Count the finished hand (and match) of the table in the player's record (``ui/features/record.py``)."""

    def __repr__(self) -> str:
        return "CountHand()"


class CountDaily(Effect):
    """Record the result of the daily deal of ``date`` on the table (once per date)."""

    def __init__(self, date: str) -> None:
        self.date = date  # the daily deal's date, YYYY-MM-DD

    def __repr__(self) -> str:
        return "CountDaily(" + self.date + ")"


class ReadRecord(Effect):
    """Read the player's record from storage; ``then`` takes (UI state, record, problem, today), by
    default ``record_flow.record_read`` (the statistics panel shows it)."""

    def __init__(self, then: "Callable[[UIState, Any, str | None, str], Result] | None" = None) -> None:
        self.then = then  # the transition that takes the record read, or None: record_read

    def __repr__(self) -> str:
        return "ReadRecord()"


class ReadSave(Effect):
    """Read the match's save from storage; ``then`` takes (UI state, the save's fields or None, the
    problem or None) (``store.load``: shape-checked)."""

    def __init__(self, then: "Callable[[UIState, dict[str, Any] | None, str | None], Result]") -> None:
        self.then = then  # the transition that takes the save read

    def __repr__(self) -> str:
        return "ReadSave()"


class ReadDailySlot(Effect):
    """Read the saved daily hand of ``date``; ``then`` takes (UI state, its fields or None)."""

    def __init__(self, date: str, then: "Callable[[UIState, dict[str, Any] | None], Result]") -> None:
        self.date = date  # the daily deal's date
        self.then = then  # the transition that takes the slot read

    def __repr__(self) -> str:
        return "ReadDailySlot(" + self.date + ")"


class SetAsideSave(Effect):
    """The engine refused the saved match: keep the text stored (or ``fallback``) aside, never lost."""

    def __init__(self, fallback: str) -> None:
        self.fallback = fallback  # the table's save, when storage holds none

    def __repr__(self) -> str:
        return "SetAsideSave()"


class Restart(Effect):
    """Replace the dead engine worker by a new one; then ``then`` (or ``failed`` with why not)."""

    def __init__(self, then: "Next", failed: "Failed") -> None:
        self.then = then  # the transition once the new worker is up
        self.failed = failed  # the transition when it could not be started

    def __repr__(self) -> str:
        return "Restart()"


class Warn(Effect):
    """Say ``text`` in the browser's console (for whoever debugs; the player is told otherwise)."""

    def __init__(self, text: str) -> None:
        self.text = text  # what is logged

    def __repr__(self) -> str:
        return "Warn(" + self.text + ")"


class Mark(Effect):
    """A ``gongzhu:<name>`` performance mark (the tests and benches time the page by them)."""

    def __init__(self, name: str) -> None:
        self.name = name  # the mark's name

    def __repr__(self) -> str:
        return "Mark(" + self.name + ")"


class ImportRest(Effect):
    """Import the UI modules the table did not need, a few at a time (``ui/core/later.py``)."""

    def __repr__(self) -> str:
        return "ImportRest()"


class ResetRecord(Effect):
    """Set the statistics back to zero (confirmed by the player)."""

    def __repr__(self) -> str:
        return "ResetRecord()"


class OpenDaily(Effect):
    """Open the daily deal of ``date`` (its result when already played, unless ``practice``):
    ``daily_flow.open_daily`` with today's date."""

    def __init__(self, practice: bool = False, date: str = "") -> None:
        self.practice = practice  # replay the deal for practice (not recorded)
        self.date = date  # YYYY-MM-DD, or "": the one opened last, else today's

    def __repr__(self) -> str:
        return "OpenDaily(" + str(self.practice) + ")"


class LeaveDaily(Effect):
    """Back from the daily deal to the match (its save): ``daily_flow.leave``."""

    def __repr__(self) -> str:
        return "LeaveDaily()"


class Share(Effect):
    """Share ``message`` (the daily deal's result), worded by the view: the Web Share API, else the
    clipboard, else the text shown; ``daily_flow.shared`` takes the outcome."""

    def __init__(self, message: "Message") -> None:
        self.message = message  # what is shared: a message of ui/core/words.py

    def __repr__(self) -> str:
        return "Share()"


class Export(Effect):
    """Save the player's data (statistics and the saved match) as a file."""

    def __repr__(self) -> str:
        return "Export()"


class Import(Effect):
    """Let the player pick a file of data; ``transfer_flow.picked`` takes its text (None: cancelled)."""

    def __repr__(self) -> str:
        return "Import()"


class ApplyImport(Effect):
    """Write the offered file's statistics and match (the player said yes); ``transfer_flow.written``
    takes whether storage took both."""

    def __init__(self, offer: "Any" = None) -> None:
        self.offer = offer  # the ImportOffer to write (ui/features/transfer.py)

    def __repr__(self) -> str:
        return "ApplyImport()"


class LessonStep(Effect):
    """Ask the engine where the lesson on the table stands (``lessons.step``): its next step, or
    its verdict once its moment is over."""

    def __repr__(self) -> str:
        return "LessonStep()"


class LessonsAtStart(Effect):
    """The start: the lessons' progress and a lesson in progress read from storage
    (``lessons.at_start``): the lesson resumes, or the first visit's offer is up; then play goes on."""

    def __repr__(self) -> str:
        return "LessonsAtStart()"


class SaveLessons(Effect):
    """Write the lessons' progress (and drop the lesson slot when no lesson is on the table)."""

    def __repr__(self) -> str:
        return "SaveLessons()"
