"""The table view: one seat's view plus every fact the table shows, as data, so the UI derives nothing.

:func:`table_view` is what the browser renders (seat 0): :func:`~gongzhu.game.view_for` — never a
hidden card — with, added:

- ``refusals``: per card of the hand, ``None`` when it may be played now, else the refusal
  (``{reason, card, suit?}``: ``wrong_phase``, ``not_your_turn``, ``must_follow_suit``,
  ``exposed_first_trick``).
- ``expose_refusals``: per card of the hand, ``None`` when it may be chosen for exposure now, else
  the refusal (``wrong_phase`` outside the expose phase, ``already_decided`` once this seat chose,
  ``not_exposable`` for a card that cannot be exposed).
- ``actions``: per action type (``expose``, ``play``, ``next_hand``), ``None`` when this seat may
  send one now, else the refusal (``wrong_phase``, ``not_your_turn``, ``already_decided``).
- ``exposable_effects``: for each card of ``exposable``, the effect of exposing it (an effect code,
  below).
- ``exposures``: the exposures in effect this hand, ``[{seat, card, effect}]`` in seat order (empty
  until they are revealed together at the end of the expose phase).
- ``exposed_held``: per seat, its exposed cards not yet played (they stay marked on the table).
- ``point_cards``: per seat, the point cards among its captured cards, in display order.
- ``threat``: the seat that has taken every heart taken so far (at least one), else ``None``.
- ``memory``: the table-memory aid (:func:`gongzhu.memory.memory_aid`, from the view only): per
  seat the suits it is known to be void in, per seat its exposed cards still to come, and the point
  cards not yet played. The page shows it when the player turns the aid on.
- ``moments``: once a hand is over, per seat its moments (:mod:`gongzhu.moments`: ``codes``,
  ``exposed``, ``exposure_effect``), which the player's statistics count; ``None`` during a hand.
- ``match_id``: a token naming the match (not its seed), the key under which statistics count it.
- ``house_rules``: the match's rules that differ from the defaults, ``{rule: value}`` (empty for the
  standard rules; ``rules`` has all four), which the table's badge and the summaries name.
- ``match_end``: what ends the match, ``{"total": -1000 | -500 | None, "hands": None | 4 | 8}`` (the
  score chart draws the ending total's line).

Effect codes (:data:`~gongzhu.scoring.EXPOSURE_EFFECTS`): ``hearts_x2``, ``pig_x2``, ``goat_x2``,
``transformer_x4``; a breakdown's ``exposure_effects`` may also hold ``transformer_bonus_x2`` (the
transformer taken alone scores +100).  ``last_hand.breakdowns[s]`` already carries each multiplier
and ``exposure_effects``, the exposures that changed that seat's score.
"""

from __future__ import annotations

from typing import Any, TypedDict

from .game import (
    State,
    View,
    all_hearts_threat,
    card_refusals,
    check_action,
    play_turn_refusal,
    point_cards,
    rules_of,
    view_for,
)
from .memory import MemoryAid, memory_aid
from .moments import SeatMoments, finished_hand_moments, match_id
from .rules import Refusal
from .scoring import EXPOSURE_EFFECTS

RefusalData = dict[str, str] | None  # Refusal.to_json(), or None when allowed


class Exposure(TypedDict):
    seat: int
    card: str
    effect: str  # an EXPOSURE_EFFECTS code


class TableFacts(TypedDict):
    """The fields :func:`table_view` adds to the seat's view (documented in the module docstring)."""

    refusals: dict[str, RefusalData]
    expose_refusals: dict[str, RefusalData]
    actions: dict[str, RefusalData]
    exposable_effects: dict[str, str]
    exposures: list[Exposure]
    exposed_held: list[list[str]]
    point_cards: list[list[str]]
    threat: int | None
    memory: MemoryAid
    moments: list[SeatMoments] | None
    match_id: str
    house_rules: dict[str, str]
    match_end: MatchEnd


class MatchEnd(TypedDict):
    total: int | None  # the total that ends the match, or None for a fixed number of hands
    hands: int | None  # the number of hands that ends it, or None


class TableView(TableFacts):
    """The whole table view :func:`table_view` returns: the seat's view (:func:`~gongzhu.game.view_for`,
    whose fields are declared here) and the :class:`TableFacts`. The one declaration of what the
    page receives: the UI's type of seat 0's view (``ui.core.state.TableView``, for mypy) is this one.
    """

    schema: int  # the engine state's schema
    seat: int  # whose view
    rules: dict[str, str]  # the match's house rules, all four (docs/rules.md, "House rules")
    phase: str  # one of gongzhu.vocab.PHASES
    hand_number: int  # the hand in play (from 1)
    totals: list[int]  # the match totals, per seat
    hand: list[str]  # the seat's cards, sorted
    hand_sizes: list[int]  # how many cards each seat holds
    exposable: list[str]  # the cards the seat may still expose (empty once decided)
    my_expose: list[str] | None  # the seat's secret expose choice until the reveal, or None
    exposed: list[list[str]]  # per seat, the cards exposed (empty until all four decided)
    leader: int  # who led the hand
    tricks: list[dict[str, Any]]  # the completed tricks: {leader, plays: [{seat, card}], winner}
    trick: dict[str, Any]  # the trick on the table
    turn: int | None  # who acts, or None
    captured: list[list[str]]  # per seat, the cards taken this hand
    hand_scores: list[int]  # per seat, the hand score so far
    last_hand: Any  # the last finished hand {number, scores, totals, exposed, breakdowns, tricks}, or None
    history: list[dict[str, Any]]  # the finished hands: {number, scores, totals}
    result: Any  # the match result {totals, ranking, winner, eliminated}, or None before its end
    legal: list[str]  # the cards the seat may play now


def table_view(state: State, seat: int = 0) -> View:
    """``view_for(state, seat)`` with the :class:`TableFacts` the table shows: a :class:`TableView`."""
    view = view_for(state, seat)
    view.update(table_facts(state, view))
    return view


def table_facts(state: State, view: View) -> TableFacts:
    seat: int = view["seat"]
    rules = rules_of(state)
    played = {p["card"] for trick in [*view["tricks"], view["trick"]] for p in trick["plays"]}
    return TableFacts(
        refusals={card: _data(refusal) for card, refusal in card_refusals(view).items()},
        expose_refusals={card: _data(_expose_refusal(state, seat, card)) for card in view["hand"]},
        actions={
            "expose": _data(check_action(state, {"type": "expose", "seat": seat, "cards": []})),
            "play": _data(play_turn_refusal(view)),
            "next_hand": _data(check_action(state, {"type": "next_hand"})),
        },
        exposable_effects={card: EXPOSURE_EFFECTS[card] for card in view["exposable"]},
        exposures=[
            Exposure(seat=s, card=card, effect=EXPOSURE_EFFECTS[card])
            for s in range(4)
            for card in view["exposed"][s]
        ],
        exposed_held=[[c for c in view["exposed"][s] if c not in played] for s in range(4)],
        point_cards=[point_cards(cards) for cards in view["captured"]],
        threat=all_hearts_threat(view["captured"]),
        memory=memory_aid(view),
        moments=finished_hand_moments(state),
        match_id=match_id(state["seed"]),
        house_rules=rules.changed(),
        match_end=MatchEnd(total=rules.elimination, hands=rules.hands),
    )


def _expose_refusal(state: State, seat: int, card: str) -> Refusal | None:
    return check_action(state, {"type": "expose", "seat": seat, "cards": [card]})


def _data(refusal: Refusal | None) -> RefusalData:
    return None if refusal is None else refusal.to_json()


__all__ = ["Exposure", "MatchEnd", "TableFacts", "TableView", "table_facts", "table_view"]
