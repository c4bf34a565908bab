"""The browser game end to end, driven through its testing contract (see docs/game-ui.md).

Pages open with ``?fast=1`` (opponents play at once) unless a test needs the normal pace, and with
``?coach=0`` (the coach idle) unless a test is about a hand's end while the coach works.
Every test runs under the conftest guard: no request outside the site, no console error.
"""

from __future__ import annotations

import re

from playwright.sync_api import Page

import build
from tools.browser import TEST_QUERY

from . import game as g


def _seed_without_exposable() -> int:
    return g.find_seed(lambda s: not g.my_exposable(s))


#: An opponent is to play (as drawn).
NOT_MY_TURN_JS = (
    "(document.documentElement.dataset.phase === 'play' && document.documentElement.dataset.turn !== '0')"
)
#: Tap the hand's card ``code`` if an opponent is to play as drawn (checked and tapped in one task, so
#: no answer of the engine comes between): whether it was tapped.
TAP_IF_NOT_MY_TURN_JS = (
    "(code) => { if (!" + NOT_MY_TURN_JS + ") return false;"
    ' document.querySelector(`#hand [data-card="${code}"]`).click(); return true }'
)


def _seed_with_exposable() -> int:
    return g.find_seed(lambda s: bool(g.my_exposable(s)))


def test_full_hand_by_clicking_then_summary_survives_reload(phone_page: Page, site: build.SiteServer) -> None:
    """A whole hand tapped on a phone (its fanned hand: the hardest to hit); on a desktop a whole hand
    is played with the keyboard alone (tests/e2e/test_accessibility.py) and the summary's reload is
    the same page."""
    page = phone_page
    g.open_game(page, site, seed=_seed_without_exposable(), coach=True)  # (a reload while it analyses)
    assert "No card to expose this hand" in g.message(page)
    assert g.finish_hand(page) == 13
    assert g.phase(page) == "hand-over"
    summary = page.locator("[data-testid=hand-summary]")
    text = summary.inner_text()
    for label in (
        "Hearts",
        "Pig",
        "Goat",
        "Transformer",
        "Exposure multipliers",
        "Bonus",
        "Hand score",
        "Total",
    ):
        assert label in text
    before = g.table_snapshot(page)
    # (the coach's line below the breakdown changes as its analysis goes on: not compared)
    standing = "[data-testid=hand-summary] h2, [data-testid=hand-summary] .breakdown"
    scores_shown = ["".join(t.split()) for t in page.locator(standing).all_text_contents()]
    page.reload()
    assert g.settle(page) == "hand-over"
    assert ["".join(t.split()) for t in page.locator(standing).all_text_contents()] == scores_shown
    assert g.table_snapshot(page) == before
    page.click("[data-testid=next-hand]")
    page.wait_for_selector("[data-testid=hand-summary]", state="detached")
    assert g.settle(page) in ("expose", "play")
    assert len(g.hand(page)) == 13
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_refusals_explain_and_change_nothing(desktop_page: Page, site: build.SiteServer) -> None:
    page = desktop_page

    # must follow: a turn of mine following a trick while holding other suits
    def following(view: dict) -> bool:
        return bool(view["trick"]["plays"]) and any(
            r and r["reason"] == "must_follow_suit" for r in view["refusals"].values()
        )

    seed = g.find_seed(lambda s: g.simulate(s, lambda e: [], following) is not None)
    packed, before_mine = g.simulate(seed, lambda e: [], following)  # type: ignore[misc]
    g.open_game(page, site, seed=seed)
    for _ in range(before_mine):
        if g.phase(page) == "expose":
            g.expose_none(page)
            g.settle(page)
        g.play_first(page)
        g.settle(page)
    if g.phase(page) == "expose":
        page.click("[data-testid=expose-none]")
        g.settle(page)
    snapshot = g.table_snapshot(page)
    refused = g.unplayable(page)[0]
    view = packed["view"]
    assert snapshot["hand"] == view["hand"]
    suit = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}[view["trick"]["plays"][0]["card"][1]]
    g.card(page, refused).click(force=True)  # aria-disabled: Playwright would wait
    assert g.wait_message(page, "You must follow") == f"You must follow {suit}"
    assert g.table_snapshot(page) == snapshot
    assert "selected" not in (g.card(page, refused).get_attribute("class") or "")


def test_exposed_card_refusal_in_first_trick_of_its_suit(desktop_page: Page, site: build.SiteServer) -> None:
    page = desktop_page

    def restricted(view: dict) -> bool:
        return any(r and r["reason"] == "exposed_first_trick" for r in view["refusals"].values())

    seed = g.find_seed(
        lambda s: bool(g.my_exposable(s)) and g.simulate(s, lambda e: e, restricted) is not None
    )
    packed, before_mine = g.simulate(seed, lambda e: e, restricted)  # type: ignore[misc]
    g.open_game(page, site, seed=seed)
    for code in g.my_exposable(seed):
        g.card(page, code).click()
    page.click("[data-testid=expose-confirm]")
    page.wait_for_selector("[data-testid=expose-confirm]", state="detached")
    for _ in range(before_mine):
        g.settle(page)
        g.play_first(page)
    g.settle(page)
    code = next(
        c for c, r in packed["view"]["refusals"].items() if r and r["reason"] == "exposed_first_trick"
    )
    snapshot = g.table_snapshot(page)
    assert g.card(page, code).get_attribute("aria-disabled") == "true"
    g.card(page, code).click(force=True)
    g.wait_message(page, "exposed")
    assert "may not be played in the first trick of its suit" in g.message(page)
    assert g.table_snapshot(page) == snapshot


def test_not_your_turn_and_expose_phase_taps(desktop_page: Page, site: build.SiteServer) -> None:
    page = desktop_page
    seed = _seed_with_exposable()
    g.open_game(page, site, seed=seed, fast=False)
    assert g.phase(page) == "expose"
    other = next(c for c in g.hand(page) if c not in g.my_exposable(seed))
    snapshot = g.table_snapshot(page)
    g.card(page, other).click(force=True)
    assert g.wait_message(page, "Only") == "Only the cards marked exposable can be chosen now"
    assert g.table_snapshot(page) == snapshot
    page.click("[data-testid=expose-none]")
    page.wait_for_function("() => document.documentElement.dataset.phase === 'play'")
    # At the normal pace the opponents take a while: a tap while one of them is to play is answered,
    # and the answer stays up until the player's turn. The turn drawn can be a frame behind the page's
    # (a loaded machine), so a tap may reach the player's own turn and select the card (a tap on a trick
    # on show waits for its sweep, then reaches whoever is to play): then the player plays its card, and
    # taps in the next trick.
    for _ in range(4):
        page.wait_for_function(f"() => {NOT_MY_TURN_JS} || ({g.SETTLED_JS})()")
        before = g.hand(page)
        if page.evaluate(TAP_IF_NOT_MY_TURN_JS, before[0]):
            page.wait_for_function(
                "() => document.querySelector('[data-testid=message]').innerText.includes('Wait')"
                " || document.documentElement.dataset.turn === '0'"
            )
            if "Wait" in g.message(page):
                assert g.message(page) == "Wait for your turn"
                assert g.hand(page) == before
                break
        g.settle(page)
        code = g.playable(page)[0]
        if "selected" not in (g.card(page, code).get_attribute("class") or "").split():
            g.card(page, code).click()  # (the tap may have selected it already)
        page.click("[data-testid=play]")
        page.wait_for_selector(f'#hand [data-card="{code}"]', state="detached")
    else:
        raise AssertionError("no tap landed while an opponent was to play")


def test_expose_flow_and_reload_in_expose_phase(desktop_page: Page, site: build.SiteServer) -> None:
    page = desktop_page
    seed = _seed_with_exposable()
    exposable = g.my_exposable(seed)
    g.open_game(page, site, seed=seed)
    assert page.evaluate("location.search") == f"?{TEST_QUERY}"  # ?seed= is dropped once used
    marks = page.locator("#hand .card.exposable")
    assert marks.count() == len(exposable)
    assert "exposable" in marks.first.inner_text()
    assert page.is_disabled("[data-testid=expose-confirm]")
    g.card(page, exposable[0]).click()
    page.wait_for_selector(f'#hand .selected[data-card="{exposable[0]}"]')
    snapshot = g.table_snapshot(page)
    page.reload()
    assert g.settle(page) == "expose"
    assert g.table_snapshot(page) == snapshot
    assert "selected" in (g.card(page, exposable[0]).get_attribute("class") or "")
    page.click("[data-testid=expose-confirm]")
    page.wait_for_selector("[data-testid=expose-confirm]", state="detached")
    assert g.settle(page) == "play"
    assert page.locator(f'[data-seat="0"] .exposed [data-card="{exposable[0]}"]').count() == 1
    assert "Exposed" in g.message(page) or "exposed" in g.message(page)


def test_dont_expose_and_hint_in_expose_phase(phone_page: Page, site: build.SiteServer) -> None:
    page = phone_page
    seed = _seed_with_exposable()
    g.open_game(page, site, seed=seed)
    page.click("[data-testid=hint]")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=message]').innerText.startsWith('Hint')"
    )
    g.expose_none(page)
    assert g.settle(page) == "play"
    assert page.locator('[data-seat="0"] .exposed [data-card]').count() == 0
    page.click("[data-testid=hint]")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=message]').innerText.startsWith('Hint: play')"
    )
    assert page.locator("#hand .card.selected").count() == 1


def test_reload_mid_trick_resumes_exactly(phone_page: Page, site: build.SiteServer) -> None:
    page = phone_page
    seed = _seed_without_exposable()
    g.open_game(page, site, seed=seed)
    for _ in range(13):
        g.settle(page)
        if g.trick(page):
            break
        g.play_first(page)
    assert g.trick(page), "no turn of mine in the middle of a trick"
    g.card(page, g.playable(page)[0]).click()
    page.wait_for_selector("#hand .card.selected")
    snapshot = g.table_snapshot(page)
    page.reload()
    assert g.settle(page) == "play"
    assert g.table_snapshot(page) == snapshot
    assert page.locator("#hand .card.selected").count() == 1


def test_match_result_reload_and_play_again(desktop_page: Page, site: build.SiteServer) -> None:
    page = desktop_page
    final = g.play_out(g.op("new_match", seed=5), lambda v: v["phase"] == "match_over")
    g.load_save(page, site, g.save_text(final))
    assert g.phase(page) == "match-over"
    result = final["view"]["result"]
    text = page.locator("[data-testid=match-summary]").inner_text()
    assert ("Victory!" if result["winner"] == 0 else "Defeat") in text
    assert text.count("Eliminated") == len(result["eliminated"])
    # the result and the ranking come back as they were (the coach's part below them changes as its
    # analysis of the last hand goes on, so it is not compared)
    # (compared without whitespace: inner_text's tabs between table cells depend on layout timing)
    standing = "[data-testid=match-summary] h2, [data-testid=match-summary] .ranking"
    before = ["".join(t.split()) for t in page.locator(standing).all_text_contents()]
    page.reload()
    assert g.settle(page) == "match-over"
    assert ["".join(t.split()) for t in page.locator(standing).all_text_contents()] == before
    page.click("[data-testid=play-again]")
    page.wait_for_selector("[data-testid=match-summary]", state="detached")
    assert g.settle(page) in ("expose", "play")
    assert all(total == "0" for _, total in g.scores(page))


def test_difficulty_applies_from_next_hand(desktop_page: Page, site: build.SiteServer) -> None:
    page = desktop_page
    over = g.play_out(g.op("new_match", seed=9), lambda v: v["phase"] == "hand_over")
    g.load_save(page, site, g.save_text(over))
    assert g.menu_value(page, "difficulty") == "normal"
    g.menu_select(page, "difficulty", "hard")  # (☰ works over the hand summary)
    saved = page.evaluate("JSON.parse(localStorage.getItem('gongzhu.save.v1'))")
    assert saved["hand_level"] == "normal"
    page.click("[data-testid=next-hand]")
    page.wait_for_selector("[data-testid=hand-summary]", state="detached")
    g.settle(page)
    saved = page.evaluate("JSON.parse(localStorage.getItem('gongzhu.save.v1'))")
    assert saved["hand_level"] == "hard"
    g.menu_select(page, "difficulty", "easy")
    assert g.wait_message(page, "Difficulty") == "Difficulty changes from the next hand"
    saved = page.evaluate("JSON.parse(localStorage.getItem('gongzhu.save.v1'))")
    assert saved["hand_level"] == "hard"
    page.reload()
    g.settle(page)
    assert g.menu_value(page, "difficulty") == "easy"


def test_view_captured_and_corrupt_save(desktop_page: Page, site: build.SiteServer) -> None:
    page = desktop_page
    mid = g.play_out(g.op("new_match", seed=4), lambda v: v["phase"] == "play" and len(v["tricks"]) >= 6)
    g.load_save(page, site, g.save_text(mid))
    g.menu_click(page, "view-captured")
    page.wait_for_selector("[data-testid=captured]")
    panel = page.locator("[data-testid=captured]")
    assert panel.is_visible()
    assert re.search("Captured", panel.inner_text())
    page.click("[data-action=close]")
    page.wait_for_selector("[data-testid=captured]", state="detached")
    page.evaluate("localStorage.setItem('gongzhu.save.v1', '{broken')")
    page.reload()
    assert g.settle(page) in ("expose", "play")
    assert "could not be read" in g.wait_message(page, "could not be read")
    assert page.evaluate("localStorage.getItem('gongzhu.save.corrupt')") == "{broken"


def test_a_tap_reads_as_busy_until_its_redraw(desktop_page: Page, site: build.SiteServer) -> None:
    """Between a tap and the frame that draws its outcome, the page still shows the table from
    before the tap; it must not read as settled then (``data-busy``), or whatever acts at once (a
    test, a script) acts on the old table."""
    page = desktop_page
    g.open_game(page, site, seed=_seed_without_exposable())
    code = g.playable(page)[0]
    at_once = page.evaluate(
        """([code, settled]) => {
          const card = document.querySelector(`#hand [data-card="${code}"]`);
          card.click();
          return {busy: document.documentElement.dataset.busy || null,
                  pressed: card.getAttribute('aria-pressed'),
                  settled: eval(settled)()};
        }""",
        [code, g.SETTLED_JS],
    )
    assert at_once == {"busy": "true", "pressed": None, "settled": False}
    g.settle(page)
    assert g.card(page, code).get_attribute("aria-pressed") == "true"
    # A button's handling (Play) starts in a task of its own, after the tap returns.
    at_once = page.evaluate(
        """([code, settled]) => {
          document.querySelector('[data-testid=play]').click();
          return {busy: document.documentElement.dataset.busy || null,
                  held: !!document.querySelector(`#hand [data-card="${code}"]`),
                  settled: eval(settled)()};
        }""",
        [code, g.SETTLED_JS],
    )
    assert at_once == {"busy": "true", "held": True, "settled": False}
    page.wait_for_selector(f'#hand [data-card="{code}"]', state="detached")
