"""Translation lookup for the UI layer (runs under MicroPython on the main thread and CPython in tests).

Catalogs are gettext ``.po`` files under ``locales/`` compiled at build time into JSON
(``{msgid: msgstr}`` plus plural entries ``{msgid: [forms...]}``; an entry with a ``msgctxt`` is
keyed ``context + "\\x04" + msgid``), which the UI loads with
:func:`install`.  Plural forms follow each language's own rule (Ukrainian has three).
English is the source language: a missing entry falls back to the msgid.
"""

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from typing import Any

LANGUAGES = ("en", "zh", "fr", "pt", "uk")
DEFAULT_LANGUAGE = "en"

#: ``lang`` attribute (BCP 47) of each language: Simplified Chinese script, Brazilian Portuguese.
HTML_LANG = {"en": "en", "zh": "zh-Hans", "fr": "fr", "pt": "pt-BR", "uk": "uk"}

#: Each language's name in itself, for the language menu (never translated).
LANGUAGE_NAMES = {"en": "English", "zh": "中文", "fr": "Français", "pt": "Português", "uk": "Українська"}

#: ``localStorage`` key of the language the player picked in a menu (the game and rules.html share it).
STORAGE_KEY = "gongzhu.lang"

#: Where the compiled catalogs are served, relative to the page.
CATALOG_URL = "./locales/{}.json"

_language = DEFAULT_LANGUAGE
_messages = {}  # type: dict[str, Any]


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


def install(language: str, messages: "dict[str, Any]") -> None:
    """Make ``messages`` (a compiled catalog) the current translations."""
    global _language, _messages
    _language = language if language in LANGUAGES else DEFAULT_LANGUAGE
    _messages = messages


def language() -> str:
    return _language


def _(msgid: str) -> str:
    text = _messages.get(msgid)
    return str(text) if isinstance(text, str) and text else msgid


def ngettext(singular: str, plural: str, n: int) -> str:
    return _plural(singular, singular, plural, n)


def _plural(key: str, singular: str, plural: str, n: int) -> str:
    forms = _messages.get(key)
    if isinstance(forms, list) and forms:
        index = plural_index(_language, n)
        if index < len(forms) and forms[index]:
            return str(forms[index])
    return singular if n == 1 else plural


#: Separates a ``msgctxt`` from its msgid in a compiled catalog's key (gettext's own convention).
CONTEXT_SEPARATOR = "\x04"


def pgettext(context: str, msgid: str) -> str:
    """``msgid`` in ``context``: for one English word that needs two translations (``"Normal"`` as
    a speed and as a difficulty)."""
    text = _messages.get(context + CONTEXT_SEPARATOR + msgid)
    return str(text) if isinstance(text, str) and text else msgid


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    return _plural(context + CONTEXT_SEPARATOR + singular, singular, plural, n)


def choose_language(preferences: "list[str]", forced: str = "", saved: str = "") -> str:
    """``?lang=`` first, then the language saved from the menu, then the browser's preferences
    (``["pt-BR", "en"]``), then English."""
    if forced in LANGUAGES:
        return forced
    if saved in LANGUAGES:
        return saved
    for tag in preferences:
        base = str(tag).lower().split("-")[0]
        if base in LANGUAGES:
            return base
    return DEFAULT_LANGUAGE


# --------------------------------------------------------------------------- fixed labels
#
# ``N_`` marks a string for extraction without translating it (for tables built at import time,
# before a catalog is installed: translate at display time with ``_(text)``).


def N_(msgid: str) -> str:
    return msgid


TITLE = N_("Gong Zhu — chase the pig")


# --------------------------------------------------------------------------- browser helpers
# (PyScript only: ``pyscript``/``js`` are imported lazily so that CPython can import this module.)


async def load(language: str) -> None:
    """Fetch ``locales/<language>.json`` (compiled at build time), install it and put the page's
    ``<html lang>``, title and ``[data-i18n]`` elements in that language (:func:`apply_document`)."""
    import json

    from pyscript import document, fetch

    if language not in LANGUAGES:
        language = DEFAULT_LANGUAGE
    response = await fetch(CATALOG_URL.format(language))
    if not response.ok:
        raise RuntimeError("catalog " + language + ": HTTP " + str(response.status))
    install(language, json.loads(await response.text()))
    apply_document(document)


def save_language(window: "Any", language: str) -> None:
    """Remember the language picked from a menu (used on the next visit and by rules.html)."""
    glue = getattr(window, "gongzhuStorage", None)  # never throws (web/storage.js)
    if glue is not None:
        glue.setItem(STORAGE_KEY, language)
        return
    try:  # noqa: SIM105  (MicroPython has no contextlib)
        window.localStorage.setItem(STORAGE_KEY, language)
    except Exception:
        pass


def apply_document(document: "Any") -> None:
    """``<html lang>``, the title and every ``[data-i18n]`` element of static HTML in the current language.

    ``data-i18n`` holds the English msgid of the element's text; ``data-i18n-aria-label`` and
    ``data-i18n-title`` those of its ``aria-label`` and ``title`` attributes.
    """
    document.documentElement.lang = HTML_LANG[_language]
    document.title = _(TITLE)
    for element in document.querySelectorAll("[data-i18n]"):
        element.textContent = _(element.getAttribute("data-i18n"))
    for attribute in ("aria-label", "title"):
        for element in document.querySelectorAll("[data-i18n-" + attribute + "]"):
            element.setAttribute(attribute, _(element.getAttribute("data-i18n-" + attribute)))


# --------------------------------------------------------------------------- menu

RULES_PAGE = "./rules.html"


def language_menu_html() -> str:
    """The language switch for the game menu: ``<select data-testid="language" data-action="language">``
    listing every language in its own name (``lang`` set on each option), the current one selected.
    On its ``change`` event call :func:`switch_language` with the select's value, then redraw."""
    from ui.view.html import attrs, esc

    label = esc(_("Language"))
    options = "".join(
        "<option{}>{}</option>".format(
            attrs((("value", code), ("lang", HTML_LANG[code]), ("selected", code == _language))), esc(name)
        )
        for code, name in LANGUAGE_NAMES.items()
    )
    return (
        '<label class="level language"><span>{0}</span>'
        '<select data-testid="language" data-action="language" aria-label="{0}">{1}</select></label>'
    ).format(label, options)


def rules_link_html() -> str:
    """The link to the rules page, in the current language."""
    from ui.view.html import esc

    return (
        '<a class="btn rules-link" data-testid="rules-link" href="{}?lang={}"'
        ' style="display:inline-flex;align-items:center;text-decoration:none">{}</a>'
    ).format(esc(RULES_PAGE), esc(_language), esc(_("Rules")))


async def switch_language(window: "Any", language: str) -> None:
    """Change the language now (from the menu): save the choice, load its catalog and update the
    page's ``lang``, title and static text. The caller redraws; the game itself is untouched."""
    if language not in LANGUAGES:
        return
    save_language(window, language)
    # A ``?lang=`` in the address would override the saved choice on the next reload: drop it.
    url = window.URL.new(window.location.href)
    if url.searchParams.has("lang"):
        url.searchParams.delete("lang")
        window.history.replaceState(None, "", url.href)
    if language == DEFAULT_LANGUAGE:
        install(language, {})
        from pyscript import document

        apply_document(document)
    else:
        await load(language)
