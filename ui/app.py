"""The game controller: the match flow, the opponents' pace, the player's taps and the autosave.

Holds the engine state as an opaque JSON string plus seat 0's view (both come back from the
engine worker with every step) and a few UI flags; renders only from those. No rules here.
"""

import asyncio

from pyscript import window

from ui import bridge, dom, i18n, render, store, table, texts
from ui.i18n import _

#: Milliseconds: (an opponent's card, a finished trick on show, the trick sweeping to its winner).
PACE_NORMAL = (700, 1200, 320)
PACE_SPEED = (150, 450, 200)
PACE_FAST = (15, 80, 0)  # ?fast=1: for the end-to-end tests

app = {
    "state": None,
    "view": None,
    "level": store.DEFAULT_LEVEL,
    "hand_level": store.DEFAULT_LEVEL,
    "bots_exposed": False,
    "hold": False,
    "speed": False,
    "selected": None,
    "expose_sel": [],
    "notice": "",
    "message": "",
    "alert": "",
    "panel": None,
    "toast": None,
    "fresh_card": None,
    "collecting": None,
    "busy": False,
    "fast": False,
    "engine_ready": False,
    "gen": 0,
    "driving": None,
    "loading_text": "",
    "progress": 10,
    "settings": {"level": store.DEFAULT_LEVEL, "lang": ""},
    "ask_seed": None,
    "elsewhere": False,
    "save_blocked": False,
    "failed": "",
    "tab": str(int(window.Math.random() * 1000000000)),
}


# --------------------------------------------------------------------------- drawing and saving


def _source():
    attrs = {"data-phase": table.html_phase(app), "data-turn": table.turn_attr(app)}
    attrs["data-engine"] = "ready" if app["engine_ready"] else "starting"
    attrs["data-deck"] = "four" if app["settings"].get("four_colour") else None
    view = app["view"]
    bots_deciding = view is not None and view["phase"] == "expose" and not app["bots_exposed"]
    busy = app["busy"] or app["hold"] or bots_deciding or app.get("save_pending")
    attrs["data-busy"] = "true" if busy else None
    return render.regions(app), attrs


dom.connect(_source)


def redraw():
    dom.schedule()


def storage():
    """localStorage, or the stand-in ``ui.main`` chose when the browser refuses it."""
    return app.get("storage") or window.localStorage


def save_problem_text(problem):
    """The notice for a save that was set aside (``store.load``'s problem), or ""."""
    if problem == "newer":
        return _("Your saved game comes from a newer version and was kept aside: a new match starts.")
    if problem:
        return _("Your saved game could not be read: a new match starts.")
    return ""


async def check_resumed():
    """Let the engine confirm the resumed match; False (save set aside) when it rejects it."""
    try:
        packed = await bridge.call("check", state=app["state"])
    except bridge.EngineError as exc:
        window.console.warn("gongzhu: saved match rejected: " + str(exc))
        store.set_aside(storage(), store.get_text(storage(), store.SAVE_KEY) or store.encode(app))
        app["state"] = None
        app["view"] = None
        return False
    app["view"] = packed["view"]
    return True


def persist():
    """Save soon, in a task of its own (after the redraw), so no single task does both. Never while
    another tab has the game (:func:`on_storage`): that tab's save is the match."""
    if app["state"] is None or app.get("save_pending") or app["elsewhere"] or app["save_blocked"]:
        return
    app["save_pending"] = True
    _spawn(_save_later())


async def _save_later():
    await asyncio.sleep(0.02)
    app["save_pending"] = False
    if app["state"] is not None and not app["elsewhere"] and not store.save(storage(), app):
        app["unsaved"] = True
    redraw()  # clears data-busy: tests may reload from here on


def pace():
    if app["fast"]:
        return PACE_FAST
    return PACE_SPEED if app["speed"] else PACE_NORMAL


async def pause(kind):
    """Wait ``pace()[kind]`` ms, shortened at once when Speed up is pressed meanwhile."""
    start = dom.now_ms()
    while True:
        left = start + pace()[kind] - dom.now_ms()
        if left <= 0:
            return
        await asyncio.sleep((min(left, 60) + 1) / 1000)


def say(text):
    """A transient message (a refusal, a hint): replaced by the next step; read out too."""
    app["message"] = text
    dom.announce(text)
    redraw()


def announce_step(old, new):
    """Screen-reader lines for the step from ``old`` to ``new``: the card played, the trick's
    winner, the signal cards, the exposures, the end of the hand or the match."""
    play = table.played_card(old, new)
    if play:
        dom.announce(texts.played_text(play["seat"], play["card"]))
        if play["card"] in table.SIGNAL_CARDS:
            dom.announce(texts.signal_text(play["card"]))
    if table.completed_trick(old, new) and new["tricks"][-1].get("winner") is not None:
        dom.announce(texts.trick_won_text(new["tricks"][-1]["winner"]))
    if old and old["phase"] in ("expose", "play") and new["phase"] in ("hand_over", "match_over"):
        dom.announce(texts.hand_over_text(new))
        if new["phase"] == "match_over":
            dom.announce(texts.result_title(new["result"]))


def announce_turn():
    """ "Your turn" once per turn, when the player may act."""
    view = app["view"]
    if view and table.my_turn(view) and not app["hold"] and app.get("turn_said") != app["state"]:
        app["turn_said"] = app["state"]
        dom.announce(_("Your turn"))


def report(exc):
    app["busy"] = False
    window.console.warn("gongzhu: " + str(exc))
    if isinstance(exc, bridge.EngineDied):
        _spawn(recover())
        return
    say(_("Something went wrong: {error}").format(error=str(exc)))


async def recover():
    """The engine worker died: say so, start a new one and go on from the last save."""
    if app.get("recovering"):
        return
    app["recovering"] = True
    app["gen"] += 1  # any flow still waiting on the dead worker stops
    app["engine_ready"] = False
    app["busy"] = False
    app["engine_note"] = _("The game engine stopped. Restarting it…")
    dom.announce(app["engine_note"])
    redraw()
    try:
        await bridge.restart()
        saved, _problem = store.load(storage())
        if saved is not None:
            adopt(saved)
        if app["state"] is None:
            packed = await bridge.call("new_match", seed=int(window.Math.random() * 2147483647))
        else:
            packed = await bridge.call("check", state=app["state"])
        app["state"] = packed["state"]
        app["view"] = packed["view"]
        app["engine_ready"] = True
        app["engine_note"] = _("The game engine was restarted: play goes on from the last save.")
        dom.announce(app["engine_note"])
    except Exception as exc:
        app["engine_note"] = _("The game engine could not be restarted. Reload the page.")
        window.console.warn("gongzhu: restart failed: " + str(exc))
        return
    finally:
        app["recovering"] = False
        redraw()
    await drive()


# --------------------------------------------------------------------------- applying engine answers


def _toast(code):
    app["toast"] = code
    token = dom.now_ms()
    app["toast_token"] = token

    async def clear():
        await asyncio.sleep(1.7)
        if app.get("toast_token") == token:
            app["toast"] = None
            redraw()

    _spawn(clear())


def take(packed):
    """Adopt ``{state, view}`` from the worker: remember what just happened, save, redraw."""
    old = app["view"]
    new = packed["view"]
    app["state"] = packed["state"]
    app["view"] = new
    app["message"] = ""
    announce_step(old, new)
    play = table.played_card(old, new)
    app["fresh_card"] = play["card"] if play else None
    if play and play["card"] in table.SIGNAL_CARDS:
        _toast(play["card"])
    if table.completed_trick(old, new):
        app["hold"] = True
    if app["selected"] not in new["hand"] or new["phase"] != "play":
        app["selected"] = None
    if new["phase"] != "expose":
        app["expose_sel"] = []
    if old and old["phase"] == "expose" and new["phase"] == "play":
        skipped = not old["exposable"] and old.get("my_expose") == []
        reveal = texts.exposed_notice(new["exposed"])
        app["notice"] = (_("No card to expose this hand") + " · " + reveal) if skipped else reveal
    elif new["phase"] == "expose" and (not old or old["hand_number"] != new["hand_number"]):
        app["notice"] = "" if new["exposable"] else _("No card to expose this hand")
    if app["notice"] and app["notice"] != app.get("notice_said"):
        app["notice_said"] = app["notice"]
        dom.announce(app["notice"])
    persist()
    redraw()


def begin_hand():
    """Flags for a new hand: the chosen level takes effect now."""
    app["hand_level"] = app["level"]
    app["bots_exposed"] = False
    app["speed"] = False
    app["hold"] = False
    app["selected"] = None
    app["expose_sel"] = []
    app["panel"] = None


# --------------------------------------------------------------------------- the flow


async def drive():
    """Run the computer opponents until the player has something to do."""
    gen = app["gen"]
    if app["driving"] == gen or app["elsewhere"] or app["ask_seed"] is not None:
        return
    app["driving"] = gen
    try:
        while gen == app["gen"] and await _advance(gen):
            pass
    except Exception as exc:
        report(exc)
    finally:
        if app["driving"] == gen:
            app["driving"] = None


async def _advance(gen):
    """One step of the flow; False when it is the player's move (or a summary is up)."""
    view = app["view"]
    if view is None:
        return False
    if app["hold"]:
        await pause(1)
        if gen != app["gen"]:
            return False
        last = view["tricks"][-1] if view["tricks"] else None
        if last is not None and pace()[2] > 0:
            app["collecting"] = last.get("winner")
            redraw()
            await pause(2)
        app["collecting"] = None
        app["hold"] = False
        app["fresh_card"] = None
        persist()
        redraw()
        return True
    phase = view["phase"]
    sent = app["state"]
    if phase == "expose":
        if app["bots_exposed"]:
            return False
        packed = await bridge.call("bots_expose", state=sent, level=app["hand_level"])
        if gen != app["gen"] or app["state"] is not sent:
            return True
        app["bots_exposed"] = True
        take(packed)
        return True
    if phase == "play" and view["turn"] == 0:
        announce_turn()
    if phase == "play" and view["turn"] != 0:
        started = dom.now_ms()
        dom.mark("decision-start")
        packed = await bridge.call("bot_step", state=sent, seat=view["turn"], level=app["hand_level"])
        dom.measure("decision", "decision-start")  # bench/browser_ai.py reads these
        while dom.now_ms() - started < pace()[0]:
            await asyncio.sleep(0.03)
        if gen != app["gen"] or app["state"] is not sent:
            return True
        take(packed)
        return True
    return False


async def act(action):
    """Send the player's action; a refusal only shows a message."""
    if app["busy"]:
        return None
    app["busy"] = True
    redraw()
    sent = app["state"]
    try:
        packed = await bridge.call("step", state=sent, action=action)
    except Exception as exc:
        report(exc)
        return None
    app["busy"] = False
    if app["state"] is not sent:  # another tab moved the game on meanwhile: its move stands
        return None
    if packed.get("refusal"):
        say(texts.refusal_text(packed["refusal"]))
        return None
    take(packed)
    return packed


# --------------------------------------------------------------------------- the player's taps


async def tap_card(code):
    app["alert"] = ""
    view = app["view"]
    if view is None or app["busy"] or app["elsewhere"] or app["ask_seed"] is not None:
        return
    phase = view["phase"]
    if phase == "expose":
        if code in view["exposable"] and view.get("my_expose") is None:
            chosen = list(app["expose_sel"])
            if code in chosen:
                chosen.remove(code)
            else:
                chosen.append(code)
            app["expose_sel"] = chosen
            app["message"] = ""
            persist()
            redraw()
        else:
            say(texts.refusal_text({"reason": "not_exposable" if view["exposable"] else "wrong_phase"}))
        return
    if phase != "play":
        return
    if app["hold"] or view["turn"] != 0:
        say(texts.refusal_text({"reason": "not_your_turn"}))
        return
    refusal = view["refusals"].get(code)
    if refusal:
        say(texts.refusal_text(refusal))
        return
    if app["selected"] == code:
        await play(code)
        return
    app["selected"] = code
    app["message"] = ""
    persist()
    redraw()


async def play(code):
    if await act({"type": "play", "seat": 0, "card": code}):
        await drive()


async def expose(cards):
    if await act({"type": "expose", "seat": 0, "cards": cards}):
        await drive()


async def hint():
    view = app["view"]
    if view is None or app["busy"]:
        return
    sent = app["state"]
    app["busy"] = True
    say(_("Thinking…"))
    try:
        dom.mark("hint-start")
        advice = await bridge.call("hint", state=sent)
        dom.measure("hint", "hint-start")
    except Exception as exc:
        report(exc)
        return
    app["busy"] = False
    if app["state"] is not sent:
        redraw()
        return
    if "cards" in advice:
        app["expose_sel"] = list(advice["cards"])
    elif advice.get("card"):
        app["selected"] = advice["card"]
    persist()
    say(texts.hint_text(advice))


async def new_match(seed=None):
    if seed is None:
        seed = int(window.Math.random() * 2147483647)
    app["gen"] += 1
    app["busy"] = True
    redraw()
    try:
        packed = await bridge.call("new_match", seed=seed)
    except Exception as exc:
        report(exc)
        return
    app["busy"] = False
    begin_hand()
    app["view"] = None
    take(packed)
    await drive()


#: The actions that stay open while a question is up or another tab has the game.
OPEN_ACTIONS = ("seed-new", "seed-resume", "take-over", "four-colour", "close")


async def on_action(name, target):
    if (app["elsewhere"] or app["ask_seed"] is not None) and name not in OPEN_ACTIONS:
        return
    if name == "seed-new" or name == "seed-resume":
        await answer_seed(name == "seed-new")
    elif name == "take-over":
        await take_over()
    elif name == "expose":
        await expose(list(app["expose_sel"]))
    elif name == "expose-none":
        await expose([])
    elif name == "play":
        if app["selected"]:
            await play(app["selected"])
    elif name == "hint":
        await hint()
    elif name == "speed-up":
        app["speed"] = True
        persist()
        redraw()
    elif name == "next-hand":
        view = app["view"]
        if view and view["phase"] == "hand_over" and not app["busy"]:
            level_before = app["hand_level"]
            begin_hand()
            if await act({"type": "next_hand"}) is None:
                app["hand_level"] = level_before
            await drive()
    elif name == "play-again":
        await new_match()
    elif name == "captured" or name == "last-trick":
        app["panel"] = None if app["panel"] == name else name
        redraw()
    elif name == "close":
        app["panel"] = None
        redraw()
    elif name == "four-colour":
        app["settings"]["four_colour"] = not app["settings"].get("four_colour")
        if not store.save_settings(storage(), app["settings"]):
            app["unsaved"] = True
        redraw()


def on_level(value):
    if value not in store.LEVELS:
        return
    app["level"] = value
    app["settings"]["level"] = value
    if not store.save_settings(storage(), app["settings"]):
        app["unsaved"] = True
    view = app["view"]
    if view and view["phase"] in ("expose", "play") and value != app["hand_level"]:
        say(_("Difficulty changes from the next hand"))
    redraw()


# --------------------------------------------------------------------------- a deal link, other tabs


async def answer_seed(start_new):
    """The player's answer to "a ``?seed=`` link over a match in progress": that deal, or resume."""
    seed = app["ask_seed"]
    app["ask_seed"] = None
    if start_new and seed is not None:
        await new_match(seed)
        return
    redraw()
    await drive()


def adopt(saved):
    """Take the fields of a save (already through ``store.decode``) as the table."""
    for key in saved:
        app[key] = saved[key]
    app["notice"] = texts.standing_notice(app["view"])
    app["message"] = ""
    app["collecting"] = None
    app["fresh_card"] = None


def on_storage(text):
    """Another tab saved the match: this one follows it (its table redrawn from that save, after
    the shape check; the engine re-checks it) and stops playing and saving until the player takes
    the game back with "Play here" — so neither tab's moves are lost to the other's writes."""
    if not isinstance(text, str):
        return
    try:
        saved = store.decode(text)
    except Exception as exc:
        window.console.warn("gongzhu: another tab's save ignored: " + str(exc))
        return
    app["gen"] += 1  # any flow of this tab stops
    app["elsewhere"] = True
    app["busy"] = False
    app["ask_seed"] = None
    adopt(saved)
    redraw()
    if app["engine_ready"]:
        _spawn(_engine_view(saved["state"]))


async def _engine_view(state):
    """The engine's own view of a state another tab saved (replaces the saved view)."""
    try:
        packed = await bridge.call("check", state=state)
    except Exception as exc:
        window.console.warn("gongzhu: another tab's match rejected: " + str(exc))
        return
    if app["state"] == state:
        app["view"] = packed["view"]
        redraw()


async def take_over():
    """ "Play here": this tab takes the game from the other one, from the latest save."""
    if not app["elsewhere"]:
        return
    saved, _problem = store.load(storage())
    if saved is not None:
        adopt(saved)
    app["elsewhere"] = False
    if app["state"] is None or not await check_resumed():
        await new_match()
        return
    app["gen"] += 1
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


def on_click(event):
    target = event.target
    if target is None or not hasattr(target, "closest"):
        return
    action = target.closest("[data-action]")
    if action is not None and action.tagName != "SELECT":
        if action.hasAttribute("disabled"):
            return
        _spawn(on_action(str(action.dataset.action), action))
        return
    card = target.closest("#hand [data-card]")
    if card is not None:
        _spawn(tap_card(str(card.dataset.card)))


def on_change(event):
    target = event.target
    if target is not None and str(target.dataset.action) == "difficulty":
        on_level(str(target.value))
    elif target is not None and str(target.dataset.action) == "language":
        _spawn(change_language(str(target.value)))


async def change_language(language):
    """The language menu: translations, <html lang> and title change; the game does not."""
    await i18n.switch_language(window, language)
    redraw()


#: Arrow keys in the hand: how far each one moves the focus.
MOVES = {"ArrowLeft": -1, "ArrowUp": -1, "ArrowRight": 1, "ArrowDown": 1}


def on_key(event):
    """Keyboard play: arrows move through the hand (roving tabindex), Enter or Space on a card
    selects it and again plays it, Escape closes a panel."""
    key = str(event.key)
    target = event.target
    card = None
    if target is not None and hasattr(target, "closest"):
        card = target.closest("#hand [data-card]")
    if card is not None and (key in MOVES or key in ("Home", "End")):
        event.preventDefault()
        hand = app["view"]["hand"] if app["view"] else []
        code = str(card.dataset.card)
        if not hand or code not in hand:
            return
        if key == "Home":
            index = 0
        elif key == "End":
            index = len(hand) - 1
        else:
            index = max(0, min(len(hand) - 1, hand.index(code) + MOVES[key]))
        app["focus"] = hand[index]
        dom.focus_hand_card(hand[index])
        redraw()
    elif key in ("Enter", " ") and card is not None:
        event.preventDefault()
        if not event.repeat:
            app["focus"] = str(card.dataset.card)
            on_click(event)
    elif key == "Escape" and app["panel"]:
        app["panel"] = None
        redraw()
