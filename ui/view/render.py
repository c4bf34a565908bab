"""HTML of each region of the table, from seat 0's view and the UI flags (pure, unit-tested).

``regions(s)`` returns ``{element_id: html}``; ``ui/shell/dom.py`` writes only the regions whose HTML
changed, once per animation frame. No DOM access here, no rules: per-card refusals, scores and
breakdowns all come from the engine worker in the view.
"""

from gongzhu.vocab import ELIMINATION
from ui.core import flow, later
from ui.view import extras, house_rules, table, texts
from ui.view.html import attrs, esc
from ui.view.i18n import N_, _, ngettext, pgettext
from ui.view.parts import button, card_html, panel

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from collections.abc import Callable, Sequence  # noqa: F401  (Callable: in type comments)
    from typing import Any

    from ui.core.state import UIState, View
    from ui.features import review
    from ui.view import chart, memory_html, review_html, settings_view
else:  # (imported when first needed, not before the table is drawn: ui/core/later.py)
    chart, memory_html, review, review_html, settings_view = later.modules(
        "view.chart", "view.memory_html", "features.review", "view.review_html", "view.settings_view"
    )

#: Static labels of index.html (``data-i18n-aria-label``), listed here so that extraction finds them.
STATIC_LABELS = (N_("Across"), N_("Left"), N_("Right"), N_("You"), N_("Your hand"), N_("Table"))


def summary_buttons() -> str:
    return extras.summary_buttons()


# --------------------------------------------------------------------------- header


def bar_html(s: "UIState") -> str:
    """The slim header: the name, Last trick (the one action used mid-hand) and ☰, which opens the
    settings sheet (``ui/view/settings_view.py``) with everything else."""
    menu = attrs(
        (
            ("type", "button"),
            ("class", "btn menu"),
            ("data-testid", "menu"),
            ("data-action", "menu"),
            ("aria-label", _("Menu")),
            ("title", _("Menu")),
            ("aria-haspopup", "dialog"),
            ("aria-expanded", "true" if s.screen.sheet else "false"),
            ("aria-controls", "sheet"),
        )
    )
    view = s.table.view
    at_table = bool(view and view["phase"] in ("expose", "play"))  # (a summary covers the panels)
    last = button(
        "last-trick", "last-trick", _("Last trick"), disabled=not (at_table and view and view["tricks"])
    )
    return (
        '<span class="brand"><i aria-hidden="true">♠</i> Gong Zhu</span>{badge}'
        '<span class="tools">{last}<button{menu}><span aria-hidden="true">☰</span></button></span>'
    ).format(last=last, menu=menu, badge=house_rules.badge_html(view) if s.lesson.on is None else "")


# --------------------------------------------------------------------------- seats


def avatar_html(seat: int, thinking: bool = False) -> str:
    """An opponent's monogram: the first letter of its name on a disc of its own colour (drawn by
    CSS), with three dots in a bubble while it is choosing a card. Decorative: the name is text."""
    dots = ""
    if thinking:
        dots = '<span class="bubble" data-testid="thinking" title="{}"><i></i><i></i><i></i></span>'.format(
            esc(_("Thinking…"))
        )
    return '<span class="avatar av-{}" aria-hidden="true">{}{}</span>'.format(
        esc(seat), esc(texts.seat_name(seat)[:1]), dots
    )


def _plate(seat: int, scores: str, acting: bool = False, thinking: bool = False) -> str:
    """The seat's plate: avatar, name and scores, lit while the seat is to play."""
    parts = ['<div class="{}">'.format("plate active" if acting else "plate")]
    if seat != 0:
        parts.append(avatar_html(seat, thinking))
    parts.append('<div class="who"><span class="name">{}</span>'.format(esc(texts.seat_name(seat))))
    if acting:
        parts.append('<span class="turn-dot" title="{}"></span>'.format(esc(_("To play"))))
    parts.append("</div>" + scores + "</div>")
    return "".join(parts)


def seat_html(s: "UIState", seat: int) -> str:
    view = s.table.view
    if not view:
        return _plate(
            seat,
            '<div class="scores"><span data-testid="hand-score">0</span><span data-testid="total">0</span></div>',
        )
    acting = table.turn_attr(s) == seat and not s.table.hold
    score = view["hand_scores"][seat]
    total = view["totals"][seat]
    scores = (
        '<div class="scores"><span class="lbl">{hl}</span><span data-testid="hand-score">{hs}</span>'
        '<span class="lbl">{tl}</span><span data-testid="total">{tt}</span></div>'.format(
            hl=esc(_("Hand")), hs=esc(texts.signed(score)), tl=esc(_("Total")), tt=esc(texts.signed(total))
        )
    )
    parts = [_plate(seat, scores, acting, acting and s.motion.thinking == seat)]
    if seat != 0:
        count = view["hand_sizes"][seat]
        parts.append(
            '<div class="backs" aria-label="{label}">{backs}<span class="count">{n}</span></div>'.format(
                label=esc(ngettext("{n} card", "{n} cards", count).format(n=count)),
                backs='<span class="back"></span>' * min(count, 5),
                n=esc(count),
            )
        )
    exposed = view["exposed_held"][seat]  # (exposed cards not yet played stay marked)
    if exposed:
        parts.append(
            '<div class="exposed" title="{}">{}</div>'.format(
                esc(_("Exposed")),
                "".join(card_html(c, "mini", (("data-exposed", seat),)) for c in exposed),
            )
        )
    if s.settings.memory_aid:
        parts.append(memory_html.seat_aid_html(view, seat))
    if view.get("threat") == seat:
        parts.append(
            '<div class="badge threat" data-testid="threat">{}</div>'.format(esc(_("All-hearts threat ♥")))
        )
    return "".join(parts)


# --------------------------------------------------------------------------- trick


def trick_html(s: "UIState") -> str:
    if not s.table.view:
        return ""
    plays, winner = table.shown_trick(s)
    fresh = s.motion.fresh_card
    collecting = s.motion.collecting
    out = []
    for play in plays:
        seat, code = play["seat"], play["card"]
        classes = "at-" + table.POSITIONS[seat]
        if collecting is not None:
            classes += " collect to-" + table.POSITIONS[collecting]
        elif code == fresh:
            classes += " enter from-" + table.POSITIONS[seat]
        if winner is not None and seat == winner and collecting is None:
            classes += " winner"
        label = texts.seat_name(seat) + ": " + texts.card_name(code)
        out.append(card_html(code, classes, (("data-seat", seat), ("role", "img"), ("aria-label", label))))
    return "".join(out)


# --------------------------------------------------------------------------- hand


def focus_card(s: "UIState") -> "str | None":
    """The hand card that takes the keyboard focus (roving tabindex): the one the player last moved
    to, else the selected card, else the first one that can be chosen, else the first."""
    view = s.table.view
    if not view or not view["hand"]:
        return None
    hand = view["hand"]  # type: list[str]
    for code in (s.table.focus, s.table.selected):
        if code in hand:
            return code
    if view["phase"] == "expose":
        chosen = [c for c in hand if c in view["exposable"]]
    else:
        chosen = [c for c in hand if not view["refusals"].get(c)]
    return chosen[0] if chosen else hand[0]


def _hand_card(s: "UIState", code: str, focus: "str | None" = None) -> str:
    view = s.table.view
    assert view is not None
    phase = view["phase"]
    classes = []
    more = [("role", "button"), ("tabindex", "0" if code == focus else "-1")]
    extra = ""
    state = {"exposed": code in view["exposed"][0]}
    if s.motion.dealing is not None and s.motion.dealing == view["hand_number"]:  # (arriving: web/game.css)
        classes.append("deal")
        more.append(("style", "--i:" + str(view["hand"].index(code))))
    disabled = True
    pressed = None
    if phase == "expose":
        if code in view["exposable"]:
            classes.append("exposable")
            pressed = code in (s.table.expose_sel or [])
            if pressed:
                classes.append("selected")
            extra = '<span class="mark" aria-hidden="true"><b>{}</b>{}</span>'.format(
                esc(_("exposable")), esc(texts.expose_effect((view.get("exposable_effects") or {}).get(code)))
            )
            disabled = False
            state["exposable"] = True
        if code in (view.get("my_expose") or []):
            classes.append("exposed-own")
    elif phase == "play":
        refusal = view["refusals"].get(code)
        if table.may_play(view) and not s.table.hold:
            if refusal:
                classes.append("dim")
                state["unplayable"] = True
            else:
                disabled = False
        if code == s.table.selected:
            classes.append("selected")
            pressed = True
    more.append(("aria-disabled", "true" if disabled else "false"))
    if pressed is not None:
        more.append(("aria-pressed", "true" if pressed else "false"))
    if code in view["exposed"][0]:
        classes.append("exposed-own")
        extra += '<span class="flag" aria-hidden="true">{}</span>'.format(
            esc(pgettext("one card", "Exposed"))
        )
    # The name is text inside the button (not aria-label): the visible "Q♠" is hidden from screen
    # readers, which read "queen of spades, exposed" instead.
    extra += '<span class="sr-only">{}</span>'.format(esc(texts.hand_card_name(code, **state)))
    return card_html(code, " ".join(classes), more, extra)


def hand_html(s: "UIState") -> str:
    view = s.table.view
    if not view:
        return ""
    hand = view["hand"]
    rows = table.hand_rows(hand)
    focus = focus_card(s)
    out = ['<div class="hand-inner"{}>'.format(attrs((("style", "--n:" + str(max(len(hand), 1))),)))]
    for row in rows:
        out.append('<div class="hand-row"{}>'.format(attrs((("style", "--r:" + str(max(len(row), 1))),))))
        out.extend(_hand_card(s, code, focus) for code in row)
        out.append("</div>")
    out.append("</div>")
    return "".join(out)


# --------------------------------------------------------------------------- actions


def actions_html(s: "UIState") -> str:
    view = s.table.view
    if not view:
        return ""
    busy = bool(s.link.busy)
    out = []
    if view["actions"]["expose"] is None and view["exposable"]:
        chosen = s.table.expose_sel or []
        out.append(button("expose-confirm", "expose", _("Expose"), primary=True, disabled=busy or not chosen))
        out.append(button("expose-none", "expose-none", _("Don't expose"), disabled=busy))
        out.append(button("hint", "hint", _("Hint"), disabled=busy))
    elif table.may_play(view) and not s.table.hold:
        selected = s.table.selected
        out.append(button("play", "play", _("Play"), primary=True, disabled=busy or not selected))
        out.append(button("hint", "hint", _("Hint"), disabled=busy))
    elif table.opponents_playing(s):
        out.append(button("speed-up", "speed-up", _("Speed up"), pressed=bool(s.table.speed)))
    return "".join(out)


def message_html(s: "UIState") -> str:
    text = texts.words(s.screen.message) or texts.words(s.screen.notice)
    alert = texts.words(s.screen.alert)
    if alert:
        text = alert + (" · " + text if text else "")
    return esc(text)


def notes_html(s: "UIState", take_over: bool = True) -> str:
    """Lasting notices: the game cannot be saved (storage full or disabled), the engine restarted,
    another tab has the game (with "Play here", unless ``take_over`` is False: the summary has it)."""
    notes = []
    if s.saving.unsaved:
        notes.append(_("This game won't be saved: the browser's storage is full or disabled."))
    if s.link.engine_note:
        notes.append(texts.words(s.link.engine_note))
    html = " ".join('<span data-testid="notice">{}</span>'.format(esc(n)) for n in notes)
    if s.saving.elsewhere and take_over:
        html += take_over_html()
    return html + extras.notes_line(s)


def take_over_html() -> str:
    """A tab that follows another: it says so, with "Play here" (in the notes, and in place of the
    summary's next step, which the summary would cover)."""
    return '<span data-testid="elsewhere">{} {}</span>'.format(
        esc(_("This game is being played in another tab.")),
        button("take-over", "take-over", _("Play here"), primary=True),
    )


def toast_html(s: "UIState") -> str:
    toast = s.motion.toast
    if not toast:
        return ""
    return '<div{}><span class="icon">{}</span>{}</div>'.format(
        attrs((("class", "toast sig-" + str(toast)), ("role", "status"))),
        esc(texts.card_label(toast)),
        esc(texts.signal_text(toast)),
    )


# --------------------------------------------------------------------------- overlays


def summary_html(view: "View") -> "tuple[str, str]":
    last = view["last_hand"]
    breakdowns = last["breakdowns"]
    head = "".join(f'<th scope="col">{esc(texts.seat_name(s))}</th>' for s in range(4))
    rows = []
    per_seat = [texts.breakdown_rows(b) for b in breakdowns]
    for i in range(len(per_seat[0])):
        label = per_seat[0][i][0]
        cls = ' class="score"' if i == len(per_seat[0]) - 1 else ""
        cells = "".join(f"<td>{esc(per_seat[s][i][1])}</td>" for s in range(4))
        rows.append(f'<tr{cls}><th scope="row">{esc(label)}</th>{cells}</tr>')
    totals = "".join("<td>{}</td>".format(esc(texts.signed(t))) for t in last["totals"])
    rows.append('<tr class="total"><th scope="row">{}</th>{}</tr>'.format(esc(_("Total")), totals))
    body = '<table class="breakdown"><thead><tr><td></td>{}</tr></thead><tbody>{}</tbody></table>'.format(
        head, "".join(rows)
    )
    body += house_rules.line_html(view)
    title = _("Hand {n} summary").format(n=last["number"])  # (escaped where it is written)
    return body, title


def failed_html(s: "UIState") -> str:
    """The game could not start: say so, with the reason (never an endless spinner)."""
    return '<div class="loading failed" data-testid="startup-error" role="alert"><p id="status">{}</p></div>'.format(
        esc(_("The game could not start: {error}").format(error=s.link.failed))
    )


def seed_question_html(s: "UIState") -> str:
    """A ``?seed=`` link opened over a match in progress: start that deal, or resume the match."""
    body = "<p>{}</p>".format(
        esc(
            _("This link starts a new match (deal {seed}). Your match in progress would be replaced.").format(
                seed=s.link.ask_seed
            )
        )
    )
    footer = button("seed-resume", "seed-resume", _("Resume my match"), primary=True) + button(
        "seed-new", "seed-new", _("Start the new match")
    )
    return panel("seed-question", _("Start a new match?"), body, footer)


def overlay_html(s: "UIState") -> str:
    view = s.table.view
    if s.link.failed:
        return failed_html(s)
    if view and s.link.ask_seed is not None:
        return seed_question_html(s)
    if not view:
        return (
            '<div class="loading" data-testid="loading"><div class="spinner"></div><p>{}</p>'
            '<div class="progress"><span style="width:{}%"></span></div></div>'
        ).format(
            esc(texts.words(s.screen.loading_text) or _("Shuffling the deck…")),
            esc(int(s.screen.progress or 10)),
        )
    if s.screen.panel in extras.PANELS:
        return extras.panel_html(s, s.screen.panel)
    phase = table.html_phase(s)
    if phase in ("hand-over", "match-over") and review.of_table(s).trick:
        return review_html.review_html(s)
    if phase == "hand-over":
        body, title = summary_html(view)
        body += review_html.verdict_html(s)
        body += chart.chart_html(view.get("history") or [], _ending_total(view))
        footer = button("next-hand", "next-hand", _("Next hand"), primary=True)
        if s.saving.elsewhere:  # (a tab that follows another: the game is taken back from here too)
            footer = take_over_html()
        footer += review_html.review_button() + summary_buttons()
        if s.day.on_table:
            body, footer = extras.daily_summary(s, body)
        return panel("hand-summary", title, body, footer)
    if phase == "match-over":
        reviews = review_html.verdict_html(s) + review_html.review_button()
        html = match_html(view, reviews + review_html.earlier_hands_html(s))
        if s.saving.elsewhere:
            html = html.replace(
                button("play-again", "play-again", _("Play again"), primary=True), take_over_html()
            )
        return html
    shown = s.screen.panel
    if shown == "captured":
        return captured_html(view)
    if shown == "last-trick":
        return last_trick_html(view)
    return ""


def _ending_total(view: "View") -> "int | None":
    """The total whose line the chart draws: the view's ``match_end`` (None: a match of a fixed number
    of hands; a view saved before it was carried: −1000)."""
    end = view.get("match_end")
    total = end.get("total") if isinstance(end, dict) else ELIMINATION
    return total if type(total) is int else None


def match_html(view: "View", review_part: str = "") -> str:
    result = view["result"]
    rows = []
    for place, seat, name, total, out in table_rows(result):
        rows.append(
            '<tr class="{}"><td>{}</td><th scope="row">{}</th><td>{}</td><td>{}</td></tr>'.format(
                "me" if seat == 0 else "",
                esc(place),
                esc(name),
                esc(texts.signed(total)),
                '<span class="badge out">{}</span>'.format(esc(_("Eliminated"))) if out else "",
            )
        )
    body = '<table class="ranking"><tbody>{}</tbody></table>'.format("".join(rows))
    body += house_rules.line_html(view)
    body += chart.chart_html(view.get("history") or [], _ending_total(view))
    if view.get("last_hand"):
        sbody, stitle = summary_html(view)
        body += f"<details><summary>{esc(stitle)}</summary>{sbody}</details>"
    title = texts.result_title(result)
    footer = button("play-again", "play-again", _("Play again"), primary=True) + summary_buttons()
    html = panel("match-summary", title, body + review_part, footer)
    return html.replace(
        'class="panel"', 'class="panel {}"'.format("won" if result["winner"] == 0 else "lost"), 1
    )


def table_rows(result: "dict[str, Any]") -> "list[tuple[int, int, str, int, bool]]":
    return texts.ranking_rows(result)


def captured_html(view: "View") -> str:
    rows = []
    for seat in range(4):
        exposed = view["exposed"][seat]
        points = view["point_cards"][seat]
        rows.append(
            '<div class="cap-row" data-seat-captured="{seat}"><h3>{name}</h3>'
            '<div><span class="lbl">{el}</span>{ex}</div><div><span class="lbl">{cl}</span>{pc}</div></div>'.format(
                seat=esc(seat),
                name=esc(texts.seat_name(seat)),
                el=esc(_("Exposed:")),
                ex="".join(card_html(c, "mini") for c in exposed) or esc(_("none")),
                cl=esc(_("Captured:")),
                pc="".join(card_html(c, "mini") for c in points) or esc(_("none")),
            )
        )
    return panel("captured", _("View captured cards"), "".join(rows), closable=True)


def last_trick_html(view: "View") -> str:
    if not view["tricks"]:
        return ""
    last = view["tricks"][-1]
    cards = "".join(
        '<div class="lt-play">{}<span>{}</span></div>'.format(
            card_html(p["card"], "small" + (" winner" if p["seat"] == last.get("winner") else "")),
            esc(texts.seat_name(p["seat"])),
        )
        for p in last["plays"]
    )
    winner = last.get("winner")
    body = '<div class="last-trick">{}</div><p>{}</p>'.format(
        cards, esc(_("Won by {name}").format(name=texts.seat_name(winner)) if winner is not None else "")
    )
    return panel("last-trick-panel", _("Last trick"), body, closable=True)


# --------------------------------------------------------------------------- all


def waiting_regions(s: "UIState") -> "dict[str, str]":
    """The regions while a saved table that cannot be drawn waits for the engine's verdict: the
    loading state (the table as if nothing were saved)."""
    view = s.table.view
    s.table.view = None
    try:
        return regions(s)
    finally:
        s.table.view = view


def regions(s: "UIState") -> "dict[str, str]":
    out = {
        "bar": bar_html(s),
        "sheet": settings_view.sheet_html(s) if s.screen.sheet else "",
        "trick": trick_html(s),
        "hand": hand_html(s),
        "actions": actions_html(s),
        "message": message_html(s),
        "overlay": overlay_html(s),
        "toast": toast_html(s),
    }
    # "Play here" once: in the summary when it is up (it covers the notes), else in the notes.
    out["notes"] = notes_html(s, 'data-testid="take-over"' not in out["overlay"])
    for seat in range(4):
        out["seat-" + str(seat)] = seat_html(s, seat)
    return out


def page(s: "UIState") -> "tuple[dict[str, str], dict[str, Any]]":
    """Every region's HTML and ``<html>``'s attributes (``data-phase``, ``data-turn``, ``data-engine``,
    ``data-deck``, ``data-daily``, ``data-busy``: docs/game-ui.md). A save that passed the shape
    check but cannot be drawn shows the loading state until the engine's verdict on it (never the
    load-failure screen: the files did load); a table the engine checked that cannot be drawn is
    a fault, raised."""
    attrs = {"data-phase": table.html_phase(s), "data-turn": table.turn_attr(s)}  # type: dict[str, Any]
    attrs["data-engine"] = "ready" if s.link.engine_ready else "starting"
    attrs["data-deck"] = "four" if s.settings.four_colour else None
    attrs["data-daily"] = s.day.on_table
    attrs["data-busy"] = "true" if flow.busy(s) else None
    try:
        return regions(s), attrs
    except Exception:
        if s.table.checked:
            raise
    attrs["data-phase"] = "loading"
    attrs["data-turn"] = None
    return waiting_regions(s), attrs
