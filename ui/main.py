"""Main-thread entry point of the page (MicroPython): boot the table, then the engine worker.

Runs as ``<script type="mpy" src="./ui/main.py" config="./pyscript.toml">``. A saved match is
painted at once from its saved view (the worker is not needed to show it); a new match shows the
loading state with real progress until the Pyodide worker has started and dealt.

URL parameters: ``?seed=N`` starts a new match with that deal (once: it is then dropped from the
address); ``?fast=1`` makes the opponents play at once (end-to-end tests); ``?lang=xx``; ``?daily``
opens today's daily deal (UTC), ``?daily=YYYY-MM-DD`` that date's (a valid date only).
Performance marks for the tests and the bench: ``gongzhu:ui-ready``, ``gongzhu:table-painted``,
``gongzhu:ui-modules``, ``gongzhu:engine-connected``, ``gongzhu:engine-ready``, ``gongzhu:table-ready``.

If the boot fails, or the engine worker dies while starting, ``web/boot.js`` (the loading watchdog,
``window.gongzhuBoot``) shows the failure in the player's language with "Try again"; each mark
counts as progress for its stall timer, and the loading bar stops redrawing once it has failed.
"""

import asyncio

from pyscript import document, window
from pyscript.ffi import create_proxy

from gongzhu.vocab import NEW_SEED_BOUND

# The UI modules the table needs are imported inside boot(), a few at a time with a yield between
# them, so that compiling them never adds up to one long main-thread task on a slow phone; the
# rest (ui/core/later.py) once the game is interactive, or on first use.
game = ui = bridge = i18n = pwa = store = flow = page_flow = later = settings = None

#: Files whose download the loading bar follows, with their share of the wait.
PROGRESS_FILES = (
    ("pyodide.asm.wasm", 45),
    ("python_stdlib.zip", 15),
    ("pyodide.asm.mjs", 10),
    ("pyodide.mjs", 5),
    ("pyodide-lock.json", 3),
    ("engine_worker.py", 7),
)


def mark(name):
    window.performance.mark("gongzhu:" + name)
    window.gongzhuBoot.progress()


def boot_failed():
    """True once the loading watchdog shows a failure (the loading box is then its own)."""
    return bool(window.gongzhuBoot.failed)


class EngineStartError(Exception):
    """The engine worker did not start or did not answer its first request."""


def progress_tick():
    """Loading bar from what has really arrived (resource timing of the runtime files)."""
    if ui.table.view is not None:
        return
    real = pwa.progress()  # first visit: bytes the service worker has received
    if real is not None and real[1] > 0:
        page_flow.loading(ui, 10 + real[0] * 85 // real[1])
        game.redraw()
        return
    done = 10
    for entry in window.performance.getEntriesByType("resource"):
        name = str(entry.name)
        for suffix, share in PROGRESS_FILES:
            if name.endswith(suffix):
                done += share
    page_flow.loading(ui, done)
    game.redraw()


async def watch_progress():
    while ui.table.view is None and not boot_failed():
        progress_tick()
        await asyncio.sleep(0.25)


def url_params():
    return window.URLSearchParams.new(window.location.search)


def drop_seed_param(params):
    params.delete("seed")
    query = str(params.toString())
    url = str(window.location.pathname) + ("?" + query if query else "") + str(window.location.hash)
    window.history.replaceState(None, "", url)


async def load_modules():
    global game, ui, bridge, i18n, pwa, store, flow, page_flow, later, settings
    from ui.core import settings, shape, state, store  # noqa: F401  (compiled a few modules a step)
    from ui.view import i18n

    await asyncio.sleep(0)
    from ui.core import effects  # noqa: F401
    from ui.shell import bridge, pwa
    from ui.view import table, texts  # noqa: F401

    await asyncio.sleep(0)
    from ui.core import flow, later, page_flow
    from ui.view import html, render  # noqa: F401

    await asyncio.sleep(0)
    from ui.shell import app as game

    ui = game.ui
    await asyncio.sleep(0)


async def boot():
    mark("ui-ready")
    await asyncio.sleep(0)
    await load_modules()
    mark("ui-modules")
    local, usable = store.open_storage(window)
    game.use_storage(local)
    params = url_params()
    page_flow.storage_opened(ui, usable, str(params.get("fast")) == "1")
    page_flow.take_settings(ui, store.load_settings(local))
    if ui.link.fast:
        bridge.TIMEOUT_S = 10  # tests: a dead worker is noticed quickly
    forced = str(params.get("lang") or "")
    saved_lang = store.get_text(local, getattr(i18n, "STORAGE_KEY", "gongzhu.lang")) or ""
    prefs = [str(x) for x in window.navigator.languages]
    language = i18n.choose_language(
        prefs, forced if forced != "null" else "", saved_lang if saved_lang != "null" else ""
    )
    document.documentElement.lang = language
    if language != "en" and hasattr(i18n, "load"):
        try:
            await i18n.load(language)
        except Exception as exc:
            window.console.warn("gongzhu: no catalog for " + language + ": " + str(exc))
    pwa.translate(i18n._)

    seed_text = params.get("seed")
    seed, seed_valid = store.parse_seed(None if seed_text is None else str(seed_text))
    if seed_text is not None:
        drop_seed_param(params)
    saved, problem = store.load(local)
    decision, seed = store.start_decision(saved, seed)
    page_flow.boot_table(ui, decision, saved, seed, bool(problem) and store.save_blocked(local))
    handlers = {"click": game.on_click, "keydown": game.on_key, "change": game.on_change}
    handlers.update(pointerdown=game.on_pointer, pointerup=game.on_pointer)  # (a swipe on the review)
    for name, handler in handlers.items():
        document.addEventListener(name, create_proxy(handler))
    watch = getattr(local, "watch", None)  # (web/storage.js; absent from the in-memory stand-ins)
    if watch is not None:
        watch(store.SAVE_KEY, create_proxy(game.on_storage))
    game.redraw()
    mark("table-painted")
    game._spawn(watch_progress())

    # Let the browser paint before the worker starts compiling Pyodide.
    await asyncio.sleep(0)
    window.gongzhuBoot.progress("engine")  # the watchdog waits longer while Pyodide starts
    bridge.start_engine()  # the engine may restore or boot now that the table is on screen
    # (the statistics, read after the paint: they are not on the table, and their panel reads them)
    notices = [game.save_problem_text(problem), game.read_record()]
    daily_text = str(params.get("daily")) if params.has("daily") else None
    daily_date, daily_valid = game.daily.parse_date(daily_text)
    if not daily_valid:
        notices.append(i18n._("The date in this link is not valid: it was ignored."))
    if not seed_valid:
        notices.append(i18n._("The deal number in this link is not valid: it was ignored."))
    await pwa.engine_may_start()  # registers the service worker (first visit: it caches the site)
    try:
        await bridge.engine()
        mark("engine-connected")
        await bridge.call("ping", text="hello")
    except Exception as exc:
        raise EngineStartError(str(exc)) from None  # (MicroPython warns on "from exc" as a console error)
    mark("engine-ready")
    page_flow.engine_started(ui)
    resumed = decision in ("resume", "ask") and not ui.saving.elsewhere
    if resumed and not await game.check_resumed():  # (set aside: flow.save_refused)
        decision, seed = page_flow.decision_after_refusal(decision, seed)
        notices[0] = game.save_problem_text("unreadable")
    if decision == "new" and not ui.saving.elsewhere:
        if seed is None:
            seed = int(window.Math.random() * NEW_SEED_BOUND)
        packed = await bridge.call("new_match", seed=seed, rules=settings.read_rules(ui.settings.house_rules))
        await game.run(flow.started(ui, packed))
    page_flow.start_notices(ui, notices)
    game.redraw()
    mark("table-ready")
    game._spawn(later.import_rest())  # the rest of the UI, now that the player may act
    await game.run(flow.replay(ui))  # taps and presses made while the engine was starting
    if daily_text is not None and daily_valid and not ui.saving.elsewhere:
        await game.open_daily(daily_date)  # ?daily (today) or ?daily=YYYY-MM-DD
        return
    await game.drive()


def fail(exc):
    """Start-up failed: the loading watchdog (web/boot.js) says so in the player's language with "Try
    again", a resumed table too (until the engine is ready the watchdog is on duty). Once the engine
    was ready (the watchdog has stood down), the table gives way to the reason
    (``<html data-phase="error">``, ``#status``)."""
    window.gongzhuBoot.fail("engine" if isinstance(exc, EngineStartError) else "failed", str(exc))
    if boot_failed() or ui is None:
        return
    window.console.warn("gongzhu: the game could not start: " + str(exc))
    page_flow.start_failed(ui, str(exc))
    game.redraw()


try:
    await boot()  # noqa: F704  (PyScript runs this module with top-level await)
except Exception as exc:
    fail(exc)
