"""The UI's transitions: (UI state, event) -> (UI state, effects). Pure, unit-tested in CPython.

Each function takes the :class:`~ui.core.state.UIState` and an event (a tap, a button, an engine
answer), updates the state and returns it with the list of :mod:`ui.core.effects` the shell runs (ask
the engine, save, read out, pause, run the opponents). No ``pyscript``, no DOM, no clock, no rule:
what may be played or exposed, and why not, comes from the engine's view.

The path of a tap: ``ui/shell/app.py`` gets the click -> :func:`tap_card` -> ``Call("step")`` -> the shell
asks the worker -> :func:`stepped` with the answer -> the state takes the new view, ``Save`` and
``Drive`` -> the shell redraws (``ui/view/render.py``) and runs the opponents (:func:`next_step`).
"""

from gongzhu.vocab import DAILY_LEVEL, HAND_ENDS, LEVELS, RULE_VALUES, SIGNAL_CARDS
from ui.core import bookkeeping, settings, shape, steps
from ui.core import effects as fx
from ui.core.review_state import ReviewState, StoredHands
from ui.core.state import TableState
from ui.core.words import composed, joined, said

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from typing import Any

    from ui.core.effects import Effect
    from ui.core.state import UIState, View
    from ui.core.words import Message

    Result = tuple[UIState, list[Effect]]


def say(s: "UIState", message: "Message") -> "Result":
    """A passing message (a refusal, a hint), read out too."""
    s.screen.message = message
    return s, [fx.Announce(message)]


def still_refused(message: "Message | None", view: "View") -> bool:
    """``message`` is the engine's refusal of the player's play and ``view`` still refuses it for the
    same reason: "wait for your turn" stays up while the opponents play on (their next card would
    take it away before it is read), and goes when the player's turn comes."""
    if message is None or message[0] != "@refusal":
        return False
    now = view["actions"].get("play") if view.get("actions") else None
    return now is not None and now.get("reason") == message[1]["refusal"].get("reason")


def standing_notice(view: "View") -> "Message | None":
    """The notice that stays up through a hand: no card to expose, or who exposed what."""
    if view["phase"] == "expose":
        return None if view["exposable"] else said("No card to expose this hand")
    return composed("exposed", exposures=view["exposures"])


def _sounds(s: "UIState", *kinds: str) -> "list[Effect]":
    """The sounds ``kinds`` (``ui.features.sound.SOUNDS`` plays them), only when the player turned sound on."""
    return [fx.Sound(kind) for kind in kinds] if s.settings.sound else []


def open_to_player(s: "UIState") -> bool:
    """The player may act on the table: the engine checked it, no question is up, no other tab has it."""
    return (
        s.table.view is not None
        and s.link.engine_ready
        and not s.saving.elsewhere
        and s.link.ask_seed is None
    )


def waiting(s: "UIState") -> bool:
    """The table is drawn (a save) but the engine has not answered yet (it is starting, or checking
    the table: ``ui/core/match.py`` ``check_table``): an input is kept for it."""
    return (
        s.table.view is not None
        and (not s.link.engine_ready or not s.table.checked)
        and not s.saving.elsewhere
        and s.link.ask_seed is None
    )


def busy(s: "UIState") -> bool:
    """The page is not settled (``<html data-busy>``): the engine is starting, checks the table
    drawn from a save or has a request, an input waits for it, the opponents decide their exposures,
    a finished trick is on show, a save is queued, or something on screen still moves (the deal, a
    card flying in, the sweep)."""
    view = s.table.view
    bots_deciding = view is not None and view["phase"] == "expose" and not s.table.bots_exposed
    working = (
        s.link.busy
        or not s.link.engine_ready
        or waiting(s)
        or bool(s.link.queued)
        or bots_deciding
        or s.saving.save_pending
    )
    moving = (
        s.table.hold
        or s.motion.dealing is not None
        or s.motion.flying is not None
        or s.motion.collecting is not None
    )
    return working or moving or s.link.inputs > 0


def checked(s: "UIState", packed: "dict[str, Any]", sent: "str | None" = None) -> "UIState":
    """The engine checked the table (a resumed save, another tab's, a restart): ``{state, view}``
    are the table's from now on. The answer for a state ``sent`` that is no longer the table's (a
    new match came meanwhile) is dropped."""
    if sent is not None and s.table.state != sent:
        return s
    s.table.state = packed["state"]
    s.table.view = packed["view"]
    s.table.checked = True
    s.screen.notice = standing_notice(packed["view"])
    return s


# --------------------------------------------------------------------------- engine answers


def begin_hand(s: "UIState") -> None:
    """A new hand: the difficulty chosen meanwhile takes effect, the hand's flags start afresh."""
    s.table.hand_level = (
        DAILY_LEVEL if s.day.on_table else s.settings.level
    )  # (the daily deal: against three Hard opponents)
    s.table.bots_exposed = False
    s.table.speed = False
    s.table.hold = False
    s.table.selected = None
    s.table.expose_sel = []
    s.screen.panel = None


def _announce_step(old: "View | None", new: "View") -> "list[Effect]":
    """What screen readers hear of a step: the card played, the trick's winner, the signal cards,
    the end of the hand or the match."""
    out = []  # type: list[Effect]
    play = steps.played_card(old, new)
    if play:
        out.append(fx.Announce(composed("played", seat=play["seat"], code=play["card"])))
        if play["card"] in SIGNAL_CARDS:
            out.append(fx.Announce(composed("signal", code=play["card"])))
    if steps.completed_trick(old, new) and new["tricks"][-1].get("winner") is not None:
        out.append(fx.Announce(composed("trick_won", seat=new["tricks"][-1]["winner"])))
    if old and old["phase"] in ("expose", "play") and new["phase"] in ("hand_over", "match_over"):
        out.append(fx.Announce(composed("hand_over", view=new)))
        if new["phase"] == "match_over":
            out.append(fx.Announce(composed("result", result=new["result"])))
    return out


def answered(s: "UIState", packed: "dict[str, Any]", sent: "str | None" = None) -> "Result":
    """Adopt ``{state, view}`` from the engine: what just happened is shown and read out, then saved.
    An answer to a state that is no longer the table's (``sent``) is dropped."""
    if sent is not None and s.table.state != sent:
        return s, []
    old = s.table.view
    new = packed["view"]
    s.motion.thinking = None
    effects = []  # type: list[Effect]
    if old is None or old["hand_number"] != new["hand_number"]:
        begin_hand(s)
        if new["phase"] in ("expose", "play") and new["hand"]:
            s.motion.dealing = new["hand_number"]
            effects.append(fx.Deal(new["hand_number"]))
    s.table.state = packed["state"]
    s.table.view = new
    s.table.checked = True
    if not still_refused(s.screen.message, new):
        s.screen.message = None
    effects.extend(_announce_step(old, new))
    play = steps.played_card(old, new)
    s.motion.fresh_card = play["card"] if play else None
    s.motion.flying = s.motion.fresh_card
    if play:
        effects.append(fx.Fly(play["card"]))
        effects.extend(_sounds(s, "card"))
    if play and play["card"] in SIGNAL_CARDS:
        effects.append(fx.Toast(play["card"]))
        effects.extend(_sounds(s, fx.SIGNAL_SOUNDS[play["card"]]))
    if steps.completed_trick(old, new):
        s.table.hold = True
    if s.table.selected not in new["hand"] or new["phase"] != "play":
        s.table.selected = None
    if new["phase"] != "expose":
        s.table.expose_sel = []
    if old and old["phase"] == "expose" and new["phase"] == "play":
        skipped = not old["exposable"] and old.get("my_expose") == []
        reveal = composed("exposed", exposures=new["exposures"])
        s.screen.notice = joined(said("No card to expose this hand"), reveal) if skipped else reveal
    elif new["phase"] == "expose" and (not old or old["hand_number"] != new["hand_number"]):
        s.screen.notice = standing_notice(new)
    if s.screen.notice and s.screen.notice != s.screen.notice_said:
        s.screen.notice_said = s.screen.notice
        effects.append(fx.Announce(s.screen.notice))
    if new["phase"] in ("hand_over", "match_over"):
        effects.extend(count_hand(s))
        if old is not None and old["phase"] in ("expose", "play") and s.lesson.on is None:
            effects.append(fx.HandOver())  # (a lesson's hand is kept for no review)
    effects.append(fx.Save())
    return s, effects


def count_hand(s: "UIState") -> "list[Effect]":
    """Count the table's finished hand in the player's record: the match's, or the daily deal's
    result once per date (never a practice replay); a tab that follows another leaves it to that tab.
    A lesson counts nowhere."""
    if s.saving.elsewhere or s.table.view is None or s.lesson.on is not None:
        return []
    if s.day.on_table:
        return [] if s.day.practice else [fx.CountDaily(s.day.on_table)]
    return [fx.CountHand()]


def started(s: "UIState", packed: "dict[str, Any]", sent: "str | None" = None) -> "Result":
    """A new match was dealt: a fresh table (the shell then runs the opponents)."""
    s.link.busy = False
    s.table.view = None
    s.table.match_token = bookkeeping.match_token(s)
    return answered(s, packed)


def bots_answered(s: "UIState", packed: "dict[str, Any]", sent: "str | None" = None) -> "Result":
    """The opponents sent their expose decisions."""
    if sent is not None and s.table.state != sent:
        return s, []
    s.table.bots_exposed = True
    return answered(s, packed)


def stepped(s: "UIState", packed: "dict[str, Any]", sent: "str | None" = None) -> "Result":
    """The engine's answer to the player's action: a refusal only says why; else play goes on."""
    s.link.busy = False
    if sent is not None and s.table.state != sent:  # another tab moved the game on meanwhile: its move stands
        return s, []
    if packed.get("refusal"):
        return say(s, composed("refusal", refusal=packed["refusal"]))
    s, effects = answered(s, packed)
    effects.append(fx.Drive())
    return s, effects


def hinted(s: "UIState", advice: "dict[str, Any]", sent: "str | None" = None) -> "Result":
    """The hint: the advised card (or cards to expose) selected, and the reason said."""
    s.link.busy = False
    if sent is not None and s.table.state != sent:
        return s, []
    s.motion.dealing = None  # (the advice is selected: the hand is redrawn, its cards must not arrive again)
    if "cards" in advice:
        s.table.expose_sel = list(advice["cards"])
    elif advice.get("card"):
        s.table.selected = advice["card"]
    s, effects = say(s, composed("hint", hint=advice))
    effects.insert(0, fx.Save())
    return s, effects


def resume(s: "UIState", saved: "dict[str, Any]") -> "UIState":
    """Take the fields of a save (through ``store.decode``: its shape checked) as the table. A save
    from before a fact the table shows was sent is not drawn until the engine has checked it."""
    s.table.state = saved["state"]
    s.table.view = saved["view"] if shape.drawable(saved["view"]) else None
    blank = TableState()
    for key in TableState.SAVED:  # (what ``store.decode`` read; a field it lacks: as on a new table)
        setattr(s.table, key, saved.get(key, getattr(blank, key)))
    s.screen.notice = standing_notice(s.table.view) if s.table.view is not None else None
    s.review = ReviewState()
    s.review.trick = saved.get(
        "review_trick", 0
    )  # (a reload on the review resumes it: ui/features/review.py)
    s.review.hand = saved.get("review_hand", 0)  # (an earlier hand's review: once the engine checked it)
    s.stored = StoredHands()
    s.screen.message = None
    s.motion.collecting = None
    s.motion.fresh_card = None
    s.motion.flying = None
    s.motion.thinking = None
    s.motion.dealing = None
    s.table.checked = False
    s.link.queued = []  # (inputs kept for the table this one replaces are not for it)
    return s


# --------------------------------------------------------------------------- the opponents


def next_step(s: "UIState") -> "tuple[UIState, list[Effect], bool]":
    """What comes next while the opponents play: ``(state, effects, go_on)``; ``go_on`` False when
    it is the player's move (or a summary is up). A finished trick on show is the shell's to time
    (:func:`sweep`, :func:`trick_cleared`)."""
    view = s.table.view
    if view is None or s.table.hold:
        return s, [], False
    if s.lesson.on is not None and _lesson_waits(s, view):
        return s, _ask_lesson(s), False
    phase = view["phase"]
    if phase == "expose":
        if s.table.bots_exposed:
            return s, [], False
        args = {"state": s.table.state, "level": s.table.hand_level}  # type: dict[str, Any]
        return s, [fx.Call("bots_expose", args, bots_answered)], True
    if phase != "play":
        return s, [fx.AfterHand()], False
    if view["turn"] == 0:
        if s.screen.turn_said == s.table.state:
            return s, [], False
        s.screen.turn_said = s.table.state
        return s, [fx.Announce(said("Your turn"))], False
    args = {"state": s.table.state, "seat": view["turn"], "level": s.table.hand_level}
    s.motion.thinking = view["turn"]  # (until its answer is adopted: :func:`answered`)
    return s, [fx.Call("bot_step", args, answered, pace=0, measure="decision")], True


def _lesson_waits(s: "UIState", view: "View") -> bool:
    """A lesson on the table stops the opponents' run where it has something to say: once judged,
    at its moment (the tricks it is judged after, the hand's end), and where the player acts."""
    if s.lesson.outcome is not None:
        return True
    if view["phase"] in HAND_ENDS or len(view["tricks"]) >= s.lesson.until:
        return True
    if view["phase"] == "expose":
        return s.table.bots_exposed
    return view["phase"] == "play" and view["turn"] == 0


def _ask_lesson(s: "UIState") -> "list[Effect]":
    """The lesson's step (or verdict) for the table on show, asked once per engine state."""
    if s.lesson.outcome is not None or s.lesson.asked == s.table.state:
        return []
    s.lesson.asked = s.table.state
    return [fx.LessonStep()]


def sweep(s: "UIState") -> "Result":
    """The finished trick on show sweeps to its winner (who takes it: the trick-taken sound)."""
    view = s.table.view
    last = view["tricks"][-1] if view and view["tricks"] else None
    s.motion.collecting = last.get("winner") if last else None
    return s, _sounds(s, "trick") if s.motion.collecting is not None else []


def dealt(s: "UIState", hand: int) -> "Result":
    """The deal of hand ``hand`` has been shown: its cards stop arriving (a later hand's deal stays)."""
    if s.motion.dealing == hand:
        s.motion.dealing = None
    return s, []


def landed(s: "UIState", card: str) -> "Result":
    """The card ``card`` has flown in (a later card's flight stays)."""
    if s.motion.flying == card:
        s.motion.flying = None
    return s, []


def trick_cleared(s: "UIState") -> "Result":
    """The finished trick has been shown: play goes on, and a tap made meanwhile is carried out."""
    s.motion.collecting = None
    s.table.hold = False
    s.motion.fresh_card = None
    s.motion.flying = None
    effects = [fx.Save()]  # type: list[Effect]
    if s.link.queued:
        effects.append(fx.Replay())
    return s, effects


# --------------------------------------------------------------------------- the player


def act(s: "UIState", action: "dict[str, Any]") -> "Result":
    """Send the player's action to the engine (:func:`stepped` takes the answer)."""
    if s.link.busy:
        return s, []
    s.link.busy = True
    s.motion.dealing = None  # (the step redraws the hand: its cards must not arrive again)
    effects = [fx.Call("step", {"state": s.table.state, "action": action}, stepped)]  # type: list[Effect]
    if s.lesson.offer:  # (playing answers the first visit's offer: it is not made again)
        s.lesson.offer = False
        effects.insert(0, fx.SaveLessons())
    return s, effects


def tap_card(s: "UIState", code: str) -> "Result":
    """A tap (or Enter) on a hand card: choose it for exposure, select it, or play it when it was
    already selected; a card the engine refuses only says why. Before the engine has answered, a
    card is chosen for exposure at once (the choice is the page's own, and "Expose" is then kept
    with it); any other tap is kept, as one made while a finished trick is on show."""
    s.screen.alert = None
    s.motion.dealing = None  # (the hand is redrawn: its cards must not arrive again)
    view = s.table.view
    choosing = view is not None and view["phase"] == "expose" and view["actions"]["expose"] is None
    if waiting(s) and not choosing:
        s.link.queued.append(("tap", code))
        return s, []
    if not (open_to_player(s) or waiting(s)) or s.link.busy or view is None:
        return s, []
    phase = view["phase"]
    if phase == "expose":
        refusal = view["expose_refusals"].get(code)
        if refusal:
            return say(s, composed("refusal", refusal=refusal))
        chosen = [c for c in s.table.expose_sel if c != code]
        if code not in s.table.expose_sel:
            chosen.append(code)
        s.table.expose_sel = chosen
        s.screen.message = None
        return s, [fx.Save()]
    if phase != "play":
        return s, []
    if s.table.hold:  # (a finished trick on show: the tap is carried out when play goes on)
        s.link.queued.append(("tap", code))
        return s, []
    refusal = view["refusals"].get(code)
    if refusal:
        return say(s, composed("refusal", refusal=refusal))
    if s.table.selected == code:
        return act(s, {"type": "play", "seat": 0, "card": code})
    s.table.selected = code
    s.screen.message = None
    return s, [fx.Save()]


def hint(s: "UIState") -> "Result":
    if not open_to_player(s) or s.link.busy:
        return s, []
    s.link.busy = True
    s, effects = say(s, said("Thinking…"))
    effects.append(fx.Call("hint", {"state": s.table.state}, hinted, measure="hint"))
    return s, effects


def toggle_panel(s: "UIState", name: str) -> "Result":
    s.screen.panel = None if s.screen.panel == name else name
    return s, []


def table_action(s: "UIState", name: str) -> "Result | None":
    """A button of the table's own (:data:`TABLE_ACTIONS`), once the player may act; None for any
    other. A decision kept for a moment that is over (an expose decision after the expose phase, a
    second "Play again") is dropped."""
    view = s.table.view
    if name in ("expose", "expose-none"):
        if view is None or view["actions"]["expose"] is not None:
            return s, []  # (a decision kept for the expose phase, which is over: dropped)
        cards = list(s.table.expose_sel) if name == "expose" else []
        return act(s, {"type": "expose", "seat": 0, "cards": cards})
    if name == "play":
        return act(s, {"type": "play", "seat": 0, "card": s.table.selected}) if s.table.selected else (s, [])
    if name == "hint":
        return hint(s)
    if name == "speed-up":
        s.table.speed = True
        return s, [fx.Save()]
    if name == "next-hand":
        if view is not None and view["actions"]["next_hand"] is None:
            return act(s, {"type": "next_hand"})
        return s, []
    if name == "play-again":
        if view is None or view["phase"] != "match_over":
            return s, []  # (a second "Play again" kept for the match that is over: dropped)
        return s, [fx.NewMatch()]
    if name == "captured":  # an entry of the sheet: it opens the panel, even one already open
        s.screen.panel = name
        return s, []
    if name == "last-trick":  # the table's button: a second tap closes what the first opened
        return toggle_panel(s, name)
    return None


#: The table's own actions: a tab that follows another one says why they do nothing there.
TABLE_ACTIONS = ("expose", "expose-none", "play", "hint", "speed-up", "next-hand", "play-again")


# --------------------------------------------------------------------------- the settings sheet

#: The settings switched on and off by a button of the sheet: ``data-action`` -> the setting.
TOGGLES = {name.replace("_", "-"): name for name in settings.SWITCHES}
#: The settings chosen in a select of the sheet: ``data-action`` -> the setting (its values:
#: ``settings.CHOICES``; the difficulty is the menu's).
CHOICES = {"play-speed": "play_speed", "trick-pause": "trick_pause"}


def menu(s: "UIState", open_it: bool) -> "Result":
    """☰ opens the settings sheet; its close button, Escape or a tap beside it closes it."""
    s.screen.sheet = open_it
    return s, []


def toggle_setting(s: "UIState", name: str) -> "Result":
    """A switch of the sheet (four colours, memory aid, sound): flipped and saved; the sheet stays.
    Sound turned on says so with a card's sound (the tap lets the browser start it)."""
    field = TOGGLES[name]
    setattr(s.settings, field, not getattr(s.settings, field))
    return s, [fx.SaveSettings()] + (_sounds(s, "card") if field == "sound" else [])


def choose(s: "UIState", name: str, value: str) -> "Result":
    """A select of the sheet (play speed, how long a finished trick stays): saved, in effect at once.
    A value that is not one of the setting's is ignored."""
    if name not in CHOICES:
        return s, []
    field = CHOICES[name]
    if value not in settings.CHOICES[field][1]:
        return s, []
    setattr(s.settings, field, value)
    return s, [fx.SaveSettings()]


#: Milliseconds of the opponents' pace, per setting: an opponent's card (``play_speed``), a finished
#: trick on show (``trick_pause``), the trick sweeping to its winner.
OPPONENT_MS = {"slow": 1200, "normal": 700, "fast": 350}
TRICK_MS = {"short": 600, "normal": 1200, "long": 2400}
SWEEP_MS = 320
#: Speed up (this hand): at most these; ``?fast=1`` (the end-to-end tests): exactly these.
PACE_SPEED = (150, 450, 200)
PACE_FAST = (15, 80, 0)


def pace(s: "UIState") -> "tuple[int, int, int]":
    """(an opponent's card, a finished trick on show, the sweep), in ms, from the settings, Speed up
    and ``?fast=1``."""
    if s.link.fast:
        return PACE_FAST
    chosen = (
        OPPONENT_MS.get(s.settings.play_speed, 700),
        TRICK_MS.get(s.settings.trick_pause, 1200),
        SWEEP_MS,
    )
    if s.table.speed:
        return (min(chosen[0], PACE_SPEED[0]), min(chosen[1], PACE_SPEED[1]), min(chosen[2], PACE_SPEED[2]))
    return chosen


def choose_rule(s: "UIState", name: str, value: str) -> "Result":
    """A house-rule select of the sheet (``ui/view/house_rules.py`` names them): saved, in effect from the next match
    (the match in progress keeps its rules). An unknown rule or value is ignored."""
    key = settings.RULE_ACTIONS.get(name)
    values = [v for k, vs in RULE_VALUES if k == key for v in vs]
    if key is None or value not in values:
        return s, []
    s.settings.house_rules = dict(settings.read_rules(s.settings.house_rules), **{key: value})
    effects = [fx.SaveSettings()]  # type: list[Effect]
    if s.table.view and s.table.view["phase"] != "match_over":
        s, told = say(s, said("House rules apply from the next match."))
        effects.extend(told)
    return s, effects


def choose_level(s: "UIState", value: str) -> "Result":
    """The difficulty menu: saved at once, in effect from the next hand."""
    if value not in LEVELS:
        return s, []
    s.settings.level = value
    effects = [fx.SaveSettings()]  # type: list[Effect]
    view = s.table.view
    if view and view["phase"] in ("expose", "play") and value != s.table.hand_level:
        s, told = say(s, said("Difficulty changes from the next hand"))
        effects.extend(told)
    return s, effects


def answer_seed(s: "UIState", start_new: bool) -> "Result":
    """The answer to "a ``?seed=`` link over a match in progress": that deal, or resume. Given while
    the engine starts, it is kept: the start goes on (``boot.engine_ready``) and deals the link's
    match at its end (a new match now would stop the start)."""
    seed = s.link.ask_seed
    if seed is None:
        return s, []
    s.link.ask_seed = None
    if not s.link.engine_ready:
        s.link.seed_chosen = seed if start_new else None
        return s, []
    if start_new:
        return s, [fx.NewMatch(seed)]
    return s, [fx.Drive()]


def arrow(s: "UIState", code: str, key: str) -> "tuple[UIState, str | None]":
    """Arrow keys, Home and End in the hand: the card the focus moves to (roving tabindex)."""
    hand = s.table.view["hand"] if s.table.view else []
    if code not in hand:
        return s, None
    if key == "Home":
        index = 0
    elif key == "End":
        index = len(hand) - 1
    else:
        index = max(0, min(len(hand) - 1, hand.index(code) + MOVES[key]))
    s.table.focus = hand[index]
    return s, s.table.focus


#: Arrow keys in the hand: how far each one moves the focus.
MOVES = {"ArrowLeft": -1, "ArrowUp": -1, "ArrowRight": 1, "ArrowDown": 1}
