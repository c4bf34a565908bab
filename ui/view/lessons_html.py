"""The lessons' words and HTML (pure, every value escaped): each lesson's title and goal, its steps
and verdicts (keyed by the engine's codes, ``gongzhu/lessons.py``), the lesson's strip on the table,
the first visit's offer, the list of lessons (the menu's "Learn to play") and the verdict's panel."""

from gongzhu.vocab import LESSONS
from ui.view import texts
from ui.view.html import attrs, esc
from ui.view.i18n import _
from ui.view.parts import button, panel

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from ui.core.state import UIState


def title(number: int) -> str:
    """Lesson ``number``'s title."""
    key = LESSONS[number - 1]
    names = {
        "tricks": _("Tricks"),
        "pig": _("The pig"),
        "goat": _("The goat"),
        "hearts": _("Hearts"),
        "transformer": _("The transformer"),
        "exposing": _("Exposing"),
        "match": _("The match"),
    }
    return names[key]


def goal(number: int) -> str:
    """Lesson ``number``'s goal, in one sentence."""
    key = LESSONS[number - 1]
    goals = {
        "tricks": _(
            "Follow suit and win this trick: the highest card of the suit led takes it, and its winner leads next."
        ),
        "pig": _("Don't take the pig (Q♠, −100): play a spade too low to win this trick."),
        "goat": _("Win the goat (J♦, +100): play a diamond higher than the jack."),
        "hearts": _(
            "Hearts are worth −200 in all, but whoever takes all thirteen scores +200 instead: take the last hearts."
        ),
        "transformer": _("Take the transformer (10♣) with nothing else that scores: alone, it is worth +50."),
        "exposing": _("Expose the goat (J♦) to double it to +200, then win it."),
        "match": _(
            "A match ends when a total reaches −1000; the highest total wins. End it while you are on top."
        ),
    }
    return goals[key]


def step_text(code: str, card: "str | None") -> str:
    """The step ``code`` (``<lesson>_<n>`` or ``<lesson>_expose``) with the card it asks for."""
    name = texts.card_label(card) if card else ""
    steps = {
        "tricks_0": _("You must follow suit: play the card {card}, higher than every card of the suit led."),
        "pig_0": _("The pig is on the table: play the card {card}, and the king takes this trick, not you."),
        "goat_0": _("The goat is on the table: play the card {card}, which beats the jack."),
        "hearts_0": _("Every heart taken so far is yours: play the card {card} to win this trick too."),
        "hearts_1": _("Now lead the card {card}: nobody has a heart left, so it wins the trick."),
        "transformer_0": _(
            "The transformer is on the table with no other points: play the card {card} to take it."
        ),
        "exposing_expose": _("The goat (J♦) is chosen: press {button} to expose it."),
        "exposing_0": _(
            "An exposed card may not be led in the first trick of its suit: lead the card {card} first."
        ),
        "exposing_1": _("Diamonds have been led: now lead the card {card}, the goat; nobody can beat it."),
        "match_0": _(
            "A total of −1000 or less ends the match: play the card {card}, so the king takes the pig."
        ),
        "match_1": _("Play your last card, {card}."),
    }
    text = steps.get(code)
    return text.format(card=name, button=_("Expose")) if text else ""


def outcome_text(code: str) -> str:
    """What happened at the lesson's moment, and why (``<lesson>_done`` or ``<lesson>_retry``)."""
    outcomes = {
        "tricks_done": _(
            "The highest card of the suit led wins: this trick is yours, and you lead the next one."
        ),
        "tricks_retry": _("A higher card of the suit led won this trick: its player leads next."),
        "pig_done": _("The king won the trick, so its player took the pig: −100 for them, not for you."),
        "pig_retry": _("Your card was the highest of the suit led, so you took the pig: −100."),
        "goat_done": _("Your card was the highest diamond: you won the goat, +100."),
        "goat_retry": _("A higher diamond won the trick: the goat went to another player."),
        "hearts_done": _("You took all thirteen hearts: instead of −200, they score +200."),
        "hearts_retry": _("Another player took hearts too, so yours count against you."),
        "transformer_done": _(
            "You took the transformer with nothing else that scores: +50. With other points, it doubles them."
        ),
        "transformer_retry": _("The transformer went to another player."),
        "exposing_done": _(
            "Exposed, the goat counts double: +200. Exposing the pig makes it −200, the ace of hearts"
            " doubles every heart, the transformer multiplies by 4."
        ),
        "exposing_retry": _("This time the goat was not both exposed by you and won by you."),
        "match_done": _("A total reached −1000 and yours is the highest: you win the match!"),
        "match_retry": _("You took the pig, so nobody reached −1000: the match goes on."),
    }
    return outcomes.get(code, "")


def words(what: str, number: int, code: str = "", card: "str | None" = None) -> str:
    """A lesson's message (``ui.core.words.composed("lesson", …)``): its goal (with its place in the
    lessons), a step, or the verdict."""
    if what == "goal":
        head = _("Lesson {n} of {count}").format(n=number, count=len(LESSONS))
        return head + " · " + title(number) + ": " + goal(number)
    if what == "step":
        return step_text(code, card)
    return outcome_text(code)


def _strip_button(testid: str, action: str, label: str, short: str) -> str:
    """A button of the strip: its label, or on a phone a sign (``short``) named by the label."""
    return '<button{}><span class="long">{}</span><span class="short" aria-hidden="true">{}</span></button>'.format(
        attrs(
            (
                ("type", "button"),
                ("class", "btn"),
                ("data-testid", testid),
                ("data-action", action),
                ("aria-label", label),
                ("title", label),
            )
        ),
        esc(label),
        esc(short),
    )


def strip_html(s: "UIState") -> str:
    """The notes' line while a lesson is on the table (its place, title and goal, Skip and Leave), or
    the first visit's offer, or ""."""
    number = s.lesson.on
    if number is not None:
        place = _("Lesson {n} of {count}").format(n=number, count=len(LESSONS))
        return (
            '<span class="lesson-strip" data-testid="lesson-strip" data-lesson="{number}">'
            '<b class="head"><span class="place">{place} ·</span> {title}</b> <span class="goal">{goal}</span>'
            " {skip}{leave}</span>"
        ).format(
            number=esc(number),
            place=esc(place),
            title=esc(title(number)),
            goal=esc(goal(number)),
            skip=_strip_button("strip-skip", "lesson-skip", _("Skip"), "»"),
            leave=_strip_button("strip-leave", "lesson-leave", _("Leave"), "×"),
        )
    if s.lesson.offer:
        return '<span class="lesson-offer" data-testid="lesson-offer"><span class="q">{}</span> {}{}</span>'.format(
            esc(_("New to Gong Zhu?")),
            button("offer-learn", "offer-learn", _("Learn to play"), primary=True),
            button("offer-dismiss", "offer-dismiss", _("Play now")),
        )
    return ""


def menu_html(s: "UIState") -> str:
    """The menu's entry: the list of lessons."""
    return button("open-lessons", "lessons", _("Learn to play"))


def list_html(s: "UIState") -> str:
    """The lessons, each a button that starts it (the ones done marked) and its goal in one sentence."""
    items = []
    for number in range(1, len(LESSONS) + 1):
        done = number in s.lesson.done
        label = "{}. {}".format(number, title(number))
        mark = (
            ' <span aria-hidden="true">✓</span><span class="sr-only">{}</span>'.format(esc(_("done")))
            if done
            else ""
        )
        items.append(
            '<li><button{}>{}{}</button><p class="lesson-goal">{}</p></li>'.format(
                attrs(
                    (
                        ("type", "button"),
                        ("class", "btn lesson-item" + (" done" if done else "")),
                        ("data-testid", "lesson-" + str(number)),
                        ("data-action", "lesson-" + str(number)),
                        ("data-done", "true" if done else None),
                    )
                ),
                esc(label),
                mark,
                esc(goal(number)),
            )
        )
    body = '<p>{}</p><ol class="lessons">{}</ol>'.format(
        esc(_("Each lesson teaches one rule on a real table.")), "".join(items)
    )
    return panel("lessons", _("Learn to play"), body, closable=True)


def verdict_html(s: "UIState") -> str:
    """The lesson's verdict: what happened and why, then the next lesson, or try again."""
    number = s.lesson.on or 1
    passed = s.lesson.passed
    body = '<p data-testid="lesson-outcome" data-outcome="{}">{}</p>'.format(
        esc(s.lesson.outcome or ""), esc(outcome_text(s.lesson.outcome or ""))
    )
    last = number >= len(LESSONS)
    if (
        passed and not last
    ):  # (the next lesson's goal, read before it starts: a phone's strip has no room for it)
        body += '<p class="next">{}</p>'.format(
            esc(_("Next lesson") + " · " + title(number + 1) + ": " + goal(number + 1))
        )
    elif not passed:  # (the goal again, for the retry)
        body += '<p class="next">{}</p>'.format(esc(goal(number)))
    if passed:
        footer = button(
            "lesson-next",
            "lesson-leave" if last else "lesson-next",
            _("Back to my match") if last else _("Next lesson"),
            primary=True,
        ) + ("" if last else button("lesson-leave", "lesson-leave", _("Back to my match")))
    else:
        footer = button("lesson-retry", "lesson-retry", _("Try again"), primary=True)
        footer += "" if last else button("lesson-skip", "lesson-skip", _("Skip"))
        footer += button("lesson-leave", "lesson-leave", _("Back to my match"))
    head = _("Well done!") if passed else _("Not quite")
    html = panel("lesson-verdict", head + " · " + title(number), body, footer)
    return html.replace('class="panel"', 'class="panel {}"'.format("won" if passed else "lost"), 1)
