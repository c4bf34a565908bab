"""HTML of the hand review, the coach's lines and its verdict (pure; every value escaped).

The review is a dialog over the summary (``data-testid=review``, ``data-trick=N``): trick N's four
cards in play order (``[data-card][data-seat]``), who led and won it, the point cards it took, each
seat's hand at that trick with its exposed cards marked, and the coach's word on the player's
decision there. A play the coach flags carries ``data-costly`` (its expected cost in points).
"""

from gongzhu.vocab import COSTLY_POINTS
from ui.features import review
from ui.view import parts, texts
from ui.view.html import attrs, esc
from ui.view.i18n import _, ngettext

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from typing import Any

    from ui.core.review_state import ReviewState
    from ui.core.state import UIState


def _cards_text(cards: "list[str]") -> str:
    return texts.cards_label(cards) if cards else _("nothing")


def verdict_text(r: "ReviewState") -> str:
    """The coach's one line on the summary."""
    costly, cost, complete = review.verdict(r)
    if not complete:
        if r.count is None:
            return _("Coach: analysing your decisions…")
        return _("Coach: analysing your decisions… ({done}/{count})").format(
            done=len(r.analyses), count=r.count
        )
    if not costly:
        return _("Coach: no costly play this hand.")
    return ngettext(
        "Coach: {n} costly play, {cost} expected points given away.",
        "Coach: {n} costly plays, {cost} expected points given away.",
        costly,
    ).format(n=costly, cost=cost)


def threshold_text() -> str:
    return _("A play is flagged when it costs at least {points} expected points of your hand score.").format(
        points=COSTLY_POINTS
    )


def verdict_html(s: "UIState") -> str:
    r = review.of_table(s)
    return '<p class="coach-verdict" data-testid="coach-verdict">{} <small>{}</small></p>'.format(
        esc(verdict_text(r)), esc(threshold_text())
    )


def earlier_hands_html(s: "UIState") -> str:
    """The match result's list of its earlier hands kept for review (as the engine checked them)."""
    stored = s.stored
    note = (
        '<p class="notice" role="status">{}</p>'.format(esc(texts.words(stored.note))) if stored.note else ""
    )
    if stored.table != s.table.state or s.table.view is None:
        return note
    last = s.table.view["hand_number"]
    buttons = []
    for entry in stored.hands:
        n = entry["hand_number"]
        if n >= last:
            continue  # (the last hand: "Review hand")
        label = _("Hand {n}: {score}").format(n=n, score=texts.signed(entry["scores"][0]))
        buttons.append(parts.button("review-hand-" + str(n), "review-hand-" + str(n), label))
    if not buttons:
        return note
    return '{}<nav class="rv-hands-list" aria-label="{}"><h3>{}</h3>{}</nav>'.format(
        note, esc(_("Review an earlier hand")), esc(_("Review an earlier hand")), "".join(buttons)
    )


def review_button() -> str:
    return parts.button("review-hand", "review-hand", _("Review hand"))


def analysis_text(a: "dict[str, Any]") -> str:
    """The coach's sentence on one decision (the exposure, or a card played)."""
    expose = a.get("kind") == "expose"
    mine = _cards_text(a["chosen"]) if expose else texts.cards_label(a["chosen"])
    best = _cards_text(a["best"]) if expose else texts.cards_label(a["best"])
    parts = {"mine": mine, "best": best, "cost": a["cost"], "why": texts.hint_reason(a.get("reason", ""))}
    parts.update(value=texts.signed(a["chosen_expected"]), top=texts.signed(a["best_expected"]))
    if a.get("costly"):
        if expose:
            text = _("Costly exposure: {mine} gave away {cost} expected points. Better: {best}.")
        else:
            text = _("Costly: {mine} gave away {cost} expected points. Better: {best} — {why}.")
    elif a["chosen"] == a["best"]:
        if expose:
            text = _("Exposure: {mine}, the best choice (expected {value}).")
        else:
            text = _("Your {mine}: the best play (expected {value}).")
    elif expose:
        text = _("Exposure: {mine} (expected {value}); best: {best} ({top}).")
    else:
        text = _("Your {mine}: expected {value}; best {best}: {top} — {why}.")
    return text.format(**parts)


def _analyses(r: "ReviewState", trick: int) -> "list[dict[str, Any]]":
    return [a for a in r.analyses if a.get("trick") == trick or (trick == 1 and a.get("kind") == "expose")]


def _coach_html(r: "ReviewState", trick: int, mine_played: bool) -> str:
    lines = []
    for a in _analyses(r, trick):
        pairs = [("class", "coach-line costly" if a.get("costly") else "coach-line")]  # type: list[tuple[str, object]]
        if a.get("costly") and a.get("kind") == "expose":
            pairs.append(("data-costly", a["cost"]))
        lines.append("<p{}>{}</p>".format(attrs(pairs), esc(analysis_text(a))))
    complete = r.count is not None and len(r.analyses) >= r.count
    if not lines and mine_played and not complete:
        lines.append('<p class="coach-line">{}</p>'.format(esc(_("The coach is still analysing…"))))
    return '<div class="coach" aria-live="polite">{}</div>'.format("".join(lines))


def _costly_play(r: "ReviewState", trick: int) -> "int | None":
    for a in r.analyses:
        if a.get("kind") == "play" and a.get("trick") == trick and a.get("costly"):
            return int(a["cost"])
    return None


def _nav_html(r: "ReviewState") -> str:
    costly_tricks = [a.get("trick") for a in r.analyses if a.get("costly")]
    jumps = []
    for n in range(1, review.TRICKS + 1):
        label = _("Trick {n}").format(n=n)
        if n in costly_tricks or (n == 1 and 0 in costly_tricks):
            label = _("Trick {n}, a costly play").format(n=n)
        pairs = (
            ("type", "button"),
            ("class", "rv-jump costly" if label != _("Trick {n}").format(n=n) else "rv-jump"),
            ("data-action", "review-go-" + str(n)),
            ("aria-label", label),
            ("aria-current", "step" if n == r.trick else None),
        )
        jumps.append("<button{}>{}</button>".format(attrs(pairs), esc(n)))
    prev = parts.button("review-prev", "review-prev", _("Previous trick"), disabled=r.trick <= 1)
    nxt = parts.button("review-next", "review-next", _("Next trick"), disabled=r.trick >= review.TRICKS)
    return '<nav class="rv-nav" aria-label="{}">{}<span class="rv-jumps">{}</span>{}</nav>'.format(
        esc(_("Tricks")), prev, "".join(jumps), nxt
    )


def _hands_html(data: "dict[str, Any]", trick: int) -> str:
    gone = set()
    for t in data["tricks"][: trick - 1]:
        for p in t["plays"]:
            gone.add(p["card"])
    rows = []
    for seat in range(4):
        exposed = data["exposed"][seat]
        cards = "".join(
            parts.card_html(c, "mini" + (" exposed-own" if c in exposed else ""))
            for c in data["deal"][seat]
            if c not in gone
        )
        rows.append(
            '<div class="rv-hand"><h3>{}</h3><div class="rv-cards">{}</div></div>'.format(
                esc(texts.seat_name(seat)), cards or esc(_("none"))
            )
        )
    return '<div class="rv-hands">{}</div>'.format("".join(rows))


def review_html(s: "UIState") -> str:
    r = review.of_table(s)
    n = r.trick
    title = _("Review: trick {n} of 13").format(n=n)
    if r.hand:
        title = _("Hand {hand}: trick {n} of 13").format(hand=r.hand, n=n)
    body = _nav_html(r)
    data = r.data
    if data is None:
        body += "<p>{}</p>".format(esc(_("Loading the hand…")))
    else:
        t = data["tricks"][n - 1]
        costly = _costly_play(r, n)
        cards = []
        for p in t["plays"]:
            seat, code = p["seat"], p["card"]
            more = [
                ("data-seat", seat),
                ("role", "img"),
                ("aria-label", texts.seat_name(seat) + ": " + texts.card_name(code)),
            ]  # type: list[tuple[str, object]]
            if seat == 0 and costly is not None:
                more.append(("data-costly", costly))
            cls = "small" + (" winner" if seat == t["winner"] else "")
            cards.append(
                '<div class="lt-play">{}<span>{}</span></div>'.format(
                    parts.card_html(code, cls, more), esc(texts.seat_name(seat))
                )
            )
        facts = _("Led by {leader} · won by {winner} · points: {points}").format(
            leader=texts.seat_name(t["leader"]),
            winner=texts.seat_name(t["winner"]),
            points=_cards_text(t["points"]),
        )
        mine = any(p["seat"] == 0 for p in t["plays"])
        body += '<div class="last-trick rv-trick">{}</div><p class="rv-facts">{}</p>{}{}'.format(
            "".join(cards), esc(facts), _coach_html(r, n, mine), _hands_html(data, n)
        )
    close = parts.button("review-close", "review-close", _("Back to the summary"), primary=True)
    pairs = (
        ("class", "panel review"),
        ("role", "dialog"),
        ("data-testid", "review"),
        ("data-trick", n),
        ("aria-label", title),
    )
    return '<div class="scrim"></div><section{}><h2>{}</h2>{}<footer>{}</footer></section>'.format(
        attrs(pairs), esc(title), body, close
    )
