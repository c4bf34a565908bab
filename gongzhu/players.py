"""Players: anything that answers an expose decision and a play decision from a seat's view.

A player spec is a string: ``random``, a level of :mod:`gongzhu.ai` (``easy``, ``normal``,
``hard``: :data:`gongzhu.ai.LEVELS`) or ``cmd:<shell command>`` for an outside bot (see
:mod:`gongzhu.agent`). The AI is a plain import: a broken or missing ``gongzhu.ai`` fails loudly.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from .ai import LEVEL_FACTORIES, LEVELS
from .game import View


class Player(Protocol):
    def expose(self, view: View) -> list[str]:
        """Cards to expose, a subset of ``view["exposable"]`` (called only when it is not empty)."""
        ...

    def play(self, view: View) -> str:
        """A card of ``view["legal"]``."""
        ...


class PlayerSpecError(ValueError):
    """A player spec that names no known kind of player."""


PlayerFactory = Callable[[int, int], Player]  # (seed, seat) -> player


class RandomPlayer:
    """Uniformly random legal play; exposes each exposable card with probability 1/4."""

    def __init__(self, seed: int, seat: int) -> None:
        self.rng = random.Random(f"random:{seed}:{seat}")

    def expose(self, view: View) -> list[str]:
        return [c for c in view["exposable"] if self.rng.random() < 0.25]

    def play(self, view: View) -> str:
        legal: list[str] = view["legal"]
        return self.rng.choice(legal)


#: Every level a player spec may name: ``random`` and the computer opponents' levels.
PLAYER_LEVELS: tuple[str, ...] = ("random", *LEVELS)
_FACTORIES: dict[str, PlayerFactory] = {"random": RandomPlayer, **LEVEL_FACTORIES}


def level_names() -> list[str]:
    """:data:`PLAYER_LEVELS`, sorted."""
    return sorted(PLAYER_LEVELS)


def make_player(spec: str, seed: int, seat: int) -> Player:
    """A player for ``spec``; outside bots (``cmd:``) are made by :mod:`gongzhu.agent`."""
    factory = _FACTORIES.get(spec)
    if factory is None:
        known = ", ".join(PLAYER_LEVELS) + ", cmd:<command>"
        raise PlayerSpecError(f"unknown player {spec!r} (expected one of: {known})")
    return factory(seed, seat)
