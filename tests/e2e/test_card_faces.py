"""Card faces (tools/card_faces.py): every card on the table is drawn from the page's sprite, the
corner index stays readable in the hand, the backs are patterned, and nothing is fetched from
outside the site (the guarded pages fail on any such request)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page

import build

from . import game as g
from .conftest import PageGuard, _guarded_context
from .test_layout import DEVICES, VIEWPORTS, resized

#: Each drawn card's face: the symbol it uses, whether that resolved to a drawing (a <use> of a
#: missing symbol has an empty box), its colour, and whether screen readers skip it.
FACES_JS = """(selector) => [...document.querySelectorAll(selector)].map((card) => {
  const svg = card.querySelector('svg.face'), use = svg && svg.querySelector('use');
  const box = use ? use.getBBox() : {width: 0, height: 0};
  return {card: card.dataset.card, href: use && use.getAttribute('href'), drawn: box.width > 0 && box.height > 0,
          hidden: !!svg && svg.getAttribute('aria-hidden') === 'true', colour: use && getComputedStyle(use).color};
})"""

#: Sets ``window.__trickFaceSeen`` once a card lies in ``#trick`` with every face there drawn and
#: hidden from screen readers, checked at each change of the page (``FACES``: :data:`FACES_JS`).
TRICK_WATCH_JS = """(() => {
  const faces = FACES;
  const check = () => {
    const f = faces('#trick [data-card]');
    if (f.length > 0 && f.every(c => c.drawn && c.hidden)) window.__trickFaceSeen = true;
  };
  window.__trickFaceSeen = false;
  new MutationObserver(check).observe(document.body, {childList: true, subtree: true, attributes: true});
})()"""

#: For each hand card: the corner index's font size and whether its middle shows the card itself
#: (not a card laid over it).
INDEX_JS = """() => [...document.querySelectorAll('#hand [data-card]')].map((card) => {
  const ix = card.querySelector('.ix b'), r = ix.getBoundingClientRect();
  const top = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
  return {card: card.dataset.card, px: parseFloat(getComputedStyle(ix).fontSize), shown: card.contains(top)};
})"""


def faces(page: Page, selector: str) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = page.evaluate(FACES_JS, selector)
    return result


def test_every_card_on_the_table_is_drawn_from_the_sprite(
    desktop_page: Page, guard: PageGuard, site: build.SiteServer
) -> None:
    page = desktop_page
    g.open_game(page, site, seed=7)
    hand = faces(page, "#hand [data-card]")
    assert len(hand) == 13
    for face in hand:
        assert face["href"] == "#c-" + face["card"] and face["drawn"] and face["hidden"], face
    if g.phase(page) == "expose":
        g.expose_none(page)
        g.settle(page)

    # A card played lies on the table with its face. With ?fast=1 a trick is soon swept, and a
    # loaded machine may draw it for a single frame: every change of the page is checked as it
    # happens (a MutationObserver), not polled.
    page.evaluate(TRICK_WATCH_JS.replace("FACES", FACES_JS))
    page.locator(f'#hand [data-card="{g.playable(page)[0]}"]').click()
    page.click("[data-testid=play]")
    page.wait_for_function("() => window.__trickFaceSeen === true")

    # The opponents' cards show their patterned back, from the site.
    back = page.evaluate("getComputedStyle(document.querySelector('.back')).backgroundImage")
    assert "card-back.svg" in back
    assert any(url.endswith("/card-back.svg") for url in guard.requests)
    guard.check()


def test_the_four_colour_deck_colours_the_faces(desktop_page: Page, site: build.SiteServer) -> None:
    page = desktop_page
    g.open_game(page, site, seed=7)
    colours = {face["card"][1]: face["colour"] for face in faces(page, "#hand [data-card]")}
    page.evaluate("document.documentElement.dataset.deck = 'four'")
    four = {face["card"][1]: face["colour"] for face in faces(page, "#hand [data-card]")}
    assert colours.get("D") == colours.get("H") != colours.get("S")
    assert len(set(four.values())) == len(four)  # each suit in the hand its own colour
    assert four.get("S") == colours.get("S") and four.get("H") == colours.get("H")


@pytest.mark.parametrize("device", sorted(DEVICES))
def test_the_corner_index_is_large_and_never_covered(
    device: str, chromium_browser: Browser, site: build.SiteServer
) -> None:
    """At each size of the layout tests, where the hand's cards may overlap (one page per kind of
    device, resized through its sizes)."""
    width, height = DEVICES[device][0]
    context, guard = _guarded_context(chromium_browser, site, VIEWPORTS[f"{width}x{height}"])
    try:
        page = context.new_page()
        guard.watch(page)
        g.open_game(page, site, seed=7)
        for _width, _height, name in resized(page, device):
            indices = page.evaluate(INDEX_JS)
            assert len(indices) == 13
            for index in indices:
                assert index["px"] >= 15 and index["shown"], (name, index)
            assert all(face["drawn"] for face in faces(page, "#hand [data-card]"))
    finally:
        context.close()
    guard.check()
