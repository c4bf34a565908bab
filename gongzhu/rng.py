"""A small, portable, seeded random stream (SplitMix64).

Own implementation rather than :mod:`random` so a deal depends only on the seed, the same in
CPython, Pyodide and any outside tool that wants to re-derive it.
"""

from __future__ import annotations

_MASK64 = (1 << 64) - 1


DEAL_NUMBER_BITS = 32  # a tournament's deal numbers: 0 .. 2**32 - 1
RUN_SEED_BITS = 21  # the low bits of a tournament's seed; with the deal number, 53 bits (game.MAX_SEED)


def mix64(z: int) -> int:
    """SplitMix64's output function: a bijection of 64-bit integers that scatters neighbours."""
    z &= _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


class SplitMix64:
    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK64

    def next_u64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        return mix64(self.state)

    def below(self, n: int) -> int:
        """Uniform integer in ``[0, n)`` (rejection sampling, no modulo bias)."""
        limit = _MASK64 - (_MASK64 + 1) % n
        while True:
            x = self.next_u64()
            if x <= limit:
                return x % n


def deal_seed(match_seed: int, hand_number: int) -> int:
    """The stream seed of one hand's shuffle, derived from the match seed."""
    return (match_seed * 0x100000001B3 + hand_number * 0x9E3779B1) & _MASK64


def tournament_deal_seed(seed: int, deal: int) -> int:
    """The match seed of deal ``deal`` (0 ≤ deal < 2**32) of a tournament run with ``seed``.

    ``seed`` (modulo 2**21) fills the bits above the 32 bits of ``deal``: the map is one-to-one and
    stays within the engine's seed bound (2**53 − 1), so runs whose seeds differ by less than 2**21
    never share a deal, however many deals each plays.  (The shuffle itself mixes the seed.)
    """
    if not 0 <= deal < 1 << DEAL_NUMBER_BITS:
        raise ValueError(f"deal number must be from 0 to {(1 << DEAL_NUMBER_BITS) - 1}, got {deal}")
    return ((seed & ((1 << RUN_SEED_BITS) - 1)) << DEAL_NUMBER_BITS) | deal


def shuffled(items: list[int], rng: SplitMix64) -> list[int]:
    """A Fisher–Yates shuffled copy."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = rng.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out
