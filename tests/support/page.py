"""The page without a browser: the real effect runner (``ui/runner.py``) with doubles of its ports,
the real engine behind the worker's entry (``ui/engine_worker.py``, ``gongzhu.service``)."""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ui import actions, engine_worker
from ui.core import effects as fx
from ui.core import flow, store
from ui.core.ports import EngineDied, EngineError, EngineStartError, Ports
from ui.core.state import UIState
from ui.runner import Runner

TODAY = "2026-12-03"
#: The thread every page's loop runs in: a test process may hold a running loop in its main thread
#: (a cluster client's, say), and two loops cannot run in one thread.
_PAGES_THREAD = ThreadPoolExecutor(max_workers=1)


class Engine:
    """The engine port: the worker's own entry, in process. ``die`` makes the next calls go
    unanswered (a lost worker) until :meth:`restart`; ``refuse`` names ops answered with an error."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []  # every request, in order
        self.die = False  # the worker is lost: requests go unanswered
        self.restarts = 0  # workers started since
        self.broken = False  # a start or a restart fails
        self.connected = 0  # starts answered (the page's first handshake)
        self.refuse: dict[str, str] = {}  # op -> the error it is answered with

    async def connect(self) -> None:
        await asyncio.sleep(0)
        if self.broken:
            raise EngineStartError("the engine could not start")
        self.connected += 1

    async def call(self, op: str, args: dict[str, Any]) -> Any:
        self.calls.append((op, args))
        await asyncio.sleep(0)
        if self.die:
            raise EngineDied("the engine did not answer")
        if op in self.refuse:
            raise EngineError(self.refuse[op])
        reply = json.loads(engine_worker.call(json.dumps({"op": op, "args": args})))
        if not reply.get("ok"):
            raise EngineError(reply.get("error") or "engine error")
        return reply["result"]

    async def restart(self) -> None:
        if self.broken:
            raise EngineError("the engine could not start")
        self.restarts += 1
        self.die = False


class Clock:
    """The clock port: time passes only when the page waits; today is fixed; deals are counted."""

    def __init__(self) -> None:
        self.ms = 0.0  # the page's clock
        self.date = TODAY  # today's date
        self.next_seed = 1000  # the next random deal

    def now_ms(self) -> float:
        return self.ms

    def today(self) -> str:
        return self.date

    async def sleep(self, seconds: float) -> None:
        self.ms += seconds * 1000
        await asyncio.sleep(0)

    def random_seed(self) -> int:
        self.next_seed += 1
        return self.next_seed


class Screen:
    """The screen port: what was said, warned, marked and played is kept."""

    def __init__(self) -> None:
        self.said: list[str] = []  # the live log
        self.warnings: list[str] = []  # the console
        self.marks: list[str] = []  # performance marks
        self.sounds: list[str] = []  # sounds played
        self.redraws = 0  # redraws asked for

    def redraw(self) -> None:
        self.redraws += 1

    def announce(self, text: str) -> None:
        self.said.append(text)

    def warn(self, text: str) -> None:
        self.warnings.append(text)

    def mark(self, name: str) -> None:
        self.marks.append(name)

    def measure(self, name: str, start: str) -> None:
        self.marks.append(name)

    def play(self, kind: str) -> None:
        self.sounds.append(kind)

    async def settled(self) -> None:
        await asyncio.sleep(0)


class Files:
    """The files port: the file the player picks and the share outcome are set by the test."""

    def __init__(self) -> None:
        self.picked: str | None = None  # the text of the file the player picks (None: cancelled)
        self.outcome = "copied"  # what sharing does
        self.downloads: list[tuple[str, str]] = []  # files saved
        self.shared: list[str] = []  # texts shared

    def download(self, name: str, text: str) -> None:
        self.downloads.append((name, text))

    async def pick(self) -> str | None:
        return self.picked

    async def share(self, text: str) -> str:
        self.shared.append(text)
        return self.outcome


class Page:
    """One page: a UI state, the real runner with these ports, and a loop that runs it to rest."""

    def __init__(
        self, s: UIState | None = None, storage: Any = None, motion: bool = True, coach: bool = True
    ) -> None:
        """``motion``: the deal and the flying cards end at once (False: they stay in motion until the
        test ends them). ``coach``: the coach values each finished hand in the background, as the page
        does (False: its requests are recorded and dropped, for tests about something else: its search
        takes a few seconds a hand)."""
        self.s = s or UIState()
        self.engine = Engine()
        self.clock = Clock()
        self.screen = Screen()
        self.files = Files()
        self.storage = storage if storage is not None else store.MemoryStorage()
        self.runner = Runner(self.s, Ports(self.engine, self.storage, self.clock, self.screen, self.files))
        self.effects: list[Any] = []  # every effect run, in order
        self.loop = asyncio.new_event_loop()
        if not motion:  # (the deal and the flying cards stay in motion until the test ends them)
            self.runner.handlers[fx.Deal] = self.runner.handlers[fx.Fly] = self._still_moving
        if not coach:
            self.runner.handlers[fx.Background] = self._without_coach(self.runner.handlers[fx.Background])
        for kind, handler in list(self.runner.handlers.items()):
            self.runner.handlers[kind] = self._recorded(handler)

    async def _still_moving(self, effect: Any, gen: int) -> None:
        return None

    def _without_coach(self, handler: Any) -> Any:
        async def run(effect: Any, gen: int) -> None:
            if effect.call.op != "coach":
                await handler(effect, gen)

        return run

    def _recorded(self, handler: Any) -> Any:
        async def run(effect: Any, gen: int) -> None:
            self.effects.append(effect)
            await handler(effect, gen)

        return run

    @property
    def calls(self) -> list[tuple[str, dict[str, Any]]]:
        return self.engine.calls

    @property
    def said(self) -> list[str]:
        return self.screen.said

    @property
    def saves(self) -> int:
        return sum(isinstance(e, fx.Save) for e in self.effects)

    def run(self, result: Any) -> None:
        """Run a transition's effects, then every task they started, until the page is at rest."""
        self.until_rest(self.runner.run(result))

    def input(self, transition: Any, *args: Any) -> None:
        """An input as the shell hands it over (``Runner.take_input``), run to rest."""
        self.until_rest(self._take(transition, args))

    async def _take(self, transition: Any, args: tuple[Any, ...]) -> None:
        self.runner.take_input(transition, *args)

    def until_rest(self, first: Any) -> None:
        """Run the coroutine ``first``, then every task the page started, on the page's own loop."""
        _PAGES_THREAD.submit(self.loop.run_until_complete, self._settle(first)).result()

    async def _settle(self, first: Any) -> None:
        if first is not None:
            await first
        await self.runner.idle()

    def drive(self) -> None:
        self.run((self.s, [fx.Drive()]))

    def play_hand(self) -> None:
        """Play the hand on the table to its end: no exposure, the first playable card each turn."""
        s = self.s
        assert s.table.view is not None
        hand = s.table.view["hand_number"]
        while s.table.view["hand_number"] == hand and s.table.view["phase"] in ("expose", "play"):
            if s.table.view["phase"] == "expose":
                self.run(actions.on_action(s, "expose-none"))
            else:
                card = playable(s)[0]
                flow.tap_card(s, card)
                self.run(flow.tap_card(s, card))


def playable(s: UIState) -> list[str]:
    """The cards of seat 0 the engine's view lets it play now."""
    assert s.table.view is not None
    return [c for c in s.table.view["hand"] if s.table.view["refusals"][c] is None]
