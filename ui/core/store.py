"""Autosave: the match and the UI flags in localStorage, and the settings.

Pure Python (no ``pyscript`` import): ``storage`` is anything with ``getItem``, ``setItem`` and
``removeItem`` (the browser's ``localStorage`` or a dict-backed fake in tests). A save that cannot
be read never breaks the page: it is set aside under ``CORRUPT_KEY`` and a new match starts.

Save versions: schema 1 (current); schema 0 (the first UI's shape: no ``schema`` field or
``"schema": 0``, ``level`` for ``hand_level``, ``exposing`` for ``expose_sel``) is migrated; a
newer schema, a foreign app's data, truncated JSON or a table of the wrong shape is set aside (and
a match the engine's ``check`` refuses, by ``ui/shell/app.py``). Storage that is disabled (private mode) or full leaves the game playable, unsaved:
:func:`open_storage` falls back to memory and :func:`save` reports the failure.
"""

import json

from gongzhu.vocab import DEFAULT_LEVEL, HAND_ENDS, LEVELS, MAX_SEED
from ui.core import settings, shape
from ui.core.state import TableState

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from typing import Any

    from ui.core.settings import Settings
    from ui.core.state import UIState

SCHEMA = 1
SAVE_KEY = "gongzhu.save.v1"
CORRUPT_KEY = "gongzhu.save.corrupt"
#: Set-aside saves kept, newest first: ``CORRUPT_KEY``, then ``CORRUPT_KEY + ".2"``, ``".3"``...
CORRUPT_SLOTS = 5
#: The longest save read (a real one, late in a long match, holds ~10,000 characters): a bigger one
#: is set aside unread, so a planted multi-megabyte save cannot freeze the page.
MAX_SAVE_CHARS = 65536
PROBE_KEY = "gongzhu.probe"
SETTINGS_KEY = "gongzhu.settings.v1"

#: The longest match token kept from a save (``ui/features/record_flow.py`` makes them; a longer or odd one is dropped).
MAX_TOKEN = 24


def _get(storage: "Any", key: str) -> "str | None":
    """The stored text, or None when there is none (a JS null or undefined is not a ``str``; a save
    whose text is ``null`` is, and is set aside like any other broken save)."""
    value = storage.getItem(key)
    return value if isinstance(value, str) else None


def get_text(storage: "Any", key: str) -> "str | None":
    """``storage[key]`` as text, or None (missing, or storage refusing to be read)."""
    try:
        return _get(storage, key)
    except Exception:
        return None


def load_settings(storage: "Any") -> "Settings":
    """The settings stored (``ui/core/settings.py`` checks them: defaults for anything missing or
    unreadable). (The language is saved apart, under ``ui.view.i18n.STORAGE_KEY``, which the rules
    page shares.)"""
    try:
        raw = _get(storage, SETTINGS_KEY)
        data = json.loads(raw) if raw and len(raw) < 1000 else {}
    except Exception:  # (settings never break the page)
        data = {}
    return settings.read(data)


def save_settings(storage: "Any", s: "UIState") -> bool:
    """Save the settings of the UI state ``ui``; False when storage refuses (full or disabled)."""
    return _set(storage, SETTINGS_KEY, json.dumps(settings.as_json(s.settings)))


def _set(storage: "Any", key: str, value: str) -> bool:
    """Write; False when storage refuses. The page's ``window.gongzhuStorage`` (web/storage.js)
    returns False instead of throwing (MicroPython cannot catch a JavaScript exception)."""
    try:
        return storage.setItem(key, value) is not False
    except Exception:  # (a Python stand-in that raises, as localStorage would)
        return False


def set_text(storage: "Any", key: str, value: str) -> bool:
    """Write ``storage[key]``; False when storage refuses (full or disabled)."""
    return _set(storage, key, value)


def encode(s: "UIState") -> str:
    """The save text of the UI state ``ui``: engine state (opaque string), seat 0's view, the flags."""
    data = {"schema": SCHEMA, "state": s.table.state, "view": s.table.view}
    for key in TableState.SAVED:  # (the table's flags: a reload resumes exactly where the player was)
        data[key] = getattr(s.table, key)
    ours = s.review.state in (None, s.table.state)
    data["review_trick"] = s.review.trick if ours else 0  # (ui/features/review.py)
    data["review_hand"] = s.review.hand if ours and s.review.trick else 0
    data["tab"] = s.saving.tab  # (two tabs' saves always differ, so each sees the other's writes)
    return json.dumps(data)


class SaveError(ValueError):
    """A save that cannot be resumed; ``reason`` is ``unreadable`` or ``newer``."""

    def __init__(self, message: str, reason: str = "unreadable") -> None:
        super().__init__(message)
        self.reason = reason


def migrate(data: "dict[str, Any]") -> "dict[str, Any]":
    """An older save's fields in the current shape (schema 0 -> 1); raise SaveError when unknown."""
    schema = data.get("schema", 0)
    if not isinstance(schema, int) or isinstance(schema, bool):
        raise SaveError("unknown save schema")
    if schema > SCHEMA:
        raise SaveError("save from a newer version", "newer")
    if schema == 0:
        if "state" not in data or "view" not in data:
            raise SaveError("not a save of this game")
        data = dict(data)
        data["schema"] = 1
        if "hand_level" not in data:
            data["hand_level"] = data.get("level")
        if "expose_sel" not in data:
            data["expose_sel"] = data.get("exposing") or []
        data.setdefault(
            "bots_exposed", data["view"].get("phase") != "expose" if isinstance(data["view"], dict) else False
        )
    elif schema != SCHEMA:
        raise SaveError("unknown save schema")
    return data


def decode(text: str) -> "dict[str, Any]":
    """The saved app fields, or raise ValueError (:class:`SaveError`) when the save is not usable.

    Only the shape is checked here (:func:`ui.core.shape.check_view`: safe to draw); whether the match
    itself holds together is the engine's to say (the ``check`` op), before anyone plays on.
    """
    if len(text) > MAX_SAVE_CHARS:
        raise SaveError("save too big")
    try:
        data = json.loads(text)
    except Exception:
        raise SaveError("not JSON") from None
    if not isinstance(data, dict):
        raise SaveError("not a save of this game")
    data = migrate(data)
    state, view = data.get("state"), data.get("view")
    if not isinstance(state, str) or not isinstance(view, dict):
        raise SaveError("save without a match")
    try:
        shape.check_view(view)
    except shape.ShapeError as exc:
        raise SaveError("the saved table: " + str(exc)) from None
    app = {"state": state, "view": view}  # type: dict[str, Any]
    app["hand_level"] = data.get("hand_level") if data.get("hand_level") in LEVELS else DEFAULT_LEVEL
    app["bots_exposed"] = data.get("bots_exposed") is True
    app["hold"] = data.get("hold") is True
    app["speed"] = data.get("speed") is True
    selected = data.get("selected")
    app["selected"] = selected if isinstance(selected, str) and selected in view["hand"] else None
    token = data.get("match_token")
    ok = isinstance(token, str) and len(token) <= MAX_TOKEN and all(c.isdigit() or c == "." for c in token)
    app["match_token"] = token if ok else ""
    sel = data.get("expose_sel")
    app["expose_sel"] = [c for c in sel if c in view["exposable"]] if isinstance(sel, list) else []
    trick = data.get("review_trick")
    over = view["phase"] in HAND_ENDS
    app["review_trick"] = trick if over and type(trick) is int and 1 <= trick <= 13 else 0
    hand = data.get("review_hand")
    ok = app["review_trick"] and view["phase"] == "match_over" and type(hand) is int and 0 < hand < 1000
    app["review_hand"] = hand if ok else 0
    return app


def corrupt_key(slot: int) -> str:
    """The key of set-aside slot ``slot`` (1 = the newest)."""
    return CORRUPT_KEY if slot == 1 else CORRUPT_KEY + "." + str(slot)


def set_aside(storage: "Any", raw: str) -> None:
    """Keep an unusable save in the newest set-aside slot, the older ones one slot down (the oldest
    of :data:`CORRUPT_SLOTS` dropped), and clear the save slot. When storage refuses the copy (full:
    a planted save may fill the quota), the save stays where it is, never lost, refused on each load.
    """
    for slot in range(CORRUPT_SLOTS - 1, 0, -1):
        older = get_text(storage, corrupt_key(slot))
        if older is not None and not _set(storage, corrupt_key(slot + 1), older):
            return
    if _set(storage, CORRUPT_KEY, raw):
        _remove(storage, SAVE_KEY)


def save_blocked(storage: "Any") -> bool:
    """True when a save that could not be resumed still holds the save slot (storage refused to set
    it aside): the new match then plays unsaved rather than write over it."""
    return get_text(storage, SAVE_KEY) is not None


def remove(storage: "Any", key: str) -> None:
    """Remove ``key`` from storage (a refusal is ignored)."""
    _remove(storage, key)


def _remove(storage: "Any", key: str) -> None:
    try:  # noqa: SIM105  (MicroPython has no contextlib)
        storage.removeItem(key)
    except Exception:
        pass


def load(storage: "Any") -> "tuple[dict[str, Any] | None, str | None]":
    """``(app_fields or None, problem)``: the saved match, and why a bad save was set aside
    (None, ``"unreadable"`` or ``"newer"``)."""
    try:
        raw = _get(storage, SAVE_KEY)
    except Exception:  # (storage may be unavailable)
        return None, None
    if raw is None:
        return None, None
    try:
        return decode(raw), None
    except Exception as exc:  # (any unreadable save is set aside, never fatal)
        set_aside(storage, raw)
        return None, getattr(exc, "reason", "unreadable")


class MemoryStorage:
    """Stands in for ``localStorage`` when the browser refuses it (private mode, disabled)."""

    def __init__(self) -> None:
        self.data = {}  # type: dict[str, str]

    def getItem(self, key: str) -> "str | None":
        return self.data.get(key)

    def setItem(self, key: str, value: str) -> None:
        self.data[key] = str(value)

    def removeItem(self, key: str) -> None:
        if key in self.data:
            del self.data[key]


def open_storage(window: "Any") -> "tuple[Any, bool]":
    """``(storage, usable)``: in the page, web/storage.js's never-throwing ``gongzhuStorage``;
    elsewhere ``window.localStorage`` when it can be written, else a stand-in."""
    glue = getattr(window, "gongzhuStorage", None)
    if glue is not None:
        return glue, bool(glue.usable)
    try:
        storage = window.localStorage
        storage.setItem(PROBE_KEY, "1")
        storage.removeItem(PROBE_KEY)
        return storage, True
    except Exception:  # (SecurityError when disabled, QuotaExceededError when full)
        try:
            return _ReadOnly(window.localStorage), False
        except Exception:
            return MemoryStorage(), False


class _ReadOnly:
    """A storage that can be read but refuses writes (full): reads and writes go to it, and a write
    it refuses is refused here too, never kept aside and read back (the stored text is the truth)."""

    def __init__(self, storage: "Any") -> None:
        self.storage = storage

    def getItem(self, key: str) -> "str | None":
        try:
            return _get(self.storage, key)
        except Exception:
            return None

    def setItem(self, key: str, value: str) -> None:
        self.storage.setItem(key, value)

    def removeItem(self, key: str) -> None:
        try:  # noqa: SIM105  (MicroPython has no contextlib)
            self.storage.removeItem(key)
        except Exception:
            pass


def save(storage: "Any", s: "UIState") -> bool:
    """Autosave; False when storage refuses (quota or private mode: play on without a save)."""
    return _set(storage, SAVE_KEY, encode(s))


def start_decision(saved: "dict[str, Any] | None", seed_param: "int | None") -> "tuple[str, int | None]":
    """What the page does on load: ``("new", seed)``, ``("resume", None)`` or ``("ask", seed)``.

    A ``?seed=N`` link starts that deal, but never silently over a match in progress: then the
    player is asked (``"ask"``) and may resume instead. Otherwise a usable save is resumed.
    """
    in_progress = saved is not None and saved["view"]["phase"] != "match_over"
    if seed_param is not None:
        return ("ask" if in_progress else "new"), seed_param
    if saved is not None:
        return "resume", None
    return "new", None


def parse_seed(text: "str | None") -> "tuple[int | None, bool]":
    """``?seed=`` value -> ``(seed or None, valid)``: absent is ``(None, True)``; anything but a
    whole number within ±:data:`MAX_SEED` is ``(None, False)`` (refused with a notice)."""
    if text is None:
        return None, True
    text = str(text).strip()
    digits = text[1:] if text[:1] == "-" else text
    if not digits or len(digits) > len(str(MAX_SEED)) or not digits.isdigit():
        return None, False
    seed = int(text)
    return (seed, True) if -MAX_SEED <= seed <= MAX_SEED else (None, False)
