"""A finished tournament's tables as plain data (what ``sequence tournament --json`` writes and
its report prints): per pairing, the score with its interval; per entry, the Elo rating with its
interval, the score and the speed; and the forfeits, endings and unusable figures.
"""

from __future__ import annotations

import math
from typing import Any

from ...engine import Config
from .schedule import entry_labels
from .stats import bradley_terry, rating_intervals, wilson


def summarise(
    specs: list[str], results: list[dict[str, Any]], config: Config, mode: str, seconds: float
) -> dict[str, Any]:
    """The tables of a finished tournament as plain data (what ``--json`` writes)."""
    n_bots = len(specs)
    names = entry_labels(specs)
    stats_problems: dict[int, str] = {}  # entry -> the first reason, in the order of the games
    for r in results:
        for owner, problem in r["stats_problems"].items():
            stats_problems.setdefault(owner, problem)
    by_pair: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for r in results:
        by_pair.setdefault((r["pairing"][0], r["pairing"][1]), []).append(r)
    pairings = []
    games: list[tuple[int, int, float]] = []
    for (a, b), rs in sorted(by_pair.items()):
        wins = sum(1 for r in rs if r["score_a"] == 1.0)
        losses = sum(1 for r in rs if r["score_a"] == 0.0)
        draws = len(rs) - wins - losses
        score = sum(r["score_a"] for r in rs) / len(rs)
        lo, hi = wilson(score, len(rs))
        pairings.append(
            {
                "a": names[a],
                "b": names[b],
                "games": len(rs),
                "a_wins": wins,
                "draws": draws,
                "b_wins": losses,
                "a_score": score,
                "a_score_95": [lo, hi],
                "forfeits": sum(1 for r in rs if r["forfeit"]),
            }
        )
        games.extend((a, b, r["score_a"]) for r in rs)
    elo = bradley_terry(n_bots, games)
    intervals = rating_intervals(n_bots, games)
    ratings = []
    for i, name in enumerate(names):
        moves = seconds_used = its = searched = 0.0
        n_games = 0
        points = 0.0
        for r in results:
            if i not in r["pairing"]:
                continue
            n_games += 1
            points += r["score_a"] if r["pairing"][0] == i else 1 - r["score_a"]
            for st in r["seats"]:
                if st["bot"] == i:
                    moves += st["moves"]
                    seconds_used += st["seconds"]
                    its += st["iterations"]
                    searched += st["searched"]
        if i in stats_problems:  # the sums hold figures that mean nothing: show none
            its = searched = 0.0
        ratings.append(
            {
                "bot": name,
                "elo": elo[i],
                # null: a bot no game joins to the first (a run cut short) has no bounds
                "elo_95": [None if math.isinf(x) else x for x in intervals[i]],
                "games": n_games,
                "score": points / n_games if n_games else 0.0,
                "ms_per_move": 1000 * seconds_used / moves if moves else 0.0,
                "iterations_per_move": its / searched if searched else 0.0,
                "iterations_per_second": its / seconds_used if its and seconds_used else 0.0,
            }
        )
    return {
        "config": config.to_dict(),
        "mode": mode,
        "bots": names,
        "specs": specs,
        "games": len(results),
        "seconds": seconds,
        "pairings": pairings,
        "ratings": ratings if results else [],  # no games, no ratings (not every Elo at 0)
        "forfeits": [
            r["forfeit"] for r in sorted(results, key=lambda r: r["index"]) if r["forfeit"]
        ],
        "terminations": dict(
            sorted(
                {
                    t: sum(1 for r in results if r["termination"] == t)
                    for t in {r["termination"] for r in results}
                }.items()
            )
        ),
        "stats_problems": {names[i]: problem for i, problem in sorted(stats_problems.items())},
    }
