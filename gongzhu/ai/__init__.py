"""Computer opponents: ``easy``, ``normal`` and ``hard``.

Every level decides from one seat's view (:func:`gongzhu.game.view_for`) and nothing else::

    from gongzhu.ai import make_level, hint
    player = make_level("hard", seed=7, seat=1)
    card = player.play(view)            # view["phase"] == "play"
    cards = player.expose(view)         # view["exposable"] not empty
    hint(view, seed=7)                  # {"card": "3S", "reason": "keeps_pig_guarded", ...}

:data:`LEVELS` is the one list of levels: the browser's worker and the command line
(:mod:`gongzhu.players`, which adds ``random``) both read it. This package imports nothing from
:mod:`gongzhu.players`, so there is no import cycle to hide a failure.
"""

from __future__ import annotations

from collections.abc import Callable

from .hard import HardPlayer, choose_expose, choose_play
from .hint import REASONS, hint
from .levels import EasyPlayer, NormalPlayer

LevelPlayer = EasyPlayer | NormalPlayer | HardPlayer

#: Level name -> its player class, ``(seed, seat) -> player``, easiest first.
LEVEL_FACTORIES: dict[str, Callable[[int, int], LevelPlayer]] = {
    "easy": EasyPlayer,
    "normal": NormalPlayer,
    "hard": HardPlayer,
}
#: The computer opponents' levels, easiest first.
LEVELS: tuple[str, ...] = tuple(LEVEL_FACTORIES)


def make_level(name: str, seed: int, seat: int) -> LevelPlayer:
    """A computer player of level ``easy``, ``normal`` or ``hard`` (:class:`KeyError` otherwise)."""
    return LEVEL_FACTORIES[name](seed, seat)


__all__ = [
    "LEVELS",
    "LEVEL_FACTORIES",
    "REASONS",
    "EasyPlayer",
    "HardPlayer",
    "LevelPlayer",
    "NormalPlayer",
    "choose_expose",
    "choose_play",
    "hint",
    "make_level",
]
