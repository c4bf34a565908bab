"""Inputs at the wrong moment (issue 41): a doubled input queued while the engine starts, a
recovery after it, a following tab at a hand's end.

A queued input that no longer applies to the table it meets (a second "Play again", an expose
decision after the expose phase) is dropped without a word; whenever a new table replaces the old
one, the queue is emptied; a recovery resumes the save and nothing else. A following tab can always
take the game back from any screen, the hand summary included, and every control it shows either
works or says why not. The engine's start is held back (``test_live.HOLD_ENGINE``) so that "before
the engine answers" is a moment the test controls.

On d3ff257 (the UI before the lead's effect runner) every test here fails, at its check: the doubled
"Play again" leaves ``data-busy`` set; the recovery after it deals a new match (13 cards, the 10 of
the match in progress gone); the doubled "Don't expose" shows "Only the cards marked exposable can
be chosen now"; the following tab's "Play here" is covered by the summary's chart (desktop and
phone), and its "Next hand" does nothing and says nothing.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

import build
from tools.browser import TEST_QUERY

from . import game as g
from .conftest import DESKTOP, PHONE, guarded_page
from .test_live import FIRST_PAINT_JS, HOLD_ENGINE, _release

#: Two clicks in the same task: the second lands before the first is handled.
DOUBLE = "(sel) => { const e = document.querySelector(sel); e.click(); e.click(); }"

#: The page settled (``<html data-busy>`` cleared, the engine ready).
SETTLED_JS = (
    "() => document.documentElement.dataset.engine === 'ready' && !document.documentElement.dataset.busy"
)

#: The player may act, whatever ``data-busy`` says (defect 1 leaves it set): the engine is ready and
#: the table waits for seat 0's exposure or card.
ACTIONABLE_JS = """() => {
  const d = document.documentElement.dataset;
  if (d.engine !== 'ready') return false;
  if (d.phase === 'expose') return !!document.querySelector('[data-testid=expose-none]');
  return d.phase === 'play' && d.turn === '0' && !!document.querySelector('[data-testid=play]')
    && !!document.querySelector('#hand [data-card][aria-disabled=false]');
}"""

#: Every text the message area and the notes show from now on (a refusal may be replaced at once).
WATCH_TEXTS = """() => { window.shownTexts = [];
  const keep = () => { for (const sel of ['[data-testid=message]', '#notes']) {
    const el = document.querySelector(sel); if (el && el.innerText) window.shownTexts.push(el.innerText); } };
  new MutationObserver(keep).observe(document.body, {childList: true, subtree: true, characterData: true}); }"""


#: Every wait's limit: each ends on its own condition, and a machine shared by several test runs
#: (load average above 10 on 2 cores) may take minutes for a cold engine start.
LONG = 240_000


def _patient(page: Page) -> Page:
    page.set_default_timeout(LONG)
    return page


def _no_load_failure(page: Page) -> None:
    """Fail at once, saying so, when the page's loading watchdog (web/boot.js) gave up: on a machine
    loaded far beyond its cores, a start may show no progress for its limit."""
    if g.phase(page) == "error":
        pytest.fail(f"the page did not load: {page.text_content('#status')}", pytrace=False)


def _reload_held_long(page: Page, phase: str) -> None:
    """``test_live._reload_held`` with this file's limits."""
    page.evaluate("sessionStorage.setItem('hold-engine', '1')")
    page.reload(wait_until="commit")
    page.wait_for_function(
        f"(p) => ({FIRST_PAINT_JS})(p) || document.documentElement?.dataset.phase === 'error'",
        arg=phase,
        timeout=LONG,
    )
    _no_load_failure(page)


def _saved(page: Page) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(page.evaluate("localStorage.getItem('gongzhu.save.v1')"))
    return found


def _match_over_reloaded_held(page: Page, site: build.SiteServer) -> dict[str, Any]:
    """A save planted at ``match_over``, reloaded with the engine held back: the match summary is
    on show and ``data-engine`` is ``starting``."""
    page.add_init_script(HOLD_ENGINE)
    final = g.play_out(g.op("new_match", seed=5), lambda v: v["phase"] == "match_over")
    g.load_save(_patient(page), site, g.save_text(final))
    _reload_held_long(page, "match-over")
    page.wait_for_selector("[data-testid=match-summary] [data-testid=play-again]")
    return final


def test_a_doubled_play_again_before_the_engine_answers_starts_one_match_and_settles(
    desktop_page: Page, site: build.SiteServer
) -> None:
    """Defect 1: "Play again" pressed twice while the engine starts: one new match, and the page
    settles (the second press meets a new table and is dropped)."""
    page = desktop_page
    _match_over_reloaded_held(page, site)
    page.evaluate(DOUBLE, "[data-testid=play-again]")
    assert page.evaluate("document.documentElement.dataset.busy") == "true"
    _release(page)
    page.wait_for_selector("[data-testid=match-summary]", state="detached", timeout=LONG)
    page.wait_for_function(ACTIONABLE_JS, timeout=LONG)
    assert page.locator("#hand [data-card]").count() == 13
    # Settled: data-busy clears (on d3ff257 it stays "true" for the rest of the visit).
    page.wait_for_function(SETTLED_JS, timeout=LONG)
    assert g.settle(page) in ("expose", "play")
    assert _saved(page)["view"]["hand_number"] == 1


def test_a_doubled_play_again_then_a_recovery_resumes_the_match_in_progress(
    desktop_page: Page, site: build.SiteServer
) -> None:
    """Defect 1, its consequence: after the doubled "Play again", three cards played, the engine
    worker lost and a card tapped, the restart resumes the save (the match in progress) and nothing
    else: no queued "Play again" replayed into a brand-new match."""
    page = desktop_page
    _match_over_reloaded_held(page, site)
    page.evaluate(DOUBLE, "[data-testid=play-again]")
    _release(page)
    page.wait_for_selector("[data-testid=match-summary]", state="detached", timeout=LONG)
    played = 0
    while played < 3:
        page.wait_for_function(ACTIONABLE_JS, timeout=LONG)
        if g.phase(page) == "expose":
            g.expose_none(page)
            continue
        g.play_first(page)
        played += 1
    page.wait_for_function(ACTIONABLE_JS, timeout=LONG)
    page.wait_for_function(
        "() => JSON.parse(localStorage.getItem('gongzhu.save.v1')).view.hand.length === 10", timeout=LONG
    )
    before = g.hand(page)
    assert len(before) == 10 and sorted(_saved(page)["view"]["hand"]) == sorted(before)

    assert page.evaluate("window.gongzhuEngine.kill()") == "engine"
    code = g.playable(page)[0]
    tap = "(c) => document.querySelector(`#hand [data-card='${c}']`).click()"
    page.evaluate(tap, code)  # a card tapped twice is played: the engine is asked, and found lost
    page.wait_for_selector("#hand .card.selected")
    page.evaluate(tap, code)
    page.wait_for_function(
        "document.querySelector('#notes').innerText.includes('play goes on from the last save')",
        timeout=LONG,
    )
    # Either the page settles on the resumed match, or (d3ff257) the queued "Play again" is replayed:
    # a new deal of 13 cards.
    page.wait_for_function(
        f"() => ({SETTLED_JS})() || document.querySelectorAll('#hand [data-card]').length === 13",
        timeout=LONG,
    )
    after = g.hand(page)
    assert len(after) in (9, 10) and set(after) <= set(before), (
        f"the recovery did not resume the match in progress: {len(after)} cards {after}, before {before}"
    )
    assert g.settle(page) == "play"
    assert _saved(page)["view"]["hand_number"] == 1


def _expose_seed() -> tuple[int, dict[str, Any]]:
    """A seed whose player may expose, and its table in the expose phase (the opponents decided)."""
    for seed in range(1, 400):
        packed = g.op("bots_expose", state=g.op("new_match", seed=seed)["state"], level="normal")
        if packed["view"]["phase"] == "expose" and packed["view"]["exposable"]:
            return seed, packed
    raise AssertionError("no seed found")


def test_a_doubled_dont_expose_at_the_first_paint_is_carried_out_once_without_a_refusal(
    desktop_page: Page, site: build.SiteServer
) -> None:
    """Defect 4: a save in the expose phase, "Don't expose" pressed twice before the engine
    answers: the first is carried out, the second (an expose decision after the expose phase) is
    dropped without a word."""
    page = desktop_page
    page.add_init_script(HOLD_ENGINE)
    _seed, packed = _expose_seed()
    g.load_save(_patient(page), site, g.save_text(packed))
    _reload_held_long(page, "expose")
    page.evaluate(WATCH_TEXTS)
    page.evaluate(DOUBLE, "[data-testid=expose-none]")
    _release(page)
    page.wait_for_selector("[data-testid=expose-none]", state="detached", timeout=LONG)
    page.wait_for_function(SETTLED_JS, timeout=LONG)
    g.settle(page)
    shown = page.evaluate("window.shownTexts")
    refusals = [text for text in shown if "exposable" in text]
    assert not refusals, f"a false refusal was shown: {refusals}"
    assert "exposable" not in g.message(page)
    assert g.phase(page) in ("play", "hand-over")
    assert _saved(page)["view"]["phase"] == "play"


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_a_following_tab_at_a_hands_end_can_take_the_game_back(
    chromium_browser: Browser, site: build.SiteServer, viewport: str
) -> None:
    """Defect 3: tab A plays, tab B follows; A finishes the hand. B's "Play here" is on top (not
    covered by the hand summary), where "Next hand", which B could not carry out, is not offered; it
    takes the game back, and then "Next hand" starts the next hand."""
    options = DESKTOP if viewport == "desktop" else PHONE
    with guarded_page(chromium_browser, site, options) as (first, guard):
        g.load_save(_patient(first), site, g.save_text(g.at_last_trick(7)))  # (the hand's last trick)
        second = _patient(first.context.new_page())
        second.goto(site.url + f"?{TEST_QUERY}")
        g.settle(second)
        # The tab the player plays in is the one in front (a tab behind draws no frame, and every
        # step of its table waits out the motion cap: tests/e2e/conftest.py CONTEXT_DEFAULTS).
        first.bring_to_front()
        g.play_first(first)  # A plays: B follows
        second.wait_for_selector("[data-testid=elsewhere]")
        assert g.settle(first) == "hand-over"  # (A's card was the hand's last of A's)
        # B follows to the hand's end: the summary, and "Play here" still offered.
        second.wait_for_selector("[data-testid=hand-summary] [data-testid=take-over]", timeout=LONG)
        # Only controls that work: "Play here" in place of "Next hand", once (the summary covers the notes).
        assert second.locator("[data-testid=hand-summary] [data-testid=next-hand]").count() == 0
        assert second.locator("[data-testid=take-over]").count() == 1
        on_top = second.evaluate(
            """() => { const b = document.querySelector('[data-testid=take-over]');
              const r = b.getBoundingClientRect();
              const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
              return hit && b.contains(hit) ? 'take-over'
                : (hit ? (hit.closest('[data-testid]') || hit).getAttribute('data-testid') || hit.tagName : 'nothing'); }"""
        )
        assert on_top == "take-over", f"'Play here' is covered by {on_top!r}"
        second.bring_to_front()
        second.click("[data-testid=take-over]", timeout=LONG)
        second.wait_for_selector("[data-testid=elsewhere]", state="detached", timeout=LONG)
        assert g.settle(second) == "hand-over"
        second.click("[data-testid=next-hand]")
        second.wait_for_selector("[data-testid=hand-summary]", state="detached", timeout=LONG)
        assert g.settle(second) in ("expose", "play")
        first.wait_for_selector("[data-testid=elsewhere]", timeout=LONG)  # A follows in turn
        guard.check()
