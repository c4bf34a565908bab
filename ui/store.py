"""Autosave: the match and the UI flags in localStorage, and the settings.

Pure Python (no ``pyscript`` import): ``storage`` is anything with ``getItem``, ``setItem`` and
``removeItem`` (the browser's ``localStorage`` or a dict-backed fake in tests). A save that cannot
be read never breaks the page: it is set aside under ``CORRUPT_KEY`` and a new match starts.

Save versions: schema 1 (current); schema 0 (the first UI's shape: no ``schema`` field or
``"schema": 0``, ``level`` for ``hand_level``, ``exposing`` for ``expose_sel``) is migrated; a
newer schema, a foreign app's data, truncated JSON or a match that breaks the card invariants is
set aside. Storage that is disabled (private mode) or full leaves the game playable, unsaved:
:func:`open_storage` falls back to memory and :func:`save` reports the failure.
"""

import json

SCHEMA = 1
SAVE_KEY = "gongzhu.save.v1"
CORRUPT_KEY = "gongzhu.save.corrupt"
PROBE_KEY = "gongzhu.probe"
SETTINGS_KEY = "gongzhu.settings.v1"
LEVELS = ("easy", "normal", "hard")
PHASES = ("expose", "play", "hand_over", "match_over")
RANKS = "23456789TJQKA"
SUITS = "SHDC"
DEFAULT_LEVEL = "normal"

#: UI flags saved with the match so a reload resumes exactly where the player was.
UI_KEYS = ("hand_level", "bots_exposed", "hold", "speed", "selected", "expose_sel", "notice")


def _get(storage, key):
    value = storage.getItem(key)
    if value is None:
        return None
    value = str(value)
    # A JS null may come through the FFI as the string "null" or an undefined marker.
    if value in ("null", "undefined"):
        return None
    return value


def get_text(storage, key):
    """``storage[key]`` as text, or None (missing, or storage refusing to be read)."""
    try:
        return _get(storage, key)
    except Exception:
        return None


def load_settings(storage):
    """``{"level": ..., "lang": ...}``; defaults for anything missing or unreadable."""
    settings = {"level": DEFAULT_LEVEL, "lang": "", "four_colour": False}
    try:
        raw = _get(storage, SETTINGS_KEY)
        data = json.loads(raw) if raw else {}
        if isinstance(data, dict):
            if data.get("level") in LEVELS:
                settings["level"] = data["level"]
            if isinstance(data.get("lang"), str):
                settings["lang"] = data["lang"]
            settings["four_colour"] = data.get("four_colour") is True
    except Exception:  # (settings never break the page)
        pass
    return settings


def save_settings(storage, settings):
    """Save the settings; False when storage refuses (full or disabled)."""
    data = {
        "level": settings["level"],
        "lang": settings.get("lang", ""),
        "four_colour": bool(settings.get("four_colour")),
    }
    return _set(storage, SETTINGS_KEY, json.dumps(data))


def _set(storage, key, value):
    """Write; False when storage refuses. The page's ``window.gongzhuStorage`` (web/storage.js)
    returns False instead of throwing (MicroPython cannot catch a JavaScript exception)."""
    try:
        return storage.setItem(key, value) is not False
    except Exception:  # (a Python stand-in that raises, as localStorage would)
        return False


def encode(app):
    """The save text of the app: engine state (opaque string), seat 0's view and the UI flags."""
    data = {"schema": SCHEMA, "state": app["state"], "view": app["view"]}
    for key in UI_KEYS:
        data[key] = app.get(key)
    return json.dumps(data)


class SaveError(ValueError):
    """A save that cannot be resumed; ``reason`` is ``unreadable`` or ``newer``."""

    def __init__(self, message, reason="unreadable"):
        super().__init__(message)
        self.reason = reason


def _is_card(code):
    return isinstance(code, str) and len(code) == 2 and code[0] in RANKS and code[1] in SUITS


def _cards(value, most=13):
    if not isinstance(value, list) or len(value) > most:
        raise SaveError("not a list of cards")
    for code in value:
        if not _is_card(code):
            raise SaveError("not a card: " + repr(code)[:20])
    if len(set(value)) != len(value):
        raise SaveError("a card twice")
    return value


def _plays(trick):
    if not isinstance(trick, dict) or not isinstance(trick.get("plays"), list) or len(trick["plays"]) > 4:
        raise SaveError("not a trick")
    out = []
    for play in trick["plays"]:
        if (
            not isinstance(play, dict)
            or play.get("seat") not in (0, 1, 2, 3)
            or not _is_card(play.get("card"))
        ):
            raise SaveError("not a play")
        out.append(play)
    return out


def check_state(state):
    """Raise :class:`SaveError` unless ``state`` (the engine state, parsed) keeps the card invariants:
    four hands of at most 13 cards, each seat's hand + its plays this hand = 13, all 52 cards once."""
    if not isinstance(state, dict) or state.get("phase") not in PHASES:
        raise SaveError("not an engine state")
    hands = state.get("hands")
    if not isinstance(hands, list) or len(hands) != 4:
        raise SaveError("not four hands")
    tricks = state.get("tricks")
    if not isinstance(tricks, list) or len(tricks) > 13:
        raise SaveError("not a list of tricks")
    totals = state.get("totals")
    if not isinstance(totals, list) or len(totals) != 4 or not all(isinstance(t, int) for t in totals):
        raise SaveError("not four totals")
    plays = []
    for trick in tricks:
        plays.extend(_plays(trick))
    plays.extend(_plays(state.get("trick")))
    seen = []
    for seat in range(4):
        hand = _cards(hands[seat])
        played = [p["card"] for p in plays if p["seat"] == seat]
        if len(hand) + len(played) != 13:
            raise SaveError("seat {} holds {} cards".format(seat, len(hand) + len(played)))
        seen.extend(hand)
        seen.extend(played)
    if len(set(seen)) != 52:
        raise SaveError("not 52 different cards")
    if state["phase"] == "play" and state.get("turn") not in (0, 1, 2, 3):
        raise SaveError("no seat to play")


def migrate(data):
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


def decode(text):
    """The saved app fields, or raise ValueError (:class:`SaveError`) when the save is not usable."""
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
    for key in (
        "phase",
        "hand",
        "totals",
        "trick",
        "tricks",
        "refusals",
        "hand_number",
        "exposed",
        "hand_sizes",
    ):
        if key not in view:
            raise SaveError("save with an incomplete view")
    try:
        parsed = json.loads(state)
    except Exception:
        raise SaveError("engine state is not JSON") from None
    check_state(parsed)
    if (
        view["phase"] != parsed["phase"]
        or view["hand"] != parsed["hands"][0]
        or view["totals"] != parsed["totals"]
    ):
        raise SaveError("the saved table does not match the saved match")
    app = {"state": state, "view": view}
    app["hand_level"] = data.get("hand_level") if data.get("hand_level") in LEVELS else DEFAULT_LEVEL
    app["bots_exposed"] = bool(data.get("bots_exposed"))
    app["hold"] = bool(data.get("hold"))
    app["speed"] = bool(data.get("speed"))
    selected = data.get("selected")
    app["selected"] = selected if isinstance(selected, str) and selected in view["hand"] else None
    sel = data.get("expose_sel")
    app["expose_sel"] = [c for c in sel if c in view["hand"]] if isinstance(sel, list) else []
    notice = data.get("notice")
    app["notice"] = notice if isinstance(notice, str) else ""
    return app


def set_aside(storage, raw):
    """Keep an unusable save under ``CORRUPT_KEY`` (never lost) and clear the save slot."""
    if _set(storage, CORRUPT_KEY, raw):  # (storage full: leave the save where it is, never lose it)
        try:  # noqa: SIM105  (MicroPython has no contextlib)
            storage.removeItem(SAVE_KEY)
        except Exception:
            pass


def load(storage):
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

    def __init__(self):
        self.data = {}

    def getItem(self, key):
        return self.data.get(key)

    def setItem(self, key, value):
        self.data[key] = str(value)

    def removeItem(self, key):
        if key in self.data:
            del self.data[key]


def open_storage(window):
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
    """A storage that can be read but refuses writes (full): reads go through, writes to memory."""

    def __init__(self, storage):
        self.storage = storage
        self.memory = MemoryStorage()

    def getItem(self, key):
        if key in self.memory.data:
            return self.memory.data[key]
        try:
            return self.storage.getItem(key)
        except Exception:
            return None

    def setItem(self, key, value):
        try:
            self.storage.setItem(key, value)
        except Exception:
            self.memory.setItem(key, value)
            raise

    def removeItem(self, key):
        self.memory.removeItem(key)
        try:  # noqa: SIM105  (MicroPython has no contextlib)
            self.storage.removeItem(key)
        except Exception:
            pass


def save(storage, app):
    """Autosave; False when storage refuses (quota or private mode: play on without a save)."""
    return _set(storage, SAVE_KEY, encode(app))


def start_decision(saved, seed_param):
    """What the page does on load: ``("new", seed)`` or ``("resume", None)``.

    A ``?seed=N`` parameter always starts that deal (seed None: a fresh random match), otherwise a
    usable save is resumed.
    """
    if seed_param is not None:
        return "new", seed_param
    if saved is not None:
        return "resume", None
    return "new", None


def parse_seed(text):
    """``?seed=`` value -> int, or None when absent or not a number."""
    if text is None:
        return None
    text = str(text).strip()
    if not text or not (text.isdigit() or (text[0] == "-" and text[1:].isdigit())):
        return None
    return int(text)
