"""The game in five languages: ``?lang=`` forcing, the browser's preference, ``<html lang>`` and the
title, and a hand played in French reading docs/ui.md's fixed labels from the page (the Portuguese
labels are the catalog's: tests/test_i18n.py holds them to docs/ui.md, beside the French ones)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

import build
from tools.browser import TEST_QUERY
from tools.i18n import load_messages

from . import game
from .conftest import DESKTOP, PHONE, PageGuard

TITLE = "Gong Zhu — chase the pig"
HTML_LANG = {"en": "en", "zh": "zh", "fr": "fr", "pt": "pt", "uk": "uk"}

#: docs/ui.md's fixed labels, as the page must show them.
LABELS: dict[str, dict[str, str]] = {
    "fr": {
        "expose-confirm": "Exposer",
        "expose-none": "Ne pas exposer",
        "hint": "Indice",
        "play": "Jouer",
        "view-captured": "Voir les cartes ramassées",
        "next-hand": "Manche suivante",
        "exposable": "exposable",
        "Pig ×2": "Cochon ×2",
        "follow": "Vous devez fournir {suit}",
        "suits": "S=pique H=cœur D=carreau C=trèfle",
        "summary": "Cochon Chèvre Transfo",
        "levels": "Facile Normal Difficile",
    },
    "pt": {
        "expose-confirm": "Expor",
        "expose-none": "Não expor",
        "hint": "Dica",
        "play": "Jogar",
        "view-captured": "Ver cartas recolhidas",
        "next-hand": "Próxima mão",
        "exposable": "pode expor",
        "Pig ×2": "Porco ×2",
        "follow": "Você deve seguir {suit}",
        "suits": "S=espadas H=copas D=ouros C=paus",
        "summary": "Porco Cabra Transformador",
        "levels": "Fácil Normal Difícil",
    },
}


def _lang_state(page: Page) -> dict[str, Any]:
    return dict(
        page.evaluate(
            "() => ({lang: document.documentElement.lang, title: document.title,"
            " difficulty: document.querySelector('[data-testid=difficulty]')?.closest('label')?.innerText"
            " ?? document.querySelector('[data-testid=difficulty]')?.getAttribute('aria-label') ?? ''})"
        )
    )


@pytest.mark.parametrize("lang", ["en", "zh", "fr", "pt", "uk"])
def test_lang_parameter_forces_the_language(
    chromium_browser: Browser, site: build.SiteServer, lang: str
) -> None:
    context = chromium_browser.new_context(locale="de-DE" if lang == "en" else "en-US", **DESKTOP)
    guard = PageGuard(site.url)
    guard.attach(context)
    try:
        page = context.new_page()
        guard.watch(page)
        page.goto(site.url + f"?lang={lang}&{TEST_QUERY}&seed=7")
        game.settle(page)
        state = _lang_state(page)
        assert state["lang"].split("-")[0] == HTML_LANG[lang]
        assert state["title"] == load_messages(lang)[TITLE]
        if lang != "en":
            assert load_messages(lang)[TITLE] != TITLE
        game.open_menu(page)
        labels = page.inner_text("body")
        assert load_messages(lang)["View captured cards"] in labels
        assert page.get_attribute("[data-testid=menu]", "aria-label") == load_messages(lang)["Menu"]
        guard.check()
    finally:
        context.close()


#: The rule that maps the browser's languages to the game's (each tag's base: fr-FR, pt-BR, uk-UA ...)
#: is checked in CPython and in Node for every case (tests/test_language_choice.py); the page is
#: shown to follow the browser's locale once.
@pytest.mark.parametrize(("locale", "lang"), [("zh-CN", "zh")])
def test_first_visit_follows_the_browser(
    chromium_browser: Browser, site: build.SiteServer, locale: str, lang: str
) -> None:
    context = chromium_browser.new_context(locale=locale, **PHONE)
    try:
        page = context.new_page()
        page.goto(site.url + f"?{TEST_QUERY}&seed=7")
        game.settle(page)
        assert page.evaluate("document.documentElement.lang").split("-")[0] == lang
        assert page.title() == load_messages(lang)[TITLE]
    finally:
        context.close()


def _button(page: Page, testid: str) -> str:
    return page.inner_text(f"[data-testid={testid}]").strip()


def _seed_with_pig_exposable() -> int:
    return game.find_seed(lambda s: "QS" in game.my_exposable(s))


@pytest.mark.parametrize("lang", ["fr"])
def test_play_a_hand_reading_the_fixed_labels(
    desktop_page: Page, guard: PageGuard, site: build.SiteServer, lang: str
) -> None:
    labels = LABELS[lang]
    seed = _seed_with_pig_exposable()
    desktop_page.goto(site.url + f"?lang={lang}&seed={seed}&{TEST_QUERY}")
    assert game.settle(desktop_page) == "expose"
    assert desktop_page.evaluate("document.documentElement.lang").split("-")[0] == lang

    # Expose phase: the pig is marked exposable with its effect; the three buttons.
    pig = game.card(desktop_page, "QS").inner_text()
    assert labels["exposable"] in pig and labels["Pig ×2"] in pig, pig
    assert _button(desktop_page, "expose-confirm") == labels["expose-confirm"]
    assert _button(desktop_page, "expose-none") == labels["expose-none"]
    assert _button(desktop_page, "hint") == labels["hint"]
    game.open_menu(desktop_page)
    levels = desktop_page.inner_text("[data-testid=difficulty]")
    for level in labels["levels"].split():
        assert level in levels
    assert _button(desktop_page, "view-captured") == labels["view-captured"]
    game.close_menu(desktop_page)
    game.expose_none(desktop_page)

    # Play: the buttons, then a refused card explains itself in the language of the page.
    suits = dict(pair.split("=") for pair in labels["suits"].split())
    refused = False
    played = 0
    while True:
        current = game.settle(desktop_page)
        if current in ("hand-over", "match-over"):
            break
        assert current == "play"
        assert _button(desktop_page, "play") == labels["play"]
        assert _button(desktop_page, "hint") == labels["hint"]
        on_table = game.trick(desktop_page)
        blocked = game.unplayable(desktop_page)
        if not refused and on_table and blocked:
            before = game.hand(desktop_page)
            game.card(desktop_page, blocked[0]).click(force=True)  # dimmed (aria-disabled) but tappable
            expected = labels["follow"].format(suit=suits[on_table[0][1][1]])
            assert expected in game.wait_message(desktop_page, expected)
            assert game.hand(desktop_page) == before
            refused = True
        game.play_first(desktop_page, by_button=played % 2 == 0)
        played += 1
    assert refused, "no refused card in this hand: pick another seed"
    assert played == 13

    # The summary breaks the score down with the game's names for the special cards.
    summary = desktop_page.inner_text("[data-testid=hand-summary]")
    for word in labels["summary"].split():
        assert word in summary, (word, summary)
    if current == "hand-over":
        assert _button(desktop_page, "next-hand") == labels["next-hand"]
    guard.check()


def test_menu_changes_language_mid_hand_without_losing_the_game(
    desktop_page: Page, guard: PageGuard, site: build.SiteServer
) -> None:
    page = desktop_page
    game.open_game(page, site, seed=11)
    if game.phase(page) == "expose":
        game.expose_none(page)
    for _ in range(2):
        game.settle(page)
        game.play_first(page)
    game.settle(page)
    before = game.table_snapshot(page)
    assert _button(page, "play") == "Play"

    game.open_menu(page)
    page.select_option("[data-testid=language]", "fr")
    page.wait_for_function("document.documentElement.lang.startsWith('fr')")
    page.wait_for_function("document.querySelector('[data-testid=play]')?.innerText.trim() === 'Jouer'")
    assert page.title() == load_messages("fr")[TITLE]
    assert game.table_snapshot(page) == before, "changing the language must not touch the game"
    assert page.evaluate("localStorage.getItem('gongzhu.lang')") == "fr"
    assert page.get_attribute("[data-testid=rules-link]", "href") == "./rules.html?lang=fr"

    # The choice is saved: a reload comes back in French, at the same place.
    page.reload()
    game.settle(page)
    assert page.evaluate("document.documentElement.lang").startswith("fr")
    assert _button(page, "play") == "Jouer"
    assert game.table_snapshot(page) == before

    # The rules page opens from the menu in the same language.
    game.menu_click(page, "rules-link")
    page.wait_for_url("**/rules.html?lang=fr")
    assert page.evaluate("document.documentElement.lang") == "fr"
    assert page.title() == "Règles du Gong Zhu"
    guard.check()


@pytest.mark.parametrize(
    ("lang", "victory", "defeat", "eliminated", "again"),
    [
        ("fr", "Victoire !", "Défaite", "Éliminé", "Rejouer"),
        ("pt", "Vitória!", "Derrota", "Eliminado", "Jogar de novo"),
    ],
)
def test_match_result_labels(
    desktop_page: Page,
    site: build.SiteServer,
    lang: str,
    victory: str,
    defeat: str,
    eliminated: str,
    again: str,
) -> None:
    """The end of a match, reached from an autosave, in the language saved from the menu."""
    final = game.play_out(game.op("new_match", seed=5), lambda v: v["phase"] == "match_over")
    desktop_page.add_init_script(
        "if (!sessionStorage.getItem('test-save')) {"
        f" localStorage.setItem('gongzhu.save.v1', {json.dumps(game.save_text(final))});"
        f" localStorage.setItem('gongzhu.lang', '{lang}');"
        " sessionStorage.setItem('test-save', '1'); }"
    )
    desktop_page.goto(site.url + f"?{TEST_QUERY}")
    assert game.settle(desktop_page) == "match-over"
    result = final["view"]["result"]
    text = desktop_page.inner_text("[data-testid=match-summary]")
    assert (victory if result["winner"] == 0 else defeat) in text
    assert result["eliminated"] and text.count(eliminated) == len(result["eliminated"])
    assert _button(desktop_page, "play-again") == again
    assert desktop_page.evaluate("document.documentElement.lang").split("-")[0] == lang


@pytest.mark.parametrize(("lang", "speed_up"), [("fr", "Accélérer"), ("pt", "Avançar")])
def test_speed_up_label_while_the_opponents_play(
    desktop_page: Page, site: build.SiteServer, lang: str, speed_up: str
) -> None:
    seed = game.find_seed(lambda s: "2S" not in game.op("new_match", seed=s)["view"]["hand"])
    desktop_page.goto(site.url + f"?lang={lang}&seed={seed}")  # opponents at their normal pace
    button = desktop_page.wait_for_selector("[data-testid=speed-up], [data-testid=expose-none]")
    if button and button.get_attribute("data-testid") == "expose-none":
        game.expose_none(desktop_page)
    desktop_page.wait_for_selector("[data-testid=speed-up]")
    assert _button(desktop_page, "speed-up") == speed_up
