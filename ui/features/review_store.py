"""The match's last hands kept reviewable: their engine states and the coach's analyses, stored.

Pure Python (no ``pyscript``): ``storage`` is anything with ``getItem``/``setItem`` (the browser's
``localStorage`` or a test's fake). **Budget**: the last :data:`KEEP_HANDS` finished hands of the
match, each its engine state (~7 KB late in a long match, ~8.5 KB as stored text; its summary repeats
the hand's 13 tricks) and the coach's analyses (~0.2 KB a decision, ~2.5 KB a hand): ~65 KB in one
key, :data:`KEY`, never more than :data:`MAX_CHARS` read.
A hand of another match is dropped when a new match's hand is kept (a lower or equal number).

Nothing read here is shown as it is: the match result offers only what the engine's
``check_reviews`` op returns (a tampered or foreign entry is set aside, under :data:`CORRUPT_KEY`).
"""

import json

from gongzhu.vocab import KEEP_HANDS
from ui.core.store import get_text, set_text

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from typing import Any

KEY = "gongzhu.reviews.v1"
CORRUPT_KEY = "gongzhu.reviews.corrupt"
#: The most characters read (six hands of ~11 KB, with room): a bigger text is set aside unread.
MAX_CHARS = 131072


def entries(storage: "Any") -> "list[dict[str, Any]]":
    """The stored entries ``{hand, state, analyses}`` whose shape is right (not yet checked by the
    engine: for its ``check_reviews`` op, never to draw); [] when there are none or the text is bad."""
    raw = get_text(storage, KEY)
    if raw is None or len(raw) > MAX_CHARS:
        return []
    try:
        data = json.loads(raw)
    except Exception:
        return []
    out = []
    for entry in data if isinstance(data, list) else []:
        if (
            isinstance(entry, dict)
            and type(entry.get("hand")) is int
            and isinstance(entry.get("state"), str)
            and isinstance(entry.get("analyses"), list)
        ):
            out.append({"hand": entry["hand"], "state": entry["state"], "analyses": entry["analyses"]})
    return out


def remember(storage: "Any", hand: int, state: str, analyses: "list[dict[str, Any]]") -> bool:
    """Keep hand ``hand`` (its engine state and the analyses so far), in place of any entry of that
    number or a higher one (another match's), the oldest beyond :data:`KEEP_HANDS` dropped. False
    when storage refuses (the review then lasts until Next hand only)."""
    kept = [e for e in entries(storage) if e["hand"] < hand]
    kept.append({"hand": hand, "state": state, "analyses": analyses})
    return set_text(storage, KEY, json.dumps(kept[-KEEP_HANDS:]))


def replace(storage: "Any", hands: "list[dict[str, Any]]", set_aside: int) -> None:
    """Store the hands the engine checked (``check_reviews``); when it set entries aside, the text
    read is kept under :data:`CORRUPT_KEY` first (replacing the one before)."""
    if set_aside:
        raw = get_text(storage, KEY)
        if raw is not None and not set_text(storage, CORRUPT_KEY, raw[:MAX_CHARS]):
            return  # (storage full: the entries stay, set aside again on the next check)
    kept = [{"hand": h["hand_number"], "state": h["state"], "analyses": h["analyses"]} for h in hands]
    set_text(storage, KEY, json.dumps(kept))
