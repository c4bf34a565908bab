"""What one step of the engine changed on the table, read from two of seat 0's views (pure): the
card played, the trick completed. The flow announces and animates them; nothing here is a rule."""

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from typing import Any

    from ui.core.state import View


def completed_trick(old_view: "View | None", new_view: "View | None") -> bool:
    """True when the step from ``old_view`` to ``new_view`` completed a trick."""
    if not old_view or not new_view:
        return False
    if new_view["hand_number"] != old_view["hand_number"]:
        return False
    return len(new_view["tricks"]) > len(old_view["tricks"])


def all_plays(view: "View") -> "list[dict[str, Any]]":
    """Every play of the hand so far, in order."""
    plays = []
    for trick in view["tricks"]:
        plays.extend(trick["plays"])
    plays.extend(view["trick"]["plays"])
    return plays


def played_card(old_view: "View | None", new_view: "View | None") -> "dict[str, Any] | None":
    """The play ``{"seat", "card"}`` made by the step from ``old_view`` to ``new_view`` (or None)."""
    if not new_view or not old_view or new_view["hand_number"] != old_view["hand_number"]:
        return None
    new, old = all_plays(new_view), all_plays(old_view)
    if len(new) == len(old) + 1:
        return new[-1]
    return None
