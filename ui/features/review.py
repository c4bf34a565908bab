"""The hand review and the coach: transitions ``(UIState, event) -> (UIState, effects)`` (pure).

After a hand (``hand_over`` or ``match_over``) the coach values seat 0's decisions one small
engine step at a time (``coach`` op, :class:`ui.core.effects.Background`: the flow never waits for it,
and a player's request goes to the worker at once, behind at most the one step in flight), and the
summary says what it found. "Review hand" asks the engine for the hand trick by trick (``review``
op) and shows trick 1; back/forward (buttons, swipe, arrow keys) and the trick numbers move through
it. Whatever belongs to a state that is no longer the table's is dropped: the player moved on.

Each finished hand is stored with the coach's analyses (:class:`ui.core.effects.KeepReview`,
``ui/features/review_store.py``: the match's last hands); the match result asks the engine to check them
(``check_reviews``) and offers the ones it returns ("Hand N", ``review-hand-N``). Only the trick
shown and the hand's number are saved with the match (``review_trick``, ``review_hand``), so a
reload resumes the review from the engine's own answer.
"""

from gongzhu.vocab import HAND_ENDS
from ui.core import effects as fx
from ui.core.review_state import ReviewState
from ui.core.words import composed, said

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from typing import Any

    from ui.core.effects import Effect
    from ui.core.state import UIState
    from ui.core.words import Message

    Result = tuple[UIState, list[Effect]]

TRICKS = 13
#: A horizontal pointer move of at least this many CSS pixels on the review is a swipe.
SWIPE_PX = 40


def hand_is_over(s: "UIState") -> bool:
    return s.table.view is not None and s.table.view["phase"] in HAND_ENDS


def _stored(s: "UIState", hand: int) -> "dict[str, Any] | None":
    """The engine-checked stored review of hand ``hand`` of the table's match, or None."""
    if s.stored.table != s.table.state or s.table.state is None:
        return None
    for entry in s.stored.hands:
        if entry["hand_number"] == hand:
            return entry
    return None


def _fresh(s: "UIState", hand: int, trick: int) -> ReviewState:
    """A review of the table's own finished hand (``hand`` 0) or of an earlier stored one, with the
    coach's analyses kept so far (the engine checked them with the stored hand)."""
    r = ReviewState()
    r.state = s.table.state
    r.hand = hand
    r.trick = trick
    own = s.table.view["hand_number"] if s.table.view is not None else 0
    entry = _stored(s, hand or own)
    if entry is not None:
        r.hand_state = entry["state"] if hand else None
        r.analyses = list(entry["analyses"])
        r.count = entry["analyses"][0]["count"] if entry["analyses"] else None
    s.review = r
    return r


def current(s: "UIState") -> ReviewState:
    """The review of the table's state; a fresh one (of its own hand) once the table has moved on."""
    r = s.review
    if r.state != s.table.state:
        if r.state is None:  # (a resumed save: its trick and hand, for this state)
            return _fresh(s, r.hand, r.trick)
        return _fresh(s, 0, 0)
    return r


def of_table(s: "UIState") -> ReviewState:
    """The review of the table's state for drawing (pure): an empty one when it is of another state."""
    r = s.review
    return r if r.state in (None, s.table.state) else ReviewState()


def after_hand(s: "UIState") -> "list[Effect]":
    """What the flow asks once the hand is over: the review's data when it is open (a reload on the
    review), the coach's first request and, on the match result, the engine's check of the stored
    reviews of the match's earlier hands."""
    if not hand_is_over(s) or s.table.state is None:
        return []
    r = current(s)
    out = []  # type: list[Effect]
    if r.trick and r.data is None and r.reviewed() is not None:
        out.append(fx.Call("review", {"state": r.reviewed()}, reviewed))
    out.extend(_coach_next(s, r))
    over = s.table.view is not None and s.table.view["phase"] == "match_over"
    if over and s.stored.asked != s.table.state and not s.day.on_table:
        s.stored.asked = s.table.state
        out.append(fx.CheckReviews(s.table.state))
    return out


def _coach_next(s: "UIState", r: ReviewState) -> "list[Effect]":
    """The coach's next request for review ``r``: none while one runs, once every decision is valued,
    or on a page opened with ``?coach=0``."""
    done = len(r.analyses)
    if not s.link.coach or r.running or (r.count is not None and done >= r.count) or r.reviewed() is None:
        return []
    r.running = True
    args = {"state": r.reviewed(), "index": done}  # type: dict[str, Any]
    if r.part is not None:
        args["part"] = r.part
    return [fx.Background(fx.Call("coach", args, coached, measure="coach", failed=coach_failed))]


def _mine(s: "UIState", sent: "str | None") -> "ReviewState | None":
    """The review an engine answer about hand state ``sent`` is for, or None when the player moved on."""
    r = s.review
    if sent is None or r.reviewed() != sent or s.table.state != r.state:
        return None
    return r


def _keep(s: "UIState", r: ReviewState) -> "list[Effect]":
    """Store the review's hand with the analyses so far (the match result offers it later)."""
    hand = r.hand or (s.table.view["hand_number"] if s.table.view is not None else 0)
    state = r.reviewed()
    if not hand or state is None:
        return []
    entry = _stored(s, hand)
    if entry is not None:
        entry["analyses"] = list(r.analyses)
    return [fx.KeepReview(hand, state, list(r.analyses))] if _storable(s) else []


def coached(s: "UIState", answer: "dict[str, Any]", sent: "str | None" = None) -> "Result":
    """One step of the coach: a decision's sums so far (sent back with its next step) or its
    analysis (kept, stored with the hand); then the next step (dropped once the table moved on)."""
    r = _mine(s, sent)
    if r is None:
        return s, []
    r.running = False
    if answer.get("index") != len(r.analyses):
        return s, []
    r.count = answer.get("count")
    if "part" in answer:
        r.part = answer["part"]
        return s, _coach_next(s, r)
    r.part = None
    r.analyses.append(answer)
    return s, _keep(s, r) + _coach_next(s, r)


def coach_failed(s: "UIState", reason: str = "") -> "Result":
    """The engine could not value a decision: the coach stops for this hand (the rest goes on)."""
    s.review.running = False
    s.review.count = len(s.review.analyses)
    return s, [fx.Warn("coach: " + reason)]


def kept(s: "UIState") -> "list[Effect]":
    """The table's finished hand, stored as soon as it is over (the coach adds to it later)."""
    if not hand_is_over(s) or s.table.state is None or s.table.view is None or not _storable(s):
        return []
    return [fx.KeepReview(s.table.view["hand_number"], s.table.state, [])]


def _storable(s: "UIState") -> bool:
    """The table's hands are stored for review: not the daily deal's, nor a following tab's (the tab
    that has the game stores them)."""
    return not s.day.on_table and not s.saving.elsewhere


def reviews_failed(s: "UIState", reason: str = "") -> "Result":
    """The engine could not check the stored reviews: none is offered, and a resumed review of an
    earlier hand closes (the match result shows)."""
    r = s.review
    if r.state == s.table.state and r.hand and r.hand_state is None:
        _fresh(s, 0, 0)
    return s, [fx.Warn("check_reviews: " + reason)]


def reviews_checked(s: "UIState", answer: "dict[str, Any]", sent: "str | None" = None) -> "Result":
    """The engine's check of the stored reviews: the earlier hands the match result offers, a notice
    when some were set aside, and a resumed review of an earlier hand reopened."""
    if sent is None or s.table.state != sent:
        return s, []
    s.stored.table = sent
    s.stored.hands = list(answer.get("hands") or [])
    r = s.review
    if r.state == s.table.state and not r.hand:
        own = _stored(s, s.table.view["hand_number"] if s.table.view is not None else 0)
        if own is not None and len(r.analyses) > len(own["analyses"]):
            own["analyses"] = list(r.analyses)
    effects = [fx.StoreReviews(s.stored.hands, answer.get("set_aside", 0))] if _storable(s) else []  # type: list[Effect]
    if answer.get("set_aside"):
        s.stored.note = said("A stored hand review could not be read and was set aside.")
        effects.append(fx.Announce(s.stored.note))
    if r.state == s.table.state and r.hand and r.hand_state is None:  # (a reload on an earlier hand's review)
        if _stored(s, r.hand) is None:
            _fresh(s, 0, 0)
            effects.append(fx.Save())
            return s, effects
        r = _fresh(s, r.hand, r.trick)
        effects.append(fx.Call("review", {"state": r.reviewed()}, reviewed))
        effects.extend(_coach_next(s, r))
    return s, effects


def open_review(s: "UIState", hand: int = 0) -> "Result":
    """ "Review hand": trick 1 of the table's finished hand (``hand`` 0) or of the stored earlier
    hand ``hand`` (its data asked for once)."""
    if not hand_is_over(s):
        return s, []
    if hand:
        if _stored(s, hand) is None:
            return s, []
        r = _fresh(s, hand, 1)
    else:
        r = current(s)
        if r.hand:
            r = _fresh(s, 0, 1)
        r.trick = 1
    effects = [fx.Save()]  # type: list[Effect]
    if r.data is None:
        effects.append(fx.Call("review", {"state": r.reviewed()}, reviewed))
    effects.extend(_coach_next(s, r))
    return s, effects


def reviewed(s: "UIState", data: "dict[str, Any]", sent: "str | None" = None) -> "Result":
    """The engine's hand trick by trick (dropped once the table moved on)."""
    r = _mine(s, sent)
    if r is not None:
        r.data = data
    return s, []


def go(s: "UIState", trick: int) -> "Result":
    """Show trick ``trick`` (kept within 1-13)."""
    r = s.review
    if not r.trick or r.state != s.table.state:
        return s, []
    trick = max(1, min(TRICKS, trick))
    if trick == r.trick:
        return s, []
    r.trick = trick
    effects = [fx.Save()]  # type: list[Effect]
    if r.data is not None:
        effects.append(fx.Announce(trick_said(r.data, trick)))
    return s, effects


def trick_said(data: "dict[str, Any]", trick: int) -> "Message":
    """What screen readers hear of a trick of the review: its cards in play order and its winner
    (worded by the view: ``texts.review_trick_text``)."""
    t = data["tricks"][trick - 1]
    return composed("review_trick", n=trick, plays=list(t["plays"]), winner=t["winner"])


def step(s: "UIState", by: int) -> "Result":
    return go(s, s.review.trick + by)


def close(s: "UIState") -> "Result":
    """Back to the summary (or the match result); from an earlier hand, the coach of the table's
    own hand goes on."""
    if not s.review.trick:
        return s, []
    s.review.trick = 0
    if s.review.hand:
        effects = [fx.Save()]  # type: list[Effect]
        effects.extend(_coach_next(s, _fresh(s, 0, 0)))
        return s, effects
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
    if name.startswith("review-hand-"):
        number = name[len("review-hand-") :]
        return open_review(s, int(number)) if number.isdigit() else (s, [])
    return None


#: The keys an open review takes: the arrows move through its tricks, Home and End to the first and
#: the last, Escape closes it.
KEYS = ("ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown", "Home", "End", "Escape")


def takes_key(s: "UIState", key: str) -> bool:
    """The review is open and ``key`` is one of its :data:`KEYS`."""
    return bool(s.review.trick) and hand_is_over(s) and key in KEYS


def on_key(s: "UIState", key: str) -> "Result | None":
    """Arrow keys move through an open review, Escape closes it; None when the review does not take
    the key (:func:`takes_key`)."""
    if not takes_key(s, key):
        return None
    if key in ("ArrowLeft", "ArrowUp"):
        return step(s, -1)
    if key in ("ArrowRight", "ArrowDown"):
        return step(s, 1)
    if key == "Home":
        return go(s, 1)
    if key == "End":
        return go(s, TRICKS)
    return close(s)


def key_pressed(s: "UIState", key: str) -> "Result":
    """A key the review took (``ui/actions.py`` ``on_key``), as an input: nothing when the review
    closed meanwhile."""
    taken = on_key(s, key)
    return taken if taken is not None else (s, [])


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
