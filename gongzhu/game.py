"""The game state and its transitions: deal, expose, play, hand scoring and the match.

The state is a plain JSON-serialisable ``dict`` (see :func:`new_match`).  :func:`apply` takes a
state and an action and returns a new state, or a :class:`~gongzhu.rules.Refusal` and leaves the
state untouched.  :func:`view_for` is everything one seat may know; bots, the UI and hints only
ever see a view.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypedDict

from .cards import EXPOSABLE_MASK, HEARTS_MASK, INDEX, PIG, POINT_MASK, to_codes, to_mask
from .house_rules import DEFAULT_RULES, Rules, rules_from_json
from .rng import SplitMix64, deal_seed, shuffled
from .rules import Reason, Refusal, legal_mask, play_refusal, trick_winner
from .scoring import Breakdown, hearts_flip, score_breakdown

# (re-exported: gongzhu.ai.match and gongzhu.MAX_SEED read them here)
from .vocab import ELIMINATION as ELIMINATION
from .vocab import MAX_SEED as MAX_SEED

#: 2: the match's house rules (``rules``) joined the state; a schema-1 state is the default rules
#: (:func:`gongzhu.state_check.upgrade_state` adds them).
SCHEMA_VERSION = 2
State = dict[str, Any]
View = dict[str, Any]  # what one seat may know (see view_for); the one definition of the type
Action = dict[str, Any]


class InvalidSeed(ValueError):
    """A match seed that is not an integer from −:data:`MAX_SEED` to :data:`MAX_SEED`."""

    def __init__(self, seed: object) -> None:
        text = repr(seed) if len(repr(seed)) <= 40 else repr(seed)[:37] + "..."
        super().__init__(f"seed {text} is not an integer from -{MAX_SEED} to {MAX_SEED}")
        self.seed = seed

    def __reduce__(self) -> tuple[type[InvalidSeed], tuple[object]]:
        # Rebuilt from the seed, not the message, when it crosses a process pool.
        return (InvalidSeed, (self.seed,))


def check_seed(seed: object) -> int:
    """``seed`` when it is a match seed the engine takes, else :class:`InvalidSeed`."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not -MAX_SEED <= seed <= MAX_SEED:
        raise InvalidSeed(seed)
    return seed


class MatchResult(TypedDict):
    complete: bool
    totals: list[int]
    ranking: list[int]
    winner: int
    eliminated: list[int]


# --- construction ---------------------------------------------------------------------------


def _no_hand_yet(seed: int, rules: Rules) -> State:
    """A match of ``seed`` (checked: :class:`InvalidSeed`) under ``rules`` before its first hand."""
    return {
        "schema": SCHEMA_VERSION,
        "seed": check_seed(seed),
        "rules": rules.to_json(),
        "hand_number": 0,
        "totals": [0, 0, 0, 0],
        "history": [],
        "last_hand": None,
        "result": None,
    }


def new_match(seed: int, rules: Rules = DEFAULT_RULES) -> State:
    """A new match with hand 1 dealt and in its expose phase (:class:`InvalidSeed` for a bad seed);
    with ``exposing=off`` the hand starts in its play phase."""
    state = _no_hand_yet(seed, rules)
    start_hand(state, 1, leader=None)
    return state


class InvalidDeal(ValueError):
    """A deal that is not the 52 cards, 13 to each of the four seats (the message says what is wrong)."""


def check_deal(deal: object) -> list[list[str]]:
    """``deal`` (four lists of card codes) as four sorted hands when it deals the 52 distinct cards,
    13 to each seat, else :class:`InvalidDeal`."""
    if not isinstance(deal, list | tuple) or len(deal) != 4:
        raise InvalidDeal("a deal is four hands")
    seen: set[str] = set()
    for seat, hand in enumerate(deal):
        if not isinstance(hand, list | tuple) or len(hand) != 13:
            raise InvalidDeal(f"seat {seat} does not hold 13 cards")
        for card in hand:
            if not isinstance(card, str) or card not in INDEX:
                raise InvalidDeal(f"seat {seat} holds {str(card)[:8]!r}, which is no card")
            if card in seen:
                raise InvalidDeal(f"{card} is dealt twice")
            seen.add(card)
    return [to_codes(to_mask(hand)) for hand in deal]


def match_from_deal(
    seed: int,
    deal: object,
    rules: Rules = DEFAULT_RULES,
    leader: int = 0,
    history: Sequence[Sequence[int]] = (),
) -> State:
    """A match whose current hand is ``deal`` (checked: :class:`InvalidDeal`), led by ``leader``,
    after earlier hands that scored ``history`` (one list of four hand scores each): the lessons'
    tables (:mod:`gongzhu.lessons`). ``seed`` seeds the opponents and the hints, as for any match."""
    hands = check_deal(deal)
    if type(leader) is not int or not 0 <= leader < 4:
        raise InvalidDeal(f"leader {leader!r} is not a seat")
    state = _no_hand_yet(seed, rules)
    for number, scores in enumerate(history, start=1):
        state["totals"] = [t + int(s) for t, s in zip(state["totals"], scores, strict=True)]
        state["history"].append({"number": number, "scores": list(scores), "totals": list(state["totals"])})
    start_hand(state, len(state["history"]) + 1, leader, hands)
    return state


def deal_hands(seed: int, hand_number: int) -> list[list[str]]:
    """The four 13-card hands of one hand of the match, each sorted by suit and rank."""
    order = shuffled(list(range(52)), SplitMix64(deal_seed(seed, hand_number)))
    return [to_codes(sum(1 << c for c in order[13 * s : 13 * s + 13])) for s in range(4)]


def rules_of(source: State | View) -> Rules:
    """The house rules of a state or a view (none recorded: the defaults)."""
    return rules_from_json(source.get("rules"))


def start_hand(
    state: State, hand_number: int, leader: int | None, hands: list[list[str]] | None = None
) -> None:
    """Deal hand ``hand_number`` into ``state`` (``hands``: a deal :func:`check_deal` accepted, else
    the seed's), in its expose phase (``leader`` None: the holder of the rules' first-lead card);
    with ``exposing=off`` nobody exposes and play starts at once."""
    rules = rules_of(state)
    if hands is None:
        hands = deal_hands(state["seed"], hand_number)
    if leader is None:
        leader = next(s for s in range(4) if rules.first_lead in hands[s])
    state.update(
        hand_number=hand_number,
        phase="expose",
        deal=[list(h) for h in hands],
        hands=hands,
        expose_choices=[None if to_mask(h) & EXPOSABLE_MASK else [] for h in hands],
        exposed=[[], [], [], []],
        leader=leader,
        tricks=[],
        trick={"leader": leader, "plays": []},
        turn=None,
        captured=[[], [], [], []],
    )
    if not rules.exposing_on:
        state.update(expose_choices=[[], [], [], []], phase="play", turn=leader)


# --- queries --------------------------------------------------------------------------------


def exposable_cards(hand: list[str]) -> list[str]:
    """The cards of a hand that may be exposed (AH, QS, JD, TC), in hand order."""
    return to_codes(to_mask(hand) & EXPOSABLE_MASK)


def _led_before(tricks: list[dict[str, Any]]) -> int:
    led = 0
    for trick in tricks:
        led |= 1 << (INDEX[trick["plays"][0]["card"]] // 13)
    return led


def _play_context(hand: list[str], exposed: list[str], tricks: list[Any], trick: Any) -> tuple[int, ...]:
    plays = trick["plays"]
    lead_suit = INDEX[plays[0]["card"]] // 13 if plays else -1
    return to_mask(hand), to_mask(exposed), _led_before(tricks), lead_suit


def _seat_context(source: State | View, seat: int) -> tuple[int, ...]:
    """Masks for the rules functions, from a state or from that seat's own view."""
    hand = source["hands"][seat] if "hands" in source else source["hand"]
    return _play_context(hand, source["exposed"][seat], source["tricks"], source["trick"])


def legal_plays(source: State | View, seat: int) -> list[str]:
    """Cards ``seat`` may play now (empty when it is not that seat's turn to play)."""
    if source["phase"] != "play" or source["turn"] != seat:
        return []
    return to_codes(legal_mask(*_seat_context(source, seat)))


def play_turn_refusal(view: View) -> Refusal | None:
    """Why the viewing seat may not play any card now (not the play phase, not its turn), or None."""
    if view["phase"] != "play":
        return Refusal(Reason.WRONG_PHASE)
    if view["turn"] != view["seat"]:
        return Refusal(Reason.NOT_YOUR_TURN)
    return None


def card_refusals(view: View) -> dict[str, Refusal | None]:
    """For each card of the viewing seat's hand: None if playable now, else why not."""
    seat = view["seat"]
    refusal = play_turn_refusal(view)
    if refusal is not None:
        return {c: Refusal(refusal.reason, c) for c in view["hand"]}
    context = _seat_context(view, seat)
    return {c: play_refusal(INDEX[c], *context) for c in view["hand"]}


def hand_breakdowns(
    captured: list[list[str]], exposed: list[list[str]], rules: Rules = DEFAULT_RULES
) -> list[Breakdown]:
    all_exposed = to_mask(c for cards in exposed for c in cards)
    masks = [to_mask(cards) for cards in captured]
    flipped = hearts_flip(rules, masks)
    return [score_breakdown(mask, all_exposed, flipped) for mask in masks]


def point_cards(cards: list[str]) -> list[str]:
    """The point cards among ``cards`` (hearts, QS, JD, TC), in display order."""
    return to_codes(to_mask(cards) & POINT_MASK)


def all_hearts_threat(captured: list[list[str]]) -> int | None:
    """The seat that has taken every heart taken so far (at least one), else None."""
    takers = [seat for seat in range(4) if to_mask(captured[seat]) & HEARTS_MASK]
    return takers[0] if len(takers) == 1 else None


def pig_taker(captured: list[list[str]]) -> int | None:
    """The seat that captured the pig (QS) this hand, if it has fallen."""
    return next((seat for seat in range(4) if PIG in captured[seat]), None)


def match_winner(totals: Sequence[int], rules: Rules = DEFAULT_RULES, hands_played: int = 0) -> int | None:
    """The winner when these totals, after ``hands_played`` hands, end the match, else None: someone
    at the rules' elimination total or less (−1000 by default), or the rules' number of hands played,
    and in both cases one leader alone. Cheap: Hard's match objective calls it for every world."""
    top = max(totals)
    limit = rules.elimination
    if limit is None:
        if hands_played < (rules.hands or 0):
            return None
    elif min(totals) > limit:
        return None
    if list(totals).count(top) != 1:
        return None
    return list(totals).index(top)


def match_result(
    totals: list[int], rules: Rules = DEFAULT_RULES, hands_played: int = 0
) -> MatchResult | None:
    """The result when these totals end the match (:func:`match_winner`); ``eliminated``: the
    seats at or below the elimination total (none in a match of a fixed number of hands)."""
    if match_winner(totals, rules, hands_played) is None:
        return None
    ranking = sorted(range(4), key=lambda s: (-totals[s], s))
    limit = rules.elimination
    return MatchResult(
        complete=True,
        totals=list(totals),
        ranking=ranking,
        winner=ranking[0],
        eliminated=[s for s in range(4) if limit is not None and totals[s] <= limit],
    )


def view_for(state: State, seat: int) -> View:
    """Exactly what ``seat`` may know: its own hand, never another's, and no deal seed."""
    in_expose = state["phase"] == "expose"
    choice = state["expose_choices"][seat]
    hand = list(state["hands"][seat])
    view: View = {
        "schema": SCHEMA_VERSION,
        "seat": seat,
        "rules": rules_of(state).to_json(),
        "phase": state["phase"],
        "hand_number": state["hand_number"],
        "totals": list(state["totals"]),
        "hand": hand,
        "hand_sizes": [len(h) for h in state["hands"]],
        "exposable": exposable_cards(hand) if in_expose and choice is None else [],
        "my_expose": list(choice) if in_expose and choice is not None else None,
        "exposed": [list(e) for e in state["exposed"]],
        "leader": state["leader"],
        "tricks": _copy(state["tricks"]),
        "trick": _copy(state["trick"]),
        "turn": state["turn"],
        "captured": [list(c) for c in state["captured"]],
        "hand_scores": [
            b["score"] for b in hand_breakdowns(state["captured"], state["exposed"], rules_of(state))
        ],
        "last_hand": _copy(state["last_hand"]),
        "history": _copy(state["history"]),
        "result": _copy(state["result"]),
    }
    view["legal"] = legal_plays(view, seat)
    return view


# --- transitions ----------------------------------------------------------------------------


def check_action(state: State, action: Action) -> Refusal | None:
    """Why ``action`` is refused in ``state``, or None when it is allowed."""
    kind = action.get("type")
    if kind == "next_hand":
        over = state["phase"] == "hand_over" and pig_taker(state["captured"]) is not None
        return None if over else Refusal(Reason.WRONG_PHASE)
    seat = action.get("seat")
    if kind not in ("expose", "play") or type(seat) is not int or not 0 <= seat < 4:
        return Refusal(Reason.BAD_ACTION)
    if kind == "expose":
        return _check_expose(state, seat, action.get("cards"))
    return _check_play(state, seat, action.get("card"))


def _check_expose(state: State, seat: int, cards: Any) -> Refusal | None:
    if state["phase"] != "expose":
        return Refusal(Reason.WRONG_PHASE)
    if state["expose_choices"][seat] is not None:
        return Refusal(Reason.ALREADY_DECIDED)
    if (
        not isinstance(cards, list)
        or not all(isinstance(c, str) for c in cards)
        or len(set(cards)) != len(cards)
    ):
        return Refusal(Reason.BAD_ACTION)
    for card in cards:
        if card not in INDEX:
            return Refusal(Reason.UNKNOWN_CARD, str(card))
        if card not in state["hands"][seat]:
            return Refusal(Reason.NOT_IN_HAND, card)
        if not (1 << INDEX[card]) & EXPOSABLE_MASK:
            return Refusal(Reason.NOT_EXPOSABLE, card)
    return None


def _check_play(state: State, seat: int, card: Any) -> Refusal | None:
    if state["phase"] != "play":
        return Refusal(Reason.WRONG_PHASE)
    if not isinstance(card, str) or card not in INDEX:
        return Refusal(Reason.UNKNOWN_CARD, str(card))
    if state["turn"] != seat:
        return Refusal(Reason.NOT_YOUR_TURN, card)
    if card not in state["hands"][seat]:
        return Refusal(Reason.NOT_IN_HAND, card)
    return play_refusal(INDEX[card], *_seat_context(state, seat))


def apply(state: State, action: Action) -> State | Refusal:
    """The state after ``action``, or why it is refused (``state`` itself is never changed)."""
    refusal = check_action(state, action)
    if refusal is not None:
        return refusal
    new: State = _copy(state)
    kind = action["type"]
    if kind == "expose":
        _expose(new, action["seat"], action["cards"])
    elif kind == "play":
        _play(new, action["seat"], action["card"])
    else:
        start_hand(new, new["hand_number"] + 1, leader=pig_taker(new["captured"]))
    return new


def _expose(state: State, seat: int, cards: list[str]) -> None:
    state["expose_choices"][seat] = [c for c in state["hands"][seat] if c in cards]
    if all(choice is not None for choice in state["expose_choices"]):
        state["exposed"] = [list(choice) for choice in state["expose_choices"]]
        state["phase"] = "play"
        state["turn"] = state["leader"]


def _play(state: State, seat: int, card: str) -> None:
    state["hands"][seat].remove(card)
    trick = state["trick"]
    trick["plays"].append({"seat": seat, "card": card})
    if len(trick["plays"]) < 4:
        state["turn"] = (seat + 1) % 4
        return
    winner = trick_winner([(p["seat"], INDEX[p["card"]]) for p in trick["plays"]])
    trick["winner"] = winner
    state["tricks"].append(trick)
    state["captured"][winner] = to_codes(
        to_mask(state["captured"][winner] + [p["card"] for p in trick["plays"]])
    )
    state["trick"] = {"leader": winner, "plays": []}
    state["turn"] = winner
    if len(state["tricks"]) == 13:
        _finish_hand(state)


def _finish_hand(state: State) -> None:
    """Score the hand and keep its summary (``last_hand``) for the next: its record, breakdowns,
    exposures and its 13 tricks, the plays every seat saw (so every view may carry them)."""
    rules = rules_of(state)
    breakdowns = hand_breakdowns(state["captured"], state["exposed"], rules)
    scores = [b["score"] for b in breakdowns]
    state["totals"] = [t + s for t, s in zip(state["totals"], scores, strict=True)]
    record = {"number": state["hand_number"], "scores": scores, "totals": list(state["totals"])}
    state["history"].append(record)
    state["last_hand"] = dict(
        record, breakdowns=breakdowns, exposed=_copy(state["exposed"]), tricks=_copy(state["tricks"])
    )
    state["turn"] = None
    state["result"] = match_result(state["totals"], rules, state["hand_number"])
    state["phase"] = "match_over" if state["result"] else "hand_over"


class IllegalAction(ValueError):
    """Raised by :func:`apply_legal` for an action the rules refuse; ``refusal`` says why."""

    def __init__(self, action: Action, refusal: Refusal) -> None:
        super().__init__(f"action {action!r} refused: {refusal.reason.value}")
        self.action = action
        self.refusal = refusal

    def __reduce__(self) -> tuple[type[IllegalAction], tuple[Action, Refusal]]:
        # Rebuilt from its parts, not the message, when it crosses a process pool.
        return (IllegalAction, (self.action, self.refusal))


def apply_legal(state: State, action: Action) -> State:
    """:func:`apply` for callers that only send legal actions: a refusal raises :class:`IllegalAction`."""
    result = apply(state, action)
    if isinstance(result, Refusal):
        raise IllegalAction(action, result)
    return result


def replay(seed: int, actions: list[Action], rules: Rules = DEFAULT_RULES) -> State:
    """The state reached from a new match with ``seed`` and ``rules`` by ``actions`` (all must be legal)."""
    state = new_match(seed, rules)
    for action in actions:
        state = apply_legal(state, action)
    return state


def _copy(value: Any) -> Any:
    """Deep copy of plain JSON data (dicts, lists and scalars only)."""
    if isinstance(value, dict):
        return {key: _copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_copy(item) for item in value]
    return value
