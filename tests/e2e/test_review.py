"""Issue 15 end to end: the hand review stepped through on a phone and a desktop (buttons, arrow
keys, a swipe, a jump), a reload on the review, a costly play flagged in a hand known to hold one,
and the table-memory aid on and off."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

import build
from tests.e2e.conftest import BOOT_TIMEOUT_MS, PageGuard
from tests.e2e.game import (
    menu_click,
    op,
    open_at_summary,
    open_game,
    open_menu,
    play_out,
    save_text,
    settle,
)
from tests.e2e.test_accessibility import AXE, _axe
from tests.support.replay import COSTLY_SEED, predicted_hand_over
from tools.browser import WAIT_MS

SEED = 3
COMPLETE_JS = "() => { const v = document.querySelector('[data-testid=coach-verdict]'); return v && !v.textContent.includes('…'); }"


def shown_trick(page: Page) -> list[tuple[int, str]]:
    cards = page.eval_on_selector_all(
        "[data-testid=review] [data-card][data-seat]",
        "els => els.map(e => [Number(e.dataset.seat), e.dataset.card])",
    )
    return [(int(s), str(c)) for s, c in cards]


def trick_number(page: Page) -> int:
    return int(page.get_attribute("[data-testid=review]", "data-trick") or 0)


def wait_trick(page: Page, n: int) -> None:
    page.wait_for_selector(f"[data-testid=review][data-trick='{n}'] [data-card][data-seat]")


def swipe(page: Page, dx: int) -> None:
    box = None
    for _attempt in range(20):  # (the coach's answers redraw the review meanwhile: a box may vanish)
        box = page.locator("[data-testid=review] .rv-facts").bounding_box()
        if box is not None:
            break
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + dx, y, steps=4)
    page.mouse.up()


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_a_review_stepped_through_and_resumed_after_a_reload(
    device: str, request: pytest.FixtureRequest, site: build.SiteServer
) -> None:
    page: Page = request.getfixturevalue(f"{device}_page")
    tricks = [
        [(p["seat"], p["card"]) for p in t["plays"]] for t in predicted_hand_over(SEED)["view"]["tricks"]
    ]
    open_at_summary(page, site, SEED, coach=True)
    page.click("[data-testid=review-hand]")
    wait_trick(page, 1)
    assert shown_trick(page) == tricks[0]
    page.click("[data-testid=review-next]")
    wait_trick(page, 2)
    assert shown_trick(page) == tricks[1]
    page.keyboard.press("ArrowRight")
    wait_trick(page, 3)
    swipe(page, -150)  # right to left: the next trick
    wait_trick(page, 4)
    assert shown_trick(page) == tricks[3]
    swipe(page, 150)
    wait_trick(page, 3)
    page.click("[data-action=review-go-13]")
    wait_trick(page, 13)
    assert shown_trick(page) == tricks[12]
    page.click("[data-testid=review-prev]")
    wait_trick(page, 12)
    page.wait_for_function("() => !document.documentElement.dataset.busy")
    page.reload()
    wait_trick(page, 12)
    assert shown_trick(page) == tricks[11]
    page.keyboard.press("Escape")
    page.wait_for_selector("[data-testid=hand-summary] [data-testid=review-hand]")
    assert settle(page) == "hand-over"


def coach_analyses(state: str) -> list[dict[str, Any]]:
    """The coach's analyses of a finished hand, step by step through the worker's op."""
    analyses: list[dict[str, Any]] = []
    answer = op("coach", state=state, index=0)
    while True:
        if "part" in answer:
            answer = op("coach", state=state, index=answer["index"], part=answer["part"])
            continue
        analyses.append(answer)
        if len(analyses) == answer["count"]:
            return analyses
        answer = op("coach", state=state, index=len(analyses))


def test_a_costly_play_is_flagged_with_its_cost(desktop_page: Page, site: build.SiteServer) -> None:
    final = predicted_hand_over(COSTLY_SEED)
    analyses = coach_analyses(final["state"])
    costly = [a for a in analyses if a["costly"] and a["kind"] == "play"]
    assert costly, f"seed {COSTLY_SEED} played card by card from the left holds a costly play"
    page = desktop_page
    open_at_summary(page, site, COSTLY_SEED, coach=True)
    page.wait_for_function(COMPLETE_JS, timeout=WAIT_MS)
    verdict = page.inner_text("[data-testid=coach-verdict]")
    assert str(len([a for a in analyses if a["costly"]])) in verdict
    page.click("[data-testid=review-hand]")
    for a in costly:
        page.click(f"[data-action=review-go-{a['trick']}]")
        wait_trick(page, a["trick"])
        marked = page.locator("[data-testid=review] [data-card][data-seat='0'][data-costly]")
        assert marked.get_attribute("data-costly") == str(a["cost"])
        assert marked.get_attribute("data-card") == a["chosen"][0]
    # trick 1 also shows the exposure's line, marked when the exposure was costly
    exposure_costly = any(a["costly"] for a in analyses if a["kind"] == "expose")
    clean = next(
        a
        for a in analyses
        if a["kind"] == "play" and not a["costly"] and not (a["trick"] == 1 and exposure_costly)
    )
    page.click(f"[data-action=review-go-{clean['trick']}]")
    wait_trick(page, clean["trick"])
    assert page.locator("[data-testid=review] [data-costly]").count() == 0


def test_the_memory_aid_on_and_off(desktop_page: Page, site: build.SiteServer) -> None:
    page = desktop_page
    open_game(page, site, seed=SEED, coach=True)
    assert page.locator("[data-testid=memory-points]").count() == 0  # off by default
    open_menu(page)
    aid = page.locator("[data-testid=memory-aid]")
    assert aid.get_attribute("aria-pressed") == "false"
    aid.click()
    page.wait_for_selector("[data-testid=memory-points]")
    assert aid.get_attribute("aria-pressed") == "true"
    assert "Q♠" in page.inner_text("[data-testid=memory-points]")  # the pig is still out
    page.reload()
    settle(page)
    page.wait_for_selector("[data-testid=memory-points]")  # a saved setting
    menu_click(page, "memory-aid")
    page.wait_for_selector("[data-testid=memory-points]", state="detached")


@pytest.mark.skipif(not AXE.is_file(), reason="node_modules/axe-core missing: npm ci")
def test_the_review_with_the_keyboard_and_axe(chromium_browser: Browser, site: build.SiteServer) -> None:
    context = chromium_browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)  # (axe)
    context.set_default_timeout(BOOT_TIMEOUT_MS)
    guard = PageGuard(site.url)
    guard.attach(context)
    page = context.new_page()
    guard.watch(page)
    try:
        open_at_summary(page, site, SEED, coach=True)
        page.focus("[data-testid=review-hand]")
        page.keyboard.press("Enter")
        wait_trick(page, 1)
        page.focus("[data-testid=review-next]")
        page.keyboard.press("Enter")
        wait_trick(page, 2)
        page.keyboard.press("Enter")  # the focus stayed on "Next trick" through the redraw
        wait_trick(page, 3)
        assert page.evaluate("document.activeElement.dataset.testid") == "review-next"
        bad = [v for v in _axe(page) if v["impact"] in ("serious", "critical")]
        assert not bad, bad
        guard.check()
    finally:
        context.close()


def stored_match(seed: int = 1) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Match ``seed`` played out by the Normal bots: its final answer and each finished hand as the
    page stores it for review (``ui/features/review_store.py``: the last six)."""
    entries = []
    packed = op("new_match", seed=seed)
    while True:
        packed = play_out(packed, lambda v: v["phase"] in ("hand_over", "match_over"))
        entries.append({"hand": packed["view"]["hand_number"], "state": packed["state"], "analyses": []})
        if packed["view"]["phase"] == "match_over":
            return packed, entries[-6:]
        packed = op("step", state=packed["state"], action={"type": "next_hand"})


def open_match_result(page: Page, site: build.SiteServer, save: str, reviews: str) -> None:
    """The page resumed on a match result from a constructed save and stored reviews (set once per tab)."""
    page.add_init_script(
        "if (!sessionStorage.getItem('test-save')) {"
        f" localStorage.setItem('gongzhu.save.v1', {json.dumps(save)});"
        f" localStorage.setItem('gongzhu.reviews.v1', {json.dumps(reviews)});"
        " sessionStorage.setItem('test-save', '1'); }"
    )
    page.goto(site.url + "?fast=1")
    assert settle(page) == "match-over"


def test_an_earlier_hand_reviewed_from_the_match_result_and_resumed(
    desktop_page: Page, site: build.SiteServer
) -> None:
    packed, entries = stored_match()
    hand2 = json.loads(next(e["state"] for e in entries if e["hand"] == 2))
    tricks = [[(p["seat"], p["card"]) for p in t["plays"]] for t in hand2["tricks"]]
    page = desktop_page
    open_match_result(page, site, save_text(packed), json.dumps(entries))
    page.click("[data-testid=review-hand-2]")
    wait_trick(page, 1)
    assert "Hand 2" in page.inner_text("[data-testid=review] h2")
    assert shown_trick(page) == tricks[0]
    page.click("[data-testid=review-next]")
    wait_trick(page, 2)
    assert shown_trick(page) == tricks[1]
    page.wait_for_function("() => !document.documentElement.dataset.busy")
    page.reload()
    wait_trick(page, 2)
    assert "Hand 2" in page.inner_text("[data-testid=review] h2")
    assert shown_trick(page) == tricks[1]
    page.keyboard.press("Escape")
    page.wait_for_selector("[data-testid=match-summary] [data-testid=review-hand-2]")


def test_a_tampered_stored_review_is_set_aside_with_a_notice(
    desktop_page: Page, site: build.SiteServer
) -> None:
    packed, entries = stored_match()
    state = json.loads(entries[1]["state"])  # hand 2, its first trick's cards swapped
    plays = state["tricks"][0]["plays"]
    plays[0]["card"], plays[1]["card"] = plays[1]["card"], plays[0]["card"]
    entries[1]["state"] = json.dumps(state)
    page = desktop_page
    open_match_result(page, site, save_text(packed), json.dumps(entries))
    page.wait_for_selector("[data-testid=review-hand-3]")
    assert "set aside" in page.inner_text("[data-testid=match-summary]")
    assert page.locator("[data-testid=review-hand-2]").count() == 0
    kept = page.evaluate("localStorage.getItem('gongzhu.reviews.corrupt')")
    assert kept is not None and json.loads(kept)[1]["state"] == entries[1]["state"]
