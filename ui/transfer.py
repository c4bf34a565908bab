"""Export and import of the player's data (statistics and the saved match) as a file (pure).

The file is JSON: ``{"format": FORMAT, "version": VERSION, "record": <the record>, "save": <the
match save's text, or null>}``. An import is checked whole before anything is replaced: its size,
its format tag and version, the record's strict shape (``ui/record.py``) and the save's
(``ui/store.py``; the engine then checks the match itself). A file that is not ours, from a
future version or damaged is refused with the reason, and the current data stays.
"""

import json

from ui import record, store
from ui.i18n import _

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from typing import Any

FORMAT = "gongzhu-player-data"
VERSION = 1
#: The biggest file read (the record and a save: well under 150 kB).
MAX_FILE_CHARS = 262144


class TransferError(ValueError):
    """A file that cannot be imported; ``reason``: ``empty``, ``not_ours``, ``newer``, ``damaged``,
    ``too_big``."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def export_text(storage: "Any") -> str:
    """The player's data as the text of an export file (a broken record exports as a fresh one)."""
    rec, _problem = record.load(storage)
    return json.dumps(
        {
            "format": FORMAT,
            "version": VERSION,
            "record": rec.to_data(),
            "save": store.get_text(storage, store.SAVE_KEY),
        }
    )


def file_name(date: str) -> str:
    return "gongzhu-data-" + date + ".json"


def parse(text: "str | None") -> "tuple[record.Record, str | None, dict[str, Any] | None]":
    """``(record, save text or None, the save's fields or None)`` from an import file, or
    :class:`TransferError` with the reason."""
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


def refusal_text(reason: str) -> str:
    """Why an import was refused, in words; the current data stays."""
    if reason == "empty":
        why = _("it is empty")
    elif reason == "not_ours":
        why = _("it is not a Gong Zhu data file")
    elif reason == "newer":
        why = _("it comes from a newer version of the game")
    elif reason == "too_big":
        why = _("it is too big")
    else:
        why = _("it is damaged")
    return _("This file could not be imported: {reason}. Your data is unchanged.").format(reason=why)
