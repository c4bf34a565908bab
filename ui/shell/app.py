"""The shell: the one UI state, the page's events, and the effects of ``ui/core/flow.py`` run for real.

Everything that decides lives in ``ui/core/flow.py`` (pure, unit-tested); this module only connects it
to the browser: DOM events in, then for each effect the engine worker (``ui/shell/bridge.py``), storage
(``ui/core/store.py``), the live log and the clock (``ui/shell/dom.py``). It holds no rule and no decision.
"""

import asyncio

from pyscript import window

from ui.core import effects as fx
from ui.core import flow, later, page_flow, settings, store
from ui.core.state import UIState
from ui.features import house_rules, sound
from ui.shell import bridge, dom
from ui.view import render, table
from ui.view.i18n import _

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only)
    from ui.features import daily, record, record_flow, review, review_store, transfer
else:  # (imported when first needed, not before the table is drawn: ui/core/later.py)
    daily, record, record_flow, review, review_store, transfer = later.modules(
        "features.daily",
        "features.record",
        "features.record_flow",
        "features.review",
        "features.review_store",
        "features.transfer",
    )

#: The page's UI state (the only one).
ui = page_flow.named_tab(UIState(), str(int(window.Math.random() * 1000000000)))
#: Where the match and the settings are saved: localStorage, or the stand-in ``ui.main`` chose.
_storage = [None]
#: The table's sounds (played only when the player turned sound on).
sounds = sound.Player(window)
#: Seconds the table's cards may take to stop moving before the page stops waiting for them (the
#: deal takes 0.76 s in web/game.css; a card flying in 0.28 s).
MOTION_CAP_S = 3


# --------------------------------------------------------------------------- drawing and saving


def load_failed():
    """True once the loading watchdog (web/boot.js) has told the player that the game did not load:
    from then on its box (in ``#overlay``) and ``<html data-phase="error">`` are its own, until "Try
    again" reloads the page.  (``ui/main.py`` ``boot_failed`` reads the same flag before this module
    is loaded.)"""
    return bool(window.gongzhuBoot.failed)


def _source():
    attrs = {"data-phase": table.html_phase(ui), "data-turn": table.turn_attr(ui)}
    attrs["data-engine"] = "ready" if ui.link.engine_ready else "starting"
    attrs["data-deck"] = "four" if ui.settings.four_colour else None
    attrs["data-daily"] = ui.day.on_table
    attrs["data-busy"] = "true" if flow.busy(ui) else None
    try:
        regions = render.regions(ui)
    except Exception:
        if ui.table.checked:
            raise
        # A save that passed the shape check but cannot be drawn: the loading state until the
        # engine's verdict on it (never the load-failure screen: the files did load).
        window.console.warn("gongzhu: the saved table waits for the engine's check")
        regions = render.waiting_regions(ui)
        attrs["data-phase"] = "loading"
        attrs["data-turn"] = None
    if load_failed():
        # Left to the watchdog: a redraw asked for before it fired (the loading bar's, every 0.25 s)
        # or after it (☰) would put the spinner's phase back, or its box.
        del attrs["data-phase"]
        del regions["overlay"]
    return regions, attrs


dom.connect(_source)


def redraw():
    dom.schedule()


def use_storage(storage):
    _storage[0] = storage


def storage():
    return _storage[0] or window.localStorage


def save_problem_text(problem):
    """The notice for a save that was set aside (``store.load``'s problem), or ""."""
    if problem == "newer":
        return _("Your saved game comes from a newer version and was kept aside: a new match starts.")
    if problem:
        return _("Your saved game could not be read: a new match starts.")
    return ""


def persist():
    """Save soon, in a task of its own (after the redraw), so no single task does both. Never while
    another tab has the game (:func:`on_storage`): that tab's save is the match."""
    if page_flow.save_asked(ui):
        _spawn(_save_later())


async def _save_later():
    await asyncio.sleep(0.02)
    written = True
    if ui.day.on_table and ui.table.state is not None:
        written = store.set_text(storage(), daily.SLOT_KEY, daily.encode_slot(ui))
    elif ui.table.state is not None and not ui.saving.elsewhere:
        written = store.save(storage(), ui)
    page_flow.save_done(ui, written)
    redraw()  # clears data-busy: tests may reload from here on


def save_settings():
    page_flow.save_done(ui, store.save_settings(storage(), ui))


def pace():
    """Milliseconds: (an opponent's card, a finished trick on show, the sweep), as the settings,
    Speed up and ``?fast=1`` make them (``flow.pace``), read afresh at every wait."""
    return flow.pace(ui)


async def pause(kind, start=None):
    """Wait ``pace()[kind]`` ms from ``start`` (now), shortened at once when Speed up is pressed."""
    if start is None:
        start = dom.now_ms()
    while True:
        left = start + pace()[kind] - dom.now_ms()
        if left <= 0:
            return
        await asyncio.sleep((min(left, 60) + 1) / 1000)


def _toast(code):
    token = dom.now_ms()
    page_flow.toast_shown(ui, code, token)

    async def clear():
        await asyncio.sleep(1.7)
        if page_flow.toast_over(ui, token):
            redraw()

    _spawn(clear())


# --------------------------------------------------------------------------- running effects


async def run(result, gen=None, draw=True):
    """Run a transition's effects in order; engine answers go back into the flow. Effects of a
    flow that was stopped meanwhile (``gen``: a new match, a restart, another tab) are dropped.
    ``draw`` False: nothing on show changed (a coach step's sums), no redraw."""
    _state, effects = result
    if gen is None:
        gen = ui.link.gen
    if draw:
        redraw()
    for effect in effects:
        if gen != ui.link.gen:
            return
        if isinstance(effect, fx.Call):
            await _call(effect, gen)
        elif isinstance(effect, fx.Save):
            persist()
        elif isinstance(effect, fx.SaveSettings):
            save_settings()
        elif isinstance(effect, fx.Announce):
            dom.announce(effect.text)
        elif isinstance(effect, fx.Toast):
            _toast(effect.card)
        elif isinstance(effect, fx.Sound):
            sounds.play(effect.kind)
        elif isinstance(effect, fx.Deal):
            _spawn(_deal(effect.hand, gen))
        elif isinstance(effect, fx.Fly):
            _spawn(_fly(effect.card, gen))
        elif isinstance(effect, fx.Replay):
            await run(flow.replay(ui), gen)
        elif isinstance(effect, fx.Drive):
            await drive()
        elif isinstance(effect, fx.NewMatch):
            await new_match(effect.seed)
        elif isinstance(effect, fx.CountHand):
            count_record()
        elif isinstance(effect, fx.ReadRecord):
            read_record()
        elif isinstance(effect, fx.OpenDaily):
            await open_daily(ui.day.date or None, effect.practice)
        elif isinstance(effect, fx.LeaveDaily):
            await leave_daily()
        elif isinstance(effect, fx.Share):
            await share()
        elif isinstance(effect, fx.Export):
            window.gongzhuFiles.download(
                transfer.file_name(today()), transfer.export_text(storage(), today())
            )
        elif isinstance(effect, fx.Import):
            await import_data()
        elif isinstance(effect, fx.ApplyImport):
            await apply_import()
        elif isinstance(effect, fx.ResetRecord):
            _announce(record_flow.record_reset(ui, record.reset(storage())))
        elif isinstance(effect, fx.Background):
            _spawn(_background(effect.call, gen))
        elif isinstance(effect, fx.KeepReview):
            if not ui.day.on_table and not ui.saving.elsewhere:
                review_store.remember(storage(), effect.hand, effect.state, effect.analyses)
        elif isinstance(effect, fx.CheckReviews):
            if not ui.day.on_table:
                hands = review_store.entries(storage())
                call = fx.Call(
                    "check_reviews", {"table": effect.table, "hands": hands}, review.reviews_checked
                )
                _spawn(_background(call, gen))
        elif isinstance(effect, fx.StoreReviews) and not ui.day.on_table and not ui.saving.elsewhere:
            review_store.replace(storage(), effect.hands, effect.set_aside)


async def _background(call, gen):
    """A request the flow does not wait for (the coach): its answer goes into the flow as usual; an
    engine error stops the coach for this hand (the game goes on), a dead worker is replaced."""
    if call.measure:
        dom.mark(call.measure + "-start")
    try:
        answer = await bridge.call(call.op, **call.args)
        if call.measure:
            dom.measure(call.measure, call.measure + "-start")  # bench/coach.py reads these
    except bridge.EngineError as exc:
        window.console.warn("gongzhu: " + call.op + ": " + str(exc))
        if call.op == "coach":
            review.coach_failed(ui)
        elif call.op == "check_reviews":
            review.reviews_failed(ui)
        redraw()
        return
    except Exception as exc:
        report(exc)
        return
    if gen == ui.link.gen:
        sent = call.args.get("state", call.args.get("table"))
        shown = not (isinstance(answer, dict) and "part" in answer)  # (a coach step's sums: nothing to draw)
        await run(call.then(ui, answer, sent), gen, shown)


async def _call(effect, gen):
    started = dom.now_ms()
    if effect.measure:
        dom.mark(effect.measure + "-start")
    try:
        answer = await bridge.call(effect.op, **effect.args)
    except Exception as exc:
        report(exc)
        return
    if effect.measure:
        dom.measure(effect.measure, effect.measure + "-start")  # bench/ reads these
    if effect.pace >= 0:
        await pause(effect.pace, started)
    if gen != ui.link.gen:
        return
    await run(effect.then(ui, answer, effect.args.get("state")), gen)


async def _still():
    """Wait until the change asked for is drawn and the table's cards have stopped moving (their
    animations, as the browser runs them: a frame drawn late starts them late)."""
    start = dom.now_ms()
    await asyncio.sleep(0.02)
    while (not dom.drawn() or dom.cards_moving()) and dom.now_ms() - start < MOTION_CAP_S * 1000:
        await asyncio.sleep(0.03)


async def _deal(hand, gen):
    """The new hand's cards have arrived: they stop being dealt."""
    await _still()
    if gen == ui.link.gen:
        await run(flow.dealt(ui, hand), gen)


async def _fly(card, gen):
    """The card played has flown in: the page may read as settled again."""
    await _still()
    if gen == ui.link.gen:
        await run(flow.landed(ui, card), gen)


def report(exc):
    window.console.warn("gongzhu: " + str(exc))
    died = isinstance(exc, bridge.EngineDied)
    _spawn(run(page_flow.request_failed(ui, "" if died else str(exc) or "error")))
    if died:
        _spawn(recover())


async def drive():
    """Run the computer opponents until the player has something to do."""
    gen = ui.link.gen
    if not page_flow.driving(ui, gen):
        return
    try:
        while gen == ui.link.gen:
            if ui.table.hold:
                await _show_trick(gen)
                continue
            _state, effects, go_on = flow.next_step(ui)
            await run((ui, effects), gen)
            if not go_on:
                break
    except Exception as exc:
        report(exc)
    finally:
        page_flow.driven(ui, gen)


async def _show_trick(gen):
    """A finished trick stays on show, then sweeps to its winner (the pace is the shell's)."""
    await pause(1)
    if gen != ui.link.gen:
        return
    await run(flow.sweep(ui), gen)
    await pause(2)
    await run(flow.trick_cleared(ui), gen)


# --------------------------------------------------------------------------- the player's record


def _announce(result):
    """Say what a record transition says (it changes nothing else on show until the next redraw)."""
    texts = [effect.text for effect in result[1] if isinstance(effect, fx.Announce)]
    for text in texts:
        dom.announce(text)
    return " ".join(texts)


def read_record():
    """Read the record from storage (another tab may have counted meanwhile); the notice, or ""."""
    rec, problem = record.load(storage())
    return _announce(record_flow.record_read(ui, rec, problem, today()))


def count_record():
    """Count the table's finished hand (and match), read-modify-write from storage at once; a tab
    that follows another one leaves it to that tab."""
    if ui.saving.elsewhere or ui.table.view is None:
        return
    if ui.day.on_table:  # (the daily deal: its result once per date, never a practice replay)
        if not ui.day.practice:
            rec, problem = daily.record_result(storage(), ui.day.on_table, ui.table.view)
            _announce(record_flow.daily_counted(ui, rec, problem, today()))
        return
    rec, problem = record.count_in(storage(), ui.table.view, ui.table.hand_level, ui.table.match_token)
    _announce(record_flow.record_read(ui, rec, problem, today()))


def today():
    """Today's date in UTC, YYYY-MM-DD."""
    return str(window.Date.new().toISOString())[:10]


async def open_daily(date=None, practice=False):
    """The daily deal of ``date`` (today by default): its result when it was played (unless
    ``practice``), else the hand, resumed from its own slot or dealt by the engine. The match in
    progress stays in its save."""
    date = date or today()
    practice = practice or daily.practice_only(date, today())  # (only today's deal is recorded)
    rec, problem = record.load(storage())
    _announce(record_flow.record_read(ui, rec, problem, today()))
    if not page_flow.daily_asked(ui, date, rec.daily.get(date), practice):
        redraw()
        await drive()  # the table under the panel goes on (it may still be at the opponents' turn)
        return
    redraw()
    saved = None if practice else daily.load_slot(storage(), date)
    try:
        if saved is not None:
            packed = await bridge.call("check", state=saved["state"])
        else:
            packed = await bridge.call("daily", date=date)
    except Exception as exc:
        report(exc)
        return
    notice = daily.other_day_text(date) if daily.practice_only(date, today()) else ""
    await run(page_flow.daily_dealt(ui, date, practice, packed, saved, notice))
    await drive()


async def leave_daily():
    """Back to the match in progress (its save), or a new match when there is none."""
    saved, _problem = store.load(storage())
    page_flow.back_to_match(ui, saved)
    if ui.table.state is None or not await check_resumed():
        await new_match()
        return
    redraw()
    await drive()


async def import_data():
    """Import a file of the player's data: checked whole (its shape here, its match by the engine),
    then offered: the panel says what it replaces and asks first (:func:`apply_import` on yes); a
    refused file changes nothing."""
    text = await window.gongzhuFiles.pick()
    if text is None:
        return  # (cancelled; "" is an empty file, refused with its reason)
    try:
        rec, save, fields = transfer.parse(text if isinstance(text, str) else None, today())
        offer = transfer.ImportOffer(rec, save, fields, transfer.file_date(text), record.load(storage())[0])
        if fields is not None:
            offer.checked = await bridge.call("check", state=fields["state"])
    except transfer.TransferError as exc:
        _say_import(transfer.refusal_text(exc.reason))
        return
    except bridge.EngineError:
        _say_import(transfer.refusal_text("damaged"))
        return
    await run(record_flow.offered(ui, offer))


async def apply_import():
    """The player said yes: the offered file's statistics and match replace the player's (storage
    refusing either write leaves both as they were, with the reason)."""
    offer = record_flow.take_offer(ui)
    if offer is None:
        return
    if not transfer.write(storage(), offer):
        _say_import(_("This file could not be imported: the browser's storage is full."))
        return
    await run(page_flow.imported(ui, offer.record, offer.fields, offer.checked))


def _say_import(text):
    _announce(record_flow.import_said(ui, text))
    redraw()


async def share():
    """Share the daily result: the Web Share API, else the clipboard, else the text shown."""
    text = daily.share_text(ui.day.on_table or ui.day.date, ui.day.result)
    outcome = str(await window.gongzhuFiles.share(text))
    await run(page_flow.shared(ui, outcome, text))


# --------------------------------------------------------------------------- the match


async def check_resumed():
    """Let the engine confirm the resumed match; False (save set aside) when it rejects it. An
    answer that comes once the table is another one (a ``?seed=`` link's new match) is dropped."""
    sent = ui.table.state
    try:
        packed = await bridge.call("check", state=sent)
    except bridge.EngineError as exc:
        if ui.table.state != sent:
            return True
        window.console.warn("gongzhu: saved match rejected: " + str(exc))
        store.set_aside(storage(), store.get_text(storage(), store.SAVE_KEY) or store.encode(ui))
        page_flow.save_refused(ui)
        return False
    if ui.table.state != sent:
        return True  # (the table is another one now: this answer is not for it)
    flow.checked(ui, packed)
    count_record()  # (a hand finished before a reload is counted now, once)
    return True


async def new_match(seed=None):
    if seed is None:
        seed = int(window.Math.random() * 2147483647)
    page_flow.dealing_new(ui)
    redraw()
    try:
        packed = await bridge.call("new_match", seed=seed, rules=settings.read_rules(ui.settings.house_rules))
    except Exception as exc:
        report(exc)
        return
    await run(flow.started(ui, packed))
    await drive()


async def recover():
    """The engine worker died: say so, start a new one and go on from the last save."""
    if ui.link.recovering:
        return
    await run(page_flow.engine_lost(ui))
    try:
        await bridge.restart()
        saved, _problem = store.load(storage())
        if saved is not None:
            flow.resume(ui, saved)
        if ui.table.state is None:
            packed = await bridge.call("new_match", seed=int(window.Math.random() * 2147483647))
        else:
            packed = await bridge.call("check", state=ui.table.state)
    except Exception as exc:
        page_flow.engine_gone(ui)
        window.console.warn("gongzhu: restart failed: " + str(exc))
        redraw()
        return
    await run(page_flow.engine_back(ui, packed))
    await run(flow.replay(ui))
    await drive()


# --------------------------------------------------------------------------- other tabs


def on_storage(text):
    """Another tab saved the match: this one follows it (its table redrawn from that save, after
    the shape check; the engine re-checks it) and stops playing and saving until the player takes
    the game back with "Play here" — so neither tab's moves are lost to the other's writes."""
    if not isinstance(text, str) or ui.day.on_table:
        return
    try:
        saved = store.decode(text)
    except Exception as exc:
        window.console.warn("gongzhu: another tab's save ignored: " + str(exc))
        return
    page_flow.follow(ui, saved)
    redraw()
    if ui.link.engine_ready:
        _spawn(_engine_view(saved["state"]))


async def _engine_view(state):
    """The engine's own view of a state another tab saved (replaces the saved view)."""
    try:
        packed = await bridge.call("check", state=state)
    except Exception as exc:
        window.console.warn("gongzhu: another tab's match rejected: " + str(exc))
        return
    flow.checked(ui, packed, state)
    redraw()


async def take_over():
    """ "Play here": this tab takes the game from the other one, from the latest save."""
    if not ui.saving.elsewhere:
        return
    saved, _problem = store.load(storage())
    page_flow.take_back(ui, saved)
    if ui.table.state is None or not await check_resumed():
        await new_match()
        return
    page_flow.playing_here(ui)
    persist()  # the other tab now follows this one
    redraw()
    await drive()


# --------------------------------------------------------------------------- events


_tasks = set()


def _spawn(coro):
    """Run ``coro`` in the background, keeping a reference to it until it is done."""
    for task in list(_tasks):
        if task.done():
            _tasks.discard(task)
    _tasks.add(asyncio.create_task(coro))


def _spawn_input(coro):
    """Handle an input (a tap, a key, a choice) in the background, ``coro`` being its handling.
    Until that starts, the table on show is from before the input, so the page reads as busy."""
    page_flow.input_received(ui)
    redraw()
    _spawn(_handle_input(coro))


async def _handle_input(coro):
    page_flow.input_started(
        ui
    )  # (no frame can come between this and the handling's first step, its state change)
    await coro


async def on_action(name):
    if name == "take-over":
        await take_over()
        return
    await run(flow.on_action(ui, name))


def on_click(event):
    sounds.gesture(ui.settings.sound)  # (a tap: the moment a browser lets the page start sound)
    target = event.target
    if target is None or not hasattr(target, "closest"):
        return
    action = target.closest("[data-action]")
    if action is not None and action.tagName != "SELECT":
        if action.hasAttribute("disabled"):
            return
        _spawn_input(on_action(str(action.dataset.action)))
        return
    card = target.closest("#hand [data-card]")
    if card is not None:
        _spawn_input(run(flow.tap_card(ui, str(card.dataset.card))))


def on_change(event):
    target = event.target
    # getAttribute: an element without data-action (a file input, say) gives None, not an error.
    action = target.getAttribute("data-action") if target is not None else None
    if action == "difficulty":
        _spawn_input(run(flow.choose_level(ui, str(target.value))))
    elif action in flow.CHOICES:
        _spawn_input(run(flow.choose(ui, str(action), str(target.value))))
    elif action == "language":
        _spawn_input(change_language(str(target.value)))
    elif action in house_rules.select_names():
        _spawn_input(run(flow.choose_rule(ui, str(action), str(target.value))))


async def change_language(language):
    """The language menu: translations, <html lang> and title change; the game does not."""
    from ui.view import i18n

    await i18n.switch_language(window, language)
    redraw()


def on_key(event):
    """Keyboard play: arrows move through the hand (roving tabindex), Enter or Space on a card
    selects it and again plays it, Escape closes a panel."""
    sounds.gesture(ui.settings.sound)  # (a key press: the moment a browser lets the page start sound)
    key = str(event.key)
    if ui.screen.sheet:  # (the settings sheet is on top: Escape closes it, Tab stays inside it)
        if key == "Escape":
            event.preventDefault()
            _spawn_input(run(flow.menu(ui, False)))
        elif key == "Tab":
            dom.keep_focus_in(event, "#sheet [role=dialog]")
        return
    reviewing = review.on_key(ui, key)  # (an open hand review takes the arrows and Escape)
    if reviewing is not None:
        event.preventDefault()
        _spawn_input(run(reviewing))
        return
    target = event.target
    card = None
    if target is not None and hasattr(target, "closest"):
        card = target.closest("#hand [data-card]")
    if card is not None and (key in flow.MOVES or key in ("Home", "End")):
        event.preventDefault()
        _state, code = flow.arrow(ui, str(card.dataset.card), key)
        if code is not None:
            dom.focus_hand_card(code)
            redraw()
    elif key in ("Enter", " ") and card is not None:
        event.preventDefault()
        if not event.repeat:
            page_flow.focus(ui, str(card.dataset.card))
            on_click(event)
    elif key == "Escape" and ui.screen.panel:
        _spawn_input(run(flow.on_action(ui, "close")))


def on_pointer(event):
    """A swipe on the hand review (pointer down, then up further left or right)."""
    target = event.target
    if target is None or not hasattr(target, "closest") or target.closest("[data-testid=review]") is None:
        return
    if str(event.type) == "pointerdown":
        review.pointer_down(ui, float(event.clientX))
    else:
        _spawn_input(run(review.pointer_up(ui, float(event.clientX))))
