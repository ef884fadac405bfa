"""The statistics of a tournament: an interval for a score rate, and Elo ratings with their
intervals from the games' scores (plain functions of numbers; nothing here plays a game).

A game is ``(a, b, score of a)``: 1 a win for ``a``, 0.5 a draw, 0 a loss.
"""

from __future__ import annotations

import itertools
import math
import random


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson interval for a score rate (draws count half) over ``n`` games.

    >>> lo, hi = wilson(0.5, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.404, 0.596)
    """
    if n == 0:
        return 0.0, 1.0
    p = score
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def bradley_terry(
    n_bots: int, games: list[tuple[int, int, float]], iterations: int = 200
) -> list[float]:
    """Elo ratings (first bot at 0) from ``(a, b, score of a)`` games by Bradley-Terry.

    Draws count half a win each. One virtual draw between every pair that met keeps a perfect
    score finite (a weak prior).

    >>> r = bradley_terry(2, [(0, 1, 0.0)] * 30)
    >>> r[0], r[1] > 400
    (0.0, True)
    """
    wins = [[0.0] * n_bots for _ in range(n_bots)]
    for a, b, s in games:
        wins[a][b] += s
        wins[b][a] += 1 - s
    for a, b in itertools.combinations(range(n_bots), 2):
        if wins[a][b] + wins[b][a] > 0:
            wins[a][b] += 0.5
            wins[b][a] += 0.5
    p = [1.0] * n_bots
    for _ in range(iterations):
        new = []
        for i in range(n_bots):
            w = sum(wins[i])
            d = sum(
                (wins[i][j] + wins[j][i]) / (p[i] + p[j])
                for j in range(n_bots)
                if j != i and wins[i][j] + wins[j][i]
            )
            new.append(w / d if d > 0 else p[i])
        geo = math.exp(sum(math.log(max(x, 1e-300)) for x in new) / n_bots)
        p = [x / geo for x in new]
    elo = [400 * math.log10(max(x, 1e-300)) for x in p]
    return [e - elo[0] for e in elo]


def rating_intervals(
    n_bots: int, games: list[tuple[int, int, float]], samples: int = 200, seed: int = 0
) -> list[tuple[float, float]]:
    """95% intervals of :func:`bradley_terry` ratings by bootstrap over the games.

    The games are drawn from a pool that also holds one virtual win and one virtual loss for
    every pair that met (Laplace's rule), so a perfect score still gets an interval.

    >>> lo, hi = rating_intervals(2, [(0, 1, 0.0)] * 30)[1]
    >>> 300 < lo < hi
    True
    """
    if not games:
        return [(0.0, 0.0)] * n_bots
    rng = random.Random(seed)
    pairs = sorted({(min(a, b), max(a, b)) for a, b, _ in games})
    pool = games + [(a, b, s) for a, b in pairs for s in (0.0, 1.0)]
    draws: list[list[float]] = [[] for _ in range(n_bots)]
    for _ in range(samples):
        sample = [pool[rng.randrange(len(pool))] for _ in games]
        for i, r in enumerate(bradley_terry(n_bots, sample, iterations=60)):
            draws[i].append(r)
    out = []
    for d in draws:
        d.sort()
        out.append((d[int(0.025 * (len(d) - 1))], d[int(0.975 * (len(d) - 1))]))
    return out
