"""Hints for the UI: Hard's choice for a view plus a short machine reason code (no prose).

``hint(view, seed)`` answers, in the play phase on the seat's turn::

    {"card": "3S", "suit": "S", "rank": "3", "reason": "keeps_pig_guarded", "expected": -42}

and in the expose phase (``view["exposable"]`` not empty)::

    {"cards": ["QS"], "reason": "expose_confident", "expected_gain": 18}

otherwise ``{"reason": "no_decision"}``.  ``expected`` is Hard's expected hand score for the card,
``expected_gain`` the expected gain of the exposure over exposing nothing.

Reason codes (the UI translates them):

- ``only_card``: the only legal card.
- ``runs_all_hearts``: going for all 13 hearts.
- ``dumps_pig``: gets rid of QS onto another player's trick.
- ``wins_goat``: wins (or leads to win) the trick holding JD.
- ``takes_transformer``: wins the trick holding TC.
- ``dumps_transformer``: gives TC away.
- ``blocks_all_hearts``: takes a heart so a player cannot take all hearts.
- ``sheds_high_heart``: gets rid of a big heart (J, Q, K, A) onto another player's trick.
- ``sheds_high_spade``: gets rid of AS/KS while the pig is still out.
- ``keeps_pig_guarded``: holds QS and keeps the low spades that protect it.
- ``flushes_pig``: leads a low spade to force the pig out.
- ``voids_suit``: plays the last card of a suit, to discard into it later.
- ``ducks``: plays under the card winning the trick.
- ``takes_safe_trick``: wins a trick with no point cards.
- ``safe_low_card``: leads a low card unlikely to win.
- ``discards``: throws a card of another suit.
- ``best_expected``: best by expected score, no simpler reason.
- ``expose_confident`` / ``expose_none``: the expose decision.
- ``no_decision``: nothing for this seat to decide now.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..cards import HEARTS, HEARTS_MASK, INDEX, PIG_BIT, SPADES, SUIT_MASKS, TRANSFORMER_BIT, to_mask
from ..game import View
from ..rules import winning_position
from .config import HARD_MARGIN
from .hard import choose_expose, choose_play
from .heuristic import HIGH_SPADES, JD, QS, TC, hearts_runner, shooting
from .knowledge import read_view

REASONS = (
    "only_card", "runs_all_hearts", "dumps_pig", "wins_goat", "takes_transformer", "dumps_transformer",
    "blocks_all_hearts", "sheds_high_heart", "sheds_high_spade", "keeps_pig_guarded", "flushes_pig",
    "voids_suit", "ducks", "takes_safe_trick", "safe_low_card", "discards", "best_expected",
    "expose_confident", "expose_none", "no_decision",
)  # fmt: skip


def hint(view: View, seed: int = 0, budget: int = HARD_MARGIN.budget) -> dict[str, Any]:
    """Hard's advice for ``view`` with a reason code (see the module docstring), from Hard's hand
    margin (:data:`~gongzhu.ai.config.HARD_MARGIN`) at ``budget`` simulated plays."""
    config = replace(HARD_MARGIN, budget=budget)
    if view["phase"] == "expose" and view["exposable"]:
        cards, evaluation = choose_expose(view, seed, config)
        gain = evaluation.values[to_mask(cards)] - evaluation.values[0]
        return {"cards": cards, "reason": "expose_confident" if cards else "expose_none",
                "expected_gain": round(gain)}  # fmt: skip
    if view["phase"] != "play" or view["turn"] != view["seat"] or not view["legal"]:
        return {"reason": "no_decision"}
    card, played = choose_play(view, seed, config)
    out: dict[str, Any] = {"card": card, "suit": card[1], "rank": card[0], "reason": play_reason(view, card)}
    if played is not None:
        out["expected"] = round(played.values[INDEX[card]])
    return out


def play_reason(view: View, code: str) -> str:
    """The reason code for playing ``code`` in ``view``."""
    if len(view["legal"]) == 1:
        return "only_card"
    k = read_view(view)
    table = k.table()
    seat, card, hand = k.seat, INDEX[code], k.hand
    bit, suit, trick = 1 << card, card // 13, k.trick
    if shooting(table, seat):
        return "runs_all_hearts"
    if trick:
        lead_suit = trick[0] // 13
        wins = winning_position([*trick, card]) == len(trick)  # would this card take the trick now
        tmask = bit
        for c in trick:
            tmask |= 1 << c
    else:
        lead_suit, wins, tmask = suit, False, bit
    pig_out = not (k.gone | hand) & PIG_BIT
    if trick and not wins:
        if card == QS:
            return "dumps_pig"
        if card == TC:
            return "dumps_transformer"
        if suit == HEARTS and card % 13 >= 9:
            return "sheds_high_heart"
        if bit & HIGH_SPADES and pig_out:
            return "sheds_high_spade"
    if (wins or (not trick and card == JD)) and tmask >> JD & 1:
        return "wins_goat"
    if wins and tmask & TRANSFORMER_BIT:
        return "takes_transformer"
    runner = hearts_runner(table)
    if wins and runner >= 0 and runner != seat and tmask & HEARTS_MASK:
        return "blocks_all_hearts"
    if hand & PIG_BIT and card != QS and (suit != SPADES or not trick):
        return "keeps_pig_guarded"
    if not trick and suit == SPADES and pig_out and card < QS:
        return "flushes_pig"
    if (hand & SUIT_MASKS[suit]) == bit and (not trick or suit == lead_suit):
        return "voids_suit"
    if trick and suit != lead_suit:
        return "discards"
    if trick and not wins:
        return "ducks"
    if wins and len(trick) == 3 and not tmask & (HEARTS_MASK | PIG_BIT | TRANSFORMER_BIT | (1 << JD)):
        return "takes_safe_trick"
    if not trick and bit == hand & SUIT_MASKS[suit] & -(hand & SUIT_MASKS[suit]):
        return "safe_low_card"
    return "best_expected"


__all__ = ["REASONS", "hint", "play_reason"]
