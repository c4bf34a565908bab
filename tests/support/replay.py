"""Predicting in CPython what a page does, through the engine worker's ops (no browser).

:func:`finish_like_page` and :func:`simulate` play a hand as a page opened with ``?seed=N&fast=1``
does when the player never exposes and always plays its first playable card (what
``tools.browser.finish_hand`` does); the rest comes from :mod:`tools.replay`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from typing import Any

from gongzhu.vocab import DAILY_LEVEL
from tools.replay import op, play_out, save_text

__all__ = [
    "COSTLY_SEED",
    "QUICK",
    "QUICK_SEED",
    "at_last_trick",
    "daily_at_last_trick",
    "daily_played",
    "find_seed",
    "finish_like_page",
    "my_exposable",
    "op",
    "play_out",
    "predicted_hand_over",
    "quick_match_hands",
    "save_text",
    "simulate",
]  # fmt: skip


#: A deal whose hand 1, played as ``finish_hand`` plays it (the first playable card), holds costly
#: plays by the coach's measure (the player's own expected hand score).
COSTLY_SEED = 2


def my_exposable(seed: int) -> list[str]:
    return list(op("new_match", seed=seed)["view"]["exposable"])


def _first_playable(view: dict[str, Any]) -> str:
    return next(c for c in view["hand"] if view["refusals"][c] is None)


def simulate(
    seed: int, expose: Callable[[list[str]], list[str]], stop: Callable[[dict[str, Any]], bool]
) -> tuple[dict[str, Any], int] | None:
    """Replay a page with ``?seed=seed&fast=1``: stop at the first turn of seat 0 where ``stop(view)``.

    Returns (packed state, number of cards seat 0 played before) or None when the hand ends first.
    """
    packed = op("new_match", seed=seed)
    packed = op("bots_expose", state=packed["state"], level="normal")
    if packed["view"]["phase"] == "expose":
        cards = expose(packed["view"]["exposable"])
        packed = op("step", state=packed["state"], action={"type": "expose", "seat": 0, "cards": cards})
    mine = 0
    while packed["view"]["phase"] == "play":
        view = packed["view"]
        if view["turn"] == 0:
            if stop(view):
                return packed, mine
            action = {"type": "play", "seat": 0, "card": _first_playable(view)}
            packed = op("step", state=packed["state"], action=action)
            mine += 1
        else:
            packed = op("bot_step", state=packed["state"], seat=view["turn"], level="normal")
    return None


def find_seed(predicate: Callable[[int], bool], limit: int = 400) -> int:
    for seed in range(1, limit):
        if predicate(seed):
            return seed
    raise AssertionError("no seed found")


def finish_like_page(
    packed: dict[str, Any], level: str = "normal", until: Callable[[dict[str, Any]], bool] | None = None
) -> dict[str, Any]:
    """Play the hand of ``packed`` to its end (or until ``until(view)``) as ``finish_hand`` does in a
    ``?fast=1`` page: the player never exposes and always plays its first playable card, the
    opponents at ``level``."""
    while packed["view"]["phase"] in ("expose", "play") and not (until and until(packed["view"])):
        view = packed["view"]
        if view["phase"] == "expose":
            packed = op("bots_expose", state=packed["state"], level=level)
            if packed["view"]["phase"] == "expose":
                packed = op("step", state=packed["state"], action={"type": "expose", "seat": 0, "cards": []})
        elif view["turn"] == 0:
            packed = op(
                "step",
                state=packed["state"],
                action={"type": "play", "seat": 0, "card": _first_playable(view)},
            )
        else:
            packed = op("bot_step", state=packed["state"], seat=view["turn"], level=level)
    return packed


def predicted_hand_over(seed: int) -> dict[str, Any]:
    """The page's hand 1 with ``?seed=seed&fast=1`` played as ``finish_hand`` plays it."""
    return finish_like_page(op("new_match", seed=seed))


def my_last_card(view: dict[str, Any]) -> bool:
    """The player's turn in the last trick: one card from the hand's end."""
    return bool(view["phase"] == "play" and len(view["tricks"]) == 12 and view["turn"] == 0)


def at_last_trick(seed: int) -> dict[str, Any]:
    """The page's hand 1 with ``?seed=seed&fast=1``, played as ``finish_hand`` plays it up to the
    player's turn in the last trick: one card from the hand's end."""
    return finish_like_page(
        op("new_match", seed=seed),
        until=my_last_card,
    )


def daily_at_last_trick(date: str) -> dict[str, Any]:
    """The daily deal of ``date`` (Hard opponents), played as ``finish_hand`` plays it up to the
    player's turn in the last trick. (Hard's search takes seconds: played once per process.)"""
    found: dict[str, Any] = json.loads(_daily_at_last_trick(date))
    return found


@cache
def _daily_at_last_trick(date: str) -> str:
    return json.dumps(finish_like_page(op("daily", date=date), DAILY_LEVEL, until=my_last_card))


def daily_played(date: str) -> dict[str, Any]:
    """The daily deal of ``date`` played to its end as ``finish_hand`` plays it (its last trick
    from :func:`daily_at_last_trick`)."""
    return finish_like_page(daily_at_last_trick(date), DAILY_LEVEL)


#: A quick match's house rules, and the deal of tests/e2e/test_house_rules.py's (it ends in hand 7).
QUICK = {"match_end": "-500"}
QUICK_SEED = 41


def quick_match_hands(seed: int = QUICK_SEED) -> list[dict[str, Any]]:
    """Every hand of a quick match (−500) as the page plays it: the packed state at each hand's start
    (before anyone exposed), then the packed match result."""
    packed = op("new_match", seed=seed, rules=QUICK)
    starts = []
    while True:
        starts.append(packed)
        assert len(starts) < 30, "a quick match that does not end"
        packed = finish_like_page(packed)
        if packed["view"]["phase"] == "match_over":
            return [*starts, packed]
        assert packed["view"]["phase"] == "hand_over"
        assert min(packed["view"]["totals"]) > -500, "the match went on past its end"
        packed = op("step", state=packed["state"], action={"type": "next_hand"})
