"""The daily deal's HTML: its menu entry, the result panel and the hand summary's buttons (pure)."""

from ui.features import daily
from ui.view import texts
from ui.view.html import esc
from ui.view.i18n import _
from ui.view.parts import button, panel

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from typing import Any

    from ui.core.state import UIState


def moments_text(codes: "list[str]") -> str:
    """The hand's moments in words (pig, goat, transformer...), or ""."""
    names = {
        "pig_taken": _("You took the pig"),
        "goat_won": _("You won the goat"),
        "transformer_alone": _("You took the transformer alone"),
        "all_hearts": _("You collected all the hearts"),
        "all_16": _("You took all 16 point cards"),
        "hearts_blocked": _("You blocked an all-hearts run"),
    }
    return " · ".join(names[c] for c in codes if c in names)


def result_html(date: str, result: "dict[str, Any]") -> str:
    score = result["score"]
    lines = [
        _("Daily deal of {date}").format(date=date),
        _("Your score: {score}").format(score=texts.signed(score)),
        _("Place {place} of 4").format(place=result["place"]),
    ]
    said = moments_text(result["codes"])
    if said:
        lines.append(said)
    body = "".join("<p>{}</p>".format(esc(line)) for line in lines)
    return '<div data-testid="daily-result">{}</div>'.format(body)


def daily_panel(s: "UIState") -> str:
    """Today's daily deal was played: its result, Share, and a replay for practice."""
    result = s.day.result
    if not result:
        return ""
    body = result_html(s.day.date, result)
    body += "<p>{}</p>".format(esc(_("Your result is recorded. You may replay this deal for practice.")))
    footer = button("share", "share", _("Share"), primary=True) + button(
        "daily-practice", "daily-practice", _("Replay for practice")
    )
    return panel("daily-panel", _("Daily deal"), body, footer, closable=True)


def summary_footer(s: "UIState") -> str:
    """The hand summary of the daily deal: its result is in; Share (unless practising), back to the match."""
    out = ""
    if not s.day.practice and s.day.result:
        out += button("share", "share", _("Share"), primary=True)
    return out + button("daily-leave", "daily-leave", _("Back to my match"), primary=not out)


def summary_note(s: "UIState") -> str:
    if s.day.practice and not s.day.result:  # (another day's deal: ``daily.practice_only``)
        return "<p>{}</p>".format(esc(_("Practice: only today's daily deal is recorded.")))
    if s.day.practice:
        return "<p>{}</p>".format(esc(_("Practice: this result is not recorded.")))
    if s.day.result:
        return result_html(str(s.day.on_table), s.day.result)
    return ""


def menu_html(s: "UIState") -> str:
    return button("open-daily", "daily", _("Daily deal"))


__all__ = ["daily", "daily_panel", "menu_html", "summary_footer"]
