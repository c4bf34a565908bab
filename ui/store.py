"""Autosave: the match and the UI flags in localStorage, and the settings.

Pure Python (no ``pyscript`` import): ``storage`` is anything with ``getItem``, ``setItem`` and
``removeItem`` (the browser's ``localStorage`` or a dict-backed fake in tests). A save that cannot
be read never breaks the page: it is set aside under ``CORRUPT_KEY`` and a new match starts.
"""

import json

SCHEMA = 1
SAVE_KEY = "gongzhu.save.v1"
CORRUPT_KEY = "gongzhu.save.corrupt"
SETTINGS_KEY = "gongzhu.settings.v1"
LEVELS = ("easy", "normal", "hard")
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


def load_settings(storage):
    """``{"level": ..., "lang": ...}``; defaults for anything missing or unreadable."""
    settings = {"level": DEFAULT_LEVEL, "lang": ""}
    try:
        raw = _get(storage, SETTINGS_KEY)
        data = json.loads(raw) if raw else {}
        if isinstance(data, dict):
            if data.get("level") in LEVELS:
                settings["level"] = data["level"]
            if isinstance(data.get("lang"), str):
                settings["lang"] = data["lang"]
    except Exception:  # (settings never break the page)
        pass
    return settings


def save_settings(storage, settings):
    storage.setItem(SETTINGS_KEY, json.dumps({"level": settings["level"], "lang": settings.get("lang", "")}))


def encode(app):
    """The save text of the app: engine state (opaque string), seat 0's view and the UI flags."""
    data = {"schema": SCHEMA, "state": app["state"], "view": app["view"]}
    for key in UI_KEYS:
        data[key] = app.get(key)
    return json.dumps(data)


def decode(text):
    """The saved app fields, or raise ValueError when the save is not a usable one."""
    data = json.loads(text)
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        raise ValueError("unknown save schema")
    state, view = data.get("state"), data.get("view")
    if not isinstance(state, str) or not isinstance(view, dict):
        raise ValueError("save without a match")
    for key in ("phase", "hand", "totals", "trick", "tricks", "refusals"):
        if key not in view:
            raise ValueError("save with an incomplete view")
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


def load(storage):
    """``(app_fields or None, corrupt)``: the saved match, and whether a bad save was set aside."""
    try:
        raw = _get(storage, SAVE_KEY)
    except Exception:  # (storage may be unavailable)
        return None, False
    if raw is None:
        return None, False
    try:
        return decode(raw), False
    except Exception:  # (any unreadable save is set aside, never fatal)
        try:
            storage.setItem(CORRUPT_KEY, raw)
            storage.removeItem(SAVE_KEY)
        except Exception:
            pass
        return None, True


def save(storage, app):
    try:
        storage.setItem(SAVE_KEY, encode(app))
        return True
    except Exception:  # (quota or private mode: play on without a save)
        return False


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
