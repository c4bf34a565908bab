"""A small, portable, seeded random stream (SplitMix64).

Own implementation rather than :mod:`random` so a deal depends only on the seed, the same in
CPython, Pyodide and any outside tool that wants to re-derive it.
"""

from __future__ import annotations

_MASK64 = (1 << 64) - 1
DEAL_NUMBER_BITS = 32  # a tournament's deal numbers: 0 .. 2**32 - 1
RUN_SEED_BITS = 21  # the low bits of a tournament's seed; with the deal number, 53 bits (game.MAX_SEED)


def mix(z: int, bits: int = 64) -> int:
    """SplitMix64's output function on ``bits``-bit integers: a bijection that scatters neighbours.

    Each step (xor with a right shift, multiplication by an odd constant modulo ``2**bits``) can be
    undone, so different inputs below ``2**bits`` always give different outputs.
    """
    mask = (1 << bits) - 1
    z &= mask
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
    return z ^ (z >> 31)


class SplitMix64:
    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK64

    def next_u64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        return mix(self.state)

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

    The low 21 bits of ``seed`` and the 32 of ``deal`` make one 53-bit number, which :func:`mix`
    scatters within 53 bits (a match seed the engine takes).  The map is one-to-one, so runs whose
    seeds differ by less than 2**21 never share a deal, however many deals each plays.
    """
    if not 0 <= deal < 1 << DEAL_NUMBER_BITS:
        raise ValueError(f"deal number must be from 0 to {(1 << DEAL_NUMBER_BITS) - 1}, got {deal}")
    run = seed & ((1 << RUN_SEED_BITS) - 1)
    return mix(run << DEAL_NUMBER_BITS | deal, RUN_SEED_BITS + DEAL_NUMBER_BITS)


def shuffled(items: list[int], rng: SplitMix64) -> list[int]:
    """A Fisher–Yates shuffled copy."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = rng.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out
