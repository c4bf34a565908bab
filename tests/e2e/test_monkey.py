"""A seeded monkey: random sequences of what the page offers, checked against invariants throughout.

The scripted tests walk known paths; this one lets a seeded :class:`random.Random` pick each action
among what is on screen at that moment (hit-tested: what a finger could reach) — hand cards playable
or not, the expose buttons, Hint, Last trick, the ☰ sheet and its settings, the summaries' buttons,
the hand review, Escape, a rotation, a reload — and checks after each one:

* the conftest guard: no console error, no page error, no request outside the site;
* ``<html data-phase>`` is always one of the documented values, never ``error``;
* the page settles (the player may act, ``game.SETTLED_JS``) within :data:`SETTLE_MS`: never stuck;
* once settled, the table agrees with its autosave's view (``gongzhu.save.v1``): the same hand and
  trick on screen, each seat's cards in hand plus its cards played make 13, no card twice;
* a refused tap says why (a line in the live log and the message) and changes nothing; a tap on a
  card that may be chosen selects it (or chooses it to expose), a second plays it; Play, Expose,
  Don't expose, Hint, Next hand, Play again and Review hand do what they say (waited for: a look
  at the page before it took the tap would find the table as it was, "settled");
* a reload once settled comes back to exactly the table it left (``game.table_snapshot``).

One action in five is *hurried*: chosen and done without waiting for the page to settle first (a
tap mid-animation, a reload while the opponents play), so it lands on whatever state the page is in
and a replay may diverge from there. Everything else is reproducible from the seed printed with the
failure, together with the action log. Play again deals from ``Math.random``, seeded here too.
``GONGZHU_MONKEY_SEEDS=5,6,7`` runs other seeds, 90 actions each (see :data:`CASES`). The suite's
two cases (30 actions each) take about 30 s in all on the 2-core machine.
"""

from __future__ import annotations

import json
import os
import random
from dataclasses import dataclass, field
from typing import Any, NoReturn

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, ViewportSize

import build
from tools.browser import WAIT_MS
from ui.view.texts import signed

from . import game as g
from .conftest import PageGuard

#: As a player's browser runs the page: the service worker registers and the cards move
#: (tests/e2e/conftest.py CONTEXT_DEFAULTS).
pytestmark = [pytest.mark.service_worker, pytest.mark.motion]

#: ``<html data-phase>`` values of the testing contract (docs/game-ui.md).
PHASES = ("loading", "expose", "play", "hand-over", "match-over", "error")
#: The engine view's phase -> ``data-phase``.
VIEW_PHASES = {"expose": "expose", "play": "play", "hand_over": "hand-over", "match_over": "match-over"}
#: Longest wait for the player to have something to do again (the opponents at Hard included).
SETTLE_MS = WAIT_MS
#: Buttons the monkey leaves alone (``data-action``): they leave the match for the daily deal or a lesson, open
#: a file dialog, share, or answer questions this test never raises. The rules link (an ``<a>``
#: leaving the page) is not offered either: only ``[data-action]``, selects and hand cards are.
LEFT_ALONE = {"daily", "daily-practice", "daily-leave", "share", "export", "import", "take-over"}
LEFT_ALONE |= {"seed-new", "seed-resume"}
#: The lessons leave the match for a lesson's table (tests/e2e/test_lessons.py plays them).
LEFT_ALONE |= {"offer-learn", "lessons", "lesson-retry", "lesson-next", "lesson-skip", "lesson-leave"}
LEFT_ALONE |= {f"lesson-{n}" for n in range(1, 8)}
#: Viewport sizes a rotation or resize switches between, per device.
SIZES: dict[str, tuple[ViewportSize, ...]] = {
    "phone": ({"width": 360, "height": 640}, {"width": 640, "height": 360}, {"width": 390, "height": 844}),
    "desktop": (
        {"width": 1280, "height": 800},
        {"width": 800, "height": 1280},
        {"width": 1024, "height": 768},
    ),
}
#: How often each kind of action is chosen (relative; a kind's weight is shared by its targets).
WEIGHTS = {
    "card": 5.0,
    "refused-card": 1.5,
    "play": 4.0,
    "expose": 2.0,
    "expose-none": 2.0,
    "next-hand": 3.0,
    "play-again": 3.0,
    "review-hand": 2.0,
    "review-next": 1.5,
    "select": 0.8,
    "escape": 0.6,
    "resize": 0.6,
    "reload": 0.7,
}
OTHER_BUTTON = 0.8
HURRY = 0.2

#: Installed before the page's scripts: a seeded ``Math.random`` (Play again's deal), and a record of
#: every line the live log (``#announce``, which keeps only its last six) ever gets.
INIT = """
(() => {
  let s = SEED >>> 0;
  Math.random = () => {
    s = (s + 0x6D2B79F5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  window.__announced = [];
  document.addEventListener('DOMContentLoaded', () => {
    const log = document.getElementById('announce');
    if (log) new MutationObserver((records) => {
      for (const r of records) for (const n of r.addedNodes) window.__announced.push(n.textContent);
    }).observe(log, { childList: true });
  });
})();
"""

#: What the page offers now: every enabled ``[data-action]`` control, select and hand card whose
#: some point a tap reaches (``elementFromPoint``: not under the sheet, a panel or another card).
OFFERS_JS = """() => {
  const reach = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) return null;
    for (const fy of [0.5, 0.25, 0.75, 0.1, 0.9])
      for (const fx of [0.5, 0.25, 0.75, 0.1, 0.9]) {
        const x = r.left + r.width * fx, y = r.top + r.height * fy;
        if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
        const hit = document.elementFromPoint(x, y);
        if (hit && el.contains(hit)) return [Math.round(x * 10) / 10, Math.round(y * 10) / 10];
      }
    return null;
  };
  const out = [];
  for (const el of document.querySelectorAll('#hand [data-card]')) {
    const at = reach(el);
    if (at) out.push({ kind: el.getAttribute('aria-disabled') === 'true' ? 'refused-card' : 'card',
                       name: el.dataset.card, at, pressed: el.getAttribute('aria-pressed') === 'true' });
  }
  for (const el of document.querySelectorAll('[data-action]')) {
    if (el.disabled || el.closest('#hand')) continue;
    const at = reach(el);
    if (!at) continue;
    if (el.tagName === 'SELECT')
      out.push({ kind: 'select', name: el.dataset.testid, at,
                 options: [...el.options].map((o) => o.value), value: el.value });
    else out.push({ kind: 'button', name: el.dataset.action, at, testid: el.dataset.testid || null });
  }
  return out;
}"""

#: The player may act (``game.SETTLED_JS``), or reads a panel opened over a summary (the hand
#: review, the statistics): the game waits for nothing then either.
SETTLED_JS = """() => {
  if ((GAME_SETTLED)()) return true;
  const d = document.documentElement.dataset;
  return d.engine === 'ready' && !d.busy && ['hand-over', 'match-over'].includes(d.phase)
    && !!document.querySelector('#overlay [role=dialog]');
}""".replace("GAME_SETTLED", g.SETTLED_JS)

#: Everything the consistency check compares, read in one go (with whether the page is settled:
#: a tap still queued may move it on between two reads).
TABLE_JS = """() => {
  const d = document.documentElement.dataset;
  return {
    settled: (SETTLED)(),
    phase: d.phase, turn: d.turn, busy: !!d.busy,
    hand: [...document.querySelectorAll('#hand [data-card]')].map((e) => e.dataset.card),
    trick: [...document.querySelectorAll('[data-testid=trick] [data-card]')]
      .map((e) => [Number(e.dataset.seat), e.dataset.card]),
    totals: [0, 1, 2, 3].map((s) => document.querySelector(`[data-seat="${s}"] [data-testid=total]`).innerText),
    save: localStorage.getItem('gongzhu.save.v1'),
  };
}""".replace("SETTLED", SETTLED_JS)

#: A hand card chosen or not (``aria-pressed``) / gone from the hand.
PRESSED_JS = """([c, pressed]) => (document.querySelector(`#hand [data-card='${c}']`)
  ?.getAttribute('aria-pressed') === 'true') === pressed"""
GONE_JS = "(c) => !document.querySelector(`#hand [data-card='${c}']`)"
#: Two animation frames: the page has taken an input and drawn what it changed (``ui/shell/dom.py`` draws
#: once per frame), so the next look at it is not older than the last action.
FRAMES_JS = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))"

#: No finite animation running (a card being dealt, a dialog rising): a settled tap waits for it,
#: as a player would, so that it lands on the card it aims at.
STILL_JS = """() => document.getAnimations().every((a) =>
  a.playState !== 'running' || (a.effect && a.effect.getTiming().iterations === Infinity))"""


@dataclass
class Monkey:
    """One page, one seed, the log of what was done."""

    page: Page
    guard: PageGuard
    device: str
    seed: int
    rng: random.Random
    log: list[str] = field(default_factory=list)
    step: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    phases: set[str] = field(default_factory=set)

    # ------------------------------------------------------------------ reporting

    def fail(self, what: str) -> NoReturn:
        problems = "\n  ".join(self.guard.problems)
        pytest.fail(
            f"monkey seed {self.seed} ({self.device}), step {self.step}: {what}\n"
            + (f"page problems:\n  {problems}\n" if problems else "")
            + "actions:\n  "
            + "\n  ".join(self.log),
            pytrace=False,
        )

    def note(self, text: str) -> None:
        self.log.append(f"{self.step:3d} {text}")

    # ------------------------------------------------------------------ invariants

    def check_guard(self) -> None:
        if self.guard.problems:
            self.fail("the page misbehaved")

    def check_phase(self) -> str:
        current = str(self.page.evaluate("document.documentElement.dataset.phase || ''"))
        if current not in PHASES:
            self.fail(f"data-phase={current!r} is not a documented value")
        if current == "error":
            self.fail(f"data-phase=error: {self.page.text_content('#overlay')!r}")
        return current

    def settle(self) -> str:
        """Wait until the player may act; fail when the page stays busy or loading too long."""
        try:
            self.page.wait_for_function(SETTLED_JS, timeout=SETTLE_MS)
        except PlaywrightError:
            attrs = self.page.evaluate("JSON.stringify(document.documentElement.dataset)")
            self.fail(f"not settled within {SETTLE_MS} ms: <html> {attrs}")
        current = self.check_phase()
        self.phases.add(current)
        return current

    def check_table(self) -> dict[str, Any]:
        """Once settled: the table on screen is its autosave's view, and every card is accounted for."""
        for _ in range(20):
            self.settle()
            snap = self.page.evaluate(TABLE_JS)
            if snap["settled"]:
                break
        else:
            self.fail("the page never stayed settled long enough to be read")
        if snap["save"] is None:
            self.fail("settled, yet no autosave")
        view = json.loads(snap["save"])["view"]
        problems = []
        if VIEW_PHASES[view["phase"]] != snap["phase"]:
            problems.append(f"data-phase {snap['phase']} but the saved view is in {view['phase']}")
        if snap["hand"] != view["hand"]:
            problems.append(f"hand on screen {snap['hand']} != saved {view['hand']}")
        if snap["totals"] != [signed(t) for t in view["totals"]]:
            problems.append(f"totals on screen {snap['totals']} != saved {view['totals']}")
        plays = [(p["seat"], p["card"]) for t in view["tricks"] for p in t["plays"]]
        plays += [(p["seat"], p["card"]) for p in view["trick"]["plays"]]
        cards = [c for _, c in plays] + list(view["hand"])
        if len(set(cards)) != len(cards):
            problems.append("a card was played twice or is both played and in hand")
        for seat in range(4):
            played = sum(1 for s, _ in plays if s == seat)
            if view["hand_sizes"][seat] + played != 13:
                problems.append(f"seat {seat}: {view['hand_sizes'][seat]} in hand + {played} played != 13")
        if len(view["hand"]) != view["hand_sizes"][0]:
            problems.append("seat 0's hand and its size disagree")
        for t in view["tricks"]:
            if sorted(p["seat"] for p in t["plays"]) != [0, 1, 2, 3]:
                problems.append(f"a trick where a seat played twice or not at all: {t['plays']}")
        if snap["phase"] == "play":
            shown = [[s, c] for s, c in snap["trick"]]
            saved = [[p["seat"], p["card"]] for p in view["trick"]["plays"]]
            if snap["turn"] != "0" or shown != saved:
                problems.append(f"turn {snap['turn']}, trick on screen {shown} != saved {saved}")
        if snap["phase"] in ("hand-over", "match-over") and (snap["hand"] or len(view["tricks"]) != 13):
            problems.append("a hand over with cards left or fewer than 13 tricks")
        if problems:
            self.fail("table and save disagree:\n  " + "\n  ".join(problems))
        return dict(view)

    # ------------------------------------------------------------------ acting

    def wait(self, condition: str, arg: Any = None, timeout_ms: int = WAIT_MS) -> bool:
        """Wait until ``condition(arg)`` holds in the page; False when it does not in time."""
        try:
            self.page.wait_for_function(condition, arg=arg, timeout=timeout_ms)
        except PlaywrightError:
            return False
        return True

    def offers(self, settled: bool) -> list[tuple[float, str, dict[str, Any]]]:
        """(weight, kind, target) of everything the page offers now, and the page-wide actions."""
        found = self.page.evaluate(OFFERS_JS)
        by_kind: dict[str, list[dict[str, Any]]] = {}
        for item in found:
            kind = item["kind"]
            if kind == "button":
                if item["name"] in LEFT_ALONE:
                    continue
                kind = item["name"] if item["name"] in WEIGHTS else "button"
            by_kind.setdefault(kind, []).append(item)
        out = []
        for kind, items in by_kind.items():
            for item in items:
                weight = OTHER_BUTTON if kind == "button" else WEIGHTS[kind] / len(items)
                out.append((weight, kind, item))
        out.append((WEIGHTS["escape"], "escape", {}))
        out.append((WEIGHTS["resize"], "resize", {}))
        out.append((WEIGHTS["reload"], "reload" if settled else "reload-now", {}))
        return out

    def tap(self, at: list[float]) -> None:
        if self.device == "phone":
            self.page.touchscreen.tap(at[0], at[1])
        else:
            self.page.mouse.click(at[0], at[1])

    def act(self, settled: bool) -> None:
        if settled:
            self.page.wait_for_function(STILL_JS, timeout=WAIT_MS)
        offered = self.offers(settled)
        weights = [w for w, _, _ in offered]
        _w, kind, item = self.rng.choices(offered, weights=weights)[0]
        self.counts[kind] = self.counts.get(kind, 0) + 1
        label = kind + (f" {item['name']}" if "name" in item else "")
        self.note(("" if settled else "hurried ") + label + f"  ({len(offered)} offered)")
        if kind == "escape":
            self.page.keyboard.press("Escape")
        elif kind == "resize":
            size = self.rng.choice(SIZES[self.device])
            self.log[-1] += f" {size['width']}x{size['height']}"
            self.page.set_viewport_size(size)
        elif kind == "reload":
            self.reload()
        elif kind == "reload-now":
            self.page.reload()
        elif kind == "select":
            value = self.rng.choice([v for v in item["options"] if v != item["value"]] or item["options"])
            self.log[-1] += f" = {value}"
            try:
                self.page.select_option(
                    f"[data-testid={item['name']}]", value, timeout=WAIT_MS if settled else 3_000
                )
            except PlaywrightError:
                if settled:
                    raise
                self.log[-1] += " (gone)"
        elif not settled:
            self.tap(item["at"])
        elif kind == "refused-card":
            self.refused(item)
        elif kind == "card":
            self.card(item)
        else:
            self.button(item)

    def button(self, item: dict[str, Any]) -> None:
        """A button, then what it must do; those that start the engine's work are waited for (a
        look at the page before it took the tap would see the table as it was, "settled")."""
        name = item["name"]
        heard = int(self.page.evaluate("window.__announced.length"))
        selected = self.page.evaluate("document.querySelector('#hand [aria-pressed=true]')?.dataset.card")
        self.tap(item["at"])
        gone = "(t) => !document.querySelector(`[data-testid=${t}]`)"
        expected = {
            "play": (GONE_JS, selected, f"Play did not play the selected {selected}"),
            "expose": (gone, "expose-none", "Expose did not end the exposure choice"),
            "expose-none": (gone, "expose-none", "Don't expose did not end the exposure choice"),
            "next-hand": (gone, "hand-summary", "Next hand did not leave the summary"),
            "play-again": (gone, "match-summary", "Play again did not leave the match result"),
            "hint": ("(n) => window.__announced.length >= n + 2", heard, "Hint gave no advice"),
            "review-hand": ("() => !!document.querySelector('[data-testid=review]')", None, "no review"),
        }.get(name)
        if name.startswith("review-hand-"):
            expected = ("() => !!document.querySelector('[data-testid=review]')", None, "no review")
        if expected and not self.wait(expected[0], expected[1], SETTLE_MS):
            self.fail(expected[2])

    def card(self, item: dict[str, Any]) -> None:
        """A card that may be chosen: in play a first tap selects it and a second plays it; to
        expose, a tap chooses it or takes it back."""
        code = item["name"]
        self.tap(item["at"])
        if item["pressed"] and g.phase(self.page) == "play":
            if not self.wait(GONE_JS, code):
                self.fail(f"{code} was selected and tapped again, yet it is still in the hand")
        elif not self.wait(PRESSED_JS, [code, not item["pressed"]]):
            self.fail(f"a tap on {code} did not {'take it back' if item['pressed'] else 'choose it'}")

    def refused(self, item: dict[str, Any]) -> None:
        """A card the engine refuses: a line says why, and nothing else changes."""
        before = g.table_snapshot(self.page)
        heard = int(self.page.evaluate("window.__announced.length"))
        self.tap(item["at"])
        if not self.wait("(n) => window.__announced.length > n", heard):
            self.fail(f"a tap on the refused card {item['name']} said nothing")
        said = self.page.evaluate("window.__announced[window.__announced.length - 1]")
        shown = "(t) => document.querySelector('[data-testid=message]').innerText === t"
        if not said or not self.wait(shown, said):
            self.fail(f"refusal announced {said!r} but the message reads {g.message(self.page)!r}")
        if g.table_snapshot(self.page) != before:
            self.fail(f"a refused tap on {item['name']} changed the table")
        if g.card(self.page, item["name"]).get_attribute("aria-pressed") == "true":
            self.fail(f"a refused card ({item['name']}) was selected")

    def reload(self) -> None:
        """Reload once settled: the autosave resumes exactly the table that was left."""
        before = g.table_snapshot(self.page)
        self.page.reload()
        self.settle()
        after = g.table_snapshot(self.page)
        if after != before:
            self.fail(f"the reload did not resume the table:\n  before {before}\n  after  {after}")

    # ------------------------------------------------------------------ the run

    def run(self, actions: int) -> None:
        for self.step in range(1, actions + 1):
            settled = self.rng.random() >= HURRY
            if settled:
                self.check_table()
            try:
                self.act(settled)
                self.page.evaluate(FRAMES_JS)
            except PlaywrightError as exc:
                self.fail(f"the action failed: {exc}")
            self.check_phase()
            self.check_guard()
        self.step += 1
        self.check_table()
        self.check_guard()


def near_match_end(seed: int, tricks: int = 10) -> dict[str, Any]:
    """A match by the Normal bots at the last hand's trick ``tricks``, checked in CPython to end the
    match whatever seat 0 plays from there (the opponents are deterministic), so the monkey reaches
    the match result within a few cards: the first such match from deal ``seed`` on."""

    def ends(p: dict[str, Any]) -> bool:
        view = p["view"]
        if view["phase"] != "play":
            return bool(view["phase"] == "match_over")
        if view["turn"] != 0:
            return ends(g.op("bot_step", state=p["state"], seat=view["turn"], level="normal"))
        return all(
            ends(g.op("step", state=p["state"], action={"type": "play", "seat": 0, "card": c}))
            for c in view["legal"]
        )

    for deal in range(seed, seed + 20):
        final = g.play_out(g.op("new_match", seed=deal), lambda v: v["phase"] == "match_over")
        last = final["view"]["hand_number"]

        def there(v: dict[str, Any], hand: int = last) -> bool:
            return bool(v["hand_number"] == hand and v["phase"] == "play" and len(v["tricks"]) >= tricks)

        packed = g.play_out(g.op("new_match", seed=deal), there)
        if ends(packed):
            return packed
    raise AssertionError(f"no match from deal {seed} on ends whatever seat 0 plays")


#: (monkey seed, device, start, actions): ``new`` opens ``?seed=<monkey seed>``; ``match-end`` a save
#: two tricks before the end of a match, so the match result and Play again are explored too.
#: ``GONGZHU_MONKEY_SEEDS=5,6,7`` runs those seeds instead (to explore further; phone and desktop
#: in turn, every fourth from a match's end). The suite runs one of each device and each start; the
#: seeds 2 and 3 (desktop from a deal, phone from a match's end) were run as well on 2026-12-04.
CASES = [
    (1, "phone", "new", 30),
    (4, "desktop", "match-end", 30),
]
if os.environ.get("GONGZHU_MONKEY_SEEDS"):
    CASES = [
        (int(s), ("phone", "desktop")[int(s) % 2], "match-end" if int(s) % 4 == 3 else "new", 90)
        for s in os.environ["GONGZHU_MONKEY_SEEDS"].split(",")
    ]


@pytest.mark.parametrize(
    ("seed", "device", "start", "actions"), CASES, ids=[f"seed{c[0]}-{c[1]}-{c[2]}" for c in CASES]
)
def test_monkey(
    seed: int,
    device: str,
    start: str,
    actions: int,
    request: pytest.FixtureRequest,
    site: build.SiteServer,
) -> None:
    guard, page = request.getfixturevalue(f"guard_and_{device}_page")
    page.add_init_script(INIT.replace("SEED", str(seed)))
    monkey = Monkey(page, guard, device, seed, random.Random(seed))
    if start == "new":
        page.goto(site.url + f"?seed={seed}&fast=1")
    else:
        g.load_save(page, site, g.save_text(near_match_end(seed + 2)), query=g.page_query(coach=True))
    monkey.run(actions)
    print(f"monkey seed {seed} {device}: {monkey.counts}, phases {sorted(monkey.phases)}")
    print("\n".join(monkey.log))
