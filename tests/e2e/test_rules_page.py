"""rules.html in the five languages, on a phone (360x640) and a desktop (1280x800).

The page must show the chosen language (``?lang=``, else the saved choice, else the browser's),
with its ``<html lang>`` and title, eleven numbered sections, no horizontal overflow of the page,
and the worked-trick diagram scrolling inside its own box on a narrow screen.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page

import build

from .conftest import PHONE, PageGuard

LANGS = {
    "en": ("en", "Rules of Gong Zhu", "How to play Gong Zhu"),
    "zh": ("zh-Hans", "拱猪规则", "拱猪怎么玩"),
    "fr": ("fr", "Règles du Gong Zhu", "Comment jouer au Gong Zhu"),
    "pt": ("pt-BR", "Regras do Gong Zhu", "Como jogar Gong Zhu"),
    "uk": ("uk", "Правила Ґунчжу", "Як грати в Ґунчжу"),
}


def _visible_article(page: Page) -> dict[str, object]:
    return page.evaluate(
        """() => {
        const shown = [...document.querySelectorAll('article[data-lang]')].filter(a => !a.hidden);
        const a = shown[0];
        const scroller = a.querySelector('.trick-scroll');
        return {
          count: shown.length, lang: a.dataset.lang, htmlLang: document.documentElement.lang,
          title: document.title, h1: a.querySelector('h1').textContent,
          numbers: [...a.querySelectorAll('h2 .n')].map(n => n.textContent),
          visibleSections: [...a.querySelectorAll('section')].filter(s => s.getBoundingClientRect().height > 0).length,
          pageScrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth,
          bodyScrollWidth: document.body.scrollWidth,
          diagram: [scroller.scrollWidth, scroller.clientWidth],
          overflowX: getComputedStyle(scroller).overflowX,
          back: a.querySelector('a.back').getAttribute('href'),
        };
      }"""
    )


def _check(page: Page, lang: str, phone: bool) -> None:
    info = _visible_article(page)
    html_lang, title, h1 = LANGS[lang]
    assert info["count"] == 1
    assert (info["lang"], info["htmlLang"], info["title"], info["h1"]) == (lang, html_lang, title, h1)
    assert info["numbers"] == [f"{n}." for n in range(1, 12)]
    assert info["visibleSections"] == 11
    # The page itself never scrolls sideways.
    assert info["pageScrollWidth"] <= info["innerWidth"], info
    assert info["bodyScrollWidth"] <= info["innerWidth"], info
    scroll_width, client_width = info["diagram"]  # type: ignore[misc]
    assert info["overflowX"] == "auto"
    if phone:
        assert scroll_width > client_width, "the diagram should scroll inside its box at 360 px"
    else:
        assert scroll_width <= client_width, "the diagram should fit on a desktop"


@pytest.mark.parametrize("lang", list(LANGS))
def test_rules_page_on_phone(
    phone_page: Page, phone_guard: PageGuard, site: build.SiteServer, lang: str
) -> None:
    phone_page.goto(site.url + f"rules.html?lang={lang}")
    _check(phone_page, lang, phone=True)
    # The diagram really scrolls by itself, and the page does not move.
    phone_page.locator("article:not([hidden]) .trick-scroll").evaluate("e => e.scrollBy(200, 0)")
    assert phone_page.locator("article:not([hidden]) .trick-scroll").evaluate("e => e.scrollLeft") > 0
    assert phone_page.evaluate("window.scrollX") == 0
    phone_guard.check()


@pytest.mark.parametrize("lang", list(LANGS))
def test_rules_page_on_desktop(
    desktop_page: Page, guard: PageGuard, site: build.SiteServer, lang: str
) -> None:
    desktop_page.goto(site.url + f"rules.html?lang={lang}")
    _check(desktop_page, lang, phone=False)
    assert _visible_article(desktop_page)["back"] == f"./?lang={lang}"
    guard.check()


def test_language_follows_browser_then_saved_choice(
    chromium_browser: Browser, site: build.SiteServer
) -> None:
    context = chromium_browser.new_context(locale="pt-BR", **PHONE)
    try:
        page = context.new_page()
        page.goto(site.url + "rules.html")
        assert _visible_article(page)["lang"] == "pt"
        assert _visible_article(page)["back"] == "./"
        # Switch from the page's own language menu: shown at once and remembered.
        page.click("article:not([hidden]) a[data-lang-link='uk']")
        assert _visible_article(page)["lang"] == "uk"
        assert page.evaluate("localStorage.getItem('gongzhu.lang')") == "uk"
        page.reload()
        assert _visible_article(page)["lang"] == "uk"
        assert _visible_article(page)["htmlLang"] == "uk"
        # ?lang= forces a language without changing the saved choice.
        page.goto(site.url + "rules.html?lang=zh")
        assert _visible_article(page)["lang"] == "zh"
        assert page.evaluate("localStorage.getItem('gongzhu.lang')") == "uk"
    finally:
        context.close()


def test_default_is_english(desktop_page: Page, site: build.SiteServer) -> None:
    desktop_page.goto(site.url + "rules.html")
    # The desktop context has no locale set: Chromium reports en-US.
    assert _visible_article(desktop_page)["lang"] == "en"
