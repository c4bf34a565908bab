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
import operator
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
    TRANSFORMER,
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
_PIG, _GOAT, _TRANSFORMER = INDEX[PIG], INDEX[GOAT], INDEX[TRANSFORMER]
_OVER_PIG = SUIT_MASKS[SPADES] & ~((PIG_BIT << 1) - 1)
_OVER_GOAT = SUIT_MASKS[DIAMONDS] & ~((GOAT_BIT << 1) - 1)


# Where each feature's weight sits among a situation's weights.
(
    _NORMAL,
    _LOWEST,
    _HIGHEST,
    _LOW_OF_SUIT,
    _HIGH_OF_SUIT,
    _RANK,
    _LENGTH,
    _IS_PIG,
    _IS_GOAT,
    _IS_TRANSFORMER,
    _HEART,
    _HEART_RANK,
    _WINS,
    _WINS_POINTS,
    _WINS_LAST,
    _HIGHER_OUT,
    _LOWER_OUT,
    _OVER_THE_PIG,
    _OVER_THE_GOAT,
) = range(len(FEATURES))


def card_scores(
    w: Sequence[float], table: Table, seat: int, legal: int, normal: int
) -> list[tuple[int, float]]:
    """Each legal card with its score, the sum of its :data:`FEATURES` times their weights ``w`` (one
    situation's), for the seat on turn holding ``table.hands[seat]``, Normal's card being ``normal``.

    The one definition of the features: a card's features are its scores under unit weights
    (:func:`card_features`).  Written as a sum of the features that are not 0, with what a suit's cards
    share reckoned once a suit, because the worlds' chains ask it thousands of times a decision."""
    hand = table.hands[seat]
    trick = table.trick
    out = FULL_MASK & ~table.gone & ~hand
    lowest, highest = lowest_card(legal), highest_card(legal)
    top = trick[winning_position(trick)] if trick else -1
    top_suit = top // 13 if top >= 0 else -1
    trick_points = any((1 << c) & _POINTS for c in trick)
    wins_base = w[_WINS] + (w[_WINS_LAST] if len(trick) == 3 else 0.0)
    over_pig = _OVER_PIG if out & PIG_BIT else 0
    over_goat = _OVER_GOAT if out & GOAT_BIT else 0
    special: dict[int, float] = {}  # the cards a feature names, with the weights of every feature naming each
    for named, weight in (
        (normal, w[_NORMAL]),
        (_PIG, w[_IS_PIG]),
        (_GOAT, w[_IS_GOAT]),
        (_TRANSFORMER, w[_IS_TRANSFORMER]),
        (lowest, w[_LOWEST]),
        (highest, w[_HIGHEST]),
    ):
        special[named] = special.get(named, 0.0) + weight
    scores: list[tuple[int, float]] = []
    for suit, suit_mask in enumerate(SUIT_MASKS):
        in_suit = legal & suit_mask
        if not in_suit:
            continue
        heart = suit == HEARTS
        rank_weight = w[_RANK] + w[_HEART_RANK] if heart else w[_RANK]
        base = w[_LENGTH] * (hand & suit_mask).bit_count() / 13 + (w[_HEART] if heart else 0.0)
        low, high = low_bit(in_suit), high_bit(in_suit)
        suit_out = out & suit_mask
        first = 13 * suit
        bits = in_suit
        while bits:
            bit = bits & -bits
            bits ^= bit
            card = bit.bit_length() - 1
            below = bit - 1
            score = (
                base
                + rank_weight * (card - first) / 12
                + w[_HIGHER_OUT] * (suit_out & ~(below | bit)).bit_count() / 12
                + w[_LOWER_OUT] * (suit_out & below).bit_count() / 12
                + special.get(card, 0.0)
            )
            if card == low:
                score += w[_LOW_OF_SUIT]
            if card == high:
                score += w[_HIGH_OF_SUIT]
            if suit == top_suit and card > top:
                score += wins_base + (w[_WINS_POINTS] if trick_points or bit & _POINTS else 0.0)
            if bit & over_pig:
                score += w[_OVER_THE_PIG]
            if bit & over_goat:
                score += w[_OVER_THE_GOAT]
            scores.append((card, score))
    return scores


def card_features(table: Table, seat: int, legal: int, normal: int) -> list[tuple[int, list[float]]]:
    """Each legal card with its :data:`FEATURES` (its :func:`card_scores` under each unit weight), for
    the seat on turn holding ``table.hands[seat]``, Normal's card being ``normal``."""
    columns = []
    for f in range(len(FEATURES)):
        unit = [0.0] * len(FEATURES)
        unit[f] = 1.0
        columns.append(card_scores(unit, table, seat, legal, normal))
    return [(card, [column[i][1] for column in columns]) for i, (card, _) in enumerate(columns[0])]


def softmax(scores: list[float]) -> list[float]:
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    total = math.fsum(exps)
    return [e / total for e in exps]


def situation_weights(weights: Sequence[float], where: int) -> Sequence[float]:
    """The weights of situation ``where`` among ``weights`` (situation-major, as :class:`PlayModel` holds
    them)."""
    return weights[where * len(FEATURES) : (where + 1) * len(FEATURES)]


def row_chances(weights: Sequence[float], where: int, rows: Sequence[Sequence[float]]) -> list[float]:
    """The chance of each card, given as its :data:`FEATURES` ``rows``, in situation ``where`` by
    ``weights`` (situation-major): the scoring the trainer fits by."""
    w = situation_weights(weights, where)
    return softmax([sum(map(operator.mul, w, f)) for f in rows])


@dataclass(frozen=True)
class PlayModel:
    """A linear softmax over :data:`FEATURES`, one weight per situation and feature."""

    weights: tuple[float, ...]  # situation-major: weights[s * len(FEATURES) + f]

    def chances(self, table: Table, seat: int, legal: int, normal: int) -> dict[int, float]:
        """The chance of each legal card of the seat on turn (``normal``: Normal's card there)."""
        scores = card_scores(
            situation_weights(self.weights, situation(table, legal)), table, seat, legal, normal
        )
        chances = softmax([score for _, score in scores])
        return {card: p for (card, _), p in zip(scores, chances, strict=True)}

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
