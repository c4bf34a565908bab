"""The strict shape check of a saved table, before the engine has seen it (pure, unit-tested).

What storage holds is never trusted. Until the engine worker has re-checked a resumed match (its
answer then replaces the saved view), the page may draw the saved view only once it passed
:func:`check_view`: every string in it is a short token (a card code, a phase, a reason code,
never text or markup), every card one of the 52 codes, every seat 0–3, every number a number, every
list and the whole of it bounded. Other tabs' saves (``storage`` events) go through it too.
"""

from gongzhu.vocab import PHASES, RANKS, SUITS

#: The longest string a view may hold anywhere (a token such as ``must_follow_suit``).
MAX_TOKEN = 40
#: How many values (strings, numbers, lists, dicts) a view may hold in all; a real one holds ~1,500.
MAX_NODES = 20000
#: How deep a view may nest (a real one, 6: view > last_hand > tricks > [trick] > plays > [play] >
#: field).
MAX_DEPTH = 8
#: Hands recorded in the match history (a match ends long before).
MAX_HANDS = 500
#: The biggest score a view may hold (a hand scores at most a few thousand points).
MAX_POINTS = 10**9


TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from typing import Any


class ShapeError(ValueError):
    """A saved view that may not be drawn; the message says what is wrong."""


def is_card(code: object) -> bool:
    """True for one of the 52 card codes (``QS``, ``TC``)."""
    return isinstance(code, str) and len(code) == 2 and code[0] in RANKS and code[1] in SUITS


def _token(text: str) -> bool:
    if len(text) > MAX_TOKEN:
        return False
    for char in text:
        if not (char.isalpha() or char.isdigit() or char in "_-:") or ord(char) > 127:  # (-: house rules)
            return False
    return True


def _walk(value: object, depth: int, count: int) -> int:
    """Every string a token, every number a bounded int, nesting and size bounded; the node count."""
    count += 1
    if count > MAX_NODES or depth > MAX_DEPTH:
        raise ShapeError("view too big")
    if value is None or isinstance(value, bool):
        return count
    if isinstance(value, int):
        if -MAX_POINTS <= value <= MAX_POINTS:
            return count
        raise ShapeError("number out of range")
    if isinstance(value, str):
        if _token(value):
            return count
        raise ShapeError("not a token: " + repr(value[:12]))
    if isinstance(value, list):
        for item in value:
            count = _walk(item, depth + 1, count)
        return count
    if isinstance(value, dict):
        for key in value:
            if not isinstance(key, str) or not _token(key):
                raise ShapeError("not a field name")
            count = _walk(value[key], depth + 1, count)
        return count
    raise ShapeError("not JSON data")


def _need(ok: bool, what: str) -> None:
    if not ok:
        raise ShapeError(what)


def _dict(value: object, what: str) -> "dict[str, Any]":
    if not isinstance(value, dict):
        raise ShapeError(what)
    return value


def _list(value: object, what: str, most: int) -> "list[Any]":
    if not isinstance(value, list) or len(value) > most:
        raise ShapeError(what)
    return value


def _int(value: object, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _seat(value: object, optional: bool = False) -> bool:
    return (optional and value is None) or _int(value, 0, 3)


def _cards(value: object, most: int, what: str) -> None:
    cards = _list(value, what, most)
    for code in cards:
        _need(is_card(code), what)
    _need(len(set(cards)) == len(cards), what)


def _four_numbers(value: object, what: str, low: int = -MAX_POINTS, high: int = MAX_POINTS) -> None:
    numbers = _list(value, what, 4)
    _need(len(numbers) == 4, what)
    for number in numbers:
        _need(_int(number, low, high), what)


def _four_card_lists(value: object, most: int, what: str) -> None:
    lists = _list(value, what, 4)
    _need(len(lists) == 4, what)
    for cards in lists:
        _cards(cards, most, what)


def _trick(value: object, what: str) -> None:
    trick = _dict(value, what)
    _need(_seat(trick.get("winner"), True), what)
    for play in _list(trick.get("plays"), what, 4):
        play = _dict(play, what)
        _need(_seat(play.get("seat")) and is_card(play.get("card")), what)


def _refusals(value: object) -> None:
    refusals = _dict(value, "refusals")
    _need(len(refusals) <= 13, "refusals")
    for code in refusals:
        _need(is_card(code), "refusals")
        if refusals[code] is not None:
            refusal = _dict(refusals[code], "refusals")
            _need(isinstance(refusal.get("reason"), str), "refusals")
            for key in ("card", "suit"):
                _need(refusal.get(key) is None or isinstance(refusal.get(key), str), "refusals")


def _last_hand(value: object) -> None:
    if value is None:
        return
    last = _dict(value, "last hand")
    _need(_int(last.get("number"), 1, MAX_HANDS), "last hand")
    _four_numbers(last.get("totals"), "last hand")
    breakdowns = _list(last.get("breakdowns"), "last hand", 4)
    _need(len(breakdowns) == 4, "last hand")
    for item in breakdowns:
        b = _dict(item, "last hand")
        for key in ("hearts", "pig", "goat", "transformer_bonus", "score"):
            _need(_int(b.get(key), -MAX_POINTS, MAX_POINTS), "last hand")
        for key in ("hearts_multiplier", "pig_multiplier", "goat_multiplier", "transformer_multiplier"):
            _need(_int(b.get(key, 1), 1, 8), "last hand")
        _need(b.get("transformer") in ("none", "alone", "multiplier"), "last hand")
        _need(b["transformer"] != "multiplier" or "transformer_multiplier" in b, "last hand")  # (drawn then)
        for key in ("all_hearts", "all_16"):
            _need(isinstance(b.get(key), bool), "last hand")
        for effect in _list(b.get("exposure_effects", []), "last hand", 8):
            _need(isinstance(effect, str), "last hand")
    # (a save from before the summary kept its tricks lacks them)
    for trick in _list(last.get("tricks", []), "last hand", 13):
        _trick(trick, "last hand")


def _memory(value: object) -> None:
    """The table-memory aid (``gongzhu.memory``): per seat its void suits and exposed cards to come,
    and the point cards not yet played."""
    memory = _dict(value, "memory aid")
    voids = _list(memory.get("voids"), "memory aid", 4)
    _need(len(voids) == 4, "memory aid")
    for suits in voids:
        for suit in _list(suits, "memory aid", 4):
            _need(isinstance(suit, str) and len(suit) == 1 and suit in SUITS, "memory aid")
    _four_card_lists(memory.get("exposed_out"), 4, "memory aid")
    _cards(memory.get("points_out"), 16, "memory aid")


def _result(value: object) -> None:
    if value is None:
        return
    result = _dict(value, "result")
    _four_numbers(result.get("totals"), "result")
    ranking = _list(result.get("ranking"), "result", 4)
    _need(all(_seat(seat) for seat in ranking) and sorted(ranking) == [0, 1, 2, 3], "result")
    _need(_seat(result.get("winner")), "result")
    for seat in _list(result.get("eliminated") or [], "result", 4):
        _need(_seat(seat), "result")


def _history(value: object) -> None:
    """The match's finished hands (the chart): ``{number, scores, totals}`` each."""
    for item in _list(value, "history", MAX_HANDS):
        record = _dict(item, "history")
        _need(_int(record.get("number"), 1, MAX_HANDS), "history")
        _four_numbers(record.get("totals"), "history")


#: The table facts the drawing reads (``gongzhu.table_view``). A save from before one of them was
#: sent lacks it: it stays resumable, but it is not drawn before the engine has checked it (the
#: engine's answer carries them all).
FACTS = ("actions", "exposed_held", "exposures", "refusals", "expose_refusals", "point_cards", "memory")
#: The actions whose refusal ``actions`` holds.
ACTIONS = ("expose", "play", "next_hand")


def drawable(view: "dict[str, Any]") -> bool:
    """True when ``view`` (which passed :func:`check_view`) holds every fact the drawing reads."""
    return all(fact in view for fact in FACTS)


def _actions(value: object) -> None:
    actions = _dict(value, "actions")
    _need(len(actions) == len(ACTIONS), "actions")
    for name in ACTIONS:
        _need(name in actions, "actions")
        refusal = actions[name]
        _need(refusal is None or isinstance(_dict(refusal, "actions").get("reason"), str), "actions")


def _exposures(value: object) -> None:
    for item in _list(value, "exposures", 16):
        exposure = _dict(item, "exposures")
        _need(_seat(exposure.get("seat")) and is_card(exposure.get("card")), "exposures")
        _need(isinstance(exposure.get("effect"), str), "exposures")


def _rules(value: object, what: str) -> None:
    """The match's rules, or those that differ from the defaults (``gongzhu.house_rules``): at most
    the four rules, each named by a string (the tokens themselves are checked by ``_walk``)."""
    rules = _dict(value, what)
    _need(len(rules) <= 4 and all(isinstance(v, str) for v in rules.values()), what)


#: What each phase is drawn from, beyond the fields every view has: a hand summary from the last
#: hand, the match result from the result and the last hand.
PHASE_NEEDS = {
    "expose": (),
    "play": ("turn",),
    "hand_over": ("last_hand",),
    "match_over": ("result", "last_hand"),
}


def check_view(value: object) -> None:
    """Raise :class:`ShapeError` unless ``value`` (seat 0's view, from storage) is safe to draw."""
    view = _dict(value, "not a view")
    _walk(view, 0, 0)
    _need(view.get("phase") in PHASES, "phase")
    _need(_int(view.get("hand_number"), 1, MAX_HANDS), "hand number")
    _cards(view.get("hand"), 13, "hand")
    _four_numbers(view.get("hand_sizes"), "hand sizes", 0, 13)
    _four_numbers(view.get("totals"), "totals")
    _four_numbers(view.get("hand_scores"), "hand scores")
    _cards(view.get("exposable"), 4, "exposable")
    if view.get("my_expose") is not None:
        _cards(view["my_expose"], 4, "my exposure")
    _four_card_lists(view.get("exposed"), 4, "exposed")
    _four_card_lists(view.get("captured"), 52, "captured")
    for trick in _list(view.get("tricks"), "tricks", 13):
        _trick(trick, "tricks")
    _trick(view.get("trick"), "trick")
    _need(_seat(view.get("turn"), True), "turn")
    _need(_seat(view.get("threat"), True), "threat")
    _refusals(view.get("refusals"))
    if "expose_refusals" in view:  # (the table facts: a save from an older version may lack them)
        _refusals(view["expose_refusals"])
    if "point_cards" in view:
        _four_card_lists(view["point_cards"], 52, "point cards")
    for code in _dict(view.get("exposable_effects", {}), "exposable effects"):
        _need(is_card(code), "exposable effects")
    if "memory" in view:  # (a save from an older version lacks it)
        _memory(view["memory"])
    if "actions" in view:
        _actions(view["actions"])
    if "exposed_held" in view:
        _four_card_lists(view["exposed_held"], 4, "exposed held")
    if "exposures" in view:
        _exposures(view["exposures"])
    for field in ("rules", "house_rules"):
        if field in view:  # (a save from before house rules lacks them: the default rules)
            _rules(view[field], field.replace("_", " "))
    _last_hand(view.get("last_hand"))
    _result(view.get("result"))
    _history(view.get("history", []))
    for field in PHASE_NEEDS[view["phase"]]:
        _need(view.get(field) is not None, view["phase"] + " without " + field)
