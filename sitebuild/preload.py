"""The page's preload list: every file the first paint fetches, announced before the policy.

Chromium's preload scanner, which fetches a page's scripts and stylesheets while the parser still
waits on the first script, stops at a ``<meta http-equiv="Content-Security-Policy">``: after it,
each ``<script src>`` of ``<head>`` is fetched only when the parser reaches it, one round trip
after the other, and PyScript then discovers its chunks, its configuration, MicroPython and the
UI's modules in a chain of further round trips (measured 2026-12-06 through ``bench/load.py`` at
10 Mbit/s and 60 ms: the hand was drawn at 2.3 s, and at 1.3 s with these hints). So the build
lists them in ``<link rel="preload">``/``modulepreload`` hints placed before the policy, where the
scanner still reads: all of them are fetched at once, and each is used by the request that needs it
(same URL, same mode: ``crossorigin`` for what PyScript reads with ``fetch()``).

Nothing runs from a hint: a script still runs only from its ``<script>`` element, which the policy
governs. Only same-origin relative URLs of files the build shipped are listed.
"""

from __future__ import annotations

import html
import re
import tomllib
from html.parser import HTMLParser
from pathlib import Path

from .paths import MAIN_CONFIG, PAGE, BuildError
from .runtime import PYSCRIPT_SHIPPED

#: Where the hints go in ``index.html``: before the policy's ``<meta>``.
PRELOAD_MARKER = "<!-- build.py: the first paint's preload hints (sitebuild/preload.py) -->"


class _PageFiles(HTMLParser):
    """What ``index.html`` itself loads: head scripts, stylesheets, the ``py-config`` and the
    MicroPython script with its configuration."""

    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[str] = []  # classic <script src> (the glue), in page order
        self.styles: list[str] = []  # <link rel="stylesheet" href>
        self.configs: list[str] = []  # <py-config src> and the mpy script's config=
        self.mpy: list[str] = []  # <script type="mpy" src>

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "script" and a.get("src"):
            if a.get("type") == "mpy":
                self.mpy.append(a["src"])
                if a.get("config"):
                    self.configs.append(a["config"])
            elif not a.get("type"):
                self.scripts.append(a["src"])
        elif tag == "link" and a.get("rel") == "stylesheet" and a.get("href"):
            self.styles.append(a["href"])
        elif tag == "py-config" and a.get("src"):
            self.configs.append(a["src"])


#: A ``url(...)`` of a stylesheet, and the images it may name (the table's card back: drawn at the
#: first paint, so its request is one of the paint's).
CSS_URL = re.compile(r"""url\(\s*['"]?([^'")]+)['"]?\s*\)""")
IMAGE_SUFFIXES = (".svg", ".png", ".webp", ".jpg")


def _stylesheet_images(dist: Path, style: str) -> list[str]:
    """The same-origin images a shipped stylesheet names, as paths under ``dist``."""
    folder = Path(style).parent
    found = []
    for url in CSS_URL.findall((dist / style).read_text(encoding="utf-8")):
        if ":" in url or url.startswith("/") or not url.endswith(IMAGE_SUFFIXES):
            continue  # (data: URLs, other origins, fonts)
        path = (folder / url.removeprefix("./")).as_posix()
        if ".." in path.split("/"):
            raise BuildError(f"{style}: {url!r} is not under the site")
        found.append(path)
    return found


def _relative(url: str) -> str:
    if not url.startswith("./") or ".." in url or "//" in url:
        raise BuildError(f"{PAGE}: {url!r} is not a relative URL under the site")
    return url.removeprefix("./")


def preload_list(dist: Path) -> list[tuple[str, str]]:
    """``(kind, path)`` of every file the first paint fetches, in the order it needs them; ``kind``
    is ``script``, ``style``, ``image`` (named by the stylesheets), ``module`` or ``fetch``. Every
    path is a file of ``dist``.

    The prepared first tables are not listed: ``web/engine.js`` fetches them, on a first visit only.
    """
    page = _PageFiles()
    page.feed((dist / PAGE).read_text(encoding="utf-8"))
    config = tomllib.loads((dist / MAIN_CONFIG).read_text(encoding="utf-8"))
    interpreter = _relative(str(config["interpreter"]))
    items: list[tuple[str, str]] = [("script", _relative(u)) for u in page.scripts]
    styles = [_relative(u) for u in page.styles]
    items += [("style", style) for style in styles]
    images = [image for style in styles for image in _stylesheet_images(dist, style)]
    items += [("image", path) for path in dict.fromkeys(images)]
    # (PyScript's entry and the chunks every start imports: the runtime ships only these.)
    items += [
        ("module", p.relative_to(dist).as_posix()) for p in sorted((dist / PYSCRIPT_SHIPPED).glob("*.js"))
    ]
    items += [("module", interpreter), ("fetch", str(Path(interpreter).with_suffix(".wasm")))]
    items += [("fetch", _relative(u)) for u in page.configs]
    items += [("fetch", _relative(u)) for u in page.mpy]
    items += [("fetch", _relative(u)) for u in config.get("files", {})]
    missing = [path for _, path in items if not (dist / path).is_file()]
    if missing:
        raise BuildError(f"{PAGE}: the first paint fetches files the build did not ship: {missing}")
    return items


def hint_tag(kind: str, path: str) -> str:
    """The ``<link>`` that announces one file of :func:`preload_list`, in the mode of the request that
    will use it."""
    href = html.escape("./" + path)
    if kind == "module":
        return f'<link rel="modulepreload" href="{href}">'
    if kind == "fetch":
        return f'<link rel="preload" href="{href}" as="fetch" crossorigin="anonymous">'
    return f'<link rel="preload" href="{href}" as="{kind}">'


def write_preloads(dist: Path) -> int:
    """Put the hints of :func:`preload_list` in place of ``index.html``'s marker; return how many."""
    path = dist / PAGE
    text = path.read_text(encoding="utf-8")
    if text.count(PRELOAD_MARKER) != 1:
        raise BuildError(f"{PAGE} needs exactly one {PRELOAD_MARKER!r} line for the preload hints")
    items = preload_list(dist)
    indent = "\n  "
    path.write_text(
        text.replace(PRELOAD_MARKER, indent.join(hint_tag(k, p) for k, p in items)), encoding="utf-8"
    )
    return len(items)
