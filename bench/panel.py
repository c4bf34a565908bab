"""The opponent panel: styles of play that are not Normal, to measure Hard against (benchmarks only).

Normal is a fair model of Normal and of nobody else, so Hard's strength is measured against a panel
of styles that play differently from Normal and from each other.  None is a level of the game:
:func:`register_panel` makes them player specs of the running process (``bench/strength.py --panel``
calls it), as ``bench/strength.py`` does for its Hard variants.

- ``cautious``: ducks whenever it can, with its lowest card that ducks; when it cannot, it plays its
  lowest card (it keeps its high cards); leads its lowest card; never exposes.
- ``aggressive``: leads the top of its longest suit; wins tricks that carry no points with its
  highest card; runs for all hearts with the ace and five hearts (Normal wants eight); exposes the
  ace of hearts with four hearts or more, besides Normal's exposures.
- ``noisy``: a human-like Normal: Normal's card, or a near one with a temperature (a card's weight
  falls by ``e`` per step away from Normal's, in rank order within a suit, three steps to another suit).
- ``easy``: the game's Easy.
- ``cautious+aggressive`` and ``noisy+easy``: mixed tables, the first style in even seats and the
  second in odd ones (the challenger's seat rotates, so each style sits at every distance from it).

Each style reads only its own seat's view, like every player.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable
from typing import Any

import gongzhu.players
from gongzhu import new_match, view_for
from gongzhu.ai.heuristic import normal_expose, normal_play
from gongzhu.ai.knowledge import read_view
from gongzhu.ai.levels import view_seed
from gongzhu.ai.sim import Table, high_bit, low_bit
from gongzhu.cards import (
    DECK,
    EXPOSABLE_MASK,
    HEARTS_MASK,
    INDEX,
    PIG_BIT,
    POINT_MASK,
    SUIT_MASKS,
    indices,
    to_codes,
    to_mask,
)
from gongzhu.game import View, apply_legal
from gongzhu.rules import winning_position

AH = INDEX["AH"]
TEMPERATURE = 1.0  # the noisy style: a card one step from Normal's weighs e^-1 of Normal's
OTHER_SUIT_STEPS = 3  # the noisy style: steps from Normal's card to a card of another suit
RUN_HEARTS = 5  # the aggressive style runs for all hearts with the ace and this many hearts

StylePolicy = Callable[[Table, int, int, random.Random], int]


def _rank_low(cards: list[int]) -> int:
    """The card of lowest rank (clubs before diamonds before … on ties), the pig last."""
    return min(cards, key=lambda c: (c == INDEX["QS"], c % 13, c))


def cautious_play(table: Table, seat: int, legal: int, rng: random.Random) -> int:
    if legal & (legal - 1) == 0:
        return low_bit(legal)
    trick = table.trick
    if not trick:
        return _rank_low(indices(legal))
    suit_mask = SUIT_MASKS[trick[0] // 13]
    if not legal & suit_mask:
        return normal_play(table, seat, legal)  # void: sheds what Normal sheds (the pig, big hearts)
    winning = trick[winning_position(trick)]
    under = legal & ((1 << winning) - 1)
    if under & PIG_BIT:
        return INDEX["QS"]
    if under:
        return low_bit(under)
    return low_bit(legal)  # cannot duck: keeps its high cards


def _running(table: Table, seat: int) -> bool:
    """The aggressive style's all-hearts run: the ace, ``RUN_HEARTS`` hearts, no heart taken by another."""
    hand = table.hands[seat]
    others = 0
    for s in range(4):
        if s != seat:
            others |= table.captured[s]
    return (
        bool(hand & (1 << AH)) and (hand & HEARTS_MASK).bit_count() >= RUN_HEARTS and not others & HEARTS_MASK
    )


def aggressive_play(table: Table, seat: int, legal: int, rng: random.Random) -> int:
    if legal & (legal - 1) == 0:
        return low_bit(legal)
    trick = table.trick
    plain = legal & ~PIG_BIT or legal
    if _running(table, seat):
        if not trick or legal & SUIT_MASKS[trick[0] // 13]:
            return high_bit(plain)  # takes every trick it can
        return low_bit(legal & ~HEARTS_MASK & ~PIG_BIT or legal)  # keeps its hearts
    if not trick:
        longest = max(range(4), key=lambda s: ((plain & SUIT_MASKS[s]).bit_count(), s))
        return high_bit(plain & SUIT_MASKS[longest])
    suit_mask = SUIT_MASKS[trick[0] // 13]
    points = 0
    for c in trick:
        points |= 1 << c
    if legal & suit_mask and not points & POINT_MASK:
        return high_bit(plain & suit_mask or legal)
    return normal_play(table, seat, legal)


def noisy_play(table: Table, seat: int, legal: int, rng: random.Random) -> int:
    if legal & (legal - 1) == 0:
        return low_bit(legal)
    best = normal_play(table, seat, legal)
    cards = indices(legal)
    same = [c for c in cards if c // 13 == best // 13]
    steps = [
        abs(same.index(c) - same.index(best)) if c // 13 == best // 13 else OTHER_SUIT_STEPS for c in cards
    ]
    weights = [math.exp(-s / TEMPERATURE) for s in steps]
    return rng.choices(cards, weights)[0]


def aggressive_expose(hand: int) -> int:
    extra = 1 << AH if hand & (1 << AH) and (hand & HEARTS_MASK).bit_count() >= 4 else 0
    return normal_expose(hand) | extra


def never_expose(hand: int) -> int:
    return 0


class StylePlayer:
    """A player of one panel style: its policy on the seat's own table, its exposure of its hand."""

    def __init__(
        self, name: str, policy: StylePolicy, exposure: Callable[[int], int], seed: int, seat: int
    ) -> None:
        self.name = name  # the style's spec, salting its random choices
        self.policy = policy  # the style's card, from a table holding only this seat's hand
        self.exposure = exposure  # the style's exposure, from its hand
        self.seed = seed
        self.seat = seat

    def expose(self, view: View) -> list[str]:
        chosen = self.exposure(to_mask(view["hand"]))
        return to_codes(chosen & EXPOSABLE_MASK & to_mask(view["exposable"]))

    def play(self, view: View) -> str:
        k = read_view(view)
        rng = random.Random(view_seed(self.seed, view, self.name))
        return DECK[self.policy(k.table(), k.seat, to_mask(view["legal"]), rng)]


STYLES: dict[str, tuple[StylePolicy, Callable[[int], int]]] = {
    "cautious": (cautious_play, never_expose),
    "aggressive": (aggressive_play, aggressive_expose),
    "noisy": (noisy_play, normal_expose),
}
#: Mixed tables: spec → (style of the even seats, style of the odd seats).
MIXED: dict[str, tuple[str, str]] = {
    "cautious+aggressive": ("cautious", "aggressive"),
    "noisy+easy": ("noisy", "easy"),
}
#: The panel, in the order of its table.
PANEL: tuple[str, ...] = ("cautious", "aggressive", "noisy", "easy", *MIXED)


def style_player(name: str, seed: int, seat: int) -> Any:
    """A player of panel style ``name`` (a style, ``easy`` or a mixed table) in ``seat``."""
    if name in MIXED:
        return style_player(MIXED[name][seat & 1], seed, seat)
    if name in STYLES:
        policy, exposure = STYLES[name]
        return StylePlayer(name, policy, exposure, seed, seat)
    return gongzhu.players.make_player(name, seed, seat)


def register_panel() -> None:
    """Make the panel's styles player specs in this process (benchmarks only, never in the game)."""
    registered = gongzhu.players.added_players(PANEL)
    for name in PANEL:
        if name not in registered and name not in gongzhu.players.PLAYER_LEVELS:
            gongzhu.players.register_player(name, functools.partial(style_player, name))


#: The fixed positions' deals: Normal's self-play on these seeds (830 positions with a choice).
POSITION_SEEDS = range(3000, 3020)


def fixed_positions() -> list[View]:
    """Fixed positions with a choice, for measuring how often two styles disagree: the views of
    Normal's self-play on :data:`POSITION_SEEDS` (a match's first hand, Normal's exposures)."""
    seen: list[View] = []
    for seed in POSITION_SEEDS:
        players = [gongzhu.players.make_player("normal", seed - POSITION_SEEDS[0], s) for s in range(4)]
        state = new_match(seed)
        for seat in range(4):
            if state["expose_choices"][seat] is None:
                cards = players[seat].expose(view_for(state, seat))
                state = apply_legal(state, {"type": "expose", "seat": seat, "cards": cards})
        while state["phase"] == "play":
            view = view_for(state, state["turn"])
            if len(view["legal"]) > 1:
                seen.append(view)
            card = players[state["turn"]].play(view)
            state = apply_legal(state, {"type": "play", "seat": state["turn"], "card": card})
    return seen


def disagreement(first: str, second: str, views: list[View]) -> float:
    """The share of ``views`` where player specs ``first`` and ``second`` (seed 1) play other cards."""
    players = {name: [gongzhu.players.make_player(name, 1, s) for s in range(4)] for name in (first, second)}
    differ = sum(players[first][v["seat"]].play(v) != players[second][v["seat"]].play(v) for v in views)
    return differ / len(views)
