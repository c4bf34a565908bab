"""The card faces drawn by tools/card_faces.py, and how card_html shows them."""

from __future__ import annotations

import gzip
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tools import card_faces
from ui.view import parts

SVG = "{http://www.w3.org/2000/svg}"
CODES = [rank + suit for suit in card_faces.SUITS for rank in card_faces.RANKS]
PIP_COUNTS = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10, "A": 1}


def _symbols() -> dict[str, ET.Element]:
    root = ET.fromstring(card_faces.sprite())  # valid XML, or this raises
    return {el.attrib["id"]: el for el in root.iter(SVG + "symbol")}


def _face_pips(face: ET.Element) -> list[tuple[float, float, float, bool]]:
    """The pips drawn on a face, not counting the corner index's: (centre x, y, size, upside down)."""
    pips = []
    for use in face.iter(SVG + "use"):
        href = use.attrib["href"]
        if not re.fullmatch(r"#[pq]-[SHDC]", href):
            continue
        size = float(use.attrib["width"])
        x, y = float(use.attrib["x"]) + size / 2, float(use.attrib["y"]) + size / 2
        if x >= 80 and y >= 100:  # the bottom-right index
            continue
        pips.append((x, y, size, href[1] == "q"))
    return pips


def test_every_card_and_the_back_have_a_symbol_and_every_reference_resolves() -> None:
    symbols = _symbols()
    assert {f"c-{code}" for code in CODES} | {"back"} <= set(symbols)
    root = ET.fromstring(card_faces.sprite())
    hrefs = {use.attrib["href"] for use in root.iter(SVG + "use")}
    assert hrefs, "the faces are built from shared symbols"
    assert {h[1:] for h in hrefs} <= set(symbols), "a <use> points to no symbol"
    assert all(h.startswith("#") for h in hrefs), "nothing outside the page"


def test_each_face_shows_its_own_suit_and_rank() -> None:
    symbols = _symbols()
    for code in CODES:
        hrefs = {use.attrib["href"] for use in symbols[f"c-{code}"].iter(SVG + "use")}
        suits = {h[3] for h in hrefs if re.fullmatch(r"#[pq]-[SHDC]", h)}
        assert suits == {code[1]}, code
        assert f"#r-{code[0]}" in hrefs, code  # the bottom-right index
        label = "".join(symbols[f"r-{code[0]}"].itertext())
        assert label == ("10" if code[0] == "T" else code[0])


@pytest.mark.parametrize("rank", sorted(PIP_COUNTS))
def test_numbered_cards_and_aces_have_their_pips_in_the_printed_positions(rank: str) -> None:
    symbols = _symbols()
    for suit in card_faces.SUITS:
        pips = _face_pips(symbols[f"c-{rank}{suit}"])
        assert len(pips) == PIP_COUNTS[rank], (rank, suit)
        for _x, y, _size, upside_down in pips:
            assert upside_down == (y > 70), (rank, suit, y)
        if rank == "A":  # one large pip in the middle
            ((x, y, size, _t),) = pips
            assert x == 50 and abs(y - 70) <= 3 and size > 2 * card_faces.PIP
            continue
        # Printed decks are symmetric under a half turn, but for the seven's extra pip on top.
        spots = sorted((x, y) for x, y, _s, _t in pips)
        turned = sorted((100 - x, 140 - y) for x, y, _s, _t in pips)
        if rank == "7":
            (extra,) = set(spots) - set(turned)
            assert extra[0] == 50 and extra[1] < 70
            spots.remove(extra)
            turned = sorted((100 - x, 140 - y) for x, y in spots)
        flat, flat_turned = [v for xy in spots for v in xy], [v for xy in turned for v in xy]
        assert flat == pytest.approx(flat_turned, abs=0.11), (rank, suit)


def test_courts_show_their_figure_upright_and_turned() -> None:
    symbols = _symbols()
    for rank in "JQK":
        assert f"f-{rank}" in symbols
        for suit in card_faces.SUITS:
            figures = [
                u for u in symbols[f"c-{rank}{suit}"].iter(SVG + "use") if u.attrib["href"] == f"#f-{rank}"
            ]
            assert len(figures) == 2
            assert [u.attrib.get("transform") for u in figures] == [None, "rotate(180 50 70)"]


def test_the_suit_colour_comes_from_the_card_so_the_four_colour_deck_works() -> None:
    symbols = _symbols()
    for suit in card_faces.SUITS:
        fills = {p.attrib.get("fill") for p in symbols[f"p-{suit}"].iter(SVG + "path")}
        assert fills == {"currentColor"}
    # No face hard-codes a suit colour (red, or the four-colour deck's blue and green).
    text = card_faces.sprite()
    for colour in ("#c42b2b", "#1747b5", "#13702f", "red", "blue", "green"):
        assert f'"{colour}"' not in text


def test_the_sprite_and_the_back_are_small() -> None:
    sprite = card_faces.sprite().encode()
    back = card_faces.back_file().encode()
    assert len(sprite) < 40_000 and len(gzip.compress(sprite)) < 4_000
    assert len(back) < 2_000
    ET.fromstring(back)


def test_card_html_shows_the_face_hidden_from_screen_readers_and_minis_show_the_index_only() -> None:
    symbols = _symbols()
    html = parts.card_html("QS")
    assert 'aria-label="queen of spades"' in html and 'data-card="QS"' in html
    assert "black suit-S" in html
    face = re.search(
        r'<svg class="face" aria-hidden="true" focusable="false"><use href="#([\w-]+)"/></svg>', html
    )
    assert face and face.group(1) == "c-QS" and face.group(1) in symbols
    assert '<span class="ix" aria-hidden="true"><b>Q</b><i>♠</i></span>' in html
    mini = parts.card_html("TH", "mini")
    assert "<svg" not in mini and "<b>10</b>" in mini and "red suit-H" in mini
    for code in CODES:
        found = re.search(r'href="#([\w-]+)"', parts.card_html(code))
        assert found and found.group(1) in symbols


def test_the_sprite_goes_into_the_page_and_the_back_beside_it(tmp_path: Path) -> None:
    page = (Path(card_faces.__file__).parents[1] / "index.html").read_text(encoding="utf-8")
    (tmp_path / "index.html").write_text(page, encoding="utf-8")
    sizes = card_faces.write_card_files(tmp_path)
    written = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert card_faces.PAGE_MARKER not in written and written.count('<symbol id="c-QS"') == 1
    assert (tmp_path / card_faces.CARD_BACK).read_text(encoding="utf-8") == card_faces.back_file()
    assert set(sizes) == {"index.html (sprite)", card_faces.CARD_BACK}
    # web/game.css draws the backs with the file written here.
    css = (Path(card_faces.__file__).parents[1] / "web" / "game.css").read_text(encoding="utf-8")
    assert f"url({card_faces.CARD_BACK})" in css

    (tmp_path / "index.html").write_text("<html><body></body></html>", encoding="utf-8")
    with pytest.raises(card_faces.CardFilesError, match="needs exactly one"):
        card_faces.write_card_files(tmp_path)
