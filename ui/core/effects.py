"""What a transition of ``ui/core/flow.py`` asks the shell (``ui/shell/app.py``) to do, as plain data.

Pure Python (MicroPython and CPython): the shell runs each effect in order; the tests of the flow
read them. An engine answer comes back into the flow by :attr:`Call.then`, the transition itself.
"""

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from collections.abc import Callable
    from typing import Any

    from ui.core.state import UIState

    #: A transition that takes an engine answer: (UI state, the answer, the engine state sent).
    Then = Callable[[UIState, Any, "str | None"], "tuple[UIState, list[Effect]]"]


class Effect:
    """What a transition asks the shell to do (the base of every effect)."""


class Call(Effect):
    """Send ``op`` with ``args`` to the engine worker; the answer goes to the transition ``then``."""

    def __init__(
        self, op: str, args: "dict[str, Any]", then: "Then", pace: int = -1, measure: str = ""
    ) -> None:
        self.op = op  # the worker op: step, bots_expose, bot_step, hint, new_match, check
        self.args = args  # its arguments (the engine state among them, as sent)
        self.then = then  # the transition that takes (UI state, answer, the engine state sent)
        self.pace = pace  # the answer takes at least this part of the pace (0: an opponent's card), or -1
        self.measure = measure  # a gongzhu:<measure> performance measure of the wait (benches), or ""

    def __repr__(self) -> str:
        return "Call(" + self.op + " -> " + self.then.__name__ + ")"


class Save(Effect):
    """Autosave the match (soon, in a task of its own)."""

    def __repr__(self) -> str:
        return "Save()"


class SaveSettings(Effect):
    """Save the settings (level, four-colour deck)."""

    def __repr__(self) -> str:
        return "SaveSettings()"


class Announce(Effect):
    """Read ``text`` out to screen readers (the live log)."""

    def __init__(self, text: str) -> None:
        self.text = text  # what is said

    def __repr__(self) -> str:
        return "Announce(" + self.text + ")"


class Toast(Effect):
    """Show the signal card ``card`` in a toast for a moment."""

    def __init__(self, card: str) -> None:
        self.card = card  # QS, JD or TC

    def __repr__(self) -> str:
        return "Toast(" + self.card + ")"


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


class Replay(Effect):
    """Carry out the next input kept while the engine was starting (``flow.replay``)."""

    def __repr__(self) -> str:
        return "Replay()"


class Drive(Effect):
    """Run the computer opponents until the player has something to do (``flow.next_step``)."""

    def __repr__(self) -> str:
        return "Drive()"


class NewMatch(Effect):
    """Deal a new match (``seed`` None: a random one)."""

    def __init__(self, seed: "int | None" = None) -> None:
        self.seed = seed  # the deal, or None

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


class ReadRecord(Effect):
    """Read the player's record from storage (the statistics panel shows it)."""

    def __repr__(self) -> str:
        return "ReadRecord()"


class ResetRecord(Effect):
    """Set the statistics back to zero (confirmed by the player)."""

    def __repr__(self) -> str:
        return "ResetRecord()"


class OpenDaily(Effect):
    """Open the daily deal (its result when already played, unless ``practice``)."""

    def __init__(self, practice: bool = False) -> None:
        self.practice = practice  # replay the deal for practice (not recorded)

    def __repr__(self) -> str:
        return "OpenDaily(" + str(self.practice) + ")"


class LeaveDaily(Effect):
    """Back from the daily deal to the match (its save)."""

    def __repr__(self) -> str:
        return "LeaveDaily()"


class Share(Effect):
    """Share the daily deal's result (Web Share API, else the clipboard)."""

    def __repr__(self) -> str:
        return "Share()"


class Export(Effect):
    """Save the player's data (statistics and the saved match) as a file."""

    def __repr__(self) -> str:
        return "Export()"


class Import(Effect):
    """Let the player pick a file of data and check it whole; a good one is offered (``UIState.stats.import_offer``)."""

    def __repr__(self) -> str:
        return "Import()"


class ApplyImport(Effect):
    """Replace the player's data by the offered file's (the player said yes)."""

    def __repr__(self) -> str:
        return "ApplyImport()"
