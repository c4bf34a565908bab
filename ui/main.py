"""Main-thread entry point of the page (MicroPython): boot the table, then the engine worker.

Runs as ``<script type="mpy" src="./ui/main.py" config="./pyscript.toml">``. A saved match is
painted at once from its saved view (the worker is not needed to show it), and so is a first visit's
new match: one of the build's prepared tables (``ui/features/boot.py``); a ``?seed=`` or ``?daily``
link's new match shows the loading state with real progress until the Pyodide worker has started
and dealt.

URL parameters: ``?seed=N`` starts a new match with that deal (once: it is then dropped from the
address); ``?fast=1`` makes the opponents play at once and ``?coach=0`` keeps the coach idle (end-to-end
tests: its background work would only compete for the cores); ``?lang=xx``; ``?daily``
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


def unpack_modules(bundle: str = "ui-modules.json") -> None:
    """Write the UI's modules out of the one file they ship in (sitebuild/configs.py: one request on
    the link instead of one per module), as the files they are in the repository; before any import."""
    import json
    import os

    with open(bundle) as source:
        modules = json.load(source)
    os.remove(bundle)  # (its text is in ``modules`` now: the file system keeps one copy)
    folders = set()
    for path, text in modules.items():
        parts = path.split("/")
        for depth in range(1, len(parts)):
            folder = "/".join(parts[:depth])
            if folder not in folders:
                folders.add(folder)
                try:  # noqa: SIM105  (MicroPython has no contextlib)
                    os.mkdir(folder)
                except OSError:  # (there already)
                    pass
        with open(path, "w") as target:
            target.write(text)


await asyncio.sleep(0)  # type: ignore[top-level-await]  # noqa: F704  (PyScript's own start is a task; this is another)
unpack_modules()

from ui.core.ports import EngineStartError  # noqa: E402  (unpacked above; a few lines: the start's failure told apart)

# The UI modules the table needs are imported inside boot(), a few at a time with a yield between
# them, so that compiling them never adds up to one long main-thread task on a slow phone; the
# rest (ui/core/later.py) once the game is interactive, or on first use.
TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from typing import Any

    from ui.core import flow, later, store
    from ui.core.state import UIState
    from ui.features import boot
    from ui.runner import Runner
    from ui.shell import app as game
    from ui.shell import bridge, pwa
    from ui.view import i18n

    s: UIState
    runner: Runner
else:
    game = s = bridge = i18n = pwa = store = flow = boot = later = runner = None


def mark(name: str) -> None:
    window.performance.mark("gongzhu:" + name)
    window.gongzhuBoot.progress()


def boot_failed() -> bool:
    """True once the loading watchdog shows a failure (the loading box is then its own)."""
    return bool(window.gongzhuBoot.failed)


def progress_tick() -> bool:
    """The loading bar redrawn from what has really arrived; False once the table is drawn (the
    transition decides: ``boot.loading``). ``pwa.progress``: a first visit's bytes, from the service
    worker."""
    fetched = [str(entry.name) for entry in window.performance.getEntriesByType("resource")]
    showing = boot.loading(s, pwa.progress(), fetched)
    if showing:
        game.redraw()
    return showing


async def watch_progress() -> None:
    while not boot_failed() and progress_tick():
        await asyncio.sleep(0.25)


def url_params() -> "Any":
    return window.URLSearchParams.new(window.location.search)


def drop_seed_param(params: "Any") -> None:
    params.delete("seed")
    query = str(params.toString())
    url = str(window.location.pathname) + ("?" + query if query else "") + str(window.location.hash)
    window.history.replaceState(None, "", url)


async def load_modules() -> None:
    global game, s, bridge, i18n, pwa, store, flow, boot, later, runner
    from ui.core import settings, shape, state, store  # noqa: F401  (compiled a few modules a step)
    from ui.view import i18n

    await asyncio.sleep(0)
    from ui.core import effects  # noqa: F401
    from ui.shell import bridge, pwa
    from ui.view import table, texts  # noqa: F401

    await asyncio.sleep(0)
    from ui.core import flow, later
    from ui.features import boot
    from ui.view import html, render  # noqa: F401

    await asyncio.sleep(0)
    from ui.shell import app as game

    s = game.s
    runner = game.runner
    await asyncio.sleep(0)


async def boot_page() -> None:
    """What only the platform can do, in order: storage, the address and the language read, the
    table drawn (``boot.first_paint`` decides it), the events listened to, the engine started; then
    the runner takes over (``boot.engine_ready``)."""
    mark("ui-ready")
    await asyncio.sleep(0)
    await load_modules()
    mark("ui-modules")
    local, usable = store.open_storage(window)
    runner.ports.storage = local
    params = url_params()
    if str(params.get("fast")) == "1":
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
    if seed_text is not None:
        drop_seed_param(params)
    loaded = store.load(local)
    daily_text = str(params.get("daily")) if params.has("daily") else None
    seed_param = None if seed_text is None else str(seed_text)
    prepared = None
    if boot.wants_prepared(loaded, seed_param, daily_text):  # (a first visit: web/engine.js fetched them)
        prepared = boot.prepared_table(str(await window.gongzhuFirstTables()), float(window.Math.random()))
    plan = boot.first_paint(
        s,
        usable,
        str(params.get("fast")) == "1",
        store.load_settings(local),
        loaded,
        store.save_blocked(local),
        seed_param,
        daily_text,
        prepared,
        str(params.get("coach")) != "0",
    )
    handlers = {"click": game.on_click, "keydown": game.on_key, "change": game.on_change}
    handlers.update(pointerdown=game.on_pointer, pointerup=game.on_pointer)  # (a swipe on the review)
    for name, handler in handlers.items():
        document.addEventListener(name, create_proxy(handler))
    watch = getattr(local, "watch", None)  # (web/storage.js; absent from the in-memory stand-ins)
    if watch is not None:
        watch(store.SAVE_KEY, create_proxy(game.on_storage))
    game.redraw()
    mark("table-painted")
    runner.spawn(watch_progress())

    # Let the browser paint before the worker starts compiling Pyodide.
    await asyncio.sleep(0)
    window.gongzhuBoot.progress("engine")  # the watchdog waits longer while Pyodide starts
    await runner.run(boot.connect(s, plan))  # the runner starts the engine, then boot.engine_ready


def fail(exc: Exception) -> None:
    """Start-up failed: the loading watchdog (web/boot.js) says so in the player's language with "Try
    again", a resumed table too (until the engine is ready the watchdog is on duty). Once the engine
    was ready (the watchdog has stood down), the table gives way to the reason
    (``<html data-phase="error">``, ``#status``)."""
    window.gongzhuBoot.fail("engine" if isinstance(exc, EngineStartError) else "failed", str(exc))
    if boot_failed() or game is None:  # (the watchdog tells it, or the table's modules never loaded)
        return
    window.console.warn("gongzhu: the game could not start: " + str(exc))
    boot.start_failed(s, str(exc))
    game.redraw()


try:
    await boot_page()  # type: ignore[top-level-await]  # noqa: F704  (PyScript runs this module with top-level await)
except Exception as exc:
    fail(exc)
