"""The table-memory aid: what a careful player remembers, derived from one seat's view only.

:func:`memory_aid` gives, from ``view_for(state, seat)``:

- ``voids``: per seat, the suits (``S``, ``H``, ``D``, ``C``) it is known to hold none of — it did
  not follow one, or played an exposed card in the first trick of its suit (its only card of that
  suit, by the exposed-card restriction); the viewing seat's own entry is empty.
- ``exposed_out``: per seat, its exposed cards not yet played (the viewing seat's own included).
- ``points_out``: the point cards (hearts, QS, JD, TC) not yet played, the viewing seat's own
  included, in display order.
"""

from __future__ import annotations

from typing import TypedDict

from .ai.knowledge import read_view
from .cards import POINT_MASK, SUITS, to_codes
from .game import View


class MemoryAid(TypedDict):
    voids: list[list[str]]
    exposed_out: list[list[str]]
    points_out: list[str]


def memory_aid(view: View) -> MemoryAid:
    """What seat ``view["seat"]`` can know has gone and what is still to come (see the module)."""
    k = read_view(view)
    return MemoryAid(
        voids=[
            [] if s == k.seat else [SUITS[suit] for suit in range(4) if k.voids[s] >> suit & 1]
            for s in range(4)
        ],
        exposed_out=[to_codes(k.exposed[s] & ~k.gone) for s in range(4)],
        points_out=to_codes(POINT_MASK & ~k.gone),
    )


__all__ = ["MemoryAid", "memory_aid"]
