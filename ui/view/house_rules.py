"""House rules as the page shows them (pure): their names, the settings sheet's choice for the next
match, the table's badge and the summaries' line.

The rules themselves are the engine's (``gongzhu/house_rules.py``, docs/rules.md "House rules"):
the view carries a match's ``rules`` and ``house_rules`` (those that differ from the defaults); this
module only names them. ``tests/test_house_rules.py`` holds :func:`choices` to the engine's rules.
"""

from gongzhu.vocab import RULE_VALUES
from ui.core.settings import RULE_ACTIONS_BY_KEY
from ui.view.html import attrs, esc
from ui.view.i18n import _

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from typing import Any

    from gongzhu.table_view import TableView


def choices() -> "list[tuple[str, str, list[tuple[str, str]]]]":
    """Per rule: its key, its name and its values with their names, the default first (the rules and
    their values: ``gongzhu.vocab.RULE_VALUES``)."""
    rule_names = {
        "match_end": _("Match end"),
        "exposing": _("Exposing"),
        "first_lead": _("First lead"),
        "all_hearts": _("All hearts"),
    }
    value_names = {
        "match_end": {
            "-1000": _("At −1000"),
            "-500": _("Quick match (−500)"),
            "hands:4": _("After 4 hands"),
            "hands:8": _("After 8 hands"),
        },
        "exposing": {"on": _("Exposing on"), "off": _("No exposing")},
        "first_lead": {"2S": _("2♠ leads"), "2C": _("2♣ leads")},
        "all_hearts": {"standard": _("Standard all hearts"), "flip": _("All hearts flips pig and goat")},
    }
    return [
        (key, rule_names[key], [(value, value_names[key][value]) for value in values])
        for key, values in RULE_VALUES
    ]


def names(changed: "dict[str, Any] | None") -> "list[str]":
    """The names of the rules ``changed`` (the view's ``house_rules``), in the order of :func:`choices`
    (anything but an object, e.g. from a tampered save the shape check let through, names none)."""
    if not isinstance(changed, dict):
        changed = {}
    out = []
    for key, _name, values in choices():
        value = changed.get(key)
        out += [name for v, name in values if v == value and v != values[0][0]]
    return out


def badge_html(view: "TableView | None") -> str:
    """A small badge on the table naming the match's house rules ("" for the standard rules)."""
    shown = names(view.get("house_rules") if view else None)
    if not shown:
        return ""
    text = " · ".join(shown)
    return "<span{}>{}</span>".format(
        attrs((("class", "house-badge"), ("data-testid", "house-rules-badge"), ("title", text))), esc(text)
    )


def line_html(view: "TableView | None") -> str:
    """The summaries' line naming the match's house rules ("" for the standard rules)."""
    shown = names(view.get("house_rules") if view else None)
    if not shown:
        return ""
    return '<p class="house-line" data-testid="house-rules-line">{}</p>'.format(
        esc(_("House rules: {rules}").format(rules=" · ".join(shown)))
    )


def sheet_html(chosen: "dict[str, str]", view: "TableView | None") -> str:
    """The settings sheet's "House rules" group: a select per rule (for the next match), and a note
    that the match in progress keeps its own rules."""
    items = []
    for key, name, values in choices():
        options = "".join(
            "<option{}>{}</option>".format(attrs((("value", v), ("selected", v == chosen.get(key)))), esc(n))
            for v, n in values
        )
        testid = RULE_ACTIONS_BY_KEY[key]
        items.append(
            '<label class="field"><span>{}</span><select{}>{}</select></label>'.format(
                esc(name),
                attrs((("data-testid", testid), ("data-action", testid), ("aria-label", name))),
                options,
            )
        )
    note = _("House rules apply from the next match.")
    if view and view.get("phase") != "match_over":
        current = names(view.get("house_rules"))
        keeps = " · ".join(current) if current else _("standard rules")
        note += " " + _("This match keeps its rules: {rules}.").format(rules=keeps)
    return '<fieldset class="house-rules" data-testid="house-rules"><legend>{}</legend>{}<p{}>{}</p></fieldset>'.format(
        esc(_("House rules")),
        "".join(items),
        attrs((("class", "note"), ("data-testid", "house-rules-note"))),
        esc(note),
    )
