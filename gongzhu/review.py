"""A finished hand, trick by trick, for the hand review: every card is known once the hand is over.

:func:`hand_review` reads a state whose hand is over (``hand_over`` or ``match_over``; the state
keeps the hand's deal, exposures and tricks until Next hand) and returns plain JSON data::

    {"hand_number": 3, "deal": [[13 codes] * 4], "exposed": [[codes] * 4],
     "tricks": [{"number": 1, "leader": 2, "plays": [{"seat": 2, "card": "9C"}, ...],
                 "winner": 3, "points": ["TC"]}, ...],
     "scores": [-40, 0, 0, 40]}

The deal is shown only after the hand: by then each seat's cards have all been played face up, so
it tells nothing the tricks do not.  During a hand the review is refused (:class:`NotOver`).
"""

from __future__ import annotations

from typing import Any

from .game import State, point_cards


class NotOver(ValueError):
    """A review asked for while the hand is still being played."""


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


__all__ = ["NotOver", "hand_review"]
