"""A finished hand, trick by trick, for the hand review: every card is known once the hand is over.

:func:`hand_review` reads a state whose hand is over (``hand_over`` or ``match_over``; the state
keeps the hand's deal, exposures and tricks until Next hand) and returns plain JSON data::

    {"hand_number": 3, "deal": [[13 codes] * 4], "exposed": [[codes] * 4],
     "tricks": [{"number": 1, "leader": 2, "plays": [{"seat": 2, "card": "9C"}, ...],
                 "winner": 3, "points": ["TC"]}, ...],
     "scores": [-40, 0, 0, 40]}

The deal is shown only after the hand: by then each seat's cards have all been played face up, so
it tells nothing the tricks do not.  During a hand the review is refused (:class:`NotOver`).

:func:`check_stored` is the engine's check of the reviews the page kept of the match's earlier
hands (each the finished hand's engine state and the coach's analyses, read back from storage)
before the match result offers them.
"""

from __future__ import annotations

import json
from typing import Any

from .game import State, point_cards
from .state_check import upgrade_state, validate_state

# (KEEP_HANDS, the match's last hands kept reviewable, is the vocabulary's: the page keeps as many.)
from .vocab import KEEP_HANDS

#: The longest stored hand (engine state text) read: a real one holds ~7,000 characters.
MAX_STATE_CHARS = 16000


class NotOver(ValueError):
    """A review asked for while the hand is still being played."""


class OtherMatch(ValueError):
    """A stored hand that is sound but not one of this match as played (left out, not a fault)."""


def hand_review(state: State) -> dict[str, Any]:
    """The finished hand of ``state``, trick by trick (:class:`NotOver` during a hand)."""
    if state["phase"] not in ("hand_over", "match_over") or len(state["tricks"]) != 13:
        raise NotOver(f"hand {state['hand_number']} is not over (phase {state['phase']})")
    tricks = [
        {
            "number": n,
            "leader": t["leader"],
            "plays": [{"seat": p["seat"], "card": p["card"]} for p in t["plays"]],
            "winner": t["winner"],
            "points": point_cards([p["card"] for p in t["plays"]]),
        }
        for n, t in enumerate(state["tricks"], start=1)
    ]
    return {
        "hand_number": state["hand_number"],
        "deal": [list(h) for h in state["deal"]],
        "exposed": [list(e) for e in state["exposed"]],
        "tricks": tricks,
        "scores": list(state["history"][-1]["scores"]),
    }


def _stored_hand(table: State, entry: Any) -> dict[str, Any]:
    """One stored review, checked: a finished hand of the table's match as it was played (its
    state reachable by legal play, its records those of the table's history), and the coach's
    analyses of it (:func:`gongzhu.coach.check_analyses`). ``ValueError`` otherwise."""
    from .coach import check_analyses  # (the coach imports this module)

    if not isinstance(entry, dict) or not isinstance(entry.get("state"), str):
        raise ValueError("not a stored review")
    if len(entry["state"]) > MAX_STATE_CHARS:
        raise ValueError("stored hand too long")
    state = upgrade_state(json.loads(entry["state"]))
    validate_state(state)
    assert isinstance(state, dict)  # validated
    number = state["hand_number"]
    if state["phase"] not in ("hand_over", "match_over"):
        raise NotOver(f"hand {number} is not over")
    if state["seed"] != table["seed"] or state["history"] != table["history"][:number]:
        raise OtherMatch(f"hand {number} is not the one this match played")
    return {
        "hand_number": number,
        "scores": list(state["history"][-1]["scores"]),
        "state": json.dumps(state, separators=(",", ":")),
        "analyses": check_analyses(state, entry.get("analyses", [])),
    }


def check_stored(table: State, entries: Any) -> dict[str, Any]:
    """The stored reviews (``entries``) the match ``table`` may offer: ``{"hands": [...], "set_aside":
    n}``, each hand ``{hand_number, scores, state, analyses}`` (the last :data:`KEEP_HANDS`, by
    number); ``set_aside`` counts the entries refused (tampered, unreadable); another match's hands
    are left out quietly."""
    hands: dict[int, dict[str, Any]] = {}
    refused = 0
    for entry in entries if isinstance(entries, list) else []:
        try:
            hand = _stored_hand(table, entry)
        except OtherMatch:
            continue
        except Exception:
            refused += 1
            continue
        hands[hand["hand_number"]] = hand
    kept = [hands[n] for n in sorted(hands)[-KEEP_HANDS:]]
    if not isinstance(entries, list):
        refused += 1
    return {"hands": kept, "set_aside": refused}


__all__ = ["KEEP_HANDS", "NotOver", "check_stored", "hand_review"]
