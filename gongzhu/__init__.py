"""Gong Zhu (拱猪): a pure, standard-library rules engine, computer players and a headless simulator.

Public API::

    state = new_match(seed)                     # plain JSON data, hand 1 in its expose phase
    state = new_match(seed, Rules(match_end="-500"))  # house rules (docs/rules.md)
    view = view_for(state, seat)                # what one seat may know
    result = apply(state, {"type": "play", "seat": 0, "card": "QS"})
    if isinstance(result, Refusal): result.reason   # a Reason code; state unchanged
"""

from .cards import DECK, EXPOSABLE, CardError, parse_card_list, sort_cards
from .game import (
    MAX_SEED,
    SCHEMA_VERSION,
    Action,
    IllegalAction,
    InvalidDeal,
    InvalidSeed,
    MatchResult,
    State,
    View,
    apply,
    apply_legal,
    card_refusals,
    check_action,
    check_deal,
    deal_hands,
    exposable_cards,
    hand_breakdowns,
    legal_plays,
    match_from_deal,
    match_result,
    new_match,
    replay,
    view_for,
)
from .house_rules import DEFAULT_RULES, Rules, RulesError
from .rules import Reason, Refusal
from .scoring import Breakdown, hand_score, score_breakdown
from .state_check import InvalidState, validate_state

__all__ = [
    "DECK",
    "DEFAULT_RULES",
    "EXPOSABLE",
    "MAX_SEED",
    "SCHEMA_VERSION",
    "Action",
    "Breakdown",
    "CardError",
    "IllegalAction",
    "InvalidDeal",
    "InvalidSeed",
    "InvalidState",
    "MatchResult",
    "Reason",
    "Refusal",
    "Rules",
    "RulesError",
    "State",
    "View",
    "apply",
    "apply_legal",
    "card_refusals",
    "check_action",
    "check_deal",
    "deal_hands",
    "exposable_cards",
    "hand_breakdowns",
    "hand_score",
    "legal_plays",
    "match_from_deal",
    "match_result",
    "new_match",
    "parse_card_list",
    "replay",
    "score_breakdown",
    "sort_cards",
    "validate_state",
    "view_for",
]
