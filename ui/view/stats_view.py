"""The statistics panel's HTML, from the player's record (pure, unit-tested).

Each figure is an element ``data-stat=NAME`` (all difficulties) or ``data-stat=NAME.LEVEL`` whose
text is the number alone (``–`` before there is one); labels come from the catalogs and every value
goes through ``ui/view/html.py``. The standard rules' figures come first; below them, one column per
house-rule set the player has played (cells ``data-rules-stat=NAME`` with ``data-rules=KEY``,
``ui.features.record.rule_set_key``), headed by the rules' names.
"""

from ui.features import daily
from ui.features.record import SCOPES, rule_set
from ui.view import house_rules, texts
from ui.view.html import attrs, esc
from ui.view.i18n import _
from ui.view.parts import button, panel

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from ui.core.state import UIState
    from ui.features.record import Record, Tally


def rows() -> "tuple[tuple[str, str], ...]":
    """The rows of the panel: (figure name, its label in the current language)."""
    return (
        ("matches_played", _("Matches played")),
        ("matches_won", _("Matches won")),
        ("win_rate", _("Win rate (%)")),
        ("hands_played", _("Hands played")),
        ("average_hand", _("Average hand score")),
        ("best_hand", _("Best hand")),
        ("worst_hand", _("Worst hand")),
        ("streak", _("Current winning streak")),
        ("best_streak", _("Best winning streak")),
        ("pigs_taken", _("Pigs taken")),
        ("goats_won", _("Goats won")),
        ("transformer_alone", _("Transformer taken alone")),
        ("all_hearts", _("All hearts collected")),
        ("all_16", _("All 16 point cards")),
        ("exposures", _("Cards exposed")),
        ("exposure_effect", _("Average effect of your exposures")),
        ("hearts_blocked", _("All-hearts runs blocked")),
    )


NONE = "–"


def _ratio(part: int, whole: int, scale: int = 1) -> str:
    """``part / whole × scale`` to one decimal (without a trailing .0), or – when ``whole`` is 0."""
    if not whole:
        return NONE
    tenths = (abs(part) * scale * 10 * 2 + whole) // (2 * whole)  # rounded half up, in tenths
    text = str(tenths // 10) + ("" if tenths % 10 == 0 else "." + str(tenths % 10))
    return ("-" if part < 0 and tenths else "") + text


def figure(tally: "Tally", name: str) -> str:
    """The text of figure ``name`` of ``tally``: a number, or – when there is none yet."""
    if name == "win_rate":
        return _ratio(tally.matches_won, tally.matches_played, 100)
    if name == "average_hand":
        return _ratio(tally.points, tally.hands_played)
    if name == "exposure_effect":
        return _ratio(tally.exposure_effect, tally.exposed_hands)
    value = getattr(tally, name)
    return NONE if value is None else str(value)


def statistics_body(record: "Record") -> str:
    head = "".join(
        '<th scope="col">{}</th>'.format(esc(_("All") if scope == "all" else texts.level_name(scope)))
        for scope in SCOPES
    )
    lines = []
    for name, label in rows():
        cells = "".join(
            "<td{}>{}</td>".format(
                attrs((("data-stat", name if scope == "all" else name + "." + scope),)),
                esc(figure(record.tallies[scope], name)),
            )
            for scope in SCOPES
        )
        lines.append('<tr><th scope="row">{}</th>{}</tr>'.format(esc(label), cells))
    return '<table class="stats"><thead><tr><td></td>{}</tr></thead><tbody>{}</tbody></table>'.format(
        head, "".join(lines)
    )


def rule_sets_body(record: "Record") -> str:
    """The figures of each house-rule set played ("" when none was), after the standard rules'."""
    keys = sorted(record.rule_sets)
    if not keys:
        return ""
    head = "".join(
        '<th scope="col">{}</th>'.format(esc(" · ".join(house_rules.names(rule_set(key))))) for key in keys
    )
    lines = []
    for name, label in rows():
        cells = "".join(
            "<td{}>{}</td>".format(
                attrs((("data-rules-stat", name), ("data-rules", key))),
                esc(figure(record.rule_sets[key], name)),
            )
            for key in keys
        )
        lines.append('<tr><th scope="row">{}</th>{}</tr>'.format(esc(label), cells))
    return '<h3>{}</h3><table class="stats house" data-testid="stats-house-rules"><thead><tr><td></td>{}</tr></thead><tbody>{}</tbody></table>'.format(
        esc(_("House rules")), head, "".join(lines)
    )


def daily_figures(rec: "Record", today: str) -> "list[tuple[str, str, str]]":
    """The daily deal's figures as of ``today`` (UTC; a later date an old record holds is left out):
    (name, label, number)."""
    dates = daily.played_until(rec.daily, today)
    current, best = daily.streaks(dates)
    scores = [rec.daily[date]["score"] for date in dates]
    return [
        ("daily_played", _("Daily deals played"), str(len(dates))),
        ("daily_streak", _("Daily streak (days in a row)"), str(current)),
        ("daily_best_streak", _("Best daily streak"), str(best)),
        ("daily_best_score", _("Best daily score"), str(max(scores)) if scores else NONE),
    ]


def daily_body(rec: "Record", today: str) -> str:
    rows_html = "".join(
        '<tr><th scope="row">{}</th><td{}>{}</td></tr>'.format(
            esc(label), attrs((("data-stat", name),)), esc(value)
        )
        for name, label, value in daily_figures(rec, today)
    )
    return '<h3>{}</h3><table class="stats daily"><tbody>{}</tbody></table>'.format(
        esc(_("Daily deal")), rows_html
    )


def statistics_footer(s: "UIState") -> str:
    offer = s.stats.import_offer
    if offer is not None:  # (what the import replaces, then the question: ui/features/record_flow.py)
        said = "".join('<p class="confirm">{}</p>'.format(esc(texts.words(line))) for line in offer.lines())
        return '<div class="confirm" data-testid="import-offer">{}</div>{}{}'.format(
            said,
            button("import-confirm", "import-confirm", _("Replace my data"), primary=True),
            button("import-cancel", "import-cancel", _("Cancel")),
        )
    if s.stats.confirm_reset:
        return '<p class="confirm">{}</p>{}{}'.format(
            esc(_("Reset your statistics? This cannot be undone.")),
            button("reset-confirm", "reset-confirm", _("Reset"), primary=True),
            button("reset-cancel", "reset-cancel", _("Cancel")),
        )
    return (
        button("export", "export", _("Export my data"))
        + button("import", "import", _("Import data"))
        + button("reset-statistics", "reset-statistics", _("Reset statistics"))
    )


def statistics_html(s: "UIState") -> str:
    """The statistics panel (``ui.features.record`` as last read from storage)."""
    if s.stats.record is None:
        return ""
    # (one region scrolls, the title and the actions stay on screen: web/game.css)
    house = rule_sets_body(s.stats.record)
    standard = "<h3>{}</h3>".format(esc(_("Standard rules"))) if house else ""
    body = '<div class="stats-scroll" tabindex="0" role="region"{}>{}{}{}{}</div>'.format(
        attrs((("aria-label", _("Statistics")),)),
        standard,
        statistics_body(s.stats.record),
        house,
        daily_body(s.stats.record, s.stats.today),
    )
    for note in (s.screen.message, s.stats.note):  # (an import's outcome; statistics set aside)
        if note:
            body = '<p class="note">{}</p>{}'.format(esc(texts.words(note)), body)
    return panel("statistics", _("Statistics"), body, statistics_footer(s), closable=True)


def menu_html(s: "UIState") -> str:
    """The menu entry of the player's record."""
    return button("open-statistics", "statistics", _("Statistics"))


def summary_button() -> str:
    """The way to the statistics from the hand summary and the match result (they cover the menu)."""
    return button("summary-statistics", "statistics", _("Statistics"))
