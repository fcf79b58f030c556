"""The 95% intervals of the simulation summaries: Wilson for rates, Student's t for means."""

from __future__ import annotations

import itertools
import math

import pytest

from solitaire_ds.stats import Z95, format_interval, mean_interval, t95, wilson_interval

# scipy.stats.t.ppf(0.975, df), to 6 decimals.
EXACT_T = {1: 12.706205, 2: 4.302653, 5: 2.570582, 10: 2.228139, 29: 2.045230, 30: 2.042272,
           31: 2.039513, 40: 2.021075, 60: 2.000298, 100: 1.983972, 1000: 1.962339}


@pytest.mark.parametrize(("df", "exact"), sorted(EXACT_T.items()))
def test_t95_matches_the_exact_quantile(df: int, exact: float) -> None:
    assert t95(df) == pytest.approx(exact, abs=5e-6)


def test_t95_falls_towards_the_normal_quantile_without_a_jump_after_the_table() -> None:
    values = [t95(df) for df in range(1, 500)]
    assert all(a > b for a, b in itertools.pairwise(values))
    assert t95(10**9) == pytest.approx(Z95, abs=1e-8)


def test_t95_needs_a_degree_of_freedom() -> None:
    with pytest.raises(ValueError, match="1 or more degrees of freedom, not 0"):
        t95(0)


def test_a_small_sample_gets_the_wider_t_interval_not_the_normal_one() -> None:
    # Mean 2.5, standard error sqrt(5/3)/2 = 0.6455; t(3) = 3.182446, not 1.96.
    mean, lo, hi = mean_interval([1, 2, 3, 4])
    half = 3.182446 * math.sqrt(5 / 3) / 2
    assert (mean, lo, hi) == pytest.approx((2.5, 2.5 - half, 2.5 + half))
    # Two values: the interval is 6.5 times as wide as a normal one would be.
    _, lo2, hi2 = mean_interval([0, 2])
    assert (lo2, hi2) == pytest.approx((1 - 12.706205, 1 + 12.706205))


def test_one_value_has_no_interval_rather_than_a_zero_width_one() -> None:
    mean, lo, hi = mean_interval([7])
    assert mean == 7 and math.isnan(lo) and math.isnan(hi)
    assert format_interval(lo, hi) == "95% CI n/a"
    nothing = mean_interval([])
    assert all(math.isnan(x) for x in nothing)


def test_format_interval_writes_both_bounds_with_the_given_format() -> None:
    assert format_interval(0.446, 4.554) == "95% CI 0.45-4.55"
    assert format_interval(-1, 2, lambda x: f"{x:+.1f}", " to ") == "95% CI -1.0 to +2.0"


def test_a_large_sample_is_close_to_the_normal_interval() -> None:
    values = [i % 7 for i in range(10_000)]
    mean, _, hi = mean_interval(values)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))
    assert hi - mean == pytest.approx(Z95 * sd / 100, rel=1e-3)


def test_rates_keep_the_wilson_interval() -> None:
    lo, hi = wilson_interval(50, 100)
    assert (round(lo, 4), round(hi, 4)) == (0.4038, 0.5962)
    assert wilson_interval(0, 10)[0] == 0.0
    assert wilson_interval(10, 10)[1] == pytest.approx(1.0)
