"""Small statistics for simulations: proportions and means with 95% intervals.

* a proportion (a win rate) gets the Wilson score interval, which stays inside 0..1 and
  behaves with 0 or n successes;
* a mean gets Student's t interval, ``mean ± t(n - 1) · s / √n``: with few values the
  normal quantile 1.96 would make the interval too narrow (with 2 values, by a factor of
  6.5). One value has no spread to measure, so it gets no interval at all (NaN bounds,
  shown as ``n/a`` by :func:`format_interval`).

>>> lo, hi = wilson_interval(50, 100)
>>> round(lo, 4), round(hi, 4)
(0.4038, 0.5962)
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence

__all__ = [
    "Z95",
    "distribution",
    "format_interval",
    "format_rate",
    "mean_interval",
    "t95",
    "wilson_interval",
]

#: The normal quantile for a two-sided 95% interval.
Z95 = 1.959963984540054

#: Student's t quantile for a two-sided 95% interval (the 0.975 quantile), by degrees of
#: freedom 1..30, to 6 decimals (scipy.stats.t.ppf(0.975, df)).
_T95 = (
    12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624, 2.306004,
    2.262157, 2.228139, 2.200985, 2.178813, 2.160369, 2.144787, 2.131450, 2.119905,
    2.109816, 2.100922, 2.093024, 2.085963, 2.079614, 2.073873, 2.068658, 2.063899,
    2.059539, 2.055529, 2.051831, 2.048407, 2.045230, 2.042272,
)


def t95(df: int) -> float:
    """Return Student's t quantile for a two-sided 95% interval with ``df`` degrees of freedom.

    From the table up to 30 degrees of freedom; beyond, the Cornish-Fisher expansion of t
    around the normal quantile, which is within 2e-6 of the exact value at 31 and closer
    after (so there is no jump at 30, and it tends to :data:`Z95`).
    Raise ``ValueError`` when ``df`` is below 1.

    Runtime complexity: O(1).

    >>> t95(1), t95(30), round(t95(1000), 4)
    (12.706205, 2.042272, 1.9623)
    """
    if df < 1:
        raise ValueError(f"a t quantile needs 1 or more degrees of freedom, not {df}")
    if df <= len(_T95):
        return _T95[df - 1]
    z = Z95
    return (z + (z**3 + z) / (4 * df)
            + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
            + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3))


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Return the Wilson score interval for a proportion (95% by default).

    Runtime complexity: O(1).

    >>> wilson_interval(0, 10)[0]
    0.0
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: Sequence[float], within: tuple[float, float] | None = None) -> tuple[float, float, float]:
    """Return the mean and its 95% Student's t interval ``(mean, low, high)``.

    ``within`` gives the values that are possible at all (a count of cards is from 0 to
    52): the interval is cut to them, as a mean of such values cannot lie outside.

    No values give NaN for all three; one value gives its mean and NaN bounds (one value
    measures no spread, so there is no interval).

    Runtime complexity: O(n).

    >>> [round(x, 3) for x in mean_interval([1, 2, 3, 4])]
    [2.5, 0.446, 4.554]
    >>> mean_interval([7])
    (7.0, nan, nan)
    >>> [round(x, 2) for x in mean_interval([0, 9], within=(0, 52))]
    [4.5, 0, 52]
    """
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = sum(values) / n
    if n == 1:
        return (float(mean), math.nan, math.nan)
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = t95(n - 1) * math.sqrt(variance / n)
    low, high = mean - half, mean + half
    if within is not None:
        low, high = max(low, within[0]), min(high, within[1])
    return (mean, low, high)


def _two_places(value: float) -> str:
    return f"{value:.2f}"


def format_interval(
    low: float,
    high: float,
    fmt: Callable[[float], str] = _two_places,
    sep: str = "-",
) -> str:
    """Return ``'95% CI 1.23-3.77'``, or ``'95% CI n/a'`` when there is no interval (NaN).

    ``fmt`` writes each bound (two decimals by default) and ``sep`` goes between them.

    >>> format_interval(*mean_interval([1, 2, 3, 4])[1:])
    '95% CI 0.45-4.55'
    >>> format_interval(*mean_interval([5])[1:], sep=" to ")
    '95% CI n/a'
    """
    if math.isnan(low) or math.isnan(high):
        return "95% CI n/a"
    return f"95% CI {fmt(low)}{sep}{fmt(high)}"


def format_rate(successes: int, trials: int) -> str:
    """Return ``'54.55% (95% CI 53.57%-55.52%, 5455 of 10000)'``.

    >>> format_rate(1, 4)
    '25.00% (95% CI 4.56%-69.94%, 1 of 4)'
    """
    lo, hi = wilson_interval(successes, trials)
    rate = successes / trials if trials else 0.0
    return f"{rate:.2%} (95% CI {lo:.2%}-{hi:.2%}, {successes} of {trials})"


def distribution(values: Sequence[int], top: int = 10) -> list[tuple[int, int]]:
    """Return the ``top`` most common values with their counts, most common first.

    >>> distribution([3, 1, 3, 2, 3, 1])
    [(3, 3), (1, 2), (2, 1)]
    """
    return sorted(Counter(values).items(), key=lambda item: (-item[1], item[0]))[:top]
