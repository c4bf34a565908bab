"""Players: anything that answers an expose decision and a play decision from a seat's view.

A player spec is a string: ``random``, a level of :mod:`gongzhu.ai` (``easy``, ``normal``,
``hard``: :data:`gongzhu.ai.LEVELS`), a name added with :func:`register_player` (the benchmarks'
players, never the game's) or ``cmd:<shell command>`` for an outside bot (see :mod:`gongzhu.agent`).
The AI is a plain import: a broken or missing ``gongzhu.ai`` fails loudly.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
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
_BUILT_IN: dict[str, PlayerFactory] = {"random": RandomPlayer, **LEVEL_FACTORIES}
#: Every player spec's factory: the built-in ones and those added by :func:`register_player`.
_REGISTRY: dict[str, PlayerFactory] = dict(_BUILT_IN)


def register_player(name: str, factory: PlayerFactory) -> None:
    """Make ``name`` a player spec in this process, played by ``factory(seed, seat)``.  The game's
    players cannot be replaced, and ``cmd:`` names an outside bot.  A tournament's workers register
    the same players (:func:`added_players`), so ``factory`` must pickle: a module-level function
    or class, or a :func:`functools.partial` of one."""
    if name in _BUILT_IN or name.startswith("cmd:") or not name:
        raise PlayerSpecError(f"cannot register a player as {name!r}: the name is taken")
    _REGISTRY[name] = factory


def added_players(names: Iterable[str] | None = None) -> dict[str, PlayerFactory]:
    """The players :func:`register_player` added (only those among ``names``, when given)."""
    added = {n: f for n, f in _REGISTRY.items() if n not in _BUILT_IN}
    return added if names is None else {n: f for n, f in added.items() if n in set(names)}


def register_players(players: Mapping[str, PlayerFactory]) -> None:
    """:func:`register_player` for each of ``players`` (a worker process receiving a run's players)."""
    for name, factory in players.items():
        register_player(name, factory)


def level_names() -> list[str]:
    """:data:`PLAYER_LEVELS`, sorted."""
    return sorted(PLAYER_LEVELS)


def make_player(spec: str, seed: int, seat: int) -> Player:
    """A player for ``spec``; outside bots (``cmd:``) are made by :mod:`gongzhu.agent`."""
    factory = _REGISTRY.get(spec)
    if factory is None:
        known = ", ".join(PLAYER_LEVELS) + ", cmd:<command>"
        raise PlayerSpecError(f"unknown player {spec!r} (expected one of: {known})")
    return factory(seed, seat)
