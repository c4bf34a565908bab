"""Crafted positions for the AI tests: a state whose hands, exposures and current trick we choose."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gongzhu import DECK, State, apply, new_match, view_for
from gongzhu.cards import sort_cards
from gongzhu.players import Player


def crafted_state(
    hands: list[list[str]],
    leader: int,
    plays: list[str] | None = None,
    exposed: list[list[str]] | None = None,
    captured: list[list[str]] | None = None,
    dump: int = 2,
) -> State:
    """A play-phase state: ``leader`` has led the current trick and ``plays`` were played in turn.

    Hands may hold fewer than 13 cards (a hand near its end); no completed tricks are recorded, and
    the cards in no hand and not in ``plays`` are added to ``captured[dump]`` (they are gone).
    """
    state = new_match(1)
    exposed = exposed or [[], [], [], []]
    full = [list(h) for h in hands]
    for i, card in enumerate(plays or []):
        full[(leader + i) % 4].append(card)
    captured = [list(c) for c in (captured or [[], [], [], []])]
    accounted = {c for cards in full + captured for c in cards}
    captured[dump] += [c for c in DECK if c not in accounted]
    state.update(
        phase="play",
        hand_number=2,  # hand 1 would tell the AI that the first leader holds 2S
        deal=[sort_cards(h) for h in full],
        hands=[sort_cards(h) for h in full],
        expose_choices=[list(e) for e in exposed],
        exposed=[list(e) for e in exposed],
        leader=leader,
        tricks=[],
        trick={"leader": leader, "plays": []},
        turn=leader,
        captured=[sort_cards(c) for c in captured],
    )
    for i, card in enumerate(plays or []):
        result = apply(state, {"type": "play", "seat": (leader + i) % 4, "card": card})
        assert isinstance(result, dict), result
        state = result
    return state


def crafted_view(*args: Any, **kwargs: Any) -> dict[str, Any]:
    state = crafted_state(*args, **kwargs)
    return view_for(state, state["turn"])


def nobody_exposes(state: State) -> State:
    """``state`` after every seat still to decide has exposed nothing (the play phase begins)."""
    for seat in range(4):
        if state["expose_choices"][seat] is None:
            after = apply(state, {"type": "expose", "seat": seat, "cards": []})
            assert isinstance(after, dict), after
            state = after
    return state


def played_until(state: State, players: Sequence[Player], tricks: int, seat: int = 0) -> State:
    """``state`` played on by ``players`` until ``tricks`` tricks are done and it is ``seat``'s turn."""
    while len(state["tricks"]) < tricks or state["turn"] != seat:
        turn = state["turn"]
        card = players[turn].play(view_for(state, turn))
        after = apply(state, {"type": "play", "seat": turn, "card": card})
        assert isinstance(after, dict), after
        state = after
    return state
