"""Whole hands and matches from random seeds: invariants, replay, per-seat views, the expose phase."""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gongzhu import (
    DECK,
    InvalidState,
    Reason,
    Refusal,
    State,
    apply,
    apply_legal,
    legal_plays,
    match_result,
    new_match,
    replay,
    validate_state,
    view_for,
)
from gongzhu.game import deal_hands
from gongzhu.house_rules import DEFAULT_RULES, Rules

from .helpers import EVERY_RULES, random_step
from .referee import legal_cards, score

SEEDS = st.integers(min_value=0, max_value=2**40)
RULES = st.sampled_from(EVERY_RULES)  # every combination of the house rules


def play_one_hand(
    seed: int, rng_seed: int, rules: Rules = DEFAULT_RULES
) -> tuple[State, list[dict[str, object]], list[State]]:
    rng = random.Random(rng_seed)
    state = new_match(seed, rules)
    actions: list[dict[str, object]] = []
    states = [state]
    while state["phase"] in ("expose", "play"):
        state, action = random_step(state, rng)
        actions.append(action)
        states.append(state)
    return state, actions, states


def all_cards(state: State) -> list[str]:
    in_hands = [c for h in state["hands"] for c in h]
    on_table = [p["card"] for p in state["trick"]["plays"]]
    captured = [c for cards in state["captured"] for c in cards]
    return in_hands + on_table + captured


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, rng_seed=st.integers(0, 2**32), rules=RULES)
def test_hand_invariants(seed: int, rng_seed: int, rules: Rules) -> None:
    final, _actions, states = play_one_hand(seed, rng_seed, rules)
    for state in states:
        json.dumps(state)  # plain data, always
        assert sorted(all_cards(state)) == sorted(DECK), "all 52 cards accounted for"
        if state["phase"] == "play":
            seat = state["turn"]
            legal = legal_plays(state, seat)
            assert legal, "the legal set is never empty on a turn"
            earlier = {t["plays"][0]["card"][1] for t in state["tricks"]}
            table = [p["card"] for p in state["trick"]["plays"]]
            assert set(legal) == legal_cards(state["hands"][seat], state["exposed"][seat], earlier, table)
    captured = final["captured"]
    assert sorted(c for cards in captured for c in cards) == sorted(DECK), "captures partition the deck"
    exposed = [c for e in final["exposed"] for c in e]
    assert rules.exposing_on or not exposed
    flipped = rules.flip and any(sum(c[1] == "H" for c in cards) == 13 for cards in captured)
    assert final["last_hand"]["scores"] == [score(c, exposed, flipped) for c in captured]
    assert final["totals"] == final["last_hand"]["scores"]


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, rng_seed=st.integers(0, 2**32), rules=RULES)
def test_every_played_card_was_legal_and_replay_reproduces(seed: int, rng_seed: int, rules: Rules) -> None:
    final, actions, states = play_one_hand(seed, rng_seed, rules)
    for state, action in zip(states, actions, strict=False):
        if action["type"] == "play":
            assert action["card"] in legal_plays(state, int(str(action["seat"])))
    assert replay(seed, actions, rules) == final


@settings(max_examples=20, deadline=None)
@given(seed=SEEDS, rng_seed=st.integers(0, 2**32), rules=RULES)
def test_the_hand_summary_keeps_the_finished_hands_tricks_in_every_seats_view(
    seed: int, rng_seed: int, rules: Rules
) -> None:
    final, actions, _states = play_one_hand(seed, rng_seed, rules)
    played = [{"seat": a["seat"], "card": a["card"]} for a in actions if a["type"] == "play"]
    summary = final["last_hand"]["tricks"]
    assert summary == final["tricks"] and len(summary) == 13
    assert [p for t in summary for p in t["plays"]] == played
    if final["phase"] == "match_over":
        return
    following = apply_legal(final, {"type": "next_hand"})
    assert following["tricks"] == [] and following["last_hand"]["tricks"] == summary
    for seat in range(4):  # the plays were public at the table: every seat's view keeps them
        assert view_for(following, seat)["last_hand"]["tricks"] == summary


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, rng_seed=st.integers(0, 2**32), rules=RULES)
def test_view_never_leaks_a_hidden_card(seed: int, rng_seed: int, rules: Rules) -> None:
    _final, _actions, states = play_one_hand(seed, rng_seed, rules)
    for state in states:
        for seat in range(4):
            view = view_for(state, seat)
            text = json.dumps({k: v for k, v in view.items() if k != "rules"})  # (a rule may name a card)
            assert "seed" not in view and "deal" not in view and "hands" not in view
            public = set(view["hand"]) | {p["card"] for p in view["trick"]["plays"]}
            public |= {c for cards in view["captured"] for c in cards}
            public |= {c for e in view["exposed"] for c in e}
            for other in range(4):
                if other == seat:
                    continue
                for card in state["hands"][other]:
                    if card not in public:
                        assert f'"{card}"' not in text, f"seat {seat} can see {card} of seat {other}"


def test_exposure_choices_stay_secret_until_all_have_decided() -> None:
    state = new_match(3)
    deciders = [s for s in range(4) if state["expose_choices"][s] is None]
    assert len(deciders) >= 2, "seed 3 should give at least two seats something to expose"
    first, second = deciders[0], deciders[1]
    card = next(c for c in state["hands"][first] if c in ("AH", "QS", "JD", "TC"))
    state = apply_legal(state, {"type": "expose", "seat": first, "cards": [card]})
    assert state["phase"] == "expose"
    other_view = view_for(state, second)
    assert other_view["exposed"] == [[], [], [], []]
    assert card not in json.dumps(other_view)
    assert view_for(state, first)["my_expose"] == [card]
    again = apply(state, {"type": "expose", "seat": first, "cards": []})
    assert isinstance(again, Refusal) and again.reason is Reason.ALREADY_DECIDED
    for seat in deciders[1:]:
        state = apply_legal(state, {"type": "expose", "seat": seat, "cards": []})
    assert state["phase"] == "play"
    assert state["exposed"][first] == [card]
    assert card in view_for(state, second)["exposed"][first]
    assert state["turn"] == next(s for s in range(4) if "2S" in state["deal"][s])


def test_expose_refusals() -> None:
    state = new_match(3)
    seat = next(s for s in range(4) if state["expose_choices"][s] is None)
    hand = state["hands"][seat]
    plain = next(c for c in hand if c not in ("AH", "QS", "JD", "TC"))
    missing = next(c for c in ("AH", "QS", "JD", "TC") if c not in hand)
    before = copy.deepcopy(state)
    for cards, reason in (
        ([plain], Reason.NOT_EXPOSABLE),
        ([missing], Reason.NOT_IN_HAND),
        (["ZZ"], Reason.UNKNOWN_CARD),
    ):
        result = apply(state, {"type": "expose", "seat": seat, "cards": cards})
        assert isinstance(result, Refusal) and result.reason is reason
    assert state == before


def test_seats_without_exposable_cards_skip_the_phase() -> None:
    for seed in range(50):
        state = new_match(seed)
        for seat in range(4):
            holds = any(c in state["hands"][seat] for c in ("AH", "QS", "JD", "TC"))
            assert (state["expose_choices"][seat] is None) == holds


def test_deal_is_seeded_and_varies() -> None:
    assert deal_hands(7, 1) == deal_hands(7, 1)
    assert deal_hands(7, 1) != deal_hands(7, 2) != deal_hands(8, 1)
    assert sorted(c for h in deal_hands(7, 1) for c in h) == sorted(DECK)


def test_pig_taker_leads_the_next_hand_and_totals_accumulate() -> None:
    rng = random.Random(1)
    state = new_match(12)  # a seed whose match lasts at least four hands with this driver
    hands_seen = 0
    while hands_seen < 3:
        state, _ = random_step(state, rng)
        if state["phase"] == "hand_over":
            hands_seen += 1
            pig_taker = next(s for s in range(4) if "QS" in state["captured"][s])
            totals = state["totals"]
            state = apply_legal(state, {"type": "next_hand"})
            assert state["leader"] == pig_taker and state["hand_number"] == hands_seen + 1
            assert state["totals"] == totals and sum(len(h) for h in state["hands"]) == 52
    assert [h["number"] for h in state["history"]] == [1, 2, 3]


def test_match_end_rules() -> None:
    assert match_result([-1010, 120, 120, -300]) is None, "tie at the top plays on"
    result = match_result([-1010, 150, 120, -300])
    assert result is not None
    assert result["winner"] == 1 and result["ranking"] == [1, 2, 3, 0] and result["eliminated"] == [0]
    assert match_result([-990, 500, 0, 0]) is None, "nobody at -1000 yet"
    exact = match_result([-1000, 10, 0, 0])
    assert exact is not None and exact["eliminated"] == [0]


def test_tie_at_the_top_plays_another_hand() -> None:
    """A hand that leaves someone at -1000 with two leaders tied deals another hand."""
    rng = random.Random(5)
    state = new_match(21)
    while state["phase"] != "hand_over":
        state, _ = random_step(state, rng)
    scores = state["last_hand"]["scores"]
    top = max(range(4), key=lambda s: scores[s])
    other = next(s for s in range(4) if s != top and scores[s] != scores[top])
    # rewind the totals so that, after this hand's scores, two players tie at the top
    before = [0, 0, 0, 0]
    low = next(s for s in range(4) if s not in (top, other))
    before[low] = -1000 - scores[low]
    before[top] = 500 - scores[top]
    before[other] = 500 - scores[other]
    fourth = next(s for s in range(4) if s not in (top, other, low))
    before[fourth] = 0 - scores[fourth]
    totals = [b + s for b, s in zip(before, scores, strict=True)]
    assert totals.count(500) == 2 and min(totals) <= -1000
    assert match_result(totals) is None
    # and the engine deals another hand from such a position
    state["totals"] = totals
    state = apply_legal(state, {"type": "next_hand"})
    assert state["phase"] == "expose" and state["hand_number"] == 2


def test_whole_matches_end_by_the_rules() -> None:
    rng = random.Random(2)
    for seed in range(15):
        state = new_match(seed)
        while state["phase"] != "match_over":
            state, _ = random_step(state, rng)
            if state["phase"] == "hand_over":
                assert match_result(state["totals"]) is None
        result = state["result"]
        assert result["complete"] and min(state["totals"]) <= -1000
        assert state["totals"].count(max(state["totals"])) == 1
        assert view_for(state, 0)["result"] == result


def test_validate_state_accepts_real_states_and_refuses_broken_ones() -> None:
    rng = random.Random(4)
    state = new_match(8)
    for _ in range(30):
        validate_state(state)
        state, _action = random_step(state, rng)
    validate_state(state)
    broken = [copy.deepcopy(state) for _ in range(4)]
    broken[0]["schema"] = 99
    broken[1]["phase"] = "dancing"
    broken[2]["hands"][0].append(broken[2]["hands"][1][0])  # a card twice
    broken[3]["hands"][2].pop()  # a card lost
    for bad, code in zip(broken, ["schema", "shape", "mismatch", "mismatch"], strict=True):
        with pytest.raises(InvalidState) as caught:
            validate_state(bad)
        assert caught.value.code == code


def test_engine_errors_survive_a_process_pool() -> None:
    """The tournament's workers raise these in a child process; the parent must rebuild them
    (an exception that cannot be unpickled kills the pool's result thread and hangs the run)."""
    import pickle

    from gongzhu import IllegalAction, InvalidSeed, Reason, Refusal

    seed_error = pickle.loads(pickle.dumps(InvalidSeed(2**60)))
    assert seed_error.seed == 2**60 and str(seed_error) == str(InvalidSeed(2**60))
    action = {"type": "play", "seat": 0, "card": "QS"}
    illegal = pickle.loads(pickle.dumps(IllegalAction(action, Refusal(Reason.NOT_YOUR_TURN, "QS"))))
    assert illegal.action == action and illegal.refusal.reason is Reason.NOT_YOUR_TURN
