"""What the later panels add to the page, one explicit list each, in order: the panels by name, the
menu's entries, the summaries' extra button, the daily deal's hand summary, the notes' line of the
lessons. Their modules (``ui/view/stats_view.py``, ``ui/view/daily_view.py``,
``ui/view/lessons_html.py``) are not needed to draw the table, so they are named through
``ui/core/later.py`` and loaded the first time one of these is drawn."""

from ui.core import later

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from ui.core.state import UIState
    from ui.view import daily_view, lessons_html, stats_view
else:
    daily_view, lessons_html, stats_view = later.modules(
        "view.daily_view", "view.lessons_html", "view.stats_view"
    )

#: The panels drawn by these modules, by their ``UIState.screen.panel`` name.
PANELS = ("statistics", "daily", "lessons", "lesson")


def panel_html(s: "UIState", name: str) -> str:
    """The open panel ``name`` (one of :data:`PANELS`)."""
    if name == "statistics":
        return stats_view.statistics_html(s)
    if name == "lessons":
        return lessons_html.list_html(s)
    if name == "lesson":
        return lessons_html.verdict_html(s)
    return daily_view.daily_panel(s)


def menu_html(s: "UIState") -> str:
    """The menu's entries after the settings: the daily deal, then the statistics."""
    return daily_view.menu_html(s) + stats_view.menu_html(s)


def settings_entries(s: "UIState") -> str:
    """The menu's entries among the settings, after the switches (where their row has room): the
    lessons ("Learn to play")."""
    return lessons_html.menu_html(s)


def summary_buttons() -> str:
    """The hand summary's and the match result's way to the statistics (they cover the menu)."""
    return stats_view.summary_button()


def daily_summary(s: "UIState", body: str) -> "tuple[str, str]":
    """The daily deal's hand summary: its result above ``body``, and its own buttons."""
    return daily_view.summary_note(s) + body, daily_view.summary_footer(s)


def notes_line(s: "UIState") -> str:
    """The lessons' line in the notes: the lesson on the table, or the first visit's offer (drawn
    only when one is up: the table's first paint needs no later module)."""
    if s.lesson.on is None and not s.lesson.offer:
        return ""
    return lessons_html.strip_html(s)
