"""Hard's world models: how the opponents' plays weigh the worlds a decision is valued in, and who
plays the opponents in those worlds' playouts.

A world model is an object with one method, :meth:`WorldModel.draw`.  The game's is
:class:`CheckedHabits` (:data:`gongzhu.ai.config.HARD`); the others are the benchmarks' variants of
Hard (``dataclasses.replace(HARD, worlds=...)``):

- :class:`Uniform`: the plays weigh nothing (the reference Hard must never do worse than);
- :class:`NormalPosterior`: Normal's play model for every opponent (:mod:`gongzhu.ai.sampling`);
- :class:`Fitted`: Normal's model for each opponent as far as it played like Normal in the match's
  previous hand (:mod:`gongzhu.ai.opponents`);
- :class:`Habits`: as :class:`Fitted`, and an opponent that did not play like Normal there judged by
  its habits there, in the worlds and in the playouts (:mod:`gongzhu.ai.habits`);
- :class:`Checked`: as :class:`Habits`, and while every opponent played like Normal in the previous
  hand (in a match's first hand, every opponent), Normal's posterior but for an opponent the chains
  find Normal does not explain within the hand (:mod:`gongzhu.ai.inhand`);
- :class:`CheckedHabits`: as :class:`Checked`, but an opponent set aside within the hand is judged by
  the habits its plays show in the chains' worlds;
- :class:`CheckedEveryHand`: as :class:`CheckedHabits` with the previous hand ignored: every hand is
  judged within itself, as a match's first hand is.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol

from .habits import JUDGING, Judging, Situated, habit_policy, habit_worlds, playout_habits
from .inhand import INHAND, InHandCheck, checked_habit_worlds, checked_worlds
from .knowledge import Knowledge
from .opponents import NORMAL, UNIFORM, normal_fits, seat_habits, world_model
from .sampling import CHAINS, Chains, fitted_worlds, posterior_worlds, sample_world
from .sim import Policy

#: How a world's playouts play the opponents: the playout policy and the world's random source for
#: them → the policy the playouts use (None: the playout policy as it is).
Playouts = Callable[[Policy, random.Random], Policy] | None
#: What a decision's budget pays for, given the chains' settings (None: unweighted worlds, which cost
#: nothing to draw) → (how many worlds, from how many chains).
Afford = Callable[[Chains | None], tuple[int, int]]
Worlds = Iterable[tuple[list[int], Playouts]]


class WorldModel(Protocol):
    def draw(self, k: Knowledge, rng: random.Random, afford: Afford) -> Worlds:
        """The worlds a play decision is valued in, as many as ``afford`` says, each with how its
        playouts play the opponents."""
        ...


def _plain(worlds: Iterable[list[int]]) -> Worlds:
    return ((world, None) for world in worlds)


def habit_playouts(habits: list[Situated | None], judging: Judging) -> Playouts:
    """Playouts where a seat with a habit plays by it (:func:`gongzhu.ai.habits.habit_policy`)."""
    played = [None if h is None else playout_habits(h, judging) for h in habits]
    return functools.partial(habit_policy, played)


def _with_habits(habits: list[Situated | None], worlds: Iterable[list[int]], judging: Judging) -> Worlds:
    playouts = habit_playouts(habits, judging)
    return ((world, playouts) for world in worlds)


def previous_hand_playouts(k: Knowledge, judging: Judging = JUDGING) -> Playouts:
    """How the playouts of a decision made before any card of the hand (an exposure) play the
    opponents: each one that did not play like Normal in the previous hand by its habits there
    (None: every opponent did, or there was no such hand, and Normal plays them all)."""
    _fits, habits = seat_habits(k, judging)
    return None if all(h is None for h in habits) else habit_playouts(habits, judging)


@dataclass(frozen=True)
class Uniform:
    """Every world consistent with the view alike."""

    def draw(self, k: Knowledge, rng: random.Random, afford: Afford) -> Worlds:
        count, _chains = afford(None)
        return _plain(sample_world(k, rng) for _ in range(count))


@dataclass(frozen=True)
class NormalPosterior:
    """Worlds weighed by Normal's misses on every opponent's plays."""

    chains: Chains = CHAINS  # how the chains walk

    def draw(self, k: Knowledge, rng: random.Random, afford: Afford) -> Worlds:
        count, chains = afford(self.chains)
        return _plain(posterior_worlds(k, rng, count, chains, self.chains))


@dataclass(frozen=True)
class Fitted:
    """Normal's weighting for each opponent as far as Normal explained it in the previous hand."""

    chains: Chains = CHAINS  # how the chains walk
    judging: Judging = JUDGING  # how an opponent's decisions are judged

    def draw(self, k: Knowledge, rng: random.Random, afford: Afford) -> Worlds:
        fits = normal_fits(k, judging=self.judging)
        kind = world_model(fits, k.seat)
        if kind == UNIFORM:
            return Uniform().draw(k, rng, afford)
        if kind == NORMAL:
            return NormalPosterior(self.chains).draw(k, rng, afford)
        count, chains = afford(self.chains)
        return _plain(fitted_worlds(k, rng, count, fits, chains, self.chains))


def _previous_hand_habits(
    k: Knowledge, rng: random.Random, afford: Afford, tune: Chains, judging: Judging
) -> Worlds | None:
    """Worlds and playouts by the habits of the opponents that did not play like Normal in the
    previous hand, or None when every opponent did (or there was no such hand)."""
    fits, habits = seat_habits(k, judging)
    if world_model(fits, k.seat) == NORMAL:
        return None
    count, chains = afford(judging.paid(tune))
    return _with_habits(habits, habit_worlds(k, rng, count, habits, chains, tune, judging), judging)


@dataclass(frozen=True)
class Habits:
    """Each opponent that did not play like Normal in the previous hand judged by its habits there."""

    chains: Chains = CHAINS  # how the chains walk
    judging: Judging = JUDGING  # how an opponent's decisions are judged

    def draw(self, k: Knowledge, rng: random.Random, afford: Afford) -> Worlds:
        worlds = _previous_hand_habits(k, rng, afford, self.chains, self.judging)
        return worlds if worlds is not None else NormalPosterior(self.chains).draw(k, rng, afford)


@dataclass(frozen=True)
class Checked:
    """:class:`Habits`, and Normal's weighting checked within the hand while every opponent fits."""

    chains: Chains = CHAINS  # how the chains walk
    check: InHandCheck = INHAND  # how the chains judge an opponent within the hand
    judging: Judging = JUDGING  # how an opponent's decisions are judged

    def draw(self, k: Knowledge, rng: random.Random, afford: Afford) -> Worlds:
        worlds = _previous_hand_habits(k, rng, afford, self.chains, self.judging)
        if worlds is not None:
            return worlds
        count, chains = afford(self.chains)
        return self.within_hand(k, rng, count, chains)

    def within_hand(self, k: Knowledge, rng: random.Random, count: int, chains: int) -> Worlds:
        """``count`` worlds from ``chains`` chains while every opponent played like Normal before:
        an opponent set aside within the hand weighs its misses by its fit."""
        return _plain(checked_worlds(k, rng, count, chains, self.chains, self.check, self.judging))


@dataclass(frozen=True)
class CheckedHabits(Checked):
    """:class:`Checked`, an opponent set aside within the hand judged by its habits in the chains'
    worlds (the game's)."""

    def within_hand(self, k: Knowledge, rng: random.Random, count: int, chains: int) -> Worlds:
        habits, drawn = checked_habit_worlds(k, rng, count, chains, self.chains, self.check, self.judging)
        if all(h is None for h in habits):
            return _plain(drawn)
        return _with_habits(habits, drawn, self.judging)


@dataclass(frozen=True)
class CheckedEveryHand(CheckedHabits):
    """:class:`CheckedHabits` without the previous hand: the in-hand check in every hand of a match.

    A benchmark variant: an able opponent fits Normal at 0.0 after one hand, and its habits there
    read as part-random play; here it is judged within each hand instead. Measured against the able
    panel's later hands, it was no better than the game's model (``bench/results/ABLE.md``)."""

    def draw(self, k: Knowledge, rng: random.Random, afford: Afford) -> Worlds:
        count, chains = afford(self.chains)
        return self.within_hand(k, rng, count, chains)
