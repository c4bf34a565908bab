"""Computer opponents: ``easy``, ``normal`` and ``hard`` (registered as player levels on import).

Every level decides from one seat's view (:func:`gongzhu.game.view_for`) and nothing else::

    from gongzhu.ai import make_level, hint
    player = make_level("hard", seed=7, seat=1)
    card = player.play(view)            # view["phase"] == "play"
    cards = player.expose(view)         # view["exposable"] not empty
    hint(view, seed=7)                  # {"card": "3S", "reason": "keeps_pig_guarded", ...}
"""

from __future__ import annotations

from ..players import Player, PlayerFactory, register_level
from .hard import HardPlayer, choose_expose, choose_play
from .hint import REASONS, hint
from .levels import EasyPlayer, NormalPlayer

LEVELS = ("easy", "normal", "hard")


def make_level(name: str, seed: int, seat: int) -> Player:
    """A computer player of level ``easy``, ``normal`` or ``hard``."""
    factories: dict[str, PlayerFactory] = {"easy": EasyPlayer, "normal": NormalPlayer, "hard": HardPlayer}
    return factories[name](seed, seat)


register_level("easy", EasyPlayer)
register_level("normal", NormalPlayer)
register_level("hard", HardPlayer)

__all__ = [
    "LEVELS",
    "REASONS",
    "EasyPlayer",
    "HardPlayer",
    "NormalPlayer",
    "choose_expose",
    "choose_play",
    "hint",
    "make_level",
]
