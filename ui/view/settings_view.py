"""The settings sheet's HTML: what ☰ opens (pure, unit-tested).

A modal dialog (``data-testid=sheet``) over the table, drawn only while ``UIState.screen.sheet`` is set:
the settings (difficulty, language, play speed, how long a finished trick stays, four colours,
memory aid, sound; the lessons beside them) and the rest of the menu (captured cards, the daily deal and the statistics
(``ui/view/extras.py``), the rules). Its transitions are ``ui/core/flow.py``'s
(:func:`~ui.core.flow.menu`, :func:`~ui.core.flow.toggle_setting`, :func:`~ui.core.flow.choose`); ``ui/shell/dom.py``
moves the focus into it and back to ☰, ``ui/shell/app.py`` keeps Tab inside and closes it on Escape.
"""

from gongzhu.vocab import DEFAULT_LEVEL
from ui.core import settings
from ui.view import extras, house_rules, i18n, texts
from ui.view.html import attrs, esc
from ui.view.i18n import _, pgettext
from ui.view.parts import button

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from collections.abc import Sequence

    from ui.core.state import UIState


def select_field(testid: str, label: str, options: "Sequence[tuple[str, str]]", current: str) -> str:
    """A labelled ``<select data-testid=testid data-action=testid>``; ``options`` are (value, name)."""
    items = "".join(
        "<option{}>{}</option>".format(attrs((("value", value), ("selected", value == current))), esc(name))
        for value, name in options
    )
    return '<label class="field"><span>{label}</span><select{sel}>{items}</select></label>'.format(
        label=esc(label),
        sel=attrs((("data-testid", testid), ("data-action", testid), ("aria-label", label))),
        items=items,
    )


def speed_names() -> "list[tuple[str, str]]":
    """The play speeds (``UIState.settings.play_speed``), slowest first, with their names."""
    names = {"slow": _("Slow"), "normal": pgettext("play speed", "Normal"), "fast": _("Fast")}
    return [(speed, names[speed]) for speed in settings.PLAY_SPEEDS]


def pause_names() -> "list[tuple[str, str]]":
    """How long a finished trick stays (``UIState.settings.trick_pause``), shortest first, with their names."""
    names = {"short": _("Short"), "normal": pgettext("trick pause", "Normal"), "long": _("Long")}
    return [(pause, names[pause]) for pause in settings.TRICK_PAUSES]


def settings_html(s: "UIState") -> str:
    """The settings: four selects, then three switches (``aria-pressed`` buttons)."""
    return "".join(
        (
            select_field(
                "difficulty",
                _("Difficulty"),
                texts.level_names(),
                s.settings.level or DEFAULT_LEVEL,
            ),
            i18n.language_menu_html(),
            select_field("play-speed", _("Play speed"), speed_names(), s.settings.play_speed),
            select_field("trick-pause", _("Finished trick stays"), pause_names(), s.settings.trick_pause),
            button("four-colour", "four-colour", _("Four colours"), pressed=bool(s.settings.four_colour)),
            button("memory-aid", "memory-aid", _("Memory aid"), pressed=bool(s.settings.memory_aid)),
            button("sound", "sound", _("Sound"), pressed=bool(s.settings.sound)),
            extras.settings_entries(s),
            house_rules.sheet_html(settings.read_rules(s.settings.house_rules), s.table.view),
        )
    )


def actions_html(s: "UIState") -> str:
    """The rest of the menu: the captured cards, the registered entries, the rules page."""
    at_table = bool(
        s.table.view and s.table.view["phase"] in ("expose", "play")
    )  # (a summary covers the panels)
    captured = button("view-captured", "captured", _("View captured cards"), disabled=not at_table)
    return captured + extras.menu_html(s) + i18n.rules_link_html()


def sheet_html(s: "UIState") -> str:
    """The open sheet (a scrim that closes it when tapped, then the dialog), or "" when closed."""
    if not s.screen.sheet:
        return ""
    return (
        '<div class="scrim" data-action="menu-close"></div>'
        '<section class="sheet" role="dialog" aria-modal="true" aria-labelledby="sheet-title"'
        ' data-testid="sheet" data-return-focus>'
        '<header class="sheet-head"><h2 id="sheet-title">{title}</h2>'
        '<button type="button" class="close" data-testid="menu-close" data-action="menu-close"'
        ' aria-label="{close}" title="{close}">×</button></header>'
        '<div class="sheet-group" role="group" aria-label="{title}">{settings}</div>'
        '<div class="sheet-group" role="group" aria-label="{more}">{actions}</div>'
        "</section>"
    ).format(
        title=esc(_("Settings")),
        close=esc(_("Close")),
        more=esc(_("More")),
        settings=settings_html(s),
        actions=actions_html(s),
    )
