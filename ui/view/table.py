"""What the table shows, derived from seat 0's view and the UI flags (pure, unit-tested).

No rules here: legality and scores come from the engine worker inside the view.
"""

from gongzhu.vocab import HAND_ENDS, PHASES

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from typing import Any

    from ui.core.state import UIState, View

#: Where each seat sits on screen; play runs counter-clockwise: you, right, across, left.
POSITIONS = {0: "bottom", 1: "right", 2: "top", 3: "left"}
#: Each phase's name in ``<html data-phase>`` (the CSS's): ``hand_over`` -> ``hand-over``.
PHASE_NAMES = {phase: phase.replace("_", "-") for phase in PHASES}


def html_phase(s: "UIState") -> str:
    """``<html data-phase>``: loading | expose | play | hand-over | match-over | error (the game could
    not start).

    While the last trick of a hand is still on show, the phase stays ``play`` and the summary
    waits; ``hand-over`` / ``match-over`` mean the summary or the result is up.  The daily deal is
    one hand: its summary is up (``hand-over``) even when that hand ended the match.
    """
    view = s.table.view
    if s.link.failed:
        return "error"
    if not view:
        return "loading"
    phase = view["phase"]
    if phase in HAND_ENDS and s.table.hold:
        return "play"
    if phase == "match_over" and s.day.on_table:
        return "hand-over"
    return PHASE_NAMES.get(phase, "loading")


def turn_attr(s: "UIState") -> "int | None":
    """``<html data-turn>``: the seat to act during play, else None."""
    view = s.table.view
    if view and view["phase"] == "play" and view["turn"] is not None:
        return int(view["turn"])
    return None


def shown_trick(s: "UIState") -> "tuple[list[dict[str, Any]], int | None]":
    """The plays on the table: the trick in progress, or the completed trick still on show."""
    view = s.table.view
    if not view:
        return [], None
    if view["trick"]["plays"]:
        return view["trick"]["plays"], None
    if s.table.hold and view["tricks"]:
        last = view["tricks"][-1]
        return last["plays"], last.get("winner")
    return [], None


def hand_rows(hand: "list[str]") -> "list[list[str]]":
    """The hand split in two rows (shown as two rows on a narrow portrait phone, one line elsewhere)."""
    half = (len(hand) + 1) // 2
    return [hand[:half], hand[half:]]


def may_play(view: "View | None") -> bool:
    """Seat 0 may play a card now (the view's ``actions``: no refusal of ``play``)."""
    return view is not None and view["phase"] == "play" and view["actions"]["play"] is None


def opponents_playing(s: "UIState") -> bool:
    """True while the computer opponents are to play (Speed up is offered then)."""
    view = s.table.view
    if not view:
        return False
    if s.table.hold and view["phase"] in ("play", "hand_over", "match_over"):
        return True
    return bool(view["phase"] == "play" and view["turn"] != 0)
