"""The hand review and the coach: transitions ``(UIState, event) -> (UIState, effects)`` (pure).

After a hand (``hand_over`` or ``match_over``) the coach values seat 0's decisions one engine
request at a time (``coach`` op, :class:`ui.effects.Background`: never in the way of the player's
own requests), and the summary says what it found. "Review hand" asks the engine for the hand
trick by trick (``review`` op) and shows trick 1; back/forward (buttons, swipe, arrow keys) and the
trick numbers move through it. Whatever belongs to a state that is no longer the table's is dropped:
the player moved on. Only the trick shown is saved (``review_trick``), so a reload resumes the
review from the engine's own answer.
"""

from ui import effects as fx
from ui import texts
from ui.i18n import _
from ui.review_state import ReviewState

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from typing import Any

    from ui.effects import Effect
    from ui.state import UIState

    Result = tuple[UIState, list[Effect]]

TRICKS = 13
#: A horizontal pointer move of at least this many CSS pixels on the review is a swipe.
SWIPE_PX = 40


def hand_is_over(s: "UIState") -> bool:
    return s.view is not None and s.view["phase"] in ("hand_over", "match_over")


def current(s: "UIState") -> ReviewState:
    """The review of the table's state; a fresh one once the table has moved on."""
    r = s.review
    if r.state != s.state:
        trick = r.trick if r.state is None else 0  # (a resumed save: its trick, for this state)
        r = ReviewState()
        r.state = s.state
        r.trick = trick
        s.review = r
    return r


def of_table(s: "UIState") -> ReviewState:
    """The review of the table's state for drawing (pure): an empty one when it is of another state."""
    r = s.review
    return r if r.state in (None, s.state) else ReviewState()


def after_hand(s: "UIState") -> "list[Effect]":
    """What the flow asks once the hand is over: the review's data when it is open (a reload on the
    review) and the coach's first request."""
    if not hand_is_over(s) or s.state is None:
        return []
    r = current(s)
    out = []  # type: list[Effect]
    if r.trick and r.data is None:
        out.append(fx.Call("review", {"state": s.state}, "reviewed"))
    out.extend(_coach_next(r))
    return out


def _coach_next(r: ReviewState) -> "list[Effect]":
    done = len(r.analyses)
    if r.running or (r.count is not None and done >= r.count) or r.state is None:
        return []
    r.running = True
    return [fx.Background(fx.Call("coach", {"state": r.state, "index": done}, "coached", measure="coach"))]


def coached(s: "UIState", analysis: "dict[str, Any]", sent: "str | None" = None) -> "Result":
    """One decision valued: kept, and the next one asked for (dropped once the table moved on)."""
    r = s.review
    if sent is None or r.state != sent or s.state != sent:
        return s, []
    r.running = False
    if analysis.get("index") != len(r.analyses):
        return s, []
    r.analyses.append(analysis)
    r.count = analysis.get("count")
    return s, _coach_next(r)


def coach_failed(s: "UIState") -> None:
    """The engine could not value a decision: the coach stops for this hand (the rest goes on)."""
    s.review.running = False
    s.review.count = len(s.review.analyses)


def open_review(s: "UIState") -> "Result":
    """ "Review hand": trick 1 of the finished hand (its data asked for once)."""
    if not hand_is_over(s):
        return s, []
    r = current(s)
    r.trick = 1
    effects = [fx.Save()]  # type: list[Effect]
    if r.data is None:
        effects.append(fx.Call("review", {"state": s.state}, "reviewed"))
    return s, effects


def reviewed(s: "UIState", data: "dict[str, Any]", sent: "str | None" = None) -> "Result":
    """The engine's hand trick by trick (dropped once the table moved on)."""
    r = s.review
    if sent is None or r.state != sent or s.state != sent:
        return s, []
    r.data = data
    return s, []


def go(s: "UIState", trick: int) -> "Result":
    """Show trick ``trick`` (kept within 1-13)."""
    r = s.review
    if not r.trick or r.state != s.state:
        return s, []
    trick = max(1, min(TRICKS, trick))
    if trick == r.trick:
        return s, []
    r.trick = trick
    effects = [fx.Save()]  # type: list[Effect]
    if r.data is not None:
        effects.append(fx.Announce(trick_text(r.data, trick)))
    return s, effects


def trick_text(data: "dict[str, Any]", trick: int) -> str:
    """What screen readers hear of a trick of the review: its cards in play order and its winner."""
    t = data["tricks"][trick - 1]
    plays = ", ".join(texts.played_text(p["seat"], p["card"]) for p in t["plays"])
    return _("Trick {n}: {plays}; won by {winner}").format(
        n=trick, plays=plays, winner=texts.seat_name(t["winner"])
    )


def step(s: "UIState", by: int) -> "Result":
    return go(s, s.review.trick + by)


def close(s: "UIState") -> "Result":
    """Back to the summary."""
    if not s.review.trick:
        return s, []
    s.review.trick = 0
    return s, [fx.Save()]


def on_action(s: "UIState", name: str) -> "Result | None":
    """The review's buttons (``data-action``); None for any other action."""
    if name == "review-hand":
        return open_review(s)
    if name == "review-prev":
        return step(s, -1)
    if name == "review-next":
        return step(s, 1)
    if name == "review-close":
        return close(s)
    if name.startswith("review-go-"):
        number = name[len("review-go-") :]
        return go(s, int(number)) if number.isdigit() else (s, [])
    return None


def on_key(s: "UIState", key: str) -> "Result | None":
    """Arrow keys move through an open review, Escape closes it; None when the review is not open."""
    if not s.review.trick or not hand_is_over(s):
        return None
    if key in ("ArrowLeft", "ArrowUp"):
        return step(s, -1)
    if key in ("ArrowRight", "ArrowDown"):
        return step(s, 1)
    if key == "Home":
        return go(s, 1)
    if key == "End":
        return go(s, TRICKS)
    if key == "Escape":
        return close(s)
    return None


def pointer_down(s: "UIState", x: float) -> None:
    s.review.swipe_x = x if s.review.trick else None


def pointer_up(s: "UIState", x: float) -> "Result":
    """A swipe on the review: right to left shows the next trick, left to right the one before."""
    start = s.review.swipe_x
    s.review.swipe_x = None
    if start is None or abs(x - start) < SWIPE_PX:
        return s, []
    return step(s, 1 if x < start else -1)


def verdict(r: ReviewState) -> "tuple[int, int, bool]":
    """``(costly plays, their expected cost, analysis complete)`` so far."""
    costly = [a for a in r.analyses if a.get("costly")]
    cost = 0
    for a in costly:
        cost += a.get("cost", 0)
    return len(costly), cost, r.count is not None and len(r.analyses) >= r.count
