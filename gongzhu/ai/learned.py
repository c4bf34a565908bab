"""A play model learned from this engine's own games: the chance of each legal card a player holds.

Hard weighs its worlds by how likely each makes the opponents' plays (:mod:`gongzhu.ai.habits`).  The
simple ways of a habit say nothing of a strong player's choices beyond "Normal's card", "its lowest"
or "its highest"; what they do not explain counts as "any legal card", alike in every world.  This
model gives those choices a chance of their own that depends on the hand the world gives the player
(the policy-based inference of Rebstock, Solinas and Buro, "Policy-based inference in trick-taking
card games", 2019): a softmax over a few features of each legal card (:data:`FEATURES`), with one
weight per feature and situation (leading, following suit, discarding).

Pure Python (Pyodide has no numpy here).  The weights are data, :mod:`gongzhu.ai.play_weights` (a
module, so the engine ships it to the browser as it does every module it imports), written by
``bench/train_play_model.py`` from seeded games of the game's Hard; the same seed and settings write
the same file.

>>> model = PlayModel(tuple([0.0] * (3 * len(FEATURES))))
>>> from gongzhu.ai.sim import deal_table, random_hands
>>> import random
>>> table = deal_table(random_hands(random.Random(1)))
>>> seat = table.turn()
>>> chances = model.chances(table, seat, table.legal(seat), 0)  # no weights: every card alike
>>> len(chances), {round(p, 9) for p in chances.values()} == {round(1 / len(chances), 9)}
(13, True)
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..cards import (
    DIAMONDS,
    FULL_MASK,
    GOAT,
    GOAT_BIT,
    HEARTS,
    INDEX,
    PIG,
    PIG_BIT,
    SPADES,
    SUIT_MASKS,
    TRANSFORMER_BIT,
)
from ..rules import winning_position
from . import play_weights
from .sim import SITUATIONS, Table, high_bit, highest_card, low_bit, lowest_card, situation

#: What the model reads of a legal card, each a number in [0, 1].
FEATURES = (
    "normal",  # Normal's card
    "lowest",  # the lowest legal card (any suit)
    "highest",  # the highest legal card (any suit)
    "lowest of its suit",  # the lowest legal card of its suit
    "highest of its suit",  # the highest legal card of its suit
    "rank",  # its rank, 2 = 0 … ace = 1
    "suit length",  # the cards of its suit in hand, over 13
    "pig",  # the queen of spades
    "goat",  # the jack of diamonds
    "transformer",  # the ten of clubs
    "heart",  # a heart
    "heart rank",  # its rank if a heart, else 0
    "wins",  # it would win the trick as it stands (following suit)
    "wins points",  # ... and the trick or the card carries points
    "wins last",  # ... as the trick's last card
    "higher out",  # cards of its suit still out above it (not played, not in hand), over 12
    "lower out",  # ... below it
    "spade over the pig",  # the king or ace of spades while the pig is out
    "diamond over the goat",  # a diamond above the goat while the goat is out
)
SITUATION_COUNT = len(SITUATIONS)  # leading, following suit, discarding
_POINTS = SUIT_MASKS[HEARTS] | PIG_BIT | GOAT_BIT | TRANSFORMER_BIT
_PIG, _GOAT = INDEX[PIG], INDEX[GOAT]
_OVER_PIG = SUIT_MASKS[SPADES] & ~((PIG_BIT << 1) - 1)
_OVER_GOAT = SUIT_MASKS[DIAMONDS] & ~((GOAT_BIT << 1) - 1)


def card_features(table: Table, seat: int, legal: int, normal: int) -> list[tuple[int, list[float]]]:
    """Each legal card with its :data:`FEATURES`, for the seat on turn holding ``table.hands[seat]``,
    Normal's card being ``normal``."""
    hand = table.hands[seat]
    trick = table.trick
    out = FULL_MASK & ~table.gone & ~hand
    lowest, highest = lowest_card(legal), highest_card(legal)
    top = trick[winning_position(trick)] if trick else -1
    trick_points = any((1 << c) & _POINTS for c in trick)
    last = len(trick) == 3
    pig_out, goat_out = bool(out & PIG_BIT), bool(out & GOAT_BIT)
    rows: list[tuple[int, list[float]]] = []
    bits = legal
    while bits:
        bit = bits & -bits
        bits ^= bit
        card = bit.bit_length() - 1
        suit, rank = divmod(card, 13)
        suit_mask = SUIT_MASKS[suit]
        below = bit - 1
        wins = top >= 0 and suit == top // 13 and card > top
        points = trick_points or bool(bit & _POINTS)
        heart = suit == HEARTS
        rows.append(
            (
                card,
                [
                    1.0 if card == normal else 0.0,
                    1.0 if card == lowest else 0.0,
                    1.0 if card == highest else 0.0,
                    1.0 if low_bit(legal & suit_mask) == card else 0.0,
                    1.0 if high_bit(legal & suit_mask) == card else 0.0,
                    rank / 12,
                    (hand & suit_mask).bit_count() / 13,
                    1.0 if card == _PIG else 0.0,
                    1.0 if card == _GOAT else 0.0,
                    1.0 if bit == TRANSFORMER_BIT else 0.0,
                    1.0 if heart else 0.0,
                    rank / 12 if heart else 0.0,
                    1.0 if wins else 0.0,
                    1.0 if wins and points else 0.0,
                    1.0 if wins and last else 0.0,
                    (out & suit_mask & ~(below | bit)).bit_count() / 12,
                    (out & suit_mask & below).bit_count() / 12,
                    1.0 if pig_out and bit & _OVER_PIG else 0.0,
                    1.0 if goat_out and bit & _OVER_GOAT else 0.0,
                ],
            )
        )
    return rows


def softmax(scores: list[float]) -> list[float]:
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    total = math.fsum(exps)
    return [e / total for e in exps]


def row_chances(weights: Sequence[float], where: int, rows: Sequence[Sequence[float]]) -> list[float]:
    """The chance of each card, given as its :data:`FEATURES` ``rows``, in situation ``where`` by
    ``weights`` (situation-major, as :class:`PlayModel` holds them): the one scoring the model and its
    trainer share."""
    start = where * len(FEATURES)
    w = weights[start : start + len(FEATURES)]
    return softmax([sum(a * b for a, b in zip(w, f, strict=True)) for f in rows])


@dataclass(frozen=True)
class PlayModel:
    """A linear softmax over :data:`FEATURES`, one weight per situation and feature."""

    weights: tuple[float, ...]  # situation-major: weights[s * len(FEATURES) + f]

    def chances(self, table: Table, seat: int, legal: int, normal: int) -> dict[int, float]:
        """The chance of each legal card of the seat on turn (``normal``: Normal's card there)."""
        rows = card_features(table, seat, legal, normal)
        chances = row_chances(self.weights, situation(table, legal), [f for _, f in rows])
        return {card: p for (card, _), p in zip(rows, chances, strict=True)}

    def chance(self, table: Table, seat: int, legal: int, card: int, normal: int) -> float:
        """The chance that the seat on turn plays ``card``."""
        return self.chances(table, seat, legal, normal)[card]


class Remembered:
    """A play model that remembers the chances it gave within one view's worlds.

    A chain walking the worlds of a view replays the same public plays in every world it visits, and a
    swap of two cards leaves most seats' hands as they were: the chance of a play depends only on the
    cards gone (which say where in the hand it is, within one view) and the player's hand then, so it
    is worked out once per such pair.  Only for one view: another view's plays differ."""

    __slots__ = ("model", "seen")

    def __init__(self, model: PlayModel) -> None:
        self.model = model  # the model asked for a chance not seen yet
        self.seen: dict[tuple[int, int, int], float] = {}  # (cards gone, hand, card) → its chance

    def chance(self, table: Table, seat: int, legal: int, card: int, normal: int) -> float:
        """:meth:`PlayModel.chance`, remembered."""
        key = (table.gone, table.hands[seat], card)
        found = self.seen.get(key)
        if found is None:
            found = self.seen[key] = self.model.chance(table, seat, legal, card, normal)
        return found


#: A play model as the habits read it: the model itself, or one remembering its chances for a view.
CardChances = PlayModel | Remembered


@functools.cache
def play_model() -> PlayModel:
    """The trained model (:mod:`gongzhu.ai.play_weights`)."""
    if play_weights.FEATURES != FEATURES:
        raise ValueError(f"the play model was trained on other features: {play_weights.FEATURES}")
    return PlayModel(play_weights.WEIGHTS)
