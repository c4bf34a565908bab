"""The hand review's part of the UI state: the finished hand shown trick by trick, and the coach.

Pure Python (MicroPython and CPython). One instance lives in ``UIState.review``; ``ui/review.py``
changes it, ``ui/review_html.py`` draws it. Everything in it is dropped when the engine state it
is of (``state``) is no longer the table's: the player moved on.
"""

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from typing import Any

    #: An engine answer as JSON data (the review of a hand, one analysis of the coach).
    Data = dict[str, Any]


class ReviewState:
    """The review and the coach's analysis of one finished hand. One field a line."""

    def __init__(self) -> None:
        self.state = None  # type: str | None  # the engine state (a finished hand) all this is of
        self.data = None  # type: Data | None  # the hand trick by trick (engine ``review`` op)
        self.trick = 0  # type: int  # the trick shown, 1-13; 0 while the review is closed (saved)
        self.analyses = []  # type: list[Data]  # the coach's analyses so far, decision order
        self.count = None  # type: int | None  # how many decisions the coach values (None: not known yet)
        self.running = False  # type: bool  # the coach's next request is with the engine
        self.swipe_x = None  # type: float | None  # where a pointer went down on the review (a swipe)
