"""The computer players: legal play, the strategy's key moves, Hard's search, hints, hidden information."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gongzhu.game
from gongzhu import apply, new_match, view_for
from gongzhu.ai import REASONS, EasyPlayer, HardPlayer, NormalPlayer, choose_play, hint, make_level
from gongzhu.ai.config import HARD, HARD_MARGIN
from gongzhu.ai.heuristic import normal_play
from gongzhu.ai.knowledge import read_view
from gongzhu.ai.levels import easy_play
from gongzhu.ai.sampling import CHAINS, mismatches, posterior_worlds, sample_world
from gongzhu.ai.search import evaluate_plays, hand_margin, own_lookahead, trick_gain
from gongzhu.ai.sim import Table, deal_table, fast_score, random_hands, run
from gongzhu.cards import DECK, EXPOSABLE_MASK, FULL_MASK, INDEX, SUIT_MASKS, to_mask
from gongzhu.players import make_player
from gongzhu.scoring import hand_score

from .ai_helpers import crafted_state, crafted_view, nobody_exposes

SMALL = 3000  # Hard's budget in tests: small, the search logic is the same


def small_hard(seed: int, seat: int) -> HardPlayer:
    return HardPlayer(seed, seat, replace(HARD, budget=SMALL))


@given(st.integers(0, 2**52 - 1), st.integers(0, 15))
def test_fast_score_matches_the_rules(captured: int, exposed_bits: int) -> None:
    exposable = [c for c in range(52) if EXPOSABLE_MASK >> c & 1]
    exposed = sum(1 << exposable[i] for i in range(4) if exposed_bits >> i & 1)
    assert fast_score(captured, exposed) == hand_score(captured, exposed)
    hearts_and_more = captured | SUIT_MASKS[1]
    assert fast_score(hearts_and_more, exposed) == hand_score(hearts_and_more, exposed)


def test_levels_are_registered() -> None:
    for name in ("easy", "normal", "hard"):
        player = make_player(name, 1, 0)
        assert hasattr(player, "play") and hasattr(player, "expose")
    assert isinstance(make_level("normal", 1, 2), NormalPlayer)


@pytest.mark.parametrize("factory", [EasyPlayer, NormalPlayer, small_hard])
def test_levels_always_play_legal_cards(factory: Any) -> None:
    """Whole hands with the level in every seat: every answer is legal (the engine would refuse)."""
    for seed in range(3 if factory is small_hard else 25):
        state = new_match(1000 + seed)
        players = [factory(seed, s) for s in range(4)]
        for seat in range(4):
            if state["expose_choices"][seat] is None:
                view = view_for(state, seat)
                cards = players[seat].expose(view)
                assert set(cards) <= set(view["exposable"])
                state = apply(state, {"type": "expose", "seat": seat, "cards": cards})
        while state["phase"] == "play":
            view = view_for(state, state["turn"])
            card = players[state["turn"]].play(view)
            assert card in view["legal"]
            state = apply(state, {"type": "play", "seat": state["turn"], "card": card})
            assert isinstance(state, dict)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 51))
def test_policies_legal_in_any_position(seed: int, steps: int) -> None:
    rng = random.Random(seed)
    table = deal_table(random_hands(rng))
    for _ in range(steps):
        seat = table.turn()
        table.play(normal_play(table, seat, table.legal(seat)))
    seat = table.turn()
    legal = table.legal(seat)
    if legal:
        assert legal >> normal_play(table, seat, legal) & 1
        assert legal >> easy_play(table, seat, legal, rng) & 1


def test_normal_dumps_the_pig_when_void() -> None:
    view = crafted_view(
        [["5C", "9C", "2D"], ["QS", "AH", "3D"], ["7C", "4D", "5D"], ["8C", "6D", "7D"]],
        leader=0,
        plays=["KC"],
    )
    assert view["seat"] == 1
    assert NormalPlayer(1, 1).play(view) == "QS"
    assert EasyPlayer(1, 1).play(view) in ("QS", "AH", "3D")


def test_normal_sheds_the_big_heart_when_void_without_pig() -> None:
    view = crafted_view(
        [["5C", "9C", "2D"], ["KH", "3H", "3D"], ["7C", "4D", "5D"], ["8C", "6D", "7D"]],
        leader=0,
        plays=["KC"],
    )
    assert NormalPlayer(1, 1).play(view) == "KH"


def test_normal_dumps_pig_under_a_higher_spade() -> None:
    view = crafted_view(
        [["AS", "9C"], ["QS", "3S", "3D"], ["7C", "4D", "5D"], ["8C", "6D", "7D"]],
        leader=0,
        plays=["AS"],
    )
    assert NormalPlayer(1, 1).play(view) == "QS"


def test_normal_keeps_the_pig_guarded() -> None:
    """Holding QS with low spades, Normal does not lead spades."""
    view = crafted_view(
        [["QS", "3S", "4S", "5S", "2C", "3C"], ["AS", "KS", "6C", "7C", "8C", "9C"],
         ["6S", "7S", "TC", "JC", "QC", "KC"], ["8S", "9S", "AC", "2D", "3D", "4D"]],
        leader=0,
    )  # fmt: skip
    assert NormalPlayer(1, 0).play(view) in ("2C", "3C")


def test_normal_wins_the_goat_with_the_boss_diamond() -> None:
    view = crafted_view(
        [["AD", "3D", "2C"], ["JD", "5C", "6C"], ["4D", "7C", "8C"], ["5D", "9C", "TC"]],
        leader=1,
        plays=["JD", "4D", "5D"],
    )
    assert NormalPlayer(1, 0).play(view) == "AD"


def test_normal_exposes_only_with_confidence() -> None:
    strong = {"hand": ["QS", "2S", "3S", "4S", "5S", "6S"], "exposable": ["QS"]}
    weak = {"hand": ["QS", "AS", "3S", "2D"], "exposable": ["QS"]}
    assert NormalPlayer(1, 0).expose(strong) == ["QS"]
    assert NormalPlayer(1, 0).expose(weak) == []


# --- Hard -------------------------------------------------------------------------------------


def endgame_view() -> dict[str, Any]:
    """Seat 0 is last to play to AS; keeping QS would leave it alone under 4S next trick."""
    return crafted_view(
        [["QS", "3S"], ["KS", "5D"], ["2D", "6D"], ["AS", "4S"]], leader=1, plays=["KS", "2D", "AS"]
    )


def test_hard_finds_the_endgame_dump_by_exact_search() -> None:
    view = endgame_view()
    assert view["seat"] == 0
    card, evaluation = choose_play(view, 3, replace(HARD_MARGIN, budget=SMALL, opponent_weight=0.0))
    assert card == "QS"
    assert evaluation is not None
    assert evaluation.values[to_mask(["QS"]).bit_length() - 1] == 0
    # 3S loses 100 in every world where seat 3 holds 4S (the plays make it unlikely, not impossible)
    assert evaluation.values[to_mask(["3S"]).bit_length() - 1] < 0


def test_hard_is_reproducible_for_a_seed() -> None:
    state = nobody_exposes(new_match(11))
    view = view_for(state, state["turn"])
    first = choose_play(view, 5, replace(HARD_MARGIN, budget=SMALL))
    second = choose_play(view, 5, replace(HARD_MARGIN, budget=SMALL))
    assert first[0] == second[0]
    assert first[1] is not None and second[1] is not None
    assert first[1].values == second[1].values


@pytest.mark.parametrize("draw", ["uniform", "posterior"])
def test_sampled_worlds_respect_what_the_seat_knows(draw: str) -> None:
    # seat 1 showed a void in clubs; seat 2 exposed QS and still holds it
    state = crafted_state(
        [
            ["2C", "3C", "4D", "5D"],
            ["6D", "7D", "8D", "9D"],
            ["QS", "2S", "3S", "4S"],
            ["5C", "6C", "7C", "8C"],
        ],
        leader=0,
        plays=["9C", "AH"],
        exposed=[[], [], ["QS"], []],
    )
    view = view_for(state, 2)
    k = read_view(view)
    rng = random.Random(1)
    worlds = (
        [sample_world(k, rng) for _ in range(50)] if draw == "uniform" else list(posterior_worlds(k, rng, 50))
    )
    for world in worlds:
        assert world[2] == to_mask(state["hands"][2])
        assert not world[1] & SUIT_MASKS[3]  # void in clubs
        assert world[0] >> to_mask(["QS"]).bit_length() - 1 & 1 == 0
        assert [w.bit_count() for w in world] == [len(h) for h in state["hands"]]
        assert sum(world) == (FULL_MASK & ~k.gone & sum(to_mask(h) for h in state["hands"]))


def _normal_position(seed: int, tricks_done: int) -> dict[str, Any]:
    """Hand 1 of match ``seed`` played by four Normals (nobody exposes) until ``tricks_done`` tricks."""
    state = nobody_exposes(new_match(seed))
    players = [NormalPlayer(seed, s) for s in range(4)]
    while len(state["tricks"]) < tricks_done:
        seat = state["turn"]
        state = apply(
            state, {"type": "play", "seat": seat, "card": players[seat].play(view_for(state, seat))}
        )
    return state


def _every_world(k: Any, sizes: list[int]) -> list[list[int]]:
    """Every deal of the unseen cards to the other seats that fits their sizes and voids."""
    others = [s for s in range(4) if s != k.seat]
    unseen = [c for c in range(52) if not (k.gone | k.hand) >> c & 1]
    worlds: list[list[int]] = []

    def deal(i: int, hands: list[int]) -> None:
        if i == len(unseen):
            worlds.append(list(hands))
            return
        card = unseen[i]
        for s in others:
            if hands[s].bit_count() < sizes[s] and not k.voids[s] >> (card // 13) & 1:
                hands[s] |= 1 << card
                deal(i + 1, hands)
                hands[s] ^= 1 << card

    start = [0, 0, 0, 0]
    start[k.seat] = k.hand
    deal(0, start)
    return worlds


def _holding_odds(worlds: list[list[int]], weights: list[float]) -> dict[tuple[int, int], float]:
    """The probability that each seat holds each card, over weighted worlds."""
    odds: dict[tuple[int, int], float] = dict.fromkeys(((s, c) for s in range(4) for c in range(52)), 0.0)
    total = sum(weights)
    for world, weight in zip(worlds, weights, strict=True):
        for seat, hand in enumerate(world):
            for card in range(52):
                if hand >> card & 1:
                    odds[seat, card] += weight / total
    return odds


def assert_drawn_as_weighed(
    worlds: list[list[int]], weights: list[float], drawn: list[list[int]], informative: float
) -> None:
    """The ``drawn`` worlds hold each card where the ``weights`` of every world say (within 0.1), in
    a position where those weights differ from unweighted worlds by more than ``informative``."""
    exact = _holding_odds(worlds, weights)
    uniform = _holding_odds(worlds, [1.0] * len(worlds))
    chain = _holding_odds(drawn, [1.0] * len(drawn))
    assert max(abs(uniform[x] - exact[x]) for x in exact) > informative  # the plays say something here
    assert max(abs(chain[x] - exact[x]) for x in exact) < 0.1


def test_the_chain_draws_worlds_in_proportion_to_how_well_they_explain_the_plays() -> None:
    # three cards left each: every world can be listed and weighed exactly
    state = _normal_position(0, 10)
    k = read_view(view_for(state, state["turn"]))
    assert mismatches(k, [to_mask(h) for h in state["hands"]]) == 0  # Normals played: the true deal fits
    worlds = _every_world(k, [len(h) for h in state["hands"]])
    weights = [CHAINS.mismatch ** mismatches(k, w) for w in worlds]
    assert_drawn_as_weighed(worlds, weights, list(posterior_worlds(k, random.Random(0), 2000)), 0.3)


def test_posterior_worlds_explain_the_plays_better_than_uniform_ones() -> None:
    for seed in range(3):
        state = _normal_position(seed, 4)
        k = read_view(view_for(state, state["turn"]))
        rng = random.Random(seed)
        uniform = [mismatches(k, sample_world(k, rng)) for _ in range(100)]
        posterior = [mismatches(k, w) for w in posterior_worlds(k, rng, 100)]
        assert sum(posterior) < 0.75 * sum(uniform)


# --- hidden information ----------------------------------------------------------------------


def _swap_hidden(state: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    """The same public position with the other seats' unseen cards dealt differently (sizes kept)."""
    others = [s for s in range(4) if s != seat]
    pool = [c for s in others for c in state["hands"][s] if not any(c in e for e in state["exposed"])]
    rng.shuffle(pool)
    out = dict(state, hands=[list(h) for h in state["hands"]])
    for s in others:
        keep = [c for c in state["hands"][s] if any(c in e for e in state["exposed"])]
        take = len(state["hands"][s]) - len(keep)
        out["hands"][s], pool = keep + pool[:take], pool[take:]
    return out


@pytest.mark.parametrize("factory", [EasyPlayer, NormalPlayer, small_hard])
def test_decisions_do_not_depend_on_hidden_hands(factory: Any) -> None:
    rng = random.Random(4)
    for seed in range(4):
        state = nobody_exposes(new_match(50 + seed))
        for _ in range(rng.randrange(0, 20)):
            view = view_for(state, state["turn"])
            state = apply(state, {"type": "play", "seat": state["turn"], "card": view["legal"][0]})
        seat = state["turn"]
        swapped = _swap_hidden(state, seat, rng)
        assert swapped["hands"] != state["hands"]
        player = factory(seed, seat)
        assert player.play(view_for(state, seat)) == player.play(view_for(swapped, seat))


class _Watched(dict[str, Any]):
    """A view that records every key the player reads."""

    def __init__(self, view: dict[str, Any]) -> None:
        super().__init__(view)
        self.read: set[str] = set()

    def __getitem__(self, key: str) -> Any:
        self.read.add(key)
        return super().__getitem__(key)

    def get(self, key: str, default: Any = None) -> Any:
        self.read.add(key)
        return super().get(key, default)


@pytest.mark.parametrize("factory", [EasyPlayer, NormalPlayer, small_hard])
def test_players_only_get_a_view_and_never_touch_a_state(factory: Any, monkeypatch: Any) -> None:
    state = new_match(77)
    views = [view_for(state, s) for s in range(4)]
    forbidden = ("apply", "new_match", "view_for", "replay", "legal_plays", "deal_hands")

    def boom(*_: Any, **__: Any) -> Any:
        raise AssertionError("a player touched the engine state")

    for name in forbidden:
        monkeypatch.setattr(gongzhu.game, name, boom)
    for seat, view in enumerate(views):
        assert "hands" not in view and "deal" not in view and "seed" not in view
        watched = _Watched(view)
        if view["exposable"]:
            factory(1, seat).expose(watched)
        assert watched.read <= set(view)


def test_hint_codes() -> None:
    result = hint(endgame_view(), seed=1, budget=SMALL)
    assert result["card"] == "QS" and result["reason"] == "dumps_pig"
    assert result["reason"] in REASONS
    state = new_match(5)
    seat = next(s for s in range(4) if state["expose_choices"][s] is None)
    expose = hint(view_for(state, seat), seed=1, budget=SMALL)
    assert expose["reason"] in ("expose_confident", "expose_none")
    assert set(expose["cards"]) <= set(view_for(state, seat)["exposable"])
    assert hint(view_for(state, seat), budget=SMALL) == hint(view_for(state, seat), budget=SMALL)


def test_hint_reason_is_always_a_known_code() -> None:
    for seed in range(3):
        state = nobody_exposes(new_match(300 + seed))
        while state["phase"] == "play":
            view = view_for(state, state["turn"])
            result = hint(view, budget=1000)
            assert result["reason"] in REASONS and result["card"] in view["legal"]
            state = apply(state, {"type": "play", "seat": state["turn"], "card": result["card"]})
        assert hint(view_for(state, 0))["reason"] == "no_decision"


@pytest.mark.slow
def test_ladder_on_the_fast_table() -> None:
    """Normal beats Easy and Easy beats random over duplicate deals (policies on the fast table)."""
    rng = random.Random(9)
    for strong, weak in (("easy", "random"), ("normal", "easy")):
        margins = []
        for _ in range(300):
            hands = random_hands(rng)
            total = 0.0
            for seat in range(4):
                table = deal_table(hands)
                while table.cards_left():
                    s = table.turn()
                    name = strong if s == seat else weak
                    table.play(_policy(name, table, s, rng))
                scores = table.scores()
                total += scores[seat] - (sum(scores) - scores[seat]) / 3
            margins.append(total / 4)
        assert sum(margins) / len(margins) > 10


def _policy(name: str, table: Table, seat: int, rng: random.Random) -> int:
    legal = table.legal(seat)
    if name == "normal":
        return normal_play(table, seat, legal)
    if name == "easy":
        return easy_play(table, seat, legal, rng)
    cards = [c for c in range(52) if legal >> c & 1]
    return rng.choice(cards)


def test_run_plays_a_whole_hand() -> None:
    table = deal_table(random_hands(random.Random(2)))
    run(table, normal_play)
    assert table.cards_left() == 0
    assert sum(c.bit_count() for c in table.captured) == 52


def test_exposed_card_played_in_its_first_trick_shows_a_void() -> None:
    state = crafted_state(
        [["5C", "2D"], ["TC", "3D"], ["4D", "5D"], ["6C", "6D"]],
        leader=0,
        plays=["5C", "TC"],
        exposed=[[], ["TC"], [], []],
    )
    k = read_view(view_for(state, 2))
    assert k.voids[1] == 1 << 3  # seat 1 had no other club
    assert k.voids[0] == 0 and k.voids[3] == 0


def test_hard_expose_is_a_subset_and_reproducible() -> None:
    for seed in range(3):
        state = new_match(900 + seed)
        for seat in range(4):
            view = view_for(state, seat)
            if view["exposable"]:
                first = HardPlayer(seed, seat, replace(HARD, budget=SMALL)).expose(view)
                assert set(first) <= set(view["exposable"])
                assert first == HardPlayer(seed, seat, replace(HARD, budget=SMALL)).expose(view)


def _transformer_trick() -> Table:
    """Seat 1 led 2C; seat 2 (whose captures are -230: the pig and hearts) holds 8C 9C JC, seat 0
    the TC, which a seat that has lost points dumps on the trick's winner (it doubles its points)."""
    hands = [
        ["5H", "6C", "TC", "QC", "KC", "AC"],
        ["2D", "6D", "KD", "AD", "3C"],
        ["TS", "AS", "7H", "8C", "9C", "JC"],
        ["7S", "8S", "9S", "4C", "5C", "7C"],
    ]
    captured = [
        ["2S", "3S", "4S", "5S", "6S", "JS", "KS", "8H"],
        ["6H", "QH", "9D", "JD"],
        ["QS", "2H", "3H", "4H", "9H", "TH", "JH", "KH", "AH", "3D", "4D", "5D", "7D", "8D", "TD", "QD"],
        [],
    ]
    gone = FULL_MASK & ~to_mask([c for h in hands for c in h])
    return Table(
        [to_mask(h) for h in hands], [to_mask(c) for c in captured], [0, 0, 0, 0], 0, 1, [INDEX["2C"]], gone
    )


def test_the_seats_lookahead_keeps_the_transformer_off_its_own_pile() -> None:
    table = _transformer_trick()
    legal = table.legal(2)
    assert DECK[normal_play(table, 2, legal)] == "JC"  # Normal wins the trick high: seat 0 dumps TC on it
    assert trick_gain(table, 2, INDEX["JC"]) == -230  # the -230 doubled
    before = (list(table.hands), list(table.captured), list(table.trick), table.gone, table.leader)
    assert DECK[own_lookahead(2)(table, 2, legal)] == "8C"  # seat 0 takes the trick with AC
    assert trick_gain(table, 2, INDEX["8C"]) == 0
    assert (table.hands, table.captured, table.trick, table.gone, table.leader) == before
    assert own_lookahead(1)(table, 2, legal) == INDEX["JC"]  # another seat's playout seat plays Normal


def _trick_end_margin(table: Table, own: int, card: int) -> float:
    """``own``'s margin change from playing ``card`` with Normal after it to the end of the trick, on
    a copy of the table (what :func:`trick_gain` computes without one)."""
    t = table.copy()
    t.play(card)
    while t.trick:
        t.play(normal_play(t, t.turn(), t.legal(t.turn())))
    change = [
        fast_score(a, t.exposed_all) - fast_score(b, t.exposed_all)
        for a, b in zip(t.captured, table.captured, strict=True)
    ]
    return hand_margin(change, own, 1.0)


def test_the_lookahead_plays_the_best_card_for_the_trick_of_all_it_holds() -> None:
    """Over positions of Normal's hands: the trick's margin is computed right and the table left
    as it was, and the lookahead's card is the best of every legal card (Normal's on a tie), though
    it tries only one card of each set that ends the trick alike."""
    rng = random.Random(5)
    checked = changed = 0
    for _ in range(150):
        hands = random_hands(rng)
        table = deal_table(hands, [h & EXPOSABLE_MASK if rng.random() < 0.3 else 0 for h in hands])
        while table.cards_left():
            seat, legal = table.turn(), table.legal(table.turn())
            if 0 < len(table.trick) < 3 and legal & (legal - 1):
                gains = {c: _trick_end_margin(table, seat, c) for c in range(52) if legal >> c & 1}
                normal = normal_play(table, seat, legal)
                best = max(gains, key=lambda c: (gains[c], c == normal, -c))
                before = (list(table.hands), table.gone, list(table.trick))
                assert own_lookahead(seat)(table, seat, legal) == best
                assert all(trick_gain(table, seat, c) == g for c, g in gains.items())
                assert (table.hands, table.gone, table.trick) == before
                checked += 1
                changed += best != normal
            table.play(normal_play(table, seat, legal))
    assert checked > 1000 and changed > 50


def test_hards_playouts_use_the_lookahead_for_its_own_seat_only() -> None:
    """In the true deal (one world: the open-hand evaluation), each card's value is the playout
    with the seat's lookahead, or with Normal alone for ``lookahead=False`` (Hard before it); in
    this position (10 of 11 cards) the two differ."""
    state = _normal_position(4, 2)
    seat = state["turn"]
    k = read_view(view_for(state, seat))
    world = [to_mask(h) for h in state["hands"]]
    legal = k.table().legal(seat)
    values = {}
    for lookahead, policy in ((True, own_lookahead(seat)), (False, normal_play)):
        config = replace(HARD_MARGIN, lookahead=lookahead)
        values[lookahead] = evaluate_plays(k, legal, random.Random(0), config, world).values
        for card, value in values[lookahead].items():
            table = k.table(list(world))
            table.play(card)
            run(table, policy)
            assert value == hand_margin(table.scores(), seat, 1.0)
    assert sum(values[True][c] != values[False][c] for c in values[True]) >= 5
