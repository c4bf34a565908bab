"""Is a state one this engine can reach by legal play?  The check a resumed save must pass.

A state is valid only when it is reachable from its seed under its house rules (``rules``, known
values only: :mod:`gongzhu.house_rules`).  The current hand is replayed from its
deal — the expose choices, then every play in order, each through :func:`~gongzhu.game.apply` — and
the result must equal the state exactly, field for field and JSON type for JSON type.  So the
phase, the turn, the captures, the trick winners, the hand's record and the match result are all
recomputed, never trusted.

Earlier hands are stored only as history records (their plays are not kept), so they are checked
as far as the stored data allows: numbering, running totals, that no earlier hand ended the match.
The hand just before the current one keeps a summary (``last_hand``) with its 13 tricks, the public
record of its plays: that hand is replayed like the current one — from its deal, its exposures and
these plays — and must give exactly the stored tricks, breakdowns and scores.  Its leader is the
first-lead holder for hand 1, otherwise the leader of its first trick (the hand before it left no
summary to trace it to).  Any fault there, an illegal play included, is :attr:`Problem.LAST_HAND`:
the code says which part of the save is wrong.  A summary saved before the tricks were kept has
``tricks`` empty (:func:`upgrade_state`): then only its exposures (from that hand's deal) and its
breakdowns (each one the scoring rules produce) are checked.  The summary names the pig taker, who
leads the current hand.  Once the current hand is over its own leader can no longer be traced back
(the summary now describes this hand), so only the plays are checked against it; the summary, its
tricks included, is then recomputed by the replay.
"""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Any

from .cards import EXPOSABLE_MASK, GOAT_BIT, HEARTS_MASK, INDEX, PIG_BIT, POINT_MASK, TRANSFORMER_BIT, to_mask
from .game import (
    SCHEMA_VERSION,
    Action,
    InvalidSeed,
    State,
    apply,
    check_seed,
    deal_hands,
    match_result,
    start_hand,
)
from .house_rules import DEFAULT_RULES, Rules, RulesError, rules_from_json
from .rules import Refusal
from .scoring import HEART_VALUES, exposure_effects, score_breakdown
from .vocab import PHASES

#: No hand scores beyond this either way (all 16 point cards with every card exposed: +3200).
MAX_HAND_SCORE = 3200
_RECORD_KEYS = {"number", "scores", "totals"}
_LAST_HAND_KEYS = _RECORD_KEYS | {"breakdowns", "exposed", "tricks"}
# heart values from the biggest penalty down, for rebuilding a set of hearts of a given value
_VALUED_HEARTS = sorted((c for c, v in HEART_VALUES.items() if v), key=lambda c: HEART_VALUES[c])


class Problem(StrEnum):
    """What is wrong with a state (codes: the UI chooses its notice from them)."""

    SHAPE = "shape"  # not a state object, or a field of the wrong JSON type or size
    SCHEMA = "schema"  # a state schema this engine does not know
    RULES = "rules"  # house rules this engine does not know
    SEED = "seed"  # not an integer within ±MAX_SEED
    HISTORY = "history"  # earlier hands' records: numbering, running totals, an earlier end of match
    LAST_HAND = "last_hand"  # the previous hand's summary: not its deal, its legal play or its scoring
    ILLEGAL_ACTION = "illegal_action"  # an expose choice or a play the rules refuse
    MISMATCH = "mismatch"  # legal play from the seed does not lead to this state


class InvalidState(ValueError):
    """A state no legal play reaches; ``code`` says which check failed."""

    def __init__(self, code: Problem, detail: str) -> None:
        super().__init__(f"{code.value}: {detail}")
        self.code = code
        self.detail = detail


def validate_state(state: object) -> None:
    """Raise :class:`InvalidState` unless ``state`` is reachable by legal play from its seed."""
    try:
        replayed = reachable_state(state)
        assert isinstance(state, dict)  # reachable_state checked it
        if _canonical(replayed) != _canonical(state):
            keys = set(replayed) | set(state)
            differing = sorted(k for k in keys if _canonical(replayed.get(k)) != _canonical(state.get(k)))
            raise InvalidState(
                Problem.MISMATCH, f"legal play from the seed gives other {', '.join(differing)}"
            )
    except InvalidState:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, RecursionError) as exc:
        raise InvalidState(Problem.SHAPE, f"{type(exc).__name__}: {_short(str(exc))}") from exc


def check_reached(start: State, state: object) -> State:
    """``state`` when legal play from ``start`` (a table built apart: a lesson's, :mod:`gongzhu.lessons`)
    with ``state``'s own expose choices and plays reaches exactly it, else :class:`InvalidState`."""
    try:
        if not isinstance(state, dict):
            raise InvalidState(Problem.SHAPE, "a state is a JSON object")
        replayed = _replay_hand(start, state)
        if _canonical(replayed) != _canonical(state):
            keys = set(replayed) | set(state)
            differing = sorted(k for k in keys if _canonical(replayed.get(k)) != _canonical(state.get(k)))
            raise InvalidState(
                Problem.MISMATCH, f"legal play from the table gives other {', '.join(differing)}"
            )
    except InvalidState:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, RecursionError) as exc:
        raise InvalidState(Problem.SHAPE, f"{type(exc).__name__}: {_short(str(exc))}") from exc
    return replayed


def upgrade_state(state: object) -> object:
    """A state saved by an earlier release, in today's shape: a schema-1 state is played by the
    default rules (schema 2 records them); hand breakdowns gained ``exposure_effects``; the hand
    summary gained ``tricks`` (its plays: not kept before, ``[]``; but a finished current hand still
    holds them in ``tricks``, which its summary describes).  Anything it does not recognise comes
    back unchanged, for :func:`validate_state` to judge; the input is never modified."""
    if isinstance(state, dict) and type(state.get("schema")) is int and state["schema"] == 1:
        state = {**state, "schema": SCHEMA_VERSION, "rules": DEFAULT_RULES.to_json()}
    last = state.get("last_hand") if isinstance(state, dict) else None
    if not isinstance(last, dict):
        return state
    assert isinstance(state, dict)
    if "tricks" not in last:
        over = state.get("phase") in ("hand_over", "match_over") and isinstance(state.get("tricks"), list)
        last = {**last, "tricks": json.loads(json.dumps(state["tricks"])) if over else []}
        state = {**state, "last_hand": last}
    if not isinstance(last.get("breakdowns"), list):
        return state
    try:
        exposed = to_mask(c for cards in last["exposed"] for c in cards)
    except (KeyError, TypeError):
        return state
    breakdowns = [
        dict(
            b,
            exposure_effects=exposure_effects(
                exposed, b.get("hearts", 0), b.get("pig", 0), b.get("goat", 0), b.get("transformer", "none")
            ),
        )
        if isinstance(b, dict) and "exposure_effects" not in b
        else b
        for b in last["breakdowns"]
    ]
    return {**state, "last_hand": {**last, "breakdowns": breakdowns}}


def reachable_state(state: object) -> State:
    """The state legal play from ``state``'s seed reaches with ``state``'s own choices and plays."""
    if not isinstance(state, dict):
        raise InvalidState(Problem.SHAPE, "a state is a JSON object")
    schema = state.get("schema")
    if type(schema) is not int or schema != SCHEMA_VERSION:
        raise InvalidState(Problem.SCHEMA, f"schema {schema!r} is not {SCHEMA_VERSION}")
    try:
        seed = check_seed(state.get("seed"))
    except InvalidSeed as exc:
        raise InvalidState(Problem.SEED, str(exc)) from exc
    if not isinstance(state.get("rules"), dict):
        raise InvalidState(Problem.RULES, "the match's rules are missing")
    try:
        rules = rules_from_json(state["rules"])
    except RulesError as exc:
        raise InvalidState(Problem.RULES, str(exc)) from exc
    number = state.get("hand_number")
    phase = state.get("phase")
    if type(number) is not int or number < 1 or phase not in PHASES:
        raise InvalidState(Problem.SHAPE, f"hand {number!r} in phase {phase!r}")
    over = phase in ("hand_over", "match_over")
    history = _history(state.get("history"), number if over else number - 1, rules)
    earlier = history[:-1] if over else history
    if not over and earlier and match_result(earlier[-1]["totals"], rules, len(earlier)) is not None:
        raise InvalidState(Problem.HISTORY, f"the match ended before hand {number}")
    start = _match_after(seed, rules, earlier)
    leader: int | None = None
    if number > 1 and not over:
        start["last_hand"] = _previous_hand(state.get("last_hand"), seed, earlier, rules)
        leader = next(s for s, b in enumerate(start["last_hand"]["breakdowns"]) if b["pig"])
    elif number > 1:
        leader = state.get("leader")
        if type(leader) is not int or not 0 <= leader < 4:
            raise InvalidState(Problem.SHAPE, f"leader {leader!r} is not a seat")
    start_hand(start, number, leader)
    return _replay_hand(start, state)


def _match_after(seed: int, rules: Rules, earlier: list[dict[str, Any]]) -> State:
    """The match after the hands whose records are ``earlier`` (checked), before the next is dealt
    (:func:`~gongzhu.game.start_hand` deals it; a previous hand's summary is the caller's to add)."""
    return {
        "schema": SCHEMA_VERSION,
        "seed": seed,
        "rules": rules.to_json(),
        "hand_number": len(earlier),
        "totals": list(earlier[-1]["totals"]) if earlier else [0, 0, 0, 0],
        "history": json.loads(json.dumps(earlier)),
        "last_hand": None,
        "result": None,
    }


def _replay_hand(start: State, state: dict[str, Any]) -> State:
    choices = state.get("expose_choices")
    if not isinstance(choices, list) or len(choices) != 4:
        raise InvalidState(Problem.SHAPE, "expose_choices is not one entry per seat")
    current = start
    for seat, choice in enumerate(choices):
        if choice is not None and current["expose_choices"][seat] is None:
            current = _act(current, {"type": "expose", "seat": seat, "cards": choice})
    for play in _plays(state):
        current = _act(current, {"type": "play", "seat": play.get("seat"), "card": play.get("card")})
    return current


def _plays(state: dict[str, Any]) -> list[dict[str, Any]]:
    tricks, trick = state.get("tricks"), state.get("trick")
    if not isinstance(tricks, list) or not isinstance(trick, dict):
        raise InvalidState(Problem.SHAPE, "tricks is not a list or trick not an object")
    plays: list[dict[str, Any]] = []
    for t in [*tricks, trick]:
        if not isinstance(t, dict) or not isinstance(t.get("plays"), list):
            raise InvalidState(Problem.SHAPE, "a trick without its list of plays")
        for play in t["plays"]:
            if not isinstance(play, dict):
                raise InvalidState(Problem.SHAPE, f"play {play!r} is not an object")
            plays.append(play)
    if len(plays) > 52:
        raise InvalidState(Problem.SHAPE, "more than 52 plays")
    return plays


def _act(state: State, action: Action) -> State:
    result = apply(state, action)
    if isinstance(result, Refusal):
        raise InvalidState(Problem.ILLEGAL_ACTION, f"{_short(action)} is refused: {result.reason.value}")
    return result


def _history(records: object, count: int, rules: Rules) -> list[dict[str, Any]]:
    """The match's hand records, checked: ``count`` of them, numbered, with running totals."""
    if not isinstance(records, list) or len(records) != count:
        raise InvalidState(Problem.HISTORY, f"this point of the match needs {count} hand records")
    totals = [0, 0, 0, 0]
    for i, record in enumerate(records):
        if not isinstance(record, dict) or set(record) != _RECORD_KEYS or not _ints([record["number"]], 1):
            raise InvalidState(Problem.HISTORY, f"record {i + 1} is not a hand record")
        if record["number"] != i + 1:
            raise InvalidState(Problem.HISTORY, f"record {i + 1} is not a hand record")
        scores = record["scores"]
        if not _ints(scores, 4) or any(abs(s) > MAX_HAND_SCORE or s % 10 for s in scores):
            raise InvalidState(Problem.HISTORY, f"hand {i + 1} scores {_short(scores)} are not hand scores")
        if i > 0 and match_result(totals, rules, i) is not None:
            raise InvalidState(Problem.HISTORY, f"the match ended before hand {i + 1}")
        totals = [t + s for t, s in zip(totals, scores, strict=True)]
        if not _ints(record["totals"], 4) or record["totals"] != totals:
            raise InvalidState(Problem.HISTORY, f"hand {i + 1} totals are not the running sum")
    return records


def _previous_hand(last: object, seed: int, earlier: list[dict[str, Any]], rules: Rules) -> dict[str, Any]:
    """The previous hand's summary (``earlier[-1]`` its record), checked against its record and its
    deal, then replayed from its tricks or, when they were not kept, against the scoring rules."""
    if not isinstance(last, dict) or set(last) != _LAST_HAND_KEYS:
        raise InvalidState(Problem.LAST_HAND, "the previous hand's summary is missing or misshapen")
    record = earlier[-1]
    if _canonical({k: last[k] for k in _RECORD_KEYS}) != _canonical(record):
        raise InvalidState(Problem.LAST_HAND, "the previous hand's summary and its record disagree")
    exposed = last["exposed"]
    if not isinstance(exposed, list) or len(exposed) != 4:
        raise InvalidState(Problem.LAST_HAND, "exposed is not one list per seat")
    deal = deal_hands(seed, record["number"])
    for seat, cards in enumerate(exposed):
        held = [c for c in deal[seat] if (1 << INDEX[c]) & EXPOSABLE_MASK] if rules.exposing_on else []
        if not isinstance(cards, list) or cards != [c for c in held if c in cards]:
            raise InvalidState(Problem.LAST_HAND, f"seat {seat} could not expose {_short(cards)}")
    if not isinstance(last["tricks"], list):
        raise InvalidState(Problem.LAST_HAND, "the previous hand's tricks are not a list")
    if last["tricks"]:
        replayed = _replayed_summary(last, seed, earlier, rules)
        if _canonical(replayed) != _canonical(last):
            differing = sorted(k for k in last if _canonical(replayed.get(k)) != _canonical(last[k]))
            raise InvalidState(
                Problem.LAST_HAND, f"legal play of the previous hand gives other {', '.join(differing)}"
            )
    else:
        _check_breakdowns(last, rules)
    copy: dict[str, Any] = json.loads(json.dumps(last))
    return copy


def _replayed_summary(
    last: dict[str, Any], seed: int, earlier: list[dict[str, Any]], rules: Rules
) -> dict[str, Any]:
    """The summary that legal play of the previous hand gives, from its deal with the summary's
    exposures and plays (``{}`` when they do not finish it); any refusal is :attr:`Problem.LAST_HAND`."""
    number, first = len(earlier), last["tricks"][0]
    leader = first.get("leader") if isinstance(first, dict) else None
    if number > 1 and (type(leader) is not int or not 0 <= leader < 4):
        raise InvalidState(Problem.LAST_HAND, f"the previous hand's leader {_short(leader)} is not a seat")
    start = _match_after(seed, rules, earlier[:-1])
    start_hand(start, number, leader if number > 1 else None)
    played = {"expose_choices": last["exposed"], "tricks": last["tricks"], "trick": {"plays": []}}
    try:
        summary: dict[str, Any] = _replay_hand(start, played)["last_hand"] or {}
    except InvalidState as exc:
        raise InvalidState(Problem.LAST_HAND, f"in the previous hand {exc.detail}") from exc
    return summary


def _check_breakdowns(last: dict[str, Any], rules: Rules) -> None:
    """A summary without its plays: every breakdown one the scoring rules produce, together one
    taker each of the pig, the goat and the transformer and all the hearts, giving the scores."""
    exposed = last["exposed"]
    all_exposed = to_mask(c for cards in exposed for c in cards)
    breakdowns = last["breakdowns"]
    if not isinstance(breakdowns, list) or len(breakdowns) != 4:
        raise InvalidState(Problem.LAST_HAND, "breakdowns is not one per seat")
    if not all(isinstance(b, dict) for b in breakdowns):
        raise InvalidState(Problem.LAST_HAND, "a breakdown is not an object")
    flipped = rules.flip and any(b.get("all_hearts") is True for b in breakdowns)
    captured = [_captured_for(b, all_exposed, flipped) for b in breakdowns]
    for mask in (PIG_BIT, GOAT_BIT, TRANSFORMER_BIT):
        if sum(1 for c in captured if c & mask) != 1:
            raise InvalidState(Problem.LAST_HAND, "the pig, the goat and the transformer each have one taker")
    if not any(c & HEARTS_MASK == HEARTS_MASK for c in captured):
        hearts_factor = 2 if all_exposed & (1 << INDEX["AH"]) else 1
        if sum(b["hearts"] for b in breakdowns) != sum(HEART_VALUES.values()) * hearts_factor:
            raise InvalidState(Problem.LAST_HAND, "the hearts of the previous hand do not add up")
    if [b["score"] for b in breakdowns] != last["scores"]:
        raise InvalidState(Problem.LAST_HAND, "the breakdowns do not give the recorded scores")


def _captured_for(breakdown: object, all_exposed: int, flipped: bool) -> int:
    """Point cards that give ``breakdown``; :class:`InvalidState` when the scoring rules give no such one."""
    if not isinstance(breakdown, dict):
        raise InvalidState(Problem.LAST_HAND, "a breakdown is not an object")
    hearts, pig, goat = breakdown.get("hearts"), breakdown.get("pig"), breakdown.get("goat")
    if not _ints([hearts, pig, goat], 3):
        raise InvalidState(Problem.LAST_HAND, "a breakdown's points are not integers")
    mask = (PIG_BIT if pig else 0) | (GOAT_BIT if goat else 0)
    if breakdown.get("transformer") != "none":
        mask |= TRANSFORMER_BIT
    if breakdown.get("all_hearts") is True:
        mask |= HEARTS_MASK
    else:
        left = -breakdown["hearts"] // (2 if all_exposed & (1 << INDEX["AH"]) else 1)
        for card in _VALUED_HEARTS:
            if -HEART_VALUES[card] <= left:
                mask |= 1 << INDEX[card]
                left += HEART_VALUES[card]
        if breakdown.get("transformer") == "multiplier" and mask & POINT_MASK == TRANSFORMER_BIT:
            mask |= 1 << INDEX["2H"]  # a heart worth nothing still makes the transformer multiply
    if _canonical(score_breakdown(mask, all_exposed, flipped)) != _canonical(breakdown):
        raise InvalidState(Problem.LAST_HAND, f"breakdown {_short(breakdown)} breaks the scoring rules")
    return mask


def _ints(values: object, count: int) -> bool:
    """``values`` is a list of ``count`` integers (not booleans, not floats)."""
    return isinstance(values, list) and len(values) == count and all(type(v) is int for v in values)


def _canonical(value: object) -> str:
    """JSON text with sorted keys: equal only for equal data of equal JSON types (1, 1.0 and true differ)."""
    return json.dumps(value, sort_keys=True)


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
