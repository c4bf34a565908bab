"""Players: anything that answers an expose decision and a play decision from a seat's view.

A player spec is a string: ``random``, a level registered by :mod:`gongzhu.ai` (``easy``,
``normal``, ``hard``) or ``cmd:<shell command>`` for an outside bot (see :mod:`gongzhu.agent`).
"""

from __future__ import annotations

import contextlib
import importlib
import random
from collections.abc import Callable
from typing import Protocol

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
_LEVELS: dict[str, PlayerFactory] = {}


def register_level(name: str, factory: PlayerFactory) -> None:
    _LEVELS[name] = factory


class RandomPlayer:
    """Uniformly random legal play; exposes each exposable card with probability 1/4."""

    def __init__(self, seed: int, seat: int) -> None:
        self.rng = random.Random(f"random:{seed}:{seat}")

    def expose(self, view: View) -> list[str]:
        return [c for c in view["exposable"] if self.rng.random() < 0.25]

    def play(self, view: View) -> str:
        legal: list[str] = view["legal"]
        return self.rng.choice(legal)


register_level("random", RandomPlayer)


def level_names() -> list[str]:
    _load_levels()
    return sorted(_LEVELS)


def _load_levels() -> None:
    """Import :mod:`gongzhu.ai`, which registers its levels (the engine works without it)."""
    with contextlib.suppress(ModuleNotFoundError):
        importlib.import_module("gongzhu.ai")


def make_player(spec: str, seed: int, seat: int) -> Player:
    """A player for ``spec``; outside bots (``cmd:``) are made by :mod:`gongzhu.agent`."""
    _load_levels()
    factory = _LEVELS.get(spec)
    if factory is None:
        known = ", ".join(sorted(_LEVELS)) + ", cmd:<command>"
        raise PlayerSpecError(f"unknown player {spec!r} (expected one of: {known})")
    return factory(seed, seat)
