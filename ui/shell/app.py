"""The page's shell: the browser's ports for the effect runner (``ui/runner.py``), and the page's
events turned into transitions. It holds no rule and no decision: an event names the transition
that takes it (``ui/core/flow.py`` and the features' flows), and the runner does the rest.
"""

import asyncio

from pyscript import window

from gongzhu.vocab import NEW_SEED_BOUND
from ui import actions
from ui.core import bookkeeping, flow, settings
from ui.core.ports import EngineStartError, Ports
from ui.core.state import UIState
from ui.features import sound
from ui.runner import Runner
from ui.shell import bridge, dom, pwa
from ui.view import render

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only)
    from typing import Any

    from ui.features import review, tabs
else:  # (imported when first needed, not before the table is drawn: ui/core/later.py)
    from ui.core import later

    review, tabs = later.modules("features.review", "features.tabs")

#: Seconds the table's cards may take to stop moving before the page stops waiting for them (the
#: deal takes 0.76 s in web/game.css; a card flying in 0.28 s).
MOTION_CAP_S = 3


class Engine:
    """The engine port: the Pyodide worker (``ui/shell/bridge.py``)."""

    async def connect(self) -> None:
        """Start the worker (the table is drawn), let the service worker register (it takes the
        runtime's download over: ``ui/shell/pwa.py``) and wait for the worker's first answer. Each
        step is a mark and, for the loading watchdog (``web/boot.js``), progress."""
        try:
            bridge.start_engine()
            await pwa.engine_may_start()
            await bridge.engine()
            _milestone("engine-connected")
            await bridge.call("ping", text="hello")
        except Exception as exc:
            raise EngineStartError(str(exc)) from None  # (MicroPython warns on "from exc" as a console error)
        _milestone("engine-ready")

    async def call(self, op: str, args: "dict[str, Any]") -> "Any":
        return await bridge.call(op, **args)

    async def restart(self) -> None:
        await bridge.restart()


def _milestone(name: str) -> None:
    """A ``gongzhu:<name>`` mark that counts as progress for the loading watchdog's stall timer."""
    dom.mark(name)
    window.gongzhuBoot.progress()


class Clock:
    """The clock port: the page's clock, today's date (UTC) and random deals."""

    def now_ms(self) -> float:
        return float(dom.now_ms())

    def today(self) -> str:
        return str(window.Date.new().toISOString())[:10]

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)

    def random_seed(self) -> int:
        return int(window.Math.random() * NEW_SEED_BOUND)


class Screen:
    """The screen port: one redraw per frame, the live log, sounds, the console, performance marks."""

    def __init__(self) -> None:
        self.sounds = sound.Player(window)  # type: sound.Player  # the table's sounds

    def redraw(self) -> None:
        dom.schedule()

    def announce(self, text: str) -> None:
        dom.announce(text)

    def warn(self, text: str) -> None:
        window.console.warn("gongzhu: " + text)

    def mark(self, name: str) -> None:
        dom.mark(name)

    def measure(self, name: str, start: str) -> None:
        dom.measure(name, start)

    def play(self, kind: str) -> None:
        self.sounds.play(kind)

    async def settled(self) -> None:
        """Wait until the change asked for is drawn and the table's cards have stopped moving (their
        animations, as the browser runs them: a frame drawn late starts them late)."""
        start = dom.now_ms()
        await asyncio.sleep(0.02)
        while (not dom.drawn() or dom.cards_moving()) and dom.now_ms() - start < MOTION_CAP_S * 1000:
            await asyncio.sleep(0.03)


class Files:
    """The files port: ``web/files.js`` (download, pick, share)."""

    def download(self, name: str, text: str) -> None:
        window.gongzhuFiles.download(name, text)

    async def pick(self) -> "Any":
        return await window.gongzhuFiles.pick()

    async def share(self, text: str) -> "Any":
        return await window.gongzhuFiles.share(text)


#: The page's UI state (the only one).
s = bookkeeping.named_tab(UIState(), str(int(window.Math.random() * 1000000000)))
screen = Screen()
#: The page's effect runner; its storage is set by ``ui/main.py`` once storage is open.
runner = Runner(s, Ports(Engine(), None, Clock(), screen, Files()))


def load_failed() -> bool:
    """True once the loading watchdog (web/boot.js) has told the player that the game did not load:
    from then on its box (in ``#overlay``) and ``<html data-phase="error">`` are its own, until "Try
    again" reloads the page.  (``ui/main.py`` ``boot_failed`` reads the same flag before this module
    is loaded.)"""
    return bool(window.gongzhuBoot.failed)


def _source() -> "tuple[dict[str, str], dict[str, Any]]":
    regions, attrs = render.page(s)
    if load_failed():
        # Left to the watchdog: a redraw asked for before it fired (the loading bar's, every 0.25 s)
        # or after it (☰) would put the spinner's phase back, or its box.
        del attrs["data-phase"]
        del regions["overlay"]
    return regions, attrs


dom.connect(_source)


def redraw() -> None:
    dom.schedule()


# --------------------------------------------------------------------------- events


def on_click(event: "Any") -> None:
    screen.sounds.gesture(s.settings.sound)  # (a tap: the moment a browser lets the page start sound)
    target = event.target
    if target is None or not hasattr(target, "closest"):
        return
    action = target.closest("[data-action]")
    if action is not None and action.tagName != "SELECT":
        if action.hasAttribute("disabled"):
            return
        runner.take_input(actions.on_action, str(action.dataset.action))
        return
    card = target.closest("#hand [data-card]")
    if card is not None:
        runner.take_input(flow.tap_card, str(card.dataset.card))


def on_change(event: "Any") -> None:
    target = event.target
    # getAttribute: an element without data-action (a file input, say) gives None, not an error.
    action = target.getAttribute("data-action") if target is not None else None
    if action == "difficulty":
        runner.take_input(flow.choose_level, str(target.value))
    elif action in flow.CHOICES:
        runner.take_input(flow.choose, str(action), str(target.value))
    elif action == "language":
        bookkeeping.input_received(s)
        runner.spawn(change_language(str(target.value)))
    elif action in settings.RULE_ACTIONS:
        runner.take_input(flow.choose_rule, str(action), str(target.value))


async def change_language(language: str) -> None:
    """The language menu: translations, <html lang> and title change; the game does not."""
    from ui.view import i18n

    bookkeeping.input_started(s)
    await i18n.switch_language(window, language)
    redraw()


def on_key(event: "Any") -> None:
    """Keyboard play: what the key does is ``actions.on_key``'s plan (the sheet, the review, the
    hand, a panel); this carries it out."""
    screen.sounds.gesture(s.settings.sound)  # (a key press: the moment a browser lets the page start sound)
    target = event.target
    card = target.closest("#hand [data-card]") if target is not None and hasattr(target, "closest") else None
    code = str(card.dataset.card) if card is not None else None
    plan = actions.on_key(s, str(event.key), code, bool(event.repeat))
    if plan.prevent:
        event.preventDefault()
    if plan.trap is not None:
        dom.keep_focus_in(event, plan.trap)
    if plan.focus is not None:
        dom.focus_hand_card(plan.focus)
        redraw()
    if plan.transition is not None:
        runner.take_input(plan.transition, *plan.args)


def on_pointer(event: "Any") -> None:
    """A swipe on the hand review (pointer down, then up further left or right)."""
    target = event.target
    if target is None or not hasattr(target, "closest") or target.closest("[data-testid=review]") is None:
        return
    if str(event.type) == "pointerdown":
        review.pointer_down(s, float(event.clientX))
    else:
        runner.take_input(review.pointer_up, float(event.clientX))


def on_storage(text: "Any") -> None:
    """Another tab saved the match (``web/storage.js`` watches the save's key)."""
    runner.spawn(runner.run(tabs.other_tab_saved(s, text)))
