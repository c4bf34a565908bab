"""The loading screen's failure notice: its texts in every language, written into ``boot.js``.

``web/boot.js`` watches the page while it loads and, when the runtime, a configuration or a Python
file fails to load or the engine worker dies while starting, replaces the spinner with a message
and "Try again". It must work when no Python runs at all, so it cannot ask ``ui/view/i18n.py``: the build
copies these messages' translations from the compiled catalogs into its ``const TEXTS = ...;`` line.
The msgids are marked here for extraction (``tools/i18n.py`` reads this file with the UI's).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from .i18n import LANGUAGES, ROOT


def N_(msgid: str) -> str:
    """Marks a msgid for extraction (translated by the build, shown by ``boot.js``)."""
    return msgid


#: Key in ``boot.js`` -> English msgid.
NOTICE: dict[str, str] = {
    "failed": N_("The game could not load. Check your connection and try again."),
    "engine": N_("The game engine could not start."),
    "offline": N_("You are offline. The game needs one online visit before it can be played offline."),
    "retry": N_("Try again"),
    # The engine's first download (web/boot.js fills in the megabytes), then its start.
    "downloading": N_("Downloading the game: {received} of {total} MB"),
    "starting": N_("Starting the game engine…"),
}

BOOT_SCRIPT = "boot.js"
_TEXTS_LINE = re.compile(r"^(\s*)const TEXTS = .*;.*$", re.MULTILINE)


class NoticeError(RuntimeError):
    """``web/boot.js`` has no single place for the texts."""


def notice_texts(dist: Path) -> dict[str, dict[str, str]]:
    """Language -> key -> text, from the compiled catalogs in ``dist/locales`` (English when a
    translation is missing, as in the UI)."""
    texts: dict[str, dict[str, str]] = {}
    for language in LANGUAGES:
        catalog: dict[str, object] = json.loads(
            (dist / "locales" / f"{language}.json").read_text(encoding="utf-8")
        )
        texts[language] = {}
        for key, msgid in NOTICE.items():
            text = catalog.get(msgid)
            texts[language][key] = text if isinstance(text, str) and text else msgid
    return texts


def write_boot_script(dist: Path, web: Path = ROOT / "web") -> None:
    """Write ``dist/boot.js``: ``web/boot.js`` with the texts of every language in its TEXTS line."""
    template = (web / BOOT_SCRIPT).read_text(encoding="utf-8")
    if len(_TEXTS_LINE.findall(template)) != 1:
        raise NoticeError(f"web/{BOOT_SCRIPT} needs exactly one 'const TEXTS = ...;' line")
    data = json.dumps(notice_texts(dist), ensure_ascii=False, separators=(",", ":"))
    line = f"const TEXTS = {data}; // written by build.py (tools/loading_notice.py)"
    text = _TEXTS_LINE.sub(lambda match: match.group(1) + line, template)
    (dist / BOOT_SCRIPT).write_text(text, encoding="utf-8")
