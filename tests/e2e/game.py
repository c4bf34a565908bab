"""Driving the browser game through its testing contract, and predicting deals in CPython.

The browser's opponents are deterministic (their choices depend only on the state and the
level), so :func:`simulate` replays in CPython, through the same worker ops, exactly what a page
opened with ``?seed=N&fast=1`` does when the player always plays the first playable card.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from playwright.sync_api import FilePayload, Page

import build
from ui import engine_worker

SETTLED_JS = """() => {
  const d = document.documentElement.dataset;
  if (d.engine !== 'ready' || d.busy) return false;
  if (d.phase === 'hand-over') return !!document.querySelector('[data-testid=hand-summary]');
  if (d.phase === 'match-over') return !!document.querySelector('[data-testid=match-summary]');
  if (d.phase === 'expose') return !!document.querySelector('[data-testid=expose-none]');
  if (d.phase === 'play') return d.turn === '0' && !!document.querySelector('[data-testid=play]');
  return false;
}"""


def op(name: str, **args: Any) -> dict[str, Any]:
    reply = json.loads(engine_worker.call(json.dumps({"op": name, "args": args})))
    assert reply["ok"], reply
    result: dict[str, Any] = reply["result"]
    return result


def open_game(page: Page, site: build.SiteServer, seed: int | None = None, fast: bool = True) -> None:
    query = []
    if seed is not None:
        query.append(f"seed={seed}")
    if fast:
        query.append("fast=1")
    page.goto(site.url + ("?" + "&".join(query) if query else ""))
    settle(page)


def settle(page: Page, timeout_ms: int = 60_000) -> str:
    """Wait until the player has something to do; return ``<html data-phase>``."""
    page.wait_for_function(SETTLED_JS, timeout=timeout_ms)
    return phase(page)


def phase(page: Page) -> str:
    return str(page.evaluate("document.documentElement.dataset.phase"))


def hand(page: Page) -> list[str]:
    return [
        str(c) for c in page.eval_on_selector_all("#hand [data-card]", "els => els.map(e => e.dataset.card)")
    ]


def playable(page: Page) -> list[str]:
    return [
        str(c)
        for c in page.eval_on_selector_all(
            "#hand [data-card][aria-disabled=false]", "els => els.map(e => e.dataset.card)"
        )
    ]


def unplayable(page: Page) -> list[str]:
    return [
        str(c)
        for c in page.eval_on_selector_all(
            "#hand [data-card][aria-disabled=true]", "els => els.map(e => e.dataset.card)"
        )
    ]


def trick(page: Page) -> list[tuple[int, str]]:
    plays = page.eval_on_selector_all(
        "[data-testid=trick] [data-card]", "els => els.map(e => [Number(e.dataset.seat), e.dataset.card])"
    )
    return [(int(s), str(c)) for s, c in plays]


def scores(page: Page) -> list[tuple[str, str]]:
    return [
        (
            page.inner_text(f'[data-seat="{s}"] [data-testid="hand-score"]'),
            page.inner_text(f'[data-seat="{s}"] [data-testid="total"]'),
        )
        for s in range(4)
    ]


def message(page: Page) -> str:
    return page.inner_text("[data-testid=message]")


def wait_message(page: Page, text: str) -> str:
    """Wait until the message area contains ``text``; return the whole message."""
    page.wait_for_function(
        "(t) => document.querySelector('[data-testid=message]').innerText.includes(t)", arg=text
    )
    return message(page)


def table_snapshot(page: Page) -> dict[str, Any]:
    return {"phase": phase(page), "hand": hand(page), "trick": trick(page), "scores": scores(page)}


def card(page: Page, code: str) -> Any:
    return page.locator(f'#hand [data-card="{code}"]')


def play_first(page: Page, by_button: bool = True) -> str:
    """Play the first playable card: select then Play, or tap it twice."""
    code = playable(page)[0]
    card(page, code).click()
    if by_button:
        page.click("[data-testid=play]")
    else:
        card(page, code).click()
    page.wait_for_selector(f'#hand [data-card="{code}"]', state="detached")
    return code


def open_menu(page: Page) -> None:
    """Open the settings sheet (☰), unless it is open already."""
    if not page.locator("[data-testid=sheet]").count():
        page.click("[data-testid=menu]")
        page.wait_for_selector("[data-testid=sheet]")


def close_menu(page: Page) -> None:
    """Close the settings sheet with its close button, if it is open."""
    if page.locator("[data-testid=sheet]").count():
        page.click("[data-testid=menu-close]")
        page.wait_for_selector("[data-testid=sheet]", state="detached")


def menu_click(page: Page, testid: str) -> None:
    """Click a menu item (``data-testid``), opening the settings sheet first when it is not on screen.
    A switch leaves the sheet open (its ``aria-pressed`` can be read); an entry that opens a panel
    or leaves the table closes it."""
    if not page.locator(f"[data-testid={testid}]").is_visible():
        open_menu(page)
    page.click(f"[data-testid={testid}]")


def menu_select(page: Page, testid: str, value: str) -> None:
    """Choose ``value`` in a select of the settings sheet (difficulty, language, play speed...), then
    close the sheet."""
    open_menu(page)
    page.select_option(f"[data-testid={testid}]", value)
    close_menu(page)


def menu_value(page: Page, testid: str) -> str:
    """The value of a select of the settings sheet (opened, then closed again)."""
    open_menu(page)
    value = page.input_value(f"[data-testid={testid}]")
    close_menu(page)
    return value


def expose_none(page: Page) -> None:
    page.click("[data-testid=expose-none]")
    page.wait_for_selector("[data-testid=expose-none]", state="detached")


def finish_hand(page: Page) -> int:
    """Play on (never exposing) until the hand summary or the match result; return cards played."""
    played = 0
    while True:
        current = settle(page)
        if current in ("hand-over", "match-over"):
            return played
        if current == "expose":
            expose_none(page)
            continue
        play_first(page, by_button=played % 2 == 0)
        played += 1


# --------------------------------------------------------------------------- CPython predictions


def my_exposable(seed: int) -> list[str]:
    return list(op("new_match", seed=seed)["view"]["exposable"])


def simulate(
    seed: int, expose: Callable[[list[str]], list[str]], stop: Callable[[dict[str, Any]], bool]
) -> tuple[dict[str, Any], int] | None:
    """Replay a page with ``?seed=seed&fast=1``: stop at the first turn of seat 0 where ``stop(view)``.

    Returns (packed state, number of cards seat 0 played before) or None when the hand ends first.
    """
    packed = op("new_match", seed=seed)
    packed = op("bots_expose", state=packed["state"], level="normal")
    if packed["view"]["phase"] == "expose":
        cards = expose(packed["view"]["exposable"])
        packed = op("step", state=packed["state"], action={"type": "expose", "seat": 0, "cards": cards})
    mine = 0
    while packed["view"]["phase"] == "play":
        view = packed["view"]
        if view["turn"] == 0:
            if stop(view):
                return packed, mine
            first = next(c for c in view["hand"] if view["refusals"][c] is None)
            packed = op("step", state=packed["state"], action={"type": "play", "seat": 0, "card": first})
            mine += 1
        else:
            packed = op("bot_step", state=packed["state"], seat=view["turn"], level="normal")
    return None


def find_seed(predicate: Callable[[int], bool], limit: int = 400) -> int:
    for seed in range(1, limit):
        if predicate(seed):
            return seed
    raise AssertionError("no seed found")


def save_text(packed: dict[str, Any], **flags: Any) -> str:
    data = {"schema": 1, "state": packed["state"], "view": packed["view"], "hand_level": "normal",
            "bots_exposed": True, "hold": False, "speed": False, "selected": None, "expose_sel": [], "notice": ""}  # fmt: skip
    data.update(flags)
    return json.dumps(data)


def play_out(packed: dict[str, Any], until: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """All four seats played by the Normal bots until ``until(view)``."""
    while not until(packed["view"]):
        view = packed["view"]
        if view["phase"] == "expose":
            packed = op("bots_expose", state=packed["state"], level="normal")
            if packed["view"]["phase"] == "expose":
                packed = op("step", state=packed["state"], action={"type": "expose", "seat": 0, "cards": []})
        elif view["phase"] == "play":
            packed = op("bot_step", state=packed["state"], seat=view["turn"], level="normal")
        elif view["phase"] == "hand_over":
            packed = op("step", state=packed["state"], action={"type": "next_hand"})
        else:
            raise AssertionError("match over before the condition")
    return packed


def load_save(page: Page, site: build.SiteServer, text: str) -> None:
    """Open the site with ``text`` as its autosave, set before any page script runs (once per tab)."""
    page.add_init_script(
        "if (!sessionStorage.getItem('test-save')) {"
        f" localStorage.setItem('gongzhu.save.v1', {json.dumps(text)});"
        " sessionStorage.setItem('test-save', '1'); }"
    )
    page.goto(site.url + "?fast=1")
    settle(page)


def finish_like_page(packed: dict[str, Any], level: str = "normal") -> dict[str, Any]:
    """Play the hand of ``packed`` to its end as :func:`finish_hand` does in a ``?fast=1`` page: the
    player never exposes and always plays its first playable card, the opponents at ``level``."""
    while packed["view"]["phase"] in ("expose", "play"):
        view = packed["view"]
        if view["phase"] == "expose":
            packed = op("bots_expose", state=packed["state"], level=level)
            if packed["view"]["phase"] == "expose":
                packed = op("step", state=packed["state"], action={"type": "expose", "seat": 0, "cards": []})
        elif view["turn"] == 0:
            first = next(c for c in view["hand"] if view["refusals"][c] is None)
            packed = op("step", state=packed["state"], action={"type": "play", "seat": 0, "card": first})
        else:
            packed = op("bot_step", state=packed["state"], seat=view["turn"], level=level)
    return packed


#: The player's record and saved match as stored (raw text, or None), to compare before and after.
STORED_JS = "[localStorage.getItem('gongzhu.record.v1'), localStorage.getItem('gongzhu.save.v1')]"


def stored(page: Page) -> list[str | None]:
    """The stored record and save, as the page holds them now."""
    found: list[str | None] = page.evaluate(STORED_JS)
    return found


def choose_file(page: Page, text: str, open_chooser: Callable[[], None] | None = None) -> None:
    """Import: the statistics panel's Import button (or ``open_chooser``), then ``text`` as the file."""
    with page.expect_file_chooser() as chooser:
        if open_chooser is None:
            page.click("[data-testid=import]")
        else:
            open_chooser()
    chosen: FilePayload = {"name": "data.json", "mimeType": "application/json", "buffer": text.encode()}
    chooser.value.set_files(files=[chosen])
