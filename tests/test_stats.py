"""The 95% interval of a mean shared by the tournament and the benchmarks (gongzhu.stats)."""

from __future__ import annotations

import math
import random

import pytest

from gongzhu.stats import mean_interval95, mean_interval95_of_sums


def test_the_interval_is_the_mean_plus_or_minus_1_96_standard_errors() -> None:
    ci = mean_interval95([1.0, 2.0, 3.0, 4.0, 5.0])
    assert ci.mean == 3.0
    assert ci.sd == pytest.approx(math.sqrt(2.5))
    assert ci.half_width == pytest.approx(1.96 * math.sqrt(2.5) / math.sqrt(5))
    assert (ci.low, ci.high) == (ci.mean - ci.half_width, ci.mean + ci.half_width)


@pytest.mark.parametrize("samples", [[], [-42.5]])
def test_fewer_than_two_samples_give_a_zero_width_interval(samples: list[float]) -> None:
    for ci in (mean_interval95(samples), mean_interval95_of_sums(len(samples), sum(samples), 0.0)):
        assert ci.sd == ci.half_width == 0.0
        assert ci.low == ci.mean == ci.high == (samples[0] if samples else 0.0)


def test_running_sums_give_the_interval_of_the_samples() -> None:
    rng = random.Random(5)
    for n in (2, 3, 40):
        samples = [rng.randint(-4800, 4800) for _ in range(n)]
        from_sums = mean_interval95_of_sums(n, sum(samples), sum(x * x for x in samples))
        assert from_sums == pytest.approx(mean_interval95(samples), rel=1e-12)


def test_equal_samples_have_no_spread_even_from_float_sums() -> None:
    """Float sums of equal samples can cancel to a tiny negative variance; it counts as none."""
    samples = [0.3] * 7
    assert 7 * sum(x * x for x in samples) - sum(samples) ** 2 < 0  # the cancellation this guards
    ci = mean_interval95_of_sums(7, sum(samples), sum(x * x for x in samples))
    assert ci.sd == ci.half_width == 0.0
