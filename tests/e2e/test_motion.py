"""Living seats, motion and sound in the browser (issue 17).

An instrumented ``AudioContext`` (installed before the page's scripts) counts the contexts made and
the first frequency of every oscillator started, which names the sound (``ui.features.sound.SOUNDS``); a
``MutationObserver`` reads ``document.getAnimations()`` and the thinking indicator at every change
of the page, so nothing that is drawn for one frame only escapes it.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

import build
from ui.features import sound

from . import game as g

#: The cards' motion is part of what is tested here (tests/e2e/conftest.py CONTEXT_DEFAULTS).
pytestmark = pytest.mark.motion

#: Counts AudioContexts and the oscillators they start (their first frequency each).
AUDIO_PROBE = """
window.__audio = {contexts: 0, notes: []};
if (window.AudioContext) {
  const Real = window.AudioContext;
  window.AudioContext = class extends Real {
    constructor(...args) { super(...args); window.__audio.contexts += 1; }
    createOscillator() {
      const osc = super.createOscillator();
      const set = osc.frequency.setValueAtTime.bind(osc.frequency);
      let first = null;
      osc.frequency.setValueAtTime = (value, at) => { if (first === null) first = value; return set(value, at); };
      const start = osc.start.bind(osc);
      osc.start = (at) => { window.__audio.notes.push(first); return start(at); };
      return osc;
    }
  };
}
"""

#: At every change of the page: the animations running (their names, the most at once) and the
#: seats shown thinking.
MOTION_PROBE = """
window.__motion = {names: [], most: 0, thinking: []};
new MutationObserver(() => {
  const m = window.__motion;
  const running = document.getAnimations();
  m.most = Math.max(m.most, running.length);
  for (const a of running) {
    const name = a.animationName || a.transitionProperty || 'other';
    if (!m.names.includes(name)) m.names.push(name);
  }
  for (const el of document.querySelectorAll('[data-seat] [data-testid=thinking]')) {
    const seat = el.closest('[data-seat]').dataset.seat;
    if (!m.thinking.includes(seat)) m.thinking.push(seat);
  }
}).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
"""

#: The seat shown thinking, the seat to play, and whether the thinking seat's plate is lit.
THINKING_JS = """() => {
  const el = document.querySelector('[data-seat] [data-testid=thinking]');
  return el && [el.closest('[data-seat]').dataset.seat, document.documentElement.dataset.turn,
                !!el.closest('.plate.active')];
}"""

SOUND_ON = "localStorage.setItem('gongzhu.settings.v1', JSON.stringify({sound: true}));"


def _first_note(kind: str) -> float:
    return sound.SOUNDS[kind][0][2]


def _seed_an_opponent_leads() -> int:
    """A deal where the player has nothing to expose and an opponent leads the first trick."""
    return g.find_seed(
        lambda n: (
            not g.my_exposable(n)
            and g.play_out(g.op("new_match", seed=n), lambda v: v["phase"] == "play")["view"]["turn"] != 0
        )
    )


def test_sound_on_plays_cards_and_tricks_and_opponents_think_in_turn(
    desktop_page: Page, site: build.SiteServer
) -> None:
    page = desktop_page
    page.add_init_script(SOUND_ON)
    page.add_init_script(AUDIO_PROBE)
    page.add_init_script(MOTION_PROBE)
    page.goto(site.url + f"?seed={_seed_an_opponent_leads()}")  # the normal pace: a decision shows
    seat, turn, lit = page.wait_for_function(THINKING_JS).json_value()
    assert seat in ("1", "2", "3") and turn == seat and lit  # the seat to play thinks, lit
    g.settle(page)
    for _ in range(2):
        g.play_first(page, by_button=False)
        g.settle(page)
    audio = page.evaluate("window.__audio")
    assert audio["contexts"] == 1
    assert _first_note("card") in audio["notes"] and _first_note("trick") in audio["notes"]
    motion = page.evaluate("window.__motion")
    for name in ("deal", "from-bottom", "seat-glow", "think"):  # (what reduced motion must stop)
        assert name in motion["names"], motion
    assert any(name.startswith("to-") for name in motion["names"]), motion


def test_sound_off_and_reduced_motion_make_no_audio_and_no_animation(
    phone_page: Page, site: build.SiteServer
) -> None:
    page = phone_page
    page.emulate_media(reduced_motion="reduce")
    page.add_init_script(AUDIO_PROBE)
    page.add_init_script(MOTION_PROBE)
    g.open_game(page, site, seed=_seed_an_opponent_leads())  # sound off: the default
    for _ in range(3):
        g.play_first(page, by_button=False)
        assert g.settle(page) == "play"
    motion = page.evaluate("window.__motion")
    assert motion["most"] == 0 and motion["names"] == [], motion
    assert page.evaluate("document.getAnimations().length") == 0
    assert page.evaluate("window.__audio") == {"contexts": 0, "notes": []}


#: Counts the times the open dialog named ``testid`` was redrawn as itself (ui/shell/dom.py replaces a
#: region's markup: the old dialog leaves and a new one with the same ``data-testid`` comes in).
REDRAW_PROBE = """
window.__redrawn = 0;
new MutationObserver((records) => {
  for (const r of records) {
    const named = (nodes) => [...nodes].filter((n) => n.dataset && n.dataset.testid && n.getAttribute('role') === 'dialog')
      .map((n) => n.dataset.testid);
    const gone = named(r.removedNodes);
    if (named(r.addedNodes).some((t) => gone.includes(t))) window.__redrawn += 1;
  }
}).observe(document, {subtree: true, childList: true});
"""

#: The number of the dialog's animations (its entrance, while it plays or is held).
DIALOG_JS = (
    """(testid) => document.querySelector(`[role=dialog][data-testid=${testid}]`).getAnimations().length"""
)


def test_an_open_sheet_redrawn_does_not_slide_in_again(phone_page: Page, site: build.SiteServer) -> None:
    """Pressing a switch in the settings sheet redraws it: its entrance must not play a second time."""
    page = phone_page
    page.add_init_script(REDRAW_PROBE)
    g.open_game(page, site)
    g.open_menu(page)
    page.click("[data-testid=sound]")
    page.wait_for_selector("[data-testid=sound][aria-pressed=true]")
    assert page.evaluate("window.__redrawn") >= 1
    assert page.evaluate(DIALOG_JS, "sheet") == 0


def test_the_hand_summary_does_not_rise_again_as_the_coach_fills_it_in(
    phone_page: Page, site: build.SiteServer
) -> None:
    """The coach's answers redraw the hand summary: it must not rise in again at each of them."""
    page = phone_page
    page.add_init_script(REDRAW_PROBE)
    over = g.play_out(g.op("new_match", seed=9), lambda v: v["phase"] == "hand_over")
    page.goto(site.url + "?fast=1")
    g.settle(page)
    page.evaluate("(t) => localStorage.setItem('gongzhu.save.v1', t)", g.save_text(over))
    page.reload()
    assert g.settle(page) == "hand-over"
    page.wait_for_function(
        "() => { const v = document.querySelector('[data-testid=coach-verdict]');"
        " return v && !v.textContent.includes('…'); }"
    )
    assert page.evaluate("window.__redrawn") >= 1  # the coach's answers redrew the summary
    assert page.evaluate(DIALOG_JS, "hand-summary") == 0
