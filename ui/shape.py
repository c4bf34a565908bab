"""The strict shape check of a saved table, before the engine has seen it (pure, unit-tested).

What storage holds is never trusted. Until the engine worker has re-checked a resumed match (its
answer then replaces the saved view), the page may draw the saved view only once it passed
:func:`check_view`: every string in it is a short token (a card code, a phase, a reason code,
never text or markup), every card one of the 52 codes, every seat 0–3, every number a number, every
list and the whole of it bounded. Other tabs' saves (``storage`` events) go through it too.
"""

RANKS = "23456789TJQKA"
SUITS = "SHDC"
PHASES = ("expose", "play", "hand_over", "match_over")
SEATS = (0, 1, 2, 3)
#: The longest string a view may hold anywhere (a token such as ``must_follow_suit``).
MAX_TOKEN = 40
#: How many values (strings, numbers, lists, dicts) a view may hold in all; a real one holds ~1,500.
MAX_NODES = 20000
#: How deep a view may nest (a real one: view > last_hand > breakdowns > [seat] > field).
MAX_DEPTH = 8
#: Hands recorded in the match history (a match ends long before).
MAX_HANDS = 500
#: The biggest score a view may hold (a hand scores at most a few thousand points).
MAX_POINTS = 10**9


class ShapeError(ValueError):
    """A saved view that may not be drawn; the message says what is wrong."""


def is_card(code):
    """True for one of the 52 card codes (``QS``, ``TC``)."""
    return isinstance(code, str) and len(code) == 2 and code[0] in RANKS and code[1] in SUITS


def _token(text):
    if len(text) > MAX_TOKEN:
        return False
    for char in text:
        if not (char.isalpha() or char.isdigit() or char == "_") or ord(char) > 127:
            return False
    return True


def _walk(value, depth, count):
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


def _need(ok, what):
    if not ok:
        raise ShapeError(what)


def _int(value, low, high):
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _seat(value, optional=False):
    return (optional and value is None) or _int(value, 0, 3)


def _cards(value, most, what):
    _need(isinstance(value, list) and len(value) <= most, what)
    for code in value:
        _need(is_card(code), what)
    _need(len(set(value)) == len(value), what)


def _four_numbers(value, what, low=-MAX_POINTS, high=MAX_POINTS):
    _need(isinstance(value, list) and len(value) == 4, what)
    for number in value:
        _need(_int(number, low, high), what)


def _four_card_lists(value, most, what):
    _need(isinstance(value, list) and len(value) == 4, what)
    for cards in value:
        _cards(cards, most, what)


def _trick(trick, what):
    _need(isinstance(trick, dict) and isinstance(trick.get("plays"), list), what)
    _need(len(trick["plays"]) <= 4 and _seat(trick.get("winner"), True), what)
    for play in trick["plays"]:
        _need(isinstance(play, dict) and _seat(play.get("seat")) and is_card(play.get("card")), what)


def _refusals(value):
    _need(isinstance(value, dict) and len(value) <= 13, "refusals")
    for code in value:
        refusal = value[code]
        _need(is_card(code), "refusals")
        if refusal is not None:
            _need(isinstance(refusal, dict) and isinstance(refusal.get("reason"), str), "refusals")
            for key in ("card", "suit"):
                _need(refusal.get(key) is None or isinstance(refusal.get(key), str), "refusals")


def _last_hand(last):
    if last is None:
        return
    _need(isinstance(last, dict) and _int(last.get("number"), 1, MAX_HANDS), "last hand")
    _four_numbers(last.get("totals"), "last hand")
    breakdowns = last.get("breakdowns")
    _need(isinstance(breakdowns, list) and len(breakdowns) == 4, "last hand")
    for b in breakdowns:
        _need(isinstance(b, dict), "last hand")
        for key in ("hearts", "pig", "goat", "transformer_bonus", "score"):
            _need(_int(b.get(key), -MAX_POINTS, MAX_POINTS), "last hand")
        for key in ("hearts_multiplier", "pig_multiplier", "goat_multiplier", "transformer_multiplier"):
            _need(_int(b.get(key, 1), 1, 8), "last hand")
        _need(b.get("transformer") in ("none", "alone", "multiplier"), "last hand")


def _result(result):
    if result is None:
        return
    _need(isinstance(result, dict), "result")
    _four_numbers(result.get("totals"), "result")
    ranking = result.get("ranking")
    _need(isinstance(ranking, list) and sorted(ranking) == [0, 1, 2, 3], "result")
    _need(_seat(result.get("winner")), "result")
    eliminated = result.get("eliminated") or []
    _need(isinstance(eliminated, list) and all(_seat(s) for s in eliminated), "result")


def check_view(view):
    """Raise :class:`ShapeError` unless ``view`` (seat 0's view, from storage) is safe to draw."""
    _need(isinstance(view, dict), "not a view")
    _walk(view, 0, 0)
    _need(view.get("phase") in PHASES, "phase")
    _need(_int(view.get("hand_number"), 1, MAX_HANDS), "hand number")
    _cards(view.get("hand"), 13, "hand")
    _four_numbers(view.get("hand_sizes"), "hand sizes", 0, 13)
    _four_numbers(view.get("totals"), "totals")
    _four_numbers(view.get("hand_scores"), "hand scores")
    _cards(view.get("exposable"), 4, "exposable")
    _need(view.get("my_expose") is None or isinstance(view.get("my_expose"), list), "my exposure")
    if view.get("my_expose") is not None:
        _cards(view["my_expose"], 4, "my exposure")
    _four_card_lists(view.get("exposed"), 4, "exposed")
    _four_card_lists(view.get("captured"), 52, "captured")
    tricks = view.get("tricks")
    _need(isinstance(tricks, list) and len(tricks) <= 13, "tricks")
    for trick in tricks:
        _trick(trick, "tricks")
    _trick(view.get("trick"), "trick")
    _need(_seat(view.get("turn"), True), "turn")
    _need(view["phase"] != "play" or view["turn"] is not None, "turn")
    _need(_seat(view.get("threat"), True), "threat")
    _refusals(view.get("refusals"))
    _last_hand(view.get("last_hand"))
    _result(view.get("result"))
    history = view.get("history", [])
    _need(isinstance(history, list) and len(history) <= MAX_HANDS, "history")
