"""The daily deal on the page: its save slot, its result, its streak and its share text (pure).

The deal itself is the engine's (``gongzhu/daily.py``, the worker's ``daily`` op); this module only
keeps what the page adds. The daily hand is saved in a slot of its own (:data:`SLOT_KEY`), so a
match in progress is never touched and the daily hand stays resumable that day. Its result is
recorded once per date in the player's record (``ui/features/record.py``: ``Record.daily``); opening it
again that day shows the result and offers a practice replay, recorded nowhere. Only today's deal
(UTC) is recorded: the deal of another date, past or future, is played for practice
(:func:`practice_only`), said so on the table, and never counts for the record or the streak.
"""

import json

from gongzhu.vocab import is_date
from ui.core import store
from ui.core.words import lined, said
from ui.features import record

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from typing import Any

    from ui.core.state import UIState, View
    from ui.core.words import Message

SLOT_KEY = "gongzhu.daily.v1"
#: The longest ``?daily=`` value looked at (a date is 10 characters).
MAX_PARAM = 10
#: Moment code -> its emoji in the share line.
EMOJI = (
    ("pig_taken", "🐷"),
    ("goat_won", "🐐"),
    ("transformer_alone", "⚡"),
    ("all_hearts", "❤️"),
    ("all_16", "💯"),
    ("hearts_blocked", "🛡️"),
)
PLACES = ("🥇", "🥈", "🥉", "4️⃣")


def parse_date(text: "str | None") -> "tuple[str | None, bool]":
    """A ``?daily=`` value -> ``(date or None, valid)``: empty means today (``(None, True)``); a
    calendar date YYYY-MM-DD from 2000 to 2999 is taken (``gongzhu.vocab.is_date``, the engine's check); anything else
    is ``(None, False)``."""
    if text is None or text == "":
        return None, True
    text = str(text)
    if len(text) > MAX_PARAM or not is_date(text):
        return None, False
    return text, True


def practice_only(date: str, today: str) -> bool:
    """True when the deal of ``date`` can only be played for practice: it is not today's (UTC)."""
    return date != today


def other_day_note(date: str) -> "Message":
    """What the table says when the deal of another day is opened (it is not recorded)."""
    return said(
        "The daily deal of {date} is not today's: you play it for practice, it is not recorded.", date=date
    )


def day_number(date: str) -> int:
    """Days since 1970-01-01 of a valid YYYY-MM-DD (the civil-from-days algorithm, reversed)."""
    y, m, d = int(date[:4]), int(date[5:7]), int(date[8:])
    y -= 1 if m <= 2 else 0
    era = y // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def streaks(dates: "list[str]") -> "tuple[int, int]":
    """``(current, best)`` runs of consecutive days among the dates played; the current run is the
    one that ends on the latest date played."""
    days = sorted(set(day_number(d) for d in dates))
    best = run = 0
    for i, day in enumerate(days):
        run = run + 1 if i and day == days[i - 1] + 1 else 1
        best = max(best, run)
    return run, best


def played_until(results: "dict[str, Any]", today: str) -> "list[str]":
    """The dates of ``results`` (the record's daily results) up to ``today`` (UTC): an old record may
    hold a later date, recorded before only today's deal was; it never counts in what is shown.
    ``today`` empty (no clock read yet: a record is only shown once the shell has read both): all."""
    if not today:
        return list(results)
    return [date for date in results if day_number(date) <= day_number(today)]


def result_of(view: "View") -> "dict[str, Any] | None":
    """The daily result of a finished hand: ``{score, place, codes}`` (from the engine's view)."""
    moments = view.get("moments")
    if not view.get("last_hand") or not isinstance(moments, list) or len(moments) != 4:
        return None
    mine = moments[0]
    return {"score": view["last_hand"]["scores"][0], "place": mine["place"], "codes": list(mine["codes"])}


def record_result(storage: "Any", date: str, view: "View") -> "tuple[record.Record, str | None]":
    """Record the daily result of ``date`` once (read-modify-write): ``(record, problem)``."""
    rec, problem = record.load(storage)
    result = result_of(view)
    if result is not None and date not in rec.daily:
        rec.daily[date] = result
        if not (problem and problem.endswith("_kept")):
            record.save(storage, rec)
    return rec, problem


def share_message(date: str, result: "dict[str, Any]") -> "Message":
    """A short spoiler-free text: the date, the score, the place, then a line of emoji."""
    score = result["score"]
    line = PLACES[result["place"] - 1] + "".join(e for code, e in EMOJI if code in result["codes"])
    head = said(
        "Gong Zhu daily deal {date}: {score} points, place {place} of 4",
        date=date,
        score=("+" if score > 0 else "") + str(score),
        place=result["place"],
    )
    return lined([head, line])


def encode_slot(s: "UIState") -> str:
    """The daily hand's save: the match save's shape, with its date."""
    data = json.loads(store.encode(s))
    data["daily"] = s.day.on_table
    return json.dumps(data)


def load_slot(storage: "Any", date: str) -> "dict[str, Any] | None":
    """The saved daily hand of ``date``, shape-checked like a match save, or None."""
    raw = store.get_text(storage, SLOT_KEY)
    if raw is None:
        return None
    try:
        saved = store.decode(raw)  # (size, JSON, shape: like any save)
        same_day = json.loads(raw).get("daily") == date
    except Exception:
        return None
    return saved if same_day else None
