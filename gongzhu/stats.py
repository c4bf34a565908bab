"""The normal-approximation 95% interval of a mean, ``mean ± 1.96·sd/√n``: the tournament's margin
interval and the benchmarks' (``bench/decision_regret.py``, ``bench/expose_credit.py``).

From samples:

>>> ci = mean_interval95([10.0, 20.0, 30.0, 40.0])
>>> ci.mean, round(ci.sd, 3), round(ci.half_width, 3)
(25.0, 12.91, 12.652)
>>> round(ci.low, 3), round(ci.high, 3)
(12.348, 37.652)

From running sums (count, sum, sum of squares), the same interval without keeping the samples:

>>> mean_interval95_of_sums(4, 100, 3000) == ci
True

With fewer than two samples there is no spread to measure, so the interval is the mean alone:

>>> mean_interval95([7.5])
MeanInterval(mean=7.5, sd=0.0, half_width=0.0)
>>> mean_interval95([])
MeanInterval(mean=0.0, sd=0.0, half_width=0.0)
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import NamedTuple

Z95 = 1.96  # the standard normal's two-sided 95% point


class MeanInterval(NamedTuple):
    """A sample mean with its 95% interval ``mean ± half_width``."""

    mean: float  # 0.0 for no samples
    sd: float  # the sample standard deviation (n − 1 in the denominator); 0.0 for n ≤ 1
    half_width: float  # Z95·sd/√n; 0.0 for n ≤ 1

    @property
    def low(self) -> float:
        return self.mean - self.half_width

    @property
    def high(self) -> float:
        return self.mean + self.half_width


def _interval(n: int, mean: float, sd: float) -> MeanInterval:
    return MeanInterval(mean, sd, Z95 * sd / math.sqrt(n) if n > 1 else 0.0)


def mean_interval95(samples: Sequence[float]) -> MeanInterval:
    """The mean of ``samples`` and its 95% interval."""
    n = len(samples)
    mean = statistics.mean(samples) if n else 0.0
    return _interval(n, mean, statistics.stdev(samples) if n > 1 else 0.0)


def mean_interval95_of_sums(n: int, total: float, squares: float) -> MeanInterval:
    """The 95% interval of the mean of ``n`` samples from their sum and their sum of squares.

    Exact up to the final division when the sums are integers (as :class:`gongzhu.tournament.Tally`
    keeps them); float sums lose precision when the spread is small next to the mean.
    """
    mean = total / n if n else 0.0
    variance = max(0.0, (n * squares - total * total) / (n * (n - 1))) if n > 1 else 0.0
    return _interval(n, mean, math.sqrt(variance))
