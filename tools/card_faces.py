"""Draw the card faces and the card back as SVG, at build time (standard library only).

``build.py`` calls :func:`write_card_files`, which puts them in the site:

* the sprite, a hidden ``<svg>`` of ``<symbol>``s written into the page (``index.html``, in place
  of :data:`PAGE_MARKER`): a pip per suit, point up (``p-S`` ...) and upside down (``q-S``), a
  small index per rank (``r-Q``), a half figure per court rank (``f-J``, ``f-Q``, ``f-K``), a
  face per card (``c-QS``, ``c-TC`` ...) and the back (``back``). A card's markup (``card_html``
  in ``ui/view/render.py``) shows its face with ``<svg><use href="#c-QS"/></svg>``: one small element
  per card, drawn at once. In the page rather than in a file of its own because a ``<use>`` of
  another file is fetched again for every redrawn card (Chromium), and is blank until it comes.
* ``card-back.svg``, the back on its own, for CSS backgrounds (``.back`` in ``web/game.css``).

Faces are drawn in a 100 x 140 box, as printed decks are: pips in the standard positions with
the lower half turned upside down, courts as a figure mirrored about the middle, the ace one
large pip (the ace of spades ornate), and a small upside-down index in the bottom-right corner.
The top-left index is HTML text in the card (large, sized by CSS for each screen). Everything
of the suit's colour is ``currentColor``, so the card's CSS colour (red/black, or the
four-colour deck) colours the face. The drawings use no fonts, images or gradients from
elsewhere: nothing is requested outside the site.
"""

from __future__ import annotations

import gzip
from pathlib import Path

from gongzhu.cards import RANKS, SUITS

#: The comment of index.html that the build replaces with the sprite.
PAGE_MARKER = "<!-- build.py: the card faces' sprite (tools/card_faces.py) -->"
#: The back as a file of its own (its name is also in web/game.css).
CARD_BACK = "card-back.svg"

#: The face box (a card's CSS size is 1 : 1.4 too).
WIDTH, HEIGHT = 100, 140
#: The pip columns (left, centre, right) and the centres of the top and bottom pip rows. The
#: columns leave the left and right margins to the corner indices, as on a printed deck.
COLUMNS = (37.0, 50.0, 63.0)
TOP, BOTTOM = 23.0, 117.0
#: A pip's width and height on a numbered card, and on an ace.
PIP = 16.0
ACE_PIP = 40.0

#: Colours that are not the suit's (the suit's is currentColor).
GOLD = "#d9a93a"
SKIN = "#f7dcc0"
INK = "#2b2522"
PAPER = "#fffdf7"
HAIR = "#8a5a2b"

#: Pip outlines, drawn in a -50..50 box, point up.
PIP_PATHS: dict[str, str] = {
    "S": (
        "M0-48C10-30 46-14 46 10C46 28 32 37 18 35C9 34 4 29 1 23C2 33 7 42 16 48H-16C-7 42-2 33-1 23"
        "C-4 29-9 34-18 35C-32 37-46 28-46 10C-46-14-10-30 0-48Z"
    ),
    "H": "M0 46C-12 30-47 10-47-16C-47-36-31-47-17-45C-7-44-2-37 0-31C2-37 7-44 17-45C31-47 47-36 47-16C47 10 12 30 0 46Z",
    "D": "M0-48Q17-23 37 0Q17 23 0 48Q-17 23-37 0Q-17-23 0-48Z",
    "C": (
        "M-20-24a20 20 0 1 1 40 0a20 20 0 1 1-40 0ZM-46 10a20 20 0 1 1 40 0a20 20 0 1 1-40 0Z"
        "M6 10a20 20 0 1 1 40 0a20 20 0 1 1-40 0ZM-7 0h14v6C8 30 10 40 18 48H-18C-10 40-8 30-7 6Z"
    ),
}

_FOUR_ROWS = tuple((c, r) for c in (0, 2) for r in (0, 1 / 3, 2 / 3, 1))
#: Standard pip positions per rank: (column 0..2, row from 0 = top to 1 = bottom). Pips below
#: the middle are turned upside down.
LAYOUTS: dict[str, tuple[tuple[int, float], ...]] = {
    "2": ((1, 0), (1, 1)),
    "3": ((1, 0), (1, 0.5), (1, 1)),
    "4": ((0, 0), (2, 0), (0, 1), (2, 1)),
    "5": ((0, 0), (2, 0), (1, 0.5), (0, 1), (2, 1)),
    "6": ((0, 0), (2, 0), (0, 0.5), (2, 0.5), (0, 1), (2, 1)),
    "7": ((0, 0), (2, 0), (1, 0.25), (0, 0.5), (2, 0.5), (0, 1), (2, 1)),
    "8": ((0, 0), (2, 0), (1, 0.25), (0, 0.5), (2, 0.5), (1, 0.75), (0, 1), (2, 1)),
    "9": (*_FOUR_ROWS, (1, 0.5)),
    "T": (*_FOUR_ROWS, (1, 1 / 6), (1, 5 / 6)),
}

#: The court figures' upper halves, in a 52 x 60 box whose bottom edge is the card's middle
#: (the lower half is the same figure turned about the centre). Simple shapes, bold enough to
#: read on a 44 px card: robe in the suit's colour, gold trim and crown.
_HEAD = (
    f'<circle cx="26" cy="29" r="8.5" fill="{SKIN}" stroke="{INK}" stroke-width="1"/>'
    f'<path d="M23 28.5h.1M29 28.5h.1" stroke="{INK}" stroke-width="1.8" stroke-linecap="round"/>'
)
FIGURES: dict[str, str] = {
    "K": (
        '<path d="M3 60C3 45 12 39 26 39S49 45 49 60Z" fill="currentColor"/>'
        f'<path d="M26 39V60" stroke="{GOLD}" stroke-width="3"/>'
        f'<path d="M12 46Q26 55 40 46" fill="none" stroke="{GOLD}" stroke-width="2.5"/>'
        + _HEAD
        + f'<path d="M17.5 30Q18 45 26 46Q34 45 34.5 30Q30 36 26 35Q22 36 17.5 30Z" fill="{HAIR}"/>'
        f'<path d="M15.5 22V9L21 15L26 6L31 15L36.5 9V22Z" fill="{GOLD}" stroke="{INK}" stroke-width="1"'
        ' stroke-linejoin="round"/>'
        '<circle cx="26" cy="17.5" r="2" fill="currentColor"/>'
        f'<path d="M45 58V30" stroke="{INK}" stroke-width="1.6"/><circle cx="45" cy="28" r="3" fill="{GOLD}"'
        f' stroke="{INK}" stroke-width="1"/>'
    ),
    "Q": (
        '<path d="M5 60C5 46 13 40 26 40S47 46 47 60Z" fill="currentColor"/>'
        f'<path d="M18 41L26 53L34 41" fill="{PAPER}" stroke="{GOLD}" stroke-width="2"/>'
        f'<path d="M16 30C14 42 12 47 10 50Q18 49 20 40ZM36 30C38 42 40 47 42 50Q34 49 32 40Z" fill="{HAIR}"/>'
        + _HEAD
        + f'<path d="M17 28Q17 19 26 19Q35 19 35 28Q30 23 26 23Q22 23 17 28Z" fill="{HAIR}"/>'
        f'<path d="M17.5 19.5Q17 13 19 11L22 15.5L26 9L30 15.5L33 11Q35 13 34.5 19.5Z" fill="{GOLD}"'
        f' stroke="{INK}" stroke-width="1" stroke-linejoin="round"/>'
        f'<circle cx="42" cy="42" r="4" fill="currentColor" stroke="{GOLD}" stroke-width="1.5"/>'
        f'<path d="M42 46V58" stroke="{INK}" stroke-width="1.4"/>'
    ),
    "J": (
        '<path d="M6 60C6 47 14 41 26 41S46 47 46 60Z" fill="currentColor"/>'
        f'<path d="M14 43Q26 49 38 43L36 39Q26 44 16 39Z" fill="{PAPER}" stroke="{INK}" stroke-width=".8"/>'
        f'<path d="M18 26Q16 35 18 38H22Q20 33 20 27ZM34 26Q36 35 34 38H30Q32 33 32 27Z" fill="{HAIR}"/>'
        + _HEAD
        + f'<path d="M14 24Q17 12 27 12Q37 12 39 22Q27 19 14 24Z" fill="currentColor" stroke="{INK}"'
        ' stroke-width="1"/>'
        f'<path d="M14 24Q27 19 39 22" fill="none" stroke="{GOLD}" stroke-width="2.2"/>'
        f'<path d="M36 16Q45 9 44 1Q39 8 33 14" fill="{GOLD}" stroke="{INK}" stroke-width=".8"/>'
        f'<path d="M8 58L14 44" stroke="{INK}" stroke-width="1.6" stroke-linecap="round"/>'
    ),
}
#: The frame around a court figure.
FRAME = (26.0, 9.0, 48.0, 122.0)


def _num(value: float) -> str:
    """A coordinate, as short as it can be written (``17``, ``22.5``, ``-3.2``)."""
    text = f"{value:.1f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _pip(suit: str, cx: float, cy: float, size: float, upside_down: bool = False) -> str:
    """A pip centred on (cx, cy): ``p-S`` point up, ``q-S`` upside down."""
    x, y, w = _num(cx - size / 2), _num(cy - size / 2), _num(size)
    return f'<use href="#{"q" if upside_down else "p"}-{suit}" x="{x}" y="{y}" width="{w}" height="{w}"/>'


def _rank_symbol(rank: str) -> str:
    """``r-Q``: a rank's small index, upside down (the large top-left index is HTML)."""
    label = "10" if rank == "T" else rank
    size, spacing = (17, -1.5) if label == "10" else (19, 0)
    return (
        f'<symbol id="r-{rank}" viewBox="-10 -10 20 20"><text transform="rotate(180)" y="7" font-size="{size}"'
        f' letter-spacing="{_num(spacing)}" font-family="system-ui,sans-serif" font-weight="700"'
        f' text-anchor="middle" fill="currentColor">{label}</text></symbol>'
    )


def _corner_index(code: str) -> str:
    """The bottom-right index: the rank at the bottom, its pip above it, both upside down."""
    return (
        f'<use href="#r-{code[0]}" x="80" y="119" width="20" height="20"/>{_pip(code[1], 90, 113, 11, True)}'
    )


def pip_positions(rank: str) -> list[tuple[float, float, bool]]:
    """Where a numbered card's pips go: (x, y, upside down) in the face box."""
    spots = []
    for column, row in LAYOUTS[rank]:
        y = TOP + (BOTTOM - TOP) * row
        spots.append((COLUMNS[column], y, row > 0.5))
    return spots


def _face(code: str) -> str:
    rank, suit = code[0], code[1]
    if rank in LAYOUTS:
        body = "".join(_pip(suit, x, y, PIP, turned) for x, y, turned in pip_positions(rank))
    elif rank in FIGURES:
        x, y, w, h = FRAME
        body = (
            f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(w)}" height="{_num(h)}" rx="3" fill="none"'
            ' stroke="currentColor" stroke-width="1.2"/>'
            f'<use href="#f-{rank}" x="{_num(x)}" y="14.6" width="48" height="55.4"/>'
            f'<use href="#f-{rank}" x="{_num(x)}" y="14.6" width="48" height="55.4" transform="rotate(180 50 70)"/>'
            f'<path d="M{_num(x)} 70h{_num(w)}" stroke="{GOLD}" stroke-width="1.5"/>'
            f"{_pip(suit, x + 7, y + 8, 10)}{_pip(suit, x + w - 7, y + h - 8, 10, True)}"
        )
    elif code == "AS":
        body = (
            f'<circle cx="50" cy="70" r="35" fill="none" stroke="currentColor" stroke-width="1"/>'
            f'<circle cx="50" cy="70" r="32" fill="none" stroke="{GOLD}" stroke-width="2.5"'
            ' stroke-dasharray="1.5 3.5"/>'
            f"{_pip(suit, 50, 68, 52)}"
            f'<path d="{PIP_PATHS["S"]}" transform="translate(50 66) scale(.3)" fill="none" stroke="{PAPER}"'
            ' stroke-width="5"/>'
        )
    else:
        body = _pip(suit, 50, 70, ACE_PIP)
    return f'<symbol id="c-{code}" viewBox="0 0 {WIDTH} {HEIGHT}">{body}{_corner_index(code)}</symbol>'


def back_drawing() -> str:
    """The back: a lattice in two reds inside a cream border (paths only, no references, so the
    same drawing works inside the sprite and as a CSS background)."""
    lines = []
    step = 14.0
    x0, y0, x1, y1 = 9.0, 9.0, 91.0, 131.0
    # Diagonals x - y = k and x + y = k, clipped to the inner rectangle.
    k = x0 - y1 + step / 2
    while k < x1 - y0:
        ax, ay = max(x0, y0 + k), max(y0, x0 - k)
        bx, by = min(x1, y1 + k), min(y1, x1 - k)
        lines.append(f"M{_num(ax)} {_num(ay)}L{_num(bx)} {_num(by)}")
        k += step
    k = x0 + y0 + step / 2
    while k < x1 + y1:
        ax, ay = max(x0, k - y1), min(y1, k - x0)
        bx, by = min(x1, k - y0), max(y0, k - x1)
        lines.append(f"M{_num(ax)} {_num(ay)}L{_num(bx)} {_num(by)}")
        k += step
    return (
        f'<rect width="{WIDTH}" height="{HEIGHT}" rx="8" fill="#8e1f2e"/>'
        f'<rect x="5" y="5" width="90" height="130" rx="5" fill="none" stroke="{PAPER}" stroke-width="2.5"/>'
        f'<path d="{"".join(lines)}" stroke="#c4495a" stroke-width="2.2"/>'
        f'<path d="M50 46L68 70L50 94L32 70Z" fill="#8e1f2e" stroke="{GOLD}" stroke-width="2.5"/>'
        f'<path d="M50 58L59 70L50 82L41 70Z" fill="{GOLD}"/>'
    )


def sprite() -> str:
    """The sprite: pips, indices, court figures, the 52 faces and the back (hidden, for ``<use>``)."""
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" class="card-sprite" width="0" height="0" aria-hidden="true"'
        ' focusable="false">'
    ]
    parts += [
        f'<symbol id="p-{s}" viewBox="-50 -50 100 100"><path d="{d}" fill="currentColor"/></symbol>'
        f'<symbol id="q-{s}" viewBox="0 0 1 1"><use href="#p-{s}" width="1" height="1" transform="rotate(180 .5 .5)"/>'
        "</symbol>"
        for s, d in PIP_PATHS.items()
    ]
    parts += [_rank_symbol(rank) for rank in RANKS]
    parts += [f'<symbol id="f-{r}" viewBox="0 0 52 60">{d}</symbol>' for r, d in FIGURES.items()]
    parts += [_face(rank + suit) for suit in SUITS for rank in RANKS]
    parts.append(f'<symbol id="back" viewBox="0 0 {WIDTH} {HEIGHT}">{back_drawing()}</symbol>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def back_file() -> str:
    """``card-back.svg``: the back on its own, for CSS backgrounds."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}"'
        f' preserveAspectRatio="none">{back_drawing()}</svg>\n'
    )


class CardFilesError(RuntimeError):
    """The page has no place for the sprite."""


def write_card_files(dist: Path, page: str = "index.html") -> dict[str, tuple[int, int]]:
    """Write the sprite into ``dist/page`` (already copied there) and the back into ``dist``;
    return the bytes (raw, gzipped) of each."""
    path = dist / page
    html = path.read_text(encoding="utf-8")
    if html.count(PAGE_MARKER) != 1:
        raise CardFilesError(f"{page} needs exactly one {PAGE_MARKER!r} line for the card faces")
    drawing = sprite()
    path.write_text(html.replace(PAGE_MARKER, drawing.rstrip("\n")), encoding="utf-8")
    (dist / CARD_BACK).write_text(back_file(), encoding="utf-8")
    sizes = {}
    for name, text in ((f"{page} (sprite)", drawing), (CARD_BACK, back_file())):
        data = text.encode("utf-8")
        sizes[name] = (len(data), len(gzip.compress(data, 9, mtime=0)))
    return sizes


if __name__ == "__main__":
    for name, text in (("sprite", sprite()), (CARD_BACK, back_file())):
        data = text.encode("utf-8")
        print(f"{name}: {len(data)} bytes, {len(gzip.compress(data, 9, mtime=0))} gzipped")
