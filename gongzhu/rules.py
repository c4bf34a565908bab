"""What may be played: the follow rule and the exposed-card restriction, on bit masks.

Everything here depends only on what the acting seat knows (its hand, its own exposed cards, the
suits already led and the current trick), so the engine, the AI's simulations and the UI's
per-card answers all use these same functions.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .cards import DECK, SUIT_MASKS, SUITS, suit_of


class Reason(StrEnum):
    """Why an action was refused. Codes only: the UI turns them into words."""

    WRONG_PHASE = "wrong_phase"
    NOT_YOUR_TURN = "not_your_turn"
    NOT_IN_HAND = "not_in_hand"
    MUST_FOLLOW_SUIT = "must_follow_suit"
    EXPOSED_FIRST_TRICK = "exposed_first_trick"
    NOT_EXPOSABLE = "not_exposable"
    ALREADY_DECIDED = "already_decided"
    UNKNOWN_CARD = "unknown_card"
    BAD_ACTION = "bad_action"


@dataclass(frozen=True)
class Refusal:
    """A typed refusal: a reason code plus the card and suit it concerns, when there are any."""

    reason: Reason
    card: str | None = None
    suit: str | None = None

    def to_json(self) -> dict[str, str]:
        out = {"reason": self.reason.value}
        if self.card is not None:
            out["card"] = self.card
        if self.suit is not None:
            out["suit"] = self.suit
        return out


def legal_mask(hand: int, exposed: int, led_before: int, lead_suit: int) -> int:
    """Cards of ``hand`` that may be played now.

    ``exposed``: this seat's exposed cards still in hand or not; ``led_before``: a 4-bit set of the
    suits led in completed tricks of this hand; ``lead_suit``: suit of the current trick, or -1 when
    this seat leads.  An exposed card may not be played in the first trick of its suit (leading it
    included) unless it is the only card of that suit in hand; discarding it is always allowed.
    """
    held_exposed = exposed & hand
    if lead_suit < 0:
        allowed = hand
        while held_exposed:
            bit = held_exposed & -held_exposed
            held_exposed ^= bit
            suit = suit_of(bit.bit_length() - 1)
            if not (led_before >> suit) & 1 and hand & SUIT_MASKS[suit] != bit:
                allowed &= ~bit
        return allowed
    follow = hand & SUIT_MASKS[lead_suit]
    if not follow:
        return hand
    if not (led_before >> lead_suit) & 1:
        restricted = held_exposed & follow
        if restricted and follow != restricted:
            return follow & ~restricted
    return follow


def play_refusal(card: int, hand: int, exposed: int, led_before: int, lead_suit: int) -> Refusal | None:
    """Why ``card`` may not be played now, or None when it may (the card is known to be in hand)."""
    bit = 1 << card
    if legal_mask(hand, exposed, led_before, lead_suit) & bit:
        return None
    if lead_suit >= 0 and suit_of(card) != lead_suit:
        return Refusal(Reason.MUST_FOLLOW_SUIT, DECK[card], SUITS[lead_suit])
    return Refusal(Reason.EXPOSED_FIRST_TRICK, DECK[card], SUITS[suit_of(card)])


def winning_position(cards: list[int]) -> int:
    """Position in a trick, complete or not, of the card winning it so far: the highest of the suit led.

    ``cards`` are card indices in play order.  This is the one definition of who wins a trick; the
    engine, the AI's fast table and its strategies all call it.
    """
    suit = cards[0] // 13
    best, top = 0, cards[0]
    for i in range(1, len(cards)):
        card = cards[i]
        if card // 13 == suit and card > top:  # same suit: a higher index is a higher rank
            top, best = card, i
    return best


def trick_winner(plays: list[tuple[int, int]]) -> int:
    """Seat that wins a complete trick given as ``(seat, card)`` pairs in play order."""
    return plays[winning_position([card for _, card in plays])][0]
