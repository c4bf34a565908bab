"""Importing the player's data: the file picked, checked whole (its shape here, its match by the
engine), offered, and written once the player says yes. Pure, typed transitions (the runner picks
the file, reads and writes storage, asks the engine). A refused file changes nothing."""

from ui.core import effects as fx
from ui.core import flow
from ui.core.words import said
from ui.features import record_flow, transfer

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from typing import Any

    from ui.core.flow import Result
    from ui.core.state import UIState
    from ui.features.record import Record


def picked(s: "UIState", text: "Any") -> "Result":
    """The file the player picked (its text; None: cancelled, "" an empty file, refused with its
    reason): the player's record is read to say what the file would replace."""
    if text is None:
        return s, []

    def record_read(s: "UIState", mine: "Record", _problem: "str | None", today: str) -> "Result":
        return _check(s, text, mine, today)

    return s, [fx.ReadRecord(record_read)]


def _check(s: "UIState", text: "Any", mine: "Record", today: str) -> "Result":
    try:
        rec, save, fields = transfer.parse(text if isinstance(text, str) else None, today)
        offer = transfer.ImportOffer(rec, save, fields, transfer.file_date(text), mine)
    except transfer.TransferError as exc:
        return record_flow.import_said(s, transfer.refusal_note(exc.reason))
    if fields is None:
        return record_flow.offered(s, offer)

    def checked(s: "UIState", packed: "dict[str, Any]", sent: "str | None" = None) -> "Result":
        offer.checked = packed
        return record_flow.offered(s, offer)

    def refused(s: "UIState", reason: str) -> "Result":
        return record_flow.import_said(s, transfer.refusal_note("damaged"))

    return s, [fx.Call("check", {"state": fields["state"]}, checked, failed=refused)]


def written(s: "UIState", offer: "transfer.ImportOffer", ok: bool) -> "Result":
    """The offered data was written (``ok``), or storage refused it and nothing changed. Written:
    its statistics are the player's, and its match (engine-checked) is on the table unless the
    daily deal is; any flow in progress stops and the table goes on from the file's match."""
    if not ok:
        return record_flow.import_said(
            s, said("This file could not be imported: the browser's storage is full.")
        )
    s.stats.record = offer.record
    s.stats.note = None
    s.screen.panel = None
    resumed = False
    if offer.fields is not None and offer.checked is not None and not s.day.on_table:
        resumed = True
        s.link.gen += 1
        flow.checked(flow.resume(s, offer.fields), offer.checked)
    s.screen.message = said("Your data was imported.")
    told = fx.Announce(s.screen.message)
    return s, [told, fx.Drive()] if resumed else [told]
