"""Export and import of the player's data (statistics and the saved match) as a file (pure).

The file is JSON: ``{"format": FORMAT, "version": VERSION, "record": <the record>, "save": <the
match save's text, or null>, "date": <the day it was exported, YYYY-MM-DD (UTC); absent from older
files>}``. An import is checked whole before anything is replaced: its size,
its format tag and version, the record's strict shape (``ui/features/record.py``) and the save's
(``ui/core/store.py``; the engine then checks the match itself). A file that is not ours, from a
future version or damaged is refused with the reason, and the current data stays; so is a file whose
daily results (``record.daily``) are dated after its own export date or after today (a daily result
is the day's deal played that day: a later one would mark a deal played before it is dealt, and the
player's real play that day would count as practice only). A good file is
not taken at once: :class:`ImportOffer` says what it would replace (matches and hands on each side,
the date of the file's match, how many daily results it brings) and the player is asked first (``ui/features/record_flow.py``).
"""

import json

from ui.core import store
from ui.core.words import said
from ui.features import daily, record

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from typing import Any

    from ui.core.words import Message

FORMAT = "gongzhu-player-data"
VERSION = 1
#: The biggest file read (the record and a save: well under 150 kB).
MAX_FILE_CHARS = 262144


class TransferError(ValueError):
    """A file that cannot be imported; ``reason``: ``empty``, ``not_ours``, ``newer``, ``damaged``,
    ``too_big``, ``daily_after_export`` (a daily result dated after the file's export date),
    ``daily_after_today`` (one dated after today)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def export_text(storage: "Any", date: str = "") -> str:
    """The player's data as the text of an export file made on ``date`` (a broken record exports
    as a fresh one)."""
    rec, _problem = record.load(storage)
    data = {
        "format": FORMAT,
        "version": VERSION,
        "record": rec.to_data(),
        "save": store.get_text(storage, store.SAVE_KEY),
    }  # type: dict[str, Any]
    if date:
        data["date"] = date
    return json.dumps(data)


def file_name(date: str) -> str:
    return "gongzhu-data-" + date + ".json"


def parse(text: "str | None", today: str = "") -> "tuple[record.Record, str | None, dict[str, Any] | None]":
    """``(record, save text or None, the save's fields or None)`` from an import file, or
    :class:`TransferError` with the reason (:func:`file_date` reads its date); its daily results
    are checked against its export date and ``today`` (YYYY-MM-DD, UTC; "" checks none)."""
    if text is None or len(text) > MAX_FILE_CHARS:
        raise TransferError("too_big")
    if not text.strip():
        raise TransferError("empty")
    try:
        data = json.loads(text)
    except Exception:
        raise TransferError("not_ours") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise TransferError("not_ours")
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise TransferError("damaged")
    if version > VERSION:
        raise TransferError("newer")
    try:
        rec = record.from_data(data.get("record"))
    except record.RecordError as exc:
        raise TransferError("newer" if exc.reason == "newer" else "damaged") from None
    check_daily_dates(rec, _date_of(data), today)
    save = data.get("save")
    if save is None:
        return rec, None, None
    if not isinstance(save, str):
        raise TransferError("damaged")
    try:
        fields = store.decode(save)
    except store.SaveError as exc:
        raise TransferError("newer" if exc.reason == "newer" else "damaged") from None
    return rec, save, fields


def check_daily_dates(rec: "record.Record", exported: "str | None", today: str) -> None:
    """:class:`TransferError` when a daily result of ``rec`` is dated after the file's export date
    (``exported``, or None: an older file) or after ``today`` ("": not checked). Dates are
    ``YYYY-MM-DD``: their order is their text's."""
    last = max(rec.daily) if rec.daily else ""
    if exported is not None and last > exported:
        raise TransferError("daily_after_export")
    if today and last > today:
        raise TransferError("daily_after_today")


def file_date(text: str) -> "str | None":
    """The day a file :func:`parse` took was exported, or None (an older file); a date that is not
    a calendar date is :class:`TransferError` ``damaged``."""
    return _date_of(json.loads(text))


def _date_of(data: "dict[str, Any]") -> "str | None":
    date = data.get("date")
    if date is None:
        return None
    found, valid = daily.parse_date(date if isinstance(date, str) else "?")
    if not valid or found is None:
        raise TransferError("damaged")
    return found


def _counts(rec: "record.Record") -> "tuple[int, int]":
    """``(matches, hands)`` the record holds: under the standard rules and every house-rule set."""
    tallies = list(rec.rule_sets.values())  # (no starred display: MicroPython's parser refuses it)
    tallies.append(rec.tallies["all"])
    return sum(t.matches_played for t in tallies), sum(t.hands_played for t in tallies)


class ImportOffer:
    """A file checked whole, waiting for the player's yes: what it holds and what it would replace."""

    def __init__(
        self,
        rec: "record.Record",
        save: "str | None",
        fields: "dict[str, Any] | None",
        date: "str | None",
        mine: "record.Record",
    ) -> None:
        self.record = rec  # type: record.Record  # the file's statistics, checked
        self.save = save  # type: str | None  # the file's match save, or None (the player's match stays)
        self.fields = fields  # type: dict[str, Any] | None  # that save's fields (store.decode), or None
        self.checked = None  # type: dict[str, Any] | None  # the engine's {state, view} of the file's match
        self.date = date  # type: str | None  # the day the file was exported, or None (not in the file)
        self.mine = _counts(mine)  # type: tuple[int, int]  # the player's matches and hands, replaced
        self.theirs = _counts(rec)  # type: tuple[int, int]  # the file's matches and hands
        self.daily = len(rec.daily)  # type: int  # the file's daily results (they replace the player's)

    def lines(self) -> "list[Message]":
        """What the import replaces, then the question (each line a message the view words)."""
        out = [
            said(
                "Your statistics: matches played {matches}, hands played {hands}.",
                matches=self.mine[0],
                hands=self.mine[1],
            ),
            said(
                "The file's statistics: matches played {matches}, hands played {hands}.",
                matches=self.theirs[0],
                hands=self.theirs[1],
            ),
            said("The file's daily deal results: {count}.", count=self.daily),
        ]
        if self.save is None:
            out.append(said("The file holds no match: your current match stays."))
        elif self.date:
            out.append(
                said("The file's match, saved on {date}, replaces your current match.", date=self.date)
            )
        else:
            out.append(said("The file's match (its date is not in the file) replaces your current match."))
        out.append(said("Replace your data with this file's? This cannot be undone."))
        return out


def write(storage: "Any", offer: ImportOffer) -> bool:
    """Write the offered statistics and match; False when storage refuses either, and then the
    player's record is put back as it was (a half import is never left)."""
    old = store.get_text(storage, record.RECORD_KEY)
    if not record.save(storage, offer.record):
        return False
    if offer.save is None or store.set_text(storage, store.SAVE_KEY, offer.save):
        return True
    if old is None:
        try:  # noqa: SIM105  (MicroPython has no contextlib)
            storage.removeItem(record.RECORD_KEY)
        except Exception:
            pass
    else:
        store.set_text(storage, record.RECORD_KEY, old)
    return False


def refusal_note(reason: str) -> "Message":
    """Why an import was refused (its reason worded inside); the current data stays."""
    if reason == "empty":
        why = said("it is empty")
    elif reason == "not_ours":
        why = said("it is not a Gong Zhu data file")
    elif reason == "newer":
        why = said("it comes from a newer version of the game")
    elif reason == "too_big":
        why = said("it is too big")
    elif reason == "daily_after_export":
        why = said("it holds daily deal results dated after the day it was exported")
    elif reason == "daily_after_today":
        why = said("it holds daily deal results dated after today")
    else:
        why = said("it is damaged")
    return said("This file could not be imported: {reason}. Your data is unchanged.", reason=why)
