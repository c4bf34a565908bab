"""The AI's fast table: one hand in progress as a handful of ints, played out card by card.

A :class:`Table` holds the four hands, the captures, the exposed cards, the suits already led and
the current trick, all as bit masks, so a full 13-trick playout is a few thousand integer
operations.  Policies are plain functions ``(table, seat, legal_mask) -> card index`` and must read
only ``table.hands[seat]`` of the hands (the search gives them a sampled world; the levels give them
a table whose other hands are empty).  The one exception is the searching seat's own playout policy,
:func:`gongzhu.ai.search.own_lookahead`, which looks at the world's hands to the end of a trick.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..cards import (
    ACE_OF_HEARTS_BIT,
    GOAT_BIT,
    HEARTS_MASK,
    PIG_BIT,
    POINT_MASK,
    SUIT_MASKS,
    TRANSFORMER_BIT,
)
from ..rules import legal_mask, winning_position

_HEART_RANK_VALUES = (0, 0, 0, -10, -10, -10, -10, -10, -10, -20, -30, -40, -50)  # 2 … A


def _heart_table() -> list[int]:
    table = [0] * 8192
    for bits in range(1, 8192):
        low = bits & -bits
        table[bits] = table[bits ^ low] + _HEART_RANK_VALUES[low.bit_length() - 1]
    return table


HEART_SUM: list[int] = _heart_table()  # value of every set of hearts, by its 13-bit mask


def fast_score(captured: int, exposed_all: int, flipped: bool = False) -> int:
    """Same number as :func:`gongzhu.scoring.hand_score`, without building a breakdown
    (``flipped``: the pig and the goat change sign, :func:`gongzhu.scoring.hearts_flip`)."""
    if not captured & POINT_MASK:
        return 0
    hearts_bits = (captured >> 13) & 0x1FFF
    if hearts_bits == 0x1FFF:
        hearts = 400 if exposed_all & ACE_OF_HEARTS_BIT else 200
        pig = 100 if captured & PIG_BIT else 0
    else:
        hearts = HEART_SUM[hearts_bits] * (2 if exposed_all & ACE_OF_HEARTS_BIT else 1)
        pig = (100 if flipped else -100) if captured & PIG_BIT else 0
    if pig and exposed_all & PIG_BIT:
        pig *= 2
    goat = (200 if exposed_all & GOAT_BIT else 100) if captured & GOAT_BIT else 0
    if flipped:
        goat = -goat
    if captured & TRANSFORMER_BIT:
        if captured & POINT_MASK == TRANSFORMER_BIT:
            return 100 if exposed_all & TRANSFORMER_BIT else 50
        return (hearts + pig + goat) * (4 if exposed_all & TRANSFORMER_BIT else 2)
    return hearts + pig + goat


def high_bit(mask: int) -> int:
    return mask.bit_length() - 1


def low_bit(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def lowest_card(legal: int) -> int:
    """The legal card of lowest rank (on a tie, the first suit's)."""
    best = -1
    for mask in SUIT_MASKS:
        if legal & mask:
            c = low_bit(legal & mask)
            if best < 0 or c % 13 < best % 13:
                best = c
    return best


def highest_card(legal: int) -> int:
    """The legal card of highest rank (on a tie, the first suit's)."""
    best = -1
    for mask in SUIT_MASKS:
        if legal & mask:
            c = high_bit(legal & mask)
            if best < 0 or c % 13 > best % 13:
                best = c
    return best


SITUATIONS = ("lead", "follow", "discard")  # where a decision is made, in this order
LEAD, FOLLOW, DISCARD = range(len(SITUATIONS))


def situation(table: Table, legal: int) -> int:
    """Where the seat on turn decides among ``legal``: leading, following suit or discarding."""
    if not table.trick:
        return LEAD
    return FOLLOW if legal & SUIT_MASKS[table.trick[0] // 13] else DISCARD


class Table:
    """A hand in progress.  ``gone`` = every card played so far, the current trick included."""

    __slots__ = ("captured", "exposed", "exposed_all", "flip", "gone", "hands", "leader", "led", "trick")

    def __init__(
        self,
        hands: list[int],
        captured: list[int],
        exposed: list[int],
        led: int,
        leader: int,
        trick: list[int],
        gone: int,
        flip: bool = False,
    ) -> None:
        self.hands = hands
        self.captured = captured
        self.exposed = exposed
        self.exposed_all = exposed[0] | exposed[1] | exposed[2] | exposed[3]
        self.led = led
        self.leader = leader
        self.trick = trick
        self.gone = gone
        self.flip = flip  # the house rule all_hearts=flip (docs/rules.md)

    def copy(self) -> Table:
        return Table(
            list(self.hands), list(self.captured), self.exposed, self.led, self.leader,
            list(self.trick), self.gone, self.flip,
        )  # fmt: skip

    def turn(self) -> int:
        return (self.leader + len(self.trick)) & 3

    def legal(self, seat: int) -> int:
        trick = self.trick
        lead_suit = trick[0] // 13 if trick else -1
        return legal_mask(self.hands[seat], self.exposed[seat], self.led, lead_suit)

    def cards_left(self) -> int:
        h = self.hands
        return (h[0] | h[1] | h[2] | h[3]).bit_count()

    def play(self, card: int) -> None:
        """Play ``card`` for the seat on turn; closes the trick after the fourth card."""
        trick = self.trick
        seat = (self.leader + len(trick)) & 3
        self.hands[seat] ^= 1 << card
        self.gone |= 1 << card
        trick.append(card)
        if len(trick) == 4:
            winner = (self.leader + winning_position(trick)) & 3
            self.captured[winner] |= (1 << trick[0]) | (1 << trick[1]) | (1 << trick[2]) | (1 << trick[3])
            self.led |= 1 << (trick[0] // 13)
            self.leader = winner
            self.trick = []

    def scores(self) -> list[int]:
        e = self.exposed_all
        c = self.captured
        flipped = self.flip and any(x & HEARTS_MASK == HEARTS_MASK for x in c)
        return [fast_score(x, e, flipped) for x in c]

    def own_score(self, captured: int) -> int:
        """A seat's score for ``captured`` as if the hand ended now (the flip when it holds every heart)."""
        return fast_score(captured, self.exposed_all, self.flip and captured & HEARTS_MASK == HEARTS_MASK)


Policy = Callable[[Table, int, int], int]


def run(table: Table, policy: Policy) -> None:
    """Play ``table`` to the end of the hand with every seat using ``policy``."""
    hands = table.hands
    while hands[0] | hands[1] | hands[2] | hands[3]:
        seat = (table.leader + len(table.trick)) & 3
        table.play(policy(table, seat, table.legal(seat)))


def random_policy(rng: random.Random) -> Policy:
    """Uniform random legal play (the benchmark's playout policy)."""

    def choose(table: Table, seat: int, legal: int) -> int:
        n = legal.bit_count()
        k = rng.randrange(n)
        while k:
            legal &= legal - 1
            k -= 1
        return low_bit(legal)

    return choose


def deal_table(hands: list[int], exposed: list[int] | None = None) -> Table:
    """A fresh hand: the holder of 2S leads."""
    leader = next(s for s in range(4) if hands[s] & 1)
    return Table(list(hands), [0, 0, 0, 0], exposed or [0, 0, 0, 0], 0, leader, [], 0)


def random_hands(rng: random.Random) -> list[int]:
    cards = list(range(52))
    rng.shuffle(cards)
    return [sum(1 << c for c in cards[13 * s : 13 * s + 13]) for s in range(4)]
