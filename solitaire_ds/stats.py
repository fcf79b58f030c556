"""Small statistics for simulations: proportions and means with 95% intervals.

>>> lo, hi = wilson_interval(50, 100)
>>> round(lo, 4), round(hi, 4)
(0.4038, 0.5962)
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

__all__ = ["Z95", "distribution", "format_rate", "mean_interval", "wilson_interval"]

#: The normal quantile for a two-sided 95% interval.
Z95 = 1.959963984540054


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


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """Return the mean and its normal-approximation 95% interval ``(mean, low, high)``.

    >>> [round(x, 3) for x in mean_interval([1, 2, 3, 4])]
    [2.5, 1.235, 3.765]
    """
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = sum(values) / n
    if n == 1:
        return (mean, mean, mean)
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(variance / n)
    return (mean, mean - half, mean + half)


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
