"""Translation lookup for the UI layer (runs under MicroPython on the main thread and CPython in tests).

Catalogs are gettext ``.po`` files under ``locales/`` compiled at build time into JSON
(``{msgid: msgstr}`` plus plural entries ``{msgid: [forms...]}``), which the UI loads with
:func:`install`.  Plural forms follow each language's own rule (Ukrainian has three).
English is the source language: a missing entry falls back to the msgid.
"""

LANGUAGES = ("en", "zh", "fr", "pt", "uk")
DEFAULT_LANGUAGE = "en"

_language = DEFAULT_LANGUAGE
_messages = {}


def plural_index(language: str, n: int) -> int:
    """Index of the plural form for ``n`` in ``language`` (the gettext Plural-Forms rule)."""
    if language == "zh":
        return 0
    if language in ("fr", "pt"):
        return 0 if n <= 1 else 1
    if language == "uk":
        if n % 10 == 1 and n % 100 != 11:
            return 0
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return 1
        return 2
    return 0 if n == 1 else 1


def install(language: str, messages: dict) -> None:
    """Make ``messages`` (a compiled catalog) the current translations."""
    global _language, _messages
    _language = language if language in LANGUAGES else DEFAULT_LANGUAGE
    _messages = messages


def language() -> str:
    return _language


def _(msgid: str) -> str:
    text = _messages.get(msgid)
    return text if isinstance(text, str) and text else msgid


def ngettext(singular: str, plural: str, n: int) -> str:
    forms = _messages.get(singular)
    if isinstance(forms, list) and forms:
        index = plural_index(_language, n)
        if index < len(forms) and forms[index]:
            return forms[index]
    return singular if n == 1 else plural


def choose_language(preferences: list, forced: str = "") -> str:
    """``?lang=`` first, then the browser's preferences (``["pt-BR", "en"]``), then English."""
    if forced in LANGUAGES:
        return forced
    for tag in preferences:
        base = str(tag).lower().split("-")[0]
        if base in LANGUAGES:
            return base
    return DEFAULT_LANGUAGE
