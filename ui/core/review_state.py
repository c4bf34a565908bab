"""The hand review's part of the UI state: the finished hand shown trick by trick, the coach, and
the match's earlier hands kept reviewable.

Pure Python (MicroPython and CPython). One :class:`ReviewState` lives in ``UIState.review`` and one
:class:`StoredHands` in ``UIState.stored``; ``ui/features/review.py`` changes them, ``ui/view/review_html.py``
draws them. A review is dropped when the table's engine state it belongs to (``state``) is no longer
the table's: the player moved on.
"""

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from typing import Any

    from ui.core.words import Message  # noqa: F401  (in type comments)

    #: An engine answer as JSON data (the review of a hand, one analysis of the coach).
    Data = dict[str, Any]


class ReviewState:
    """The review and the coach's analysis of one finished hand. One field a line."""

    __slots__ = (
        "analyses",
        "count",
        "data",
        "hand",
        "hand_state",
        "part",
        "running",
        "state",
        "swipe_x",
        "trick",
    )

    def __init__(self) -> None:
        self.state = None  # type: str | None  # the table's engine state this review belongs to
        self.hand = 0  # type: int  # the earlier hand reviewed (its number); 0: the table's own finished hand
        self.hand_state = None  # type: str | None  # that earlier hand's engine state (engine-checked), None until known
        self.data = None  # type: Data | None  # the hand trick by trick (engine ``review`` op)
        self.trick = 0  # type: int  # the trick shown, 1-13; 0 while the review is closed (saved)
        self.analyses = []  # type: list[Data]  # the coach's analyses so far, decision order
        self.count = None  # type: int | None  # how many decisions the coach values (None: not known yet)
        self.part = None  # type: Data | None  # the coach's sums so far for the next decision (sent back with its next step)
        self.running = False  # type: bool  # the coach's next request is with the engine
        self.swipe_x = None  # type: float | None  # where a pointer went down on the review (a swipe)

    def reviewed(self) -> "str | None":
        """The engine state of the hand reviewed (the one the ``review`` and ``coach`` ops get)."""
        return self.hand_state if self.hand else self.state


class StoredHands:
    """The match's earlier hands, as the engine checked them from storage (``check_reviews`` op)."""

    __slots__ = ("asked", "hands", "note", "table")

    def __init__(self) -> None:
        self.table = None  # type: str | None  # the table's engine state they were checked for (None: not checked)
        self.asked = None  # type: str | None  # the table state a check is out for
        self.hands = []  # type: list[Data]  # the engine's answer: {hand_number, scores, state, analyses}, by number
        self.note = None  # type: Message | None  # the notice when stored reviews were set aside, or None
