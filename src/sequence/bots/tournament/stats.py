"""The statistics of a tournament: an interval for a score rate, and Elo ratings with their
intervals from the games' scores (plain functions of numbers; nothing here plays a game).

A game is ``(a, b, score of a)``: 1 a win for ``a``, 0.5 a draw, 0 a loss.
"""

from __future__ import annotations

import itertools
import math

_ELO = 400 / math.log(10)
"""Elo points per unit of log-strength (a 10-to-1 odds ratio is 400 points)."""
_HALF_CHI2_95 = 1.920729410347062
"""Half the 95% point of chi-square with one degree of freedom: how far a profile likelihood
falls at the ends of a 95% interval."""


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


def _log_sum_exp(a: float, b: float) -> float:
    """``log(exp(a) + exp(b))`` without overflow."""
    return max(a, b) + math.log1p(math.exp(-abs(a - b)))


def _logistic(x: float) -> float:
    """``1 / (1 + exp(-x))`` without overflow, however far apart two ratings are."""
    if x >= 0:
        return 1 / (1 + math.exp(-x))
    e = math.exp(x)
    return e / (1 + e)


def _win_table(n_bots: int, games: list[tuple[int, int, float]]) -> list[list[float]]:
    """``wins[a][b]``: what ``a`` scored against ``b`` (draws half each), with one virtual draw
    between every pair that met (the weak prior that keeps a perfect score finite)."""
    wins = [[0.0] * n_bots for _ in range(n_bots)]
    for a, b, s in games:
        wins[a][b] += s
        wins[b][a] += 1 - s
    for a, b in itertools.combinations(range(n_bots), 2):
        if wins[a][b] + wins[b][a] > 0:
            wins[a][b] += 0.5
            wins[b][a] += 0.5
    return wins


def _rated(wins: list[list[float]]) -> set[int]:
    """The bots joined to the first by games (through others): the only ones a rating, which is
    relative to the first bot, means anything for."""
    seen = {0}
    todo = [0]
    while todo:
        i = todo.pop()
        for j, w in enumerate(wins[i]):
            if j not in seen and w + wins[j][i] > 0:
                seen.add(j)
                todo.append(j)
    return seen


def _log_likelihood(wins: list[list[float]], theta: list[float]) -> float:
    """The Bradley-Terry log-likelihood of ``wins`` (prior included) at log-strengths ``theta``."""
    total = 0.0
    for i, j in itertools.combinations(range(len(theta)), 2):
        n = wins[i][j] + wins[j][i]
        if n:
            total += wins[i][j] * theta[i] + wins[j][i] * theta[j]
            total -= n * _log_sum_exp(theta[i], theta[j])
    return total


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``matrix x = vector`` by Gaussian elimination with partial pivoting (a small, positive
    definite system: the information matrix of the bots a fit moves)."""
    n = len(vector)
    rows = [[*matrix[i], vector[i]] for i in range(n)]
    for c in range(n):
        pivot = max(range(c, n), key=lambda r: abs(rows[r][c]))
        rows[c], rows[pivot] = rows[pivot], rows[c]
        for r in range(c + 1, n):
            f = rows[r][c] / rows[c][c]
            if f:
                for k in range(c, n + 1):
                    rows[r][k] -= f * rows[c][k]
    x = [0.0] * n
    for c in range(n - 1, -1, -1):
        x[c] = (rows[c][n] - sum(rows[c][k] * x[k] for k in range(c + 1, n))) / rows[c][c]
    return x


def _fit(wins: list[list[float]], free: list[int], theta: list[float]) -> tuple[list[float], float]:
    """The log-strengths of the ``free`` bots that maximise the likelihood, the others held at
    their values in ``theta`` (which is not changed); the maximum likelihood with them.

    Newton's method with step halving: the log-likelihood is concave, and strictly so in the
    free bots as long as each is joined by games to a held one (the virtual draws see to it
    for every pair that met)."""
    theta = list(theta)
    best = _log_likelihood(wins, theta)
    for _ in range(100):
        if not free:
            break
        grad = []
        info = [[0.0] * len(free) for _ in free]
        place = {b: k for k, b in enumerate(free)}
        for k, i in enumerate(free):
            g = 0.0
            for j in range(len(theta)):
                n = wins[i][j] + wins[j][i]
                if j == i or not n:
                    continue
                p = _logistic(theta[i] - theta[j])  # i's chance against j
                g += wins[i][j] - n * p
                v = n * p * (1 - p)
                info[k][k] += v
                if j in place:
                    info[k][place[j]] -= v
            grad.append(g)
        step = _solve(info, grad)
        if sum(g * s for g, s in zip(grad, step, strict=True)) < 1e-12:
            # Newton's decrement: the top is less than this far above, past what the sum of
            # the log-likelihood's terms can tell in floats.
            for k, i in enumerate(free):
                theta[i] += step[k]
            return theta, _log_likelihood(wins, theta)
        scale = 1.0
        while True:
            trial = list(theta)
            for k, i in enumerate(free):
                trial[i] += scale * step[k]
            value = _log_likelihood(wins, trial)
            if value >= best:
                theta, best = trial, value
                break
            scale /= 2
            if scale < 1e-9:  # no step goes up: this is the top, as far as floats tell
                return theta, best
    return theta, best


def bradley_terry(n_bots: int, games: list[tuple[int, int, float]]) -> list[float]:
    """Elo ratings (first bot at 0) from ``(a, b, score of a)`` games by Bradley-Terry.

    Draws count half a win each. One virtual draw between every pair that met keeps a perfect
    score finite (a weak prior). The ratings are those of greatest likelihood; a bot joined to
    the first by no games (there is nothing to rate it against) is put at 0.

    >>> r = bradley_terry(2, [(0, 1, 0.0)] * 30)
    >>> r[0], round(r[1], 1)  # 400 log10(30.5 / 0.5)
    (0.0, 714.1)
    """
    if n_bots == 0:
        return []
    wins = _win_table(n_bots, games)
    free = sorted(_rated(wins) - {0})
    theta, _ = _fit(wins, free, [0.0] * n_bots)
    return [_ELO * t for t in theta]


def rating_intervals(n_bots: int, games: list[tuple[int, int, float]]) -> list[tuple[float, float]]:
    """95% intervals of :func:`bradley_terry` ratings, by profile likelihood.

    A bot's interval holds the ratings it can be given (the others then fitted to the games at
    their best) at which the likelihood, prior included, is at most 1.92 (half the 95% point of
    chi-square with one degree of freedom) below its maximum. It lies strictly round the
    rating and widens where the games say little, as on the side of a perfect score: a sweep
    bounds a rating from below, and only the prior's virtual draw bounds it from above. (A
    bootstrap over the games could not: a resample is never more extreme than the sweep
    itself, so its upper percentile was the rating.) The first bot is 0 by definition, its
    interval ``(0, 0)``; a bot joined to it by no games has ``(-inf, inf)``.

    >>> lo, hi = rating_intervals(2, [(0, 1, 0.0)] * 30)[1]
    >>> 300 < lo < 714.1 < hi
    True
    """
    if not games or n_bots == 0:
        return [(0.0, 0.0)] * n_bots
    wins = _win_table(n_bots, games)
    rated = _rated(wins)
    free = sorted(rated - {0})
    best, top = _fit(wins, free, [0.0] * n_bots)
    floor = top - _HALF_CHI2_95
    out: list[tuple[float, float]] = [(0.0, 0.0)]
    for bot in range(1, n_bots):
        if bot not in rated:
            out.append((-math.inf, math.inf))
            continue
        others = [b for b in free if b != bot]
        lo, hi = (_interval_end(wins, others, best, bot, floor, side) for side in (-1.0, 1.0))
        out.append((_ELO * lo, _ELO * hi))
    return out


def _interval_end(
    wins: list[list[float]],
    others: list[int],
    best: list[float],
    bot: int,
    floor: float,
    side: float,
) -> float:
    """Where, going from the best fit ``best`` to one ``side`` (-1 or 1) of ``bot``'s
    log-strength, its profile likelihood (``others`` fitted again at each value) falls to
    ``floor``: the first value at or below it, found to within 1e-6 of the floor."""

    def profile(value: float, start: list[float]) -> tuple[list[float], float]:
        theta = list(start)
        theta[bot] = value
        fitted, likelihood = _fit(wins, others, theta)
        return fitted, likelihood - floor

    # Step out, doubling, until the likelihood has fallen to the floor ...
    inner, above = best[bot], _log_likelihood(wins, best) - floor
    step = 0.5
    theta, below = profile(inner + side * step, best)
    while below > 0:
        if step > 1e6:  # not bounded on this side (cannot be: the virtual draws bound it)
            return side * math.inf
        inner, above, step = inner + side * step, below, step * 2
        theta, below = profile(inner + side * step, theta)
    outer = inner + side * step
    # ... then close in by regula falsi (the Illinois variant), keeping the outer end at or
    # below the floor: the interval is never narrower than the one the likelihood gives.
    last = 0
    while below < -1e-6 and abs(outer - inner) > 1e-12:
        middle = outer - below * (outer - inner) / (below - above)
        if not min(inner, outer) < middle < max(inner, outer):
            middle = (inner + outer) / 2
        theta, value = profile(middle, theta)
        if value > 0:
            inner, above = middle, value
            if last > 0:
                below /= 2
            last = 1
        else:
            outer, below = middle, value
            if last < 0:
                above /= 2
            last = -1
    return outer
