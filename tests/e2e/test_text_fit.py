"""Every string on a card face or a seat fits on a 360x640 phone in every language, measured in the
browser: the text's own boxes (a Range over it) lie inside its card or its seat and on screen, and
no box of text is wider or taller than the element that clips it (scrollWidth/scrollHeight against
clientWidth/clientHeight). Two tables: the deal (the exposable marks of the pig, the goat, the
transformer and the ace of hearts) and a hand in play (the player's exposed cards flagged, the
all-hearts threat on a seat, the memory aid's lines on every seat). And the settings sheet: every
option of every select (the one shown is cut short otherwise, "Standard all heart") fits its select,
and every select's label its field."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from playwright.sync_api import Browser, Page

import build
from tools.browser import TEST_QUERY

from . import game as g
from .conftest import PHONE, _guarded_context

LANGUAGES = ("en", "zh", "fr", "pt", "uk")
#: The cards whose exposable mark names an effect (pig, goat, transformer, hearts).
EXPOSABLE = ("QS", "JD", "TC", "AH")

#: Strings on a card face, and strings on a seat: (selector, the element that must hold them).
CARD_TEXT = ((".card .mark", ".card"), (".card .mark b", ".card"), (".card .flag", ".card"))
SEAT_TEXT = (
    (".seat .who", ".seat"),
    (".seat .scores", ".seat"),
    (".seat .scores .lbl", ".seat"),
    (".seat .badge", ".seat"),
    (".seat .memory", ".seat"),
)

#: For each (selector, holder): every matching element whose text spills out of its holder or off
#: screen, or overflows its own box; and how many elements were measured.
FIT_JS = """(pairs) => {
  const bad = [];
  let measured = 0;
  const vw = document.documentElement.clientWidth, vh = document.documentElement.clientHeight;
  for (const [selector, holder] of pairs) {
    for (const el of document.querySelectorAll(selector)) {
      const style = getComputedStyle(el);
      if (style.display === 'none' || style.visibility === 'hidden' || !el.textContent.trim()) continue;
      measured++;
      const range = document.createRange();
      range.selectNodeContents(el);
      const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
      if (!rects.length) continue;
      const text = {left: Math.min(...rects.map((r) => r.left)), right: Math.max(...rects.map((r) => r.right)),
                    top: Math.min(...rects.map((r) => r.top)), bottom: Math.max(...rects.map((r) => r.bottom))};
      const box = el.closest(holder).getBoundingClientRect();
      const where = {selector, text: el.textContent.trim(), card: el.closest('[data-card]')?.dataset.card,
                     seat: el.closest('.seat')?.id};
      if (text.left < box.left - 0.5 || text.right > box.right + 0.5 || text.top < box.top - 0.5
          || text.bottom > box.bottom + 0.5)
        bad.push({...where, why: 'outside ' + holder, textBox: text,
                  holderBox: {left: box.left, right: box.right, top: box.top, bottom: box.bottom}});
      if (text.left < -0.5 || text.right > vw + 0.5 || text.top < -0.5 || text.bottom > vh + 0.5)
        bad.push({...where, why: 'off screen', textBox: text});
      if (style.display !== 'inline' && (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1))
        bad.push({...where, why: 'overflows its box', scroll: [el.scrollWidth, el.scrollHeight],
                  client: [el.clientWidth, el.clientHeight]});
    }
  }
  return {bad, measured};
}"""


def _fits(page: Page, pairs: tuple[tuple[str, str], ...], where: str) -> int:
    result = page.evaluate(FIT_JS, [list(p) for p in pairs])
    assert not result["bad"], f"text does not fit at {where}:\n" + json.dumps(
        result["bad"], indent=1, ensure_ascii=False
    )
    return int(result["measured"])


#: The settings sheet's field labels (the text over each select), each in its field.
SHEET_TEXT = (("[data-testid=sheet] label.field > span", "label.field"),)

#: Every option of every select in the settings sheet that its select shows cut short: the width the
#: select needs to show it (a copy of the select holding only that option, at its intrinsic width:
#: the text, the padding, the arrow and the border, as Chromium sizes a select) against the select's
#: own width; and how many options were measured.
SELECT_FIT_JS = """() => {
  const bad = [];
  let measured = 0;
  for (const select of document.querySelectorAll('[data-testid=sheet] select')) {
    const have = select.getBoundingClientRect().width;
    for (const option of select.options) {
      const copy = select.cloneNode(false);
      copy.removeAttribute('data-testid');
      copy.style.cssText = 'position: absolute; visibility: hidden; width: auto; min-width: 0; max-width: none';
      copy.append(option.cloneNode(true));
      select.after(copy);
      const need = copy.getBoundingClientRect().width;
      copy.remove();
      measured++;
      if (need > have + 0.5)
        bad.push({select: select.dataset.testid, option: option.textContent, need, have});
    }
  }
  return {bad, measured};
}"""


def _seed_with_every_mark() -> int:
    """A deal (seed) whose exposable cards are all of :data:`EXPOSABLE` (one page shows every mark)."""
    return g.find_seed(lambda seed: set(EXPOSABLE) <= set(g.my_exposable(seed)), limit=2000)


def _seeds_with_marks() -> list[int]:
    """Deals (seeds) whose exposable cards, together, include each of :data:`EXPOSABLE`."""
    seeds: list[int] = []
    for card in EXPOSABLE:
        if not any(card in g.my_exposable(seed) for seed in seeds):
            seeds.append(g.find_seed(lambda seed, card=card: card in g.my_exposable(seed)))
    return seeds


def _hand_in_play() -> dict[str, Any]:
    """A hand in play, the player to play: some of the player's cards exposed and still in hand,
    a seat threatening to take all the hearts."""

    def ready(view: dict[str, Any]) -> bool:
        return view.get("threat") is not None and any(c in view["hand"] for c in view["exposed"][0])

    for seed in _seeds_with_marks():
        found = g.simulate(seed, expose=lambda cards: cards, stop=ready)
        if found is not None:
            return found[0]
    raise AssertionError("no hand with an exposed card in hand and an all-hearts threat")


def _open(browser: Browser, site: build.SiteServer, save: str = "") -> tuple[Any, Any, Page]:
    context, guard = _guarded_context(browser, site, PHONE)
    page = context.new_page()
    guard.watch(page)
    setup = {"gongzhu.settings.v1": json.dumps({"memory_aid": True})}
    if save:
        setup["gongzhu.save.v1"] = save
    page.add_init_script(
        "if (!sessionStorage.getItem('test-setup')) {"
        f" for (const [k, v] of Object.entries({json.dumps(setup)})) localStorage.setItem(k, v);"
        " sessionStorage.setItem('test-setup', '1'); }"
    )
    return context, guard, page


def _in_each_language(page: Page) -> Iterator[str]:
    """The page in each of :data:`LANGUAGES` in turn, chosen in the settings sheet as a player would
    (the table stays as it is: tests/e2e/test_languages.py), the sheet closed again."""
    for lang in LANGUAGES:
        g.menu_select(page, "language", lang)
        page.wait_for_function("(lang) => document.documentElement.lang.startsWith(lang)", arg=lang)
        g.settle(page)
        yield lang


def test_card_and_seat_strings_fit_a_360_phone(chromium_browser: Browser, site: build.SiteServer) -> None:
    """A deal with every exposable mark and the hand in play, measured in every language."""
    seed = _seed_with_every_mark()
    context, guard, page = _open(chromium_browser, site)
    try:
        g.open_game(page, site, seed=seed)
        assert g.phase(page) == "expose"
        for lang in _in_each_language(page):
            marks = page.eval_on_selector_all(
                "#hand .card .mark", "els => els.map(e => e.closest('[data-card]').dataset.card)"
            )
            assert set(EXPOSABLE) <= set(marks), (lang, marks)
            assert _fits(page, CARD_TEXT + SEAT_TEXT, f"360x640 in {lang} (deal {seed})") >= 9
    finally:
        context.close()
    guard.check()
    context, guard, page = _open(chromium_browser, site, g.save_text(_hand_in_play()))
    try:
        page.goto(site.url + f"?{TEST_QUERY}")
        assert g.settle(page) == "play"
        for lang in _in_each_language(page):
            for piece in ("#hand .card .flag", ".seat .badge.threat", ".seat .memory"):
                assert page.locator(piece).count() >= 1, (lang, piece)
            assert _fits(page, CARD_TEXT + SEAT_TEXT, f"360x640 in {lang} (in play)") >= 12
    finally:
        context.close()
    guard.check()


def test_settings_sheet_selects_fit_a_360_phone(chromium_browser: Browser, site: build.SiteServer) -> None:
    """Every option of the sheet's selects (difficulty, language, play speed, trick pause, the house
    rules) shows whole on a 360 px phone in every language, and every select's label fits its field.
    (A phone on its side, 640x360, is not held to it: the whole sheet stays on one screen there,
    tests/e2e/test_layout.py, and the rules' longest options do not fit a quarter of it.)"""
    context, guard, page = _open(chromium_browser, site)
    try:
        g.open_game(page, site)
        for lang in _in_each_language(page):
            where = f"360x640 in {lang}, settings sheet"
            g.open_menu(page)
            for testid in ("difficulty", "language", "play-speed", "trick-pause", "rule-all-hearts"):
                assert page.locator(f"[data-testid=sheet] select[data-testid={testid}]").count() == 1, testid
            result = page.evaluate(SELECT_FIT_JS)
            assert not result["bad"], f"a select's option is cut at {where}:\n" + json.dumps(
                result["bad"], indent=1, ensure_ascii=False
            )
            assert result["measured"] >= 15
            assert _fits(page, SHEET_TEXT, where) >= 7
            g.close_menu(page)
    finally:
        context.close()
    guard.check()
