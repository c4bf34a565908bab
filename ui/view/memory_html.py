"""HTML of the table-memory aid (pure; every value escaped): what the engine derived from seat 0's
view (``view["memory"]``): beside each opponent the suits it is known to lack and its exposed cards
still to come; at the player's seat the point cards not yet played."""

from ui.view import texts
from ui.view.html import esc
from ui.view.i18n import _

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from ui.core.state import View


def seat_aid_html(view: "View", seat: int) -> str:
    """The aid's part at ``seat`` ("" when the view has none, or nothing to say there)."""
    memory = view.get("memory")
    if not memory or view["phase"] not in ("expose", "play"):
        return ""
    if seat == 0:
        out = memory["points_out"]
        cards = " ".join(texts.card_label(c) for c in out) if out else _("none")
        return '<div class="memory" data-testid="memory-points">{} {}</div>'.format(
            esc(_("Point cards still out:")), esc(cards)
        )
    parts = []
    voids = memory["voids"][seat]
    if voids:
        parts.append(
            _("Void in: {suits}").format(suits=" ".join(texts.SUIT_SYMBOLS.get(s, "?") for s in voids))
        )
    coming = memory["exposed_out"][seat]
    if coming:
        parts.append(_("Exposed, still to come: {cards}").format(cards=texts.cards_label(coming)))
    if not parts:
        return ""
    return '<div class="memory" data-testid="memory-seat">{}</div>'.format(esc(" · ".join(parts)))
