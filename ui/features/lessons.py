"""The guided lessons' flows: offered on a first visit, opened from the menu, started, guided step by
step, judged, tried again, skipped or left, resumed after a reload. Pure, typed transitions (the
runner reads and writes storage and asks the engine).

A lesson is a table the engine deals (``lesson_start``: ``gongzhu/lessons.py``) through the one
``match.start_match``; the opponents play it as any match (``flow.next_step``), which stops where the
lesson has something to say (``flow._lesson_waits``) and asks the engine where it stands
(``LessonStep`` -> :func:`step` -> ``lesson_check``): the player's next step, with the card it
asks for selected (as a hint selects it) and said, or its verdict once its moment is over, shown
in the lesson's panel with what happened and why. The lesson's table is saved in a slot of its
own (:data:`SLOT_KEY`), its progress apart (:data:`PROGRESS_KEY`): the player's match and its save
are never touched, and leaving a lesson resumes that match from its save. Lessons count in no
statistics.
"""

import json

from gongzhu.vocab import LESSONS
from ui.core import effects as fx
from ui.core import flow, match, store
from ui.core.words import composed

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from typing import Any

    from ui.core.flow import Result
    from ui.core.state import UIState

#: The lesson on the table, saved as a match is (``store.encode``) with its number.
SLOT_KEY = "gongzhu.lesson.v1"
#: The lessons' progress: ``{"schema": 1, "done": [numbers], "offered": true}``.
PROGRESS_KEY = "gongzhu.lessons.v1"
#: Where progress that could not be read is set aside.
CORRUPT_KEY = "gongzhu.lessons.corrupt"
#: The longest progress text read.
MAX_PROGRESS_CHARS = 400

#: The buttons (``data-action``) handled here: the list, the offer, the lesson's own; and
#: ``lesson-1`` … ``lesson-7`` (:func:`on_action`).
ACTIONS = (
    "lessons",
    "offer-learn",
    "offer-dismiss",
    "lesson-retry",
    "lesson-next",
    "lesson-skip",
    "lesson-leave",
)


# --------------------------------------------------------------------------- storage (pure)


def read_progress(raw: "str | None") -> "tuple[list[int] | None, bool]":
    """Stored progress -> ``(the lessons done, or None when nothing is stored, readable)``; a text
    that is not progress (``readable`` False) counts as none (the runner sets it aside)."""
    if raw is None:
        return None, True
    try:
        data = json.loads(raw) if len(raw) <= MAX_PROGRESS_CHARS else None
        done = data.get("done") if isinstance(data, dict) and data.get("schema") == 1 else None
        if not isinstance(done, list):
            return [], False
        return sorted(set(n for n in done if type(n) is int and 1 <= n <= len(LESSONS))), True
    except Exception:
        return [], False


def encode_progress(s: "UIState") -> str:
    return json.dumps({"schema": 1, "done": sorted(s.lesson.done), "offered": True})


def encode_slot(s: "UIState") -> str:
    """The lesson's table: the match save's shape, with the lesson's number."""
    data = json.loads(store.encode(s))
    data["lesson"] = s.lesson.on
    return json.dumps(data)


def read_slot(raw: "str | None") -> "tuple[int, dict[str, Any]] | None":
    """A saved lesson (shape-checked like a match save, its number one of the lessons) or None."""
    if raw is None:
        return None
    try:
        saved = store.decode(raw)  # (size, JSON, shape: like any save)
        number = json.loads(raw).get("lesson")
    except Exception:
        return None
    if type(number) is not int or not 1 <= number <= len(LESSONS):
        return None
    return number, saved


def fresh_table(s: "UIState") -> bool:
    """The match on the table has not begun: its first hand, no card played yet."""
    view = s.table.view
    return bool(
        view is not None
        and view["hand_number"] == 1
        and not view["history"]
        and not view["tricks"]
        and not view["trick"]["plays"]
    )


# --------------------------------------------------------------------------- the start


def at_start(
    s: "UIState", done: "list[int] | None", slot: "tuple[int, dict[str, Any]] | None", first_visit: bool
) -> "Result":
    """The start, once the table is the engine's: the progress read (``done`` None: none stored);
    a lesson saved in its slot resumes (the engine checks it against its lesson), else the first
    visit's offer is up when nothing was ever played. Then play goes on."""
    s.lesson.done = list(done or [])
    if slot is not None and not s.saving.elsewhere and s.link.ask_seed is None:  # (a ?seed= question first)
        return _resume(s, slot[0], slot[1])
    s.lesson.offer = done is None and first_visit and fresh_table(s)
    return s, [fx.Drive()]


def _resume(s: "UIState", number: int, saved: "dict[str, Any]") -> "Result":
    s.link.gen += 1  # (whatever ran for the match stops)
    s.link.busy = True

    def checked(s: "UIState", packed: "dict[str, Any]", sent: "str | None" = None) -> "Result":
        s.link.busy = False
        flow.resume(s, saved)
        flow.checked(s, packed)
        _on_table(s, number, packed)
        s.table.hand_level = packed["level"]
        return _adopt(s, packed["verdict"], [fx.Announce(_goal(number)), fx.Drive()])

    def refused(s: "UIState", reason: str) -> "Result":
        s.link.busy = False
        return s, [fx.Warn("saved lesson refused: " + reason), fx.SaveLessons(), fx.Drive()]

    return s, [fx.Call("lesson_resume", {"lesson": number, "state": saved["state"]}, checked, failed=refused)]


# --------------------------------------------------------------------------- a lesson


def start(s: "UIState", number: int) -> "Result":
    """Lesson ``number`` on the table (the engine deals it); the first visit's offer is answered."""
    s.lesson.offer = False
    s.screen.panel = None
    s.screen.alert = None

    def dealt(s: "UIState", packed: "dict[str, Any]", sent: "str | None" = None) -> "Result":
        s, effects = flow.started(s, packed)
        _on_table(s, number, packed)
        s.table.hand_level = packed["level"]
        return _adopt(s, packed["verdict"], [fx.Announce(_goal(number))] + effects + [fx.Drive()])

    s, effects = match.start_match(s, None, then=dealt, lesson=number)
    return s, [fx.SaveLessons()] + effects


def _on_table(s: "UIState", number: int, packed: "dict[str, Any]") -> None:
    s.lesson.on = number
    s.lesson.until = int(packed.get("until", 13))
    s.lesson.outcome = None
    s.lesson.passed = False
    s.lesson.asked = None  # (asked again where the player acts: the opponents' exposures may come first)
    s.lesson.said = None


def _goal(number: int) -> "Any":
    return composed("lesson", what="goal", number=number)


def step(s: "UIState") -> "Result":
    """Ask the engine where the lesson on the table stands (:func:`checked` takes it)."""
    if s.lesson.on is None or s.table.state is None:
        return s, []
    s.link.busy = True  # (until it answers: the page reads as busy, a tap waits)
    return s, [fx.Call("lesson_check", {"lesson": s.lesson.on, "state": s.table.state}, checked)]


def checked(s: "UIState", verdict: "dict[str, Any]", sent: "str | None" = None) -> "Result":
    """The engine's word on the lesson: its next step, or its verdict."""
    s.link.busy = False
    if s.lesson.on is None or (sent is not None and s.table.state != sent):
        return s, []
    return _adopt(s, verdict, [])


def _adopt(s: "UIState", verdict: "dict[str, Any]", effects: "list[fx.Effect]") -> "Result":
    """A verdict of the engine (``gongzhu.lessons.verdict``) on the table: said, and the card the
    step asks for selected (as a hint selects it); or, once due, the lesson's panel and its progress."""
    number = s.lesson.on
    if number is None:
        return s, effects
    if verdict.get("due"):
        s.lesson.outcome = str(verdict["outcome"])
        s.lesson.passed = bool(verdict["done"])
        s.lesson.step = None
        s.lesson.guide = None
        s.table.selected = None
        s.screen.message = None
        s.screen.panel = "lesson"
        if s.lesson.passed and number not in s.lesson.done:
            s.lesson.done = sorted(s.lesson.done + [number])
        said = composed("lesson", what="outcome", number=number, code=s.lesson.outcome)
        return s, effects + [fx.SaveLessons(), fx.Announce(said)]
    code = verdict.get("step")
    if not code:
        return s, effects
    s.lesson.step = str(code)
    s.lesson.guide = verdict.get("guide")
    s.motion.dealing = None  # (the selection redraws the hand: its cards must not arrive again)
    if s.lesson.guide:
        s.table.selected = s.lesson.guide
    if verdict.get("expose") is not None:
        s.table.expose_sel = list(verdict["expose"])
    message = composed("lesson", what="step", number=number, code=s.lesson.step, card=s.lesson.guide)
    s.screen.message = message
    point = s.lesson.step + " " + str(s.table.state)
    if s.lesson.said == point:  # (asked again at the same point: shown again, not read out again)
        return s, effects
    s.lesson.said = point
    return s, effects + [fx.Announce(message)]


def hint(s: "UIState") -> "Result":
    """Hint in a lesson: its step again, the card it asks for selected."""
    if s.lesson.step is None:
        return s, []
    s.lesson.asked = None
    s.lesson.said = None
    return step(s)


# --------------------------------------------------------------------------- leaving


def leave(s: "UIState") -> "Result":
    """Back to the player's match: its save is read (the lesson stays on the table until then, so an
    autosave still queued for it goes to the lesson's slot, never over the match's save)."""
    s.screen.panel = None
    s.screen.message = None
    return s, [fx.ReadSave(back_to_match)]


def back_to_match(s: "UIState", saved: "dict[str, Any] | None", _problem: "str | None" = None) -> "Result":
    """The match's save read: the lesson leaves the table (its slot is emptied) and the match resumes,
    checked by the engine, or a new match starts when there is none."""
    s.lesson.on = None
    s.lesson.outcome = None
    s.lesson.step = None
    s.lesson.guide = None
    s, effects = match.back_to_saved(s, saved)
    return s, [fx.SaveLessons()] + effects


def on_action(s: "UIState", name: str) -> "Result":
    """A button of the lessons: the menu's list, the offer, a lesson's panel and strip."""
    if name == "lessons":
        s.screen.panel = "lessons"
        if s.lesson.offer:
            s.lesson.offer = False
            return s, [fx.SaveLessons()]
        return s, []
    if name == "offer-learn":
        return start(s, 1)
    if name == "offer-dismiss":
        s.lesson.offer = False
        return s, [fx.SaveLessons()]
    if name.startswith("lesson-") and name[7:].isdigit():
        number = int(name[7:])
        return start(s, number) if 1 <= number <= len(LESSONS) else (s, [])
    on = s.lesson.on
    if on is None:
        return s, []
    if name == "lesson-retry":
        return start(s, on)
    if name in ("lesson-next", "lesson-skip") and on < len(LESSONS):
        return start(s, on + 1)
    if name in ("lesson-next", "lesson-skip", "lesson-leave"):
        return leave(s)
    return s, []


def handles(name: str) -> bool:
    """The button ``name`` is one of the lessons'."""
    return name in ACTIONS or (name.startswith("lesson-") and name[7:].isdigit())
