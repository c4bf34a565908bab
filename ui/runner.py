"""The page's one effect runner: the transitions' effects (``ui/core/effects.py``) run through a
handler table, reaching the world only through the ports (``ui/core/ports.py``).

The page runs it with the browser's ports (``ui/shell/app.py``); the tests run the same runner with
doubles and the real ``gongzhu.service`` as the engine (``tests/support/page.py``). Every decision
is a transition's: a handler does what its effect says and hands what it read, or the engine's
answer, to the transition the effect names. Effects of a flow that was stopped meanwhile (a new
match, a restart, another tab: ``UIState.link.gen``) are dropped.
"""

import asyncio

from ui import actions
from ui.core import bookkeeping, flow, later, match, recovery, store
from ui.core import effects as fx
from ui.core.ports import EngineDied, EngineError
from ui.view import texts

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from collections.abc import Awaitable, Callable, Coroutine
    from typing import Any

    from ui.core.flow import Result
    from ui.core.ports import Ports
    from ui.core.state import UIState
    from ui.features import (
        daily,
        daily_flow,
        lessons,
        record,
        record_flow,
        review,
        review_store,
        transfer,
        transfer_flow,
    )

    Handler = Callable[[Any, int], Awaitable[None]]
else:  # (imported when first needed, not before the table is drawn: ui/core/later.py)
    daily, daily_flow, lessons, record, record_flow, review, review_store, transfer, transfer_flow = (
        later.modules(
            "features.daily",
            "features.daily_flow",
            "features.lessons",
            "features.record",
            "features.record_flow",
            "features.review",
            "features.review_store",
            "features.transfer",
            "features.transfer_flow",
        )
    )

#: Seconds a toast (the pig, the goat, the transformer) stays on show.
TOAST_S = 1.7
#: Seconds an autosave waits, so that it runs in a task of its own after the redraw.
SAVE_DELAY_S = 0.02


class Runner:
    """Runs transitions' effects for one page (one UI state, one set of ports)."""

    def __init__(self, s: "UIState", ports: "Ports") -> None:
        self.s = s  # type: UIState  # the page's UI state (the only one)
        self.ports = ports  # type: Ports  # the world: engine, storage, clock, screen, files
        self.tasks = set()  # type: set[Any]  # tasks in the background, kept until they are done
        self.handlers = {
            fx.Connect: self._connect,
            fx.Call: self._call,
            fx.Background: self._background,
            fx.Save: self._save,
            fx.SaveSettings: self._save_settings,
            fx.Announce: self._announce,
            fx.Toast: self._toast,
            fx.Sound: self._sound,
            fx.Deal: self._deal,
            fx.Fly: self._fly,
            fx.Replay: self._replay,
            fx.HandOver: self._hand_over,
            fx.AfterHand: self._after_hand,
            fx.Drive: self._drive,
            fx.NewMatch: self._new_match,
            fx.CountHand: self._count_hand,
            fx.CountDaily: self._count_daily,
            fx.ReadRecord: self._read_record,
            fx.ResetRecord: self._reset_record,
            fx.ReadSave: self._read_save,
            fx.ReadDailySlot: self._read_daily_slot,
            fx.SetAsideSave: self._set_aside_save,
            fx.Restart: self._restart,
            fx.OpenDaily: self._open_daily,
            fx.LeaveDaily: self._leave_daily,
            fx.Share: self._share,
            fx.Export: self._export,
            fx.Import: self._import,
            fx.ApplyImport: self._apply_import,
            fx.KeepReview: self._keep_review,
            fx.CheckReviews: self._check_reviews,
            fx.StoreReviews: self._store_reviews,
            fx.Warn: self._warn,
            fx.Mark: self._mark,
            fx.ImportRest: self._import_rest,
            fx.LessonStep: self._lesson_step,
            fx.LessonsAtStart: self._lessons_at_start,
            fx.SaveLessons: self._save_lessons,
        }  # type: dict[type, Handler]

    # ----------------------------------------------------------------------- running

    async def run(self, result: "Result", draw: bool = True) -> None:
        """Run a transition's effects in order (``draw`` False: nothing on show changed)."""
        _state, effects = result
        gen = self.s.link.gen
        if draw:
            self.ports.screen.redraw()
        for effect in effects:
            if gen != self.s.link.gen:
                return
            await self.handlers[type(effect)](effect, gen)

    async def go_on(self, gen: int, then: "Callable[..., Result]", *args: "Any", draw: bool = True) -> None:
        """Hand what came back to the transition ``then``, unless the flow ``gen`` was stopped."""
        if gen == self.s.link.gen:
            await self.run(then(self.s, *args), draw)

    def spawn(self, coro: "Coroutine[Any, Any, None]") -> None:
        """Run ``coro`` in the background, keeping a reference to it until it is done."""
        for task in list(self.tasks):
            if task.done():
                self.tasks.discard(task)
        self.tasks.add(asyncio.create_task(coro))

    def take_input(self, transition: "Callable[..., Result]", *args: "Any") -> None:
        """An input (a tap, a key, a choice): ``transition`` takes it in a task of its own. Until
        that starts, the table on show is from before the input, so the page reads as busy."""
        bookkeeping.input_received(self.s)
        self.ports.screen.redraw()
        self.spawn(self._input(transition, args))

    async def _input(self, transition: "Callable[..., Result]", args: "tuple[Any, ...]") -> None:
        bookkeeping.input_started(self.s)  # (no frame comes between this and the transition)
        await self.run(transition(self.s, *args))

    async def idle(self) -> None:
        """Wait until no background task is left (the tests' way to let the page settle)."""
        while True:
            pending = [task for task in self.tasks if not task.done()]
            if not pending:
                return
            await asyncio.gather(*pending)

    def report(self, exc: "Exception") -> None:
        """A failure that is no engine answer (a bug): said, and play stops waiting for it."""
        self.ports.screen.warn(str(exc))
        self.spawn(self.run(recovery.request_failed(self.s, str(exc))))

    async def pause(self, kind: int, start: "float | None" = None) -> None:
        """Wait the pace ``kind`` (``flow.pace``, read afresh: Speed up shortens it at once) from
        ``start`` (now)."""
        clock = self.ports.clock
        if start is None:
            start = clock.now_ms()
        while True:
            left = start + flow.pace(self.s)[kind] - clock.now_ms()
            if left <= 0:
                return
            await clock.sleep((min(left, 60) + 1) / 1000)

    # ----------------------------------------------------------------------- the engine

    async def _ask(self, call: "fx.Call", gen: int) -> "tuple[bool, Any]":
        """Send ``call`` to the engine (timed by its measure, which bench/ reads): ``(True, the
        answer)``, or ``(False, None)`` once a failure was handed on: a lost worker to the recovery,
        a refusal to ``call.failed`` (else the page says the request failed), anything else reported."""
        screen = self.ports.screen
        if call.measure:
            screen.mark(call.measure + "-start")
        try:
            answer = await self.ports.engine.call(call.op, call.args)
        except EngineDied:
            self.spawn(self.run(recovery.worker_died(self.s)))
            return False, None
        except EngineError as exc:
            await self.go_on(gen, call.failed or recovery.request_failed, str(exc))
            return False, None
        except Exception as exc:
            self.report(exc)
            return False, None
        if call.measure:
            screen.measure(call.measure, call.measure + "-start")
        return True, answer

    async def _connect(self, effect: "fx.Connect", gen: int) -> None:
        """The start: its failure (:class:`EngineStartError`) is the page's, not a request's."""
        await self.ports.engine.connect()
        await self.go_on(gen, effect.then)

    async def _call(self, effect: "fx.Call", gen: int) -> None:
        started = self.ports.clock.now_ms()
        answered, answer = await self._ask(effect, gen)
        if not answered:
            return
        if effect.pace >= 0:
            await self.pause(effect.pace, started)
        await self.go_on(gen, effect.then, answer, _sent(effect))

    async def _background(self, effect: "fx.Background", gen: int) -> None:
        self.spawn(self._quietly(effect.call, gen))

    async def _quietly(self, call: "fx.Call", gen: int) -> None:
        """A request the flow does not wait for (the coach, the stored reviews' check)."""
        answered, answer = await self._ask(call, gen)
        if answered:
            shown = not (
                isinstance(answer, dict) and "part" in answer
            )  # (a coach step's sums: nothing to draw)
            await self.go_on(gen, call.then, answer, _sent(call), draw=shown)

    async def _restart(self, effect: "fx.Restart", gen: int) -> None:
        try:
            await self.ports.engine.restart()
        except Exception as exc:
            await self.go_on(gen, effect.failed, str(exc))
            return
        await self.go_on(gen, effect.then)

    async def _new_match(self, effect: "fx.NewMatch", gen: int) -> None:
        seed = effect.seed if effect.seed is not None else self.ports.clock.random_seed()
        await self.run(match.start_match(self.s, seed, then=effect.then))

    # ----------------------------------------------------------------------- the opponents and the motion

    async def _drive(self, effect: "fx.Drive", gen: int) -> None:
        """Run the computer opponents until the player has something to do."""
        s = self.s
        if not bookkeeping.driving(s, gen):
            return
        try:
            while gen == s.link.gen:
                if s.table.hold:
                    await self._show_trick(gen)
                    continue
                _state, effects, go_on = flow.next_step(s)
                await self.run((s, effects))
                if not go_on:
                    break
        except Exception as exc:
            self.report(exc)
        finally:
            bookkeeping.driven(s, gen)

    async def _show_trick(self, gen: int) -> None:
        """A finished trick stays on show, then sweeps to its winner (at the settings' pace)."""
        await self.pause(1)
        if gen != self.s.link.gen:
            return
        await self.run(flow.sweep(self.s))
        await self.pause(2)
        await self.go_on(gen, flow.trick_cleared)

    async def _replay(self, effect: "fx.Replay", gen: int) -> None:
        await self.run(actions.replay(self.s))

    async def _hand_over(self, effect: "fx.HandOver", gen: int) -> None:
        await self.run((self.s, review.kept(self.s)))

    async def _after_hand(self, effect: "fx.AfterHand", gen: int) -> None:
        await self.run((self.s, review.after_hand(self.s)))

    async def _deal(self, effect: "fx.Deal", gen: int) -> None:
        self.spawn(self._after_motion(gen, flow.dealt, effect.hand))

    async def _fly(self, effect: "fx.Fly", gen: int) -> None:
        self.spawn(self._after_motion(gen, flow.landed, effect.card))

    async def _after_motion(self, gen: int, then: "Callable[..., Result]", what: "Any") -> None:
        """Once the change is drawn and the table's cards stopped moving, ``then`` says so."""
        await self.ports.screen.settled()
        await self.go_on(gen, then, what)

    async def _toast(self, effect: "fx.Toast", gen: int) -> None:
        token = self.ports.clock.now_ms()
        bookkeeping.toast_shown(self.s, effect.card, token)
        self.spawn(self._toast_over(token))

    async def _toast_over(self, token: float) -> None:
        await self.ports.clock.sleep(TOAST_S)
        if bookkeeping.toast_over(self.s, token):
            self.ports.screen.redraw()

    async def _announce(self, effect: "fx.Announce", gen: int) -> None:
        text = texts.words(effect.message)
        if text:
            self.ports.screen.announce(text)

    async def _sound(self, effect: "fx.Sound", gen: int) -> None:
        self.ports.screen.play(effect.kind)

    async def _warn(self, effect: "fx.Warn", gen: int) -> None:
        self.ports.screen.warn(effect.text)

    async def _mark(self, effect: "fx.Mark", gen: int) -> None:
        self.ports.screen.mark(effect.name)

    async def _import_rest(self, effect: "fx.ImportRest", gen: int) -> None:
        self.spawn(later.import_rest())

    # ----------------------------------------------------------------------- storage

    async def _save(self, effect: "fx.Save", gen: int) -> None:
        """Save soon, in a task of its own (after the redraw), so no single task does both."""
        if bookkeeping.save_asked(self.s):
            self.spawn(self._save_later())

    async def _save_later(self) -> None:
        await self.ports.clock.sleep(SAVE_DELAY_S)
        s, storage = self.s, self.ports.storage
        slot = bookkeeping.save_slot(s)
        written = True
        if slot == "lesson":
            written = store.set_text(storage, lessons.SLOT_KEY, lessons.encode_slot(s))
        elif slot == "daily":
            written = store.set_text(storage, daily.SLOT_KEY, daily.encode_slot(s))
        elif slot == "match":
            written = store.save(storage, s)
        bookkeeping.save_done(s, written)
        self.ports.screen.redraw()  # (clears data-busy: the tests may reload from here on)

    async def _save_settings(self, effect: "fx.SaveSettings", gen: int) -> None:
        bookkeeping.save_done(self.s, store.save_settings(self.ports.storage, self.s))

    async def _read_save(self, effect: "fx.ReadSave", gen: int) -> None:
        saved, problem = store.load(self.ports.storage)
        await self.run(effect.then(self.s, saved, problem))

    async def _read_daily_slot(self, effect: "fx.ReadDailySlot", gen: int) -> None:
        await self.run(effect.then(self.s, daily.load_slot(self.ports.storage, effect.date)))

    async def _set_aside_save(self, effect: "fx.SetAsideSave", gen: int) -> None:
        storage = self.ports.storage
        store.set_aside(storage, store.get_text(storage, store.SAVE_KEY) or effect.fallback)

    async def _read_record(self, effect: "fx.ReadRecord", gen: int) -> None:
        rec, problem = record.load(self.ports.storage)
        then = effect.then or record_flow.record_read
        await self.run(then(self.s, rec, problem, self.ports.clock.today()))

    async def _count_hand(self, effect: "fx.CountHand", gen: int) -> None:
        """Count the table's finished hand (and match), read-modify-write from storage at once."""
        s, view = self.s, self.s.table.view
        assert view is not None  # (flow.count_hand asks only for a table with a view)
        storage = self.ports.storage
        rec, problem = record.count_in(storage, view, s.table.hand_level, s.table.match_token)
        await self.run(record_flow.record_read(s, rec, problem, self.ports.clock.today()))

    async def _count_daily(self, effect: "fx.CountDaily", gen: int) -> None:
        view = self.s.table.view
        assert view is not None  # (flow.count_hand asks only for a table with a view)
        rec, problem = daily.record_result(self.ports.storage, effect.date, view)
        await self.run(record_flow.daily_counted(self.s, rec, problem, self.ports.clock.today()))

    async def _reset_record(self, effect: "fx.ResetRecord", gen: int) -> None:
        await self.run(record_flow.record_reset(self.s, record.reset(self.ports.storage)))

    async def _keep_review(self, effect: "fx.KeepReview", gen: int) -> None:
        review_store.remember(self.ports.storage, effect.hand, effect.state, effect.analyses)

    async def _check_reviews(self, effect: "fx.CheckReviews", gen: int) -> None:
        hands = review_store.entries(self.ports.storage)
        args = {"table": effect.table, "hands": hands}
        call = fx.Call("check_reviews", args, review.reviews_checked, failed=review.reviews_failed)
        self.spawn(self._quietly(call, gen))

    async def _store_reviews(self, effect: "fx.StoreReviews", gen: int) -> None:
        review_store.replace(self.ports.storage, effect.hands, effect.set_aside)

    # ----------------------------------------------------------------------- the features' flows

    async def _lesson_step(self, effect: "fx.LessonStep", gen: int) -> None:
        await self.run(lessons.step(self.s))

    async def _lessons_at_start(self, effect: "fx.LessonsAtStart", gen: int) -> None:
        storage = self.ports.storage
        raw = store.get_text(storage, lessons.PROGRESS_KEY)
        done, readable = lessons.read_progress(raw)
        if not readable and raw is not None:  # (set aside, never read again; the lessons start afresh)
            store.set_text(storage, lessons.CORRUPT_KEY, raw)
            store.remove(storage, lessons.PROGRESS_KEY)
        slot = lessons.read_slot(store.get_text(storage, lessons.SLOT_KEY))
        first_visit = store.get_text(storage, record.RECORD_KEY) is None
        await self.run(lessons.at_start(self.s, done, slot, first_visit))

    async def _save_lessons(self, effect: "fx.SaveLessons", gen: int) -> None:
        storage = self.ports.storage
        store.set_text(storage, lessons.PROGRESS_KEY, lessons.encode_progress(self.s))
        if self.s.lesson.on is None:
            store.remove(storage, lessons.SLOT_KEY)

    async def _open_daily(self, effect: "fx.OpenDaily", gen: int) -> None:
        await self.run(daily_flow.open_daily(self.s, effect.date, effect.practice, self.ports.clock.today()))

    async def _leave_daily(self, effect: "fx.LeaveDaily", gen: int) -> None:
        await self.run(daily_flow.leave(self.s))

    async def _share(self, effect: "fx.Share", gen: int) -> None:
        text = texts.words(effect.message)
        outcome = str(await self.ports.files.share(text))
        await self.go_on(gen, daily_flow.shared, outcome, text)

    async def _export(self, effect: "fx.Export", gen: int) -> None:
        today = self.ports.clock.today()
        self.ports.files.download(transfer.file_name(today), transfer.export_text(self.ports.storage, today))

    async def _import(self, effect: "fx.Import", gen: int) -> None:
        text = await self.ports.files.pick()
        await self.go_on(gen, transfer_flow.picked, text)

    async def _apply_import(self, effect: "fx.ApplyImport", gen: int) -> None:
        written = transfer.write(self.ports.storage, effect.offer)
        await self.run(transfer_flow.written(self.s, effect.offer, written))


def _sent(call: "fx.Call") -> "str | None":
    """The engine state a request was about (its answer is dropped once the table moved on)."""
    sent = call.args.get("state", call.args.get("table"))
    return sent if isinstance(sent, str) else None
