#!/usr/bin/env python3
"""Seed the bots' ratings: rated games between the bot levels, played by the project's arena.

For each rating family (classic with two sides, classic with three, Kids, Dice) every lineup of
distinct levels (each ordered pair for two sides, each order of the three levels for three)
plays the same deals (seeds from the tournament's :func:`deal_seed`, so a run repeats), each
bot given only its seat's view by :func:`sequence.bots.arena.play_game`. The results are rated
with the server's own OpenSkill update (:func:`sequence.server.ratings.rating.rate`) in the order
the games were scheduled, starting from OpenSkill's defaults; the ratings are written as JSON, which
a server loads at start-up for every bot level that has no rating yet (rated games against people
move them on from there)::

    scripts/calibrate_bot_ratings.py                 # 10 deals a lineup, each level at its budget
    scripts/calibrate_bot_ratings.py --deals 3 --hard-time 0.05 --workers 1   # a small run

The shipped file says which command made it.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

import _venv  # noqa: F401  (first: another Python runs this again with .venv's)

from sequence.bots import make_bot
from sequence.bots.arena import play_game
from sequence.bots.base import seat_seed
from sequence.bots.levels import LEVELS
from sequence.bots.tournament.schedule import deal_seed
from sequence.engine import make_config
from sequence.server.ratings.players import BOT_RATINGS
from sequence.server.ratings.rating import FAMILIES, Rating, rate

GAMES = {
    "classic2": {"game": "classic", "players": 2},
    "classic3": {"game": "classic", "players": 3},
    "kids": {"game": "kids", "players": 2},
    "dice": {"game": "dice", "players": 2},
}
"""The game each family is calibrated on."""


def lineups(sides: int) -> list[tuple[str, ...]]:
    """Every order of distinct levels over ``sides`` sides."""
    return list(itertools.permutations(LEVELS, sides))


def play(family: str, lineup: tuple[str, ...], seed: int, hard_time: float) -> int | None:
    """One game of ``lineup`` (a level a side) from ``seed``; return the winning side."""
    config = make_config(**GAMES[family])  # type: ignore[arg-type]
    specs = [f"{level}@time={hard_time}" if level == "hard" else level for level in lineup]
    bots = [make_bot(spec, seat_seed(seed, seat)) for seat, spec in enumerate(specs)]
    return play_game(config, bots, seed=seed).winner


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--deals", type=int, default=10, help="deals a lineup plays")
    parser.add_argument("--hard-time", type=float, default=1.0, help="hard's most seconds a move")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--families", default=",".join(FAMILIES))
    parser.add_argument("--out", type=Path, default=BOT_RATINGS)
    args = parser.parse_args(argv)
    families = args.families.split(",")
    schedule = [
        (family, lineup, deal_seed(args.seed, deal))
        for family in families
        for deal in range(args.deals)
        for lineup in lineups(GAMES[family]["players"])  # type: ignore[arg-type]
    ]
    started = time.monotonic()
    with ProcessPoolExecutor(args.workers) as pool:
        futures = [pool.submit(play, f, lu, seed, args.hard_time) for f, lu, seed in schedule]
        winners = [f.result() for f in futures]  # in the schedule's order: a run repeats
    ratings = {f: {level: Rating() for level in LEVELS} for f in families}
    wins = {f: {level: 0.0 for level in LEVELS} for f in families}
    for (family, lineup, _), winner in zip(schedule, winners, strict=True):
        table = ratings[family]
        new = rate([[table[level]] for level in lineup], winner)
        for level, [r] in zip(lineup, new, strict=True):
            table[level] = r
        for side, level in enumerate(lineup):
            wins[family][level] += 0.5 if winner is None else float(side == winner)
    out = {
        "method": "OpenSkill Plackett-Luce over rated games between the bot levels"
        " (scripts/calibrate_bot_ratings.py)",
        "command": "scripts/calibrate_bot_ratings.py "
        + " ".join(sys.argv[1:] if argv is None else argv),
        "made": datetime.now(UTC).date().isoformat(),
        "hard_time": args.hard_time,
        "games": {f: sum(1 for g in schedule if g[0] == f) for f in families},
        "ratings": {
            f: {
                level: {
                    "mu": round(r.mu, 3),
                    "sigma": round(r.sigma, 3),
                    "games": r.games,
                    "wins": wins[f][level],
                }
                for level, r in ratings[f].items()
            }
            for f in families
        },
    }
    args.out.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    for f in families:
        shown = ", ".join(
            f"{level} {r.mu:.1f}±{r.sigma:.1f} ({wins[f][level]:g} won of {r.games})"
            for level, r in ratings[f].items()
        )
        print(f"{f}: {shown}")
    print(f"{len(schedule)} games in {time.monotonic() - started:.0f} s -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
