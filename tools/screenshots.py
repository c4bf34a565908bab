"""Screenshots of the table at the five sizes the layout is held to, for docs/ui.md.

    python3 -m tools.screenshots [--out docs/screenshots] [--seed N]

Builds the site into a temporary directory and serves it (as the end-to-end tests do), then opens
it in Debian's Chromium (``/usr/bin/chromium``, the tests' flags) at 360×640, 390×844, 640×360,
844×390, 1280×800 and 1920×1080 and saves ``<size>-<phase>.png`` for each phase (and, in Chinese at
one phone size, ``<size>-zh-<phase>.png``): ``expose`` (the deal, a card
to expose), ``play`` (the player's turn with cards on the table), ``summary`` (the hand over) and
``menu`` (the settings sheet open); with ``--lessons``, two of the lessons instead
(``LESSON_SHOTS``: ``<size>-lesson-<n>.png``). The deal is fixed (``?seed=``), the opponents play at once
(``?fast=1``) and motion is reduced, so the pictures only change when the table's look does.

A page in another script needs a font for it on this machine (the page ships none: players' systems
have theirs): the tool stops rather than save Chinese drawn as boxes, and names the font to install
(Debian's fonts-noto-cjk, which ``scripts/install-test-deps.sh`` installs).
"""

from __future__ import annotations

import argparse
import struct
import sys
import tempfile
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


import build  # noqa: E402
from tools import browser as g  # noqa: E402  (the testing contract's helpers)
from tools.browser import CHROMIUM, CHROMIUM_ARGS, SITE_PREFIX  # noqa: E402
from tools.replay import op, play_out, save_text  # noqa: E402

if TYPE_CHECKING:
    from playwright.sync_api import Page

#: The sizes the layout is held to (width, height; tests/e2e/test_layout.py), phones portrait and
#: landscape, then desktop windows.
SIZES = ((360, 640), (390, 844), (640, 360), (844, 390), (1280, 800), (1920, 1080))
#: Besides English everywhere: these languages at one size each (``?lang=``).
OTHER_LANGUAGES = (("zh", (390, 844)),)
#: The deal shown: the player has a card to expose (so the expose phase stops for the player).
SEED = 7
OUT = ROOT / "docs" / "screenshots"


def play_until_trick_on_table(page: Page) -> None:
    """Play the first playable card until it is the player's turn with at least two cards on the
    table (or the hand is nearly over), so ``play`` shows a trick in progress."""
    for _ in range(12):
        if g.settle(page) != "play" or len(g.trick(page)) >= 2:
            return
        g.play_first(page)


def _chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    out, pos = [], 8
    while pos < len(data):
        (size,) = struct.unpack(">I", data[pos : pos + 4])
        out.append((data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + size]))
        pos += 12 + size
    return out


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def pixel_rows(data: bytes) -> tuple[int, int, int, list[bytes]]:
    """A PNG as Chromium writes it (8-bit RGB or RGBA, not interlaced): (width, height, bytes per
    pixel, its rows of pixels with the filters undone)."""
    chunks = _chunks(data)
    width, height, depth, colour, _c, _f, interlace = struct.unpack(">IIBBBBB", chunks[0][1])
    if depth != 8 or colour not in (2, 6) or interlace:
        raise ValueError("not an 8-bit RGB(A) PNG")
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(body for kind, body in chunks if kind == b"IDAT"))
    stride, rows, prev = width * bpp, [], bytearray(width * bpp)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride) if kind else ():
            left = line[i - bpp] if i >= bpp else 0
            up, corner = prev[i], (prev[i - bpp] if i >= bpp else 0)
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + ((left + up) >> 1)) & 255
            else:  # Paeth
                guess = left + up - corner
                da, db, dc = abs(guess - left), abs(guess - up), abs(guess - corner)
                line[i] = (line[i] + (left if da <= db and da <= dc else up if db <= dc else corner)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


def squeeze(path: Path) -> None:
    """Rewrite a screenshot smaller, losslessly: its rows unfiltered and deflated at level 9 (the
    felt's dithered gradient then takes about half the bytes of Chromium's own encoding)."""
    data = path.read_bytes()
    width, height, bpp, rows = pixel_rows(data)
    header = struct.pack(">IIBBBBB", width, height, 8, 2 if bpp == 3 else 6, 0, 0, 0)
    body = zlib.compress(b"".join(b"\0" + row for row in rows), 9)
    smaller = b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", body) + _chunk(b"IEND", b"")
    if len(smaller) < len(data):
        path.write_bytes(smaller)


#: Whether the page's font draws each of some characters as its own glyph: without a font for them,
#: Chromium draws every one as the same empty box.
DISTINCT_GLYPHS_JS = """(chars) => {
  const canvas = document.createElement('canvas');
  canvas.width = 48; canvas.height = 48;
  const pen = canvas.getContext('2d', {willReadFrequently: true});
  pen.font = '32px ' + getComputedStyle(document.body).fontFamily;
  const drawn = chars.map((ch) => {
    pen.clearRect(0, 0, 48, 48);
    pen.fillText(ch, 4, 38);
    return pen.getImageData(0, 0, 48, 48).data.join(',');
  });
  return new Set(drawn).size === drawn.length;
}"""


def page_letters(page: Page, most: int = 8) -> list[str]:
    """Up to ``most`` distinct letters beyond ASCII of the page's visible text, spread over them."""
    text = str(page.evaluate("document.body.innerText"))
    letters = sorted({ch for ch in text if ord(ch) > 127 and ch.isalpha()})
    return letters[:: max(1, len(letters) // most)][:most]


def glyphs_drawn(page: Page, chars: Sequence[str]) -> bool:
    """Whether the page's font draws each of ``chars`` differently (so none of them as a box)."""
    return len(chars) < 2 or bool(page.evaluate(DISTINCT_GLYPHS_JS, list(chars)))


def snap(page: Page, path: Path) -> Path:
    page.mouse.move(0, 0)  # (no hover lift on a card)
    page.screenshot(path=str(path))
    squeeze(path)
    return path


def shoot_size(
    page: Page, site: build.SiteServer, out: Path, seed: int, over: str, lang: str = "en"
) -> list[Path]:
    """The four pictures at the page's size in ``lang``; ``over`` is a save of the deal's first hand,
    finished."""
    size = page.viewport_size
    assert size is not None
    name = f"{size['width']}x{size['height']}" + ("" if lang == "en" else f"-{lang}")
    page.goto(site.url + f"?seed={seed}&fast=1&lang={lang}")
    assert g.settle(page) == "expose", "pick a --seed where the player may expose a card"
    # (the first visit's download counter, web/pwa.js, goes once the site is stored for offline play)
    page.wait_for_function(
        "() => { const p = document.getElementById('load-progress'); return !p || p.hidden; }"
    )
    letters = page_letters(page)
    if not glyphs_drawn(page, letters):
        raise SystemExit(
            f"no font on this machine draws the {lang} page's letters ({''.join(letters)}): they would be"
            " boxes. Install one (Debian: apt-get install fonts-noto-cjk; scripts/install-test-deps.sh)"
        )
    saved = [snap(page, out / f"{name}-expose.png")]
    g.expose_none(page)
    play_until_trick_on_table(page)
    page.wait_for_function(
        "() => !document.querySelector('#toast .toast')"
    )  # (a signal card's toast is gone)
    saved.append(snap(page, out / f"{name}-play.png"))
    g.open_menu(page)
    saved.append(snap(page, out / f"{name}-menu.png"))
    g.close_menu(page)
    page.evaluate("(t) => localStorage.setItem('gongzhu.save.v1', t)", over)
    page.reload()
    assert g.settle(page) == "hand-over"
    saved.append(snap(page, out / f"{name}-summary.png"))
    return saved


#: The lessons' pictures: (size, the lesson, what is shown: its first step or its verdict).
LESSON_SHOTS = (((360, 640), 1, "step"), ((1280, 800), 6, "verdict"))

#: The page once a lesson waits for the player: its verdict, or the card it asks for selected.
LESSON_READY_JS = """() => {
  const d = document.documentElement.dataset, q = (s) => document.querySelector(s);
  if (d.engine !== 'ready' || d.busy) return false;
  return !!(q('[data-testid=lesson-verdict]') || q('[data-testid=expose-confirm]:not([disabled])')
    || (d.turn === '0' && q('#hand [data-card][aria-pressed=true]')));
}"""


def shoot_lesson(page: Page, site: build.SiteServer, out: Path, number: int, shown: str) -> Path:
    """Lesson ``number`` at the page's size: its first step (the card it asks for selected), or
    played as it asks to its verdict."""
    size = page.viewport_size
    assert size is not None
    page.goto(site.url + "?fast=1")
    g.settle(page)
    g.menu_click(page, "open-lessons")
    page.click(f"[data-testid=lesson-{number}]")
    page.wait_for_function(LESSON_READY_JS)
    while shown == "verdict" and not page.locator("[data-testid=lesson-verdict]").count():
        if page.locator("[data-testid=expose-confirm]:not([disabled])").count():
            page.click("[data-testid=expose-confirm]")
        else:
            page.click("#hand [data-card][aria-pressed=true]")
        page.wait_for_function(LESSON_READY_JS)
    page.wait_for_function("() => !document.querySelector('#toast .toast')")
    return snap(page, out / f"{size['width']}x{size['height']}-lesson-{number}.png")


def shoot_lessons(site: build.SiteServer, out: Path) -> list[Path]:
    from playwright.sync_api import sync_playwright  # here: the PNG helpers load without Playwright

    saved = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for (width, height), number, shown in LESSON_SHOTS:
                phone = width < 1000
                context = browser.new_context(
                    viewport={"width": width, "height": height},
                    is_mobile=phone,
                    has_touch=phone,
                    reduced_motion="reduce",
                    locale="en-US",
                )
                try:
                    saved.append(shoot_lesson(context.new_page(), site, out, number, shown))
                finally:
                    context.close()
        finally:
            browser.close()
    return saved


def shoot(
    site: build.SiteServer,
    out: Path,
    seed: int,
    sizes: Sequence[tuple[int, ...]] = SIZES,
    languages: Sequence[tuple[str, tuple[int, ...]]] = OTHER_LANGUAGES,
) -> list[Path]:
    over = save_text(play_out(op("new_match", seed=seed), lambda v: v["phase"] == "hand_over"))
    saved: list[Path] = []
    from playwright.sync_api import sync_playwright  # here: the PNG helpers load without Playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for lang, (width, height) in [("en", size) for size in sizes] + list(languages):
                phone = width < 1000
                context = browser.new_context(
                    viewport={"width": width, "height": height},
                    is_mobile=phone,
                    has_touch=phone,
                    reduced_motion="reduce",
                    locale="en-US",
                )
                try:
                    saved.extend(shoot_size(context.new_page(), site, out, seed, over, lang))
                finally:
                    context.close()
        finally:
            browser.close()
    return saved


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=OUT, help="where the PNGs go (docs/screenshots)")
    parser.add_argument("--seed", type=int, default=SEED, help="the deal shown")
    parser.add_argument("--sizes", default="", help="only these sizes, e.g. 640x360,844x390")
    parser.add_argument("--lessons", action="store_true", help="only the lessons' pictures (LESSON_SHOTS)")
    args = parser.parse_args(argv)
    chosen = [tuple(int(n) for n in size.split("x")) for size in args.sizes.split(",") if size]
    sizes, languages = (chosen, ()) if chosen else (SIZES, OTHER_LANGUAGES)
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp) / "dist"
        build.build(directory)
        with build.serving(directory, SITE_PREFIX) as site:
            shots = (
                shoot_lessons(site, args.out)
                if args.lessons
                else shoot(site, args.out, args.seed, sizes, languages)
            )
            for path in shots:
                print(
                    f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: {path.stat().st_size} bytes"
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
