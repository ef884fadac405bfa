#!/usr/bin/env python3
"""How long ``sequence review`` takes for a 100-move game: CPU and wall-clock seconds.

A game of classic for two between ``easy`` bots (the first of the seeds from 0 whose game lasts
100 moves or more), cut to its first 100 moves, reviewed three ways: the decisions only (expert's
32 deals each), the chances only (16 deals played out at each decision), and both (what
``sequence review RECORD`` does). Not a test: a measurement (docs/bots.md has the figures).

    .venv/bin/python scripts/bench_review.py
    .venv/bin/python scripts/bench_review.py --deals 8 --chance-deals 8
"""

from __future__ import annotations

import _venv  # noqa: F401  (first: another Python runs this again with .venv's)

# isort: split
import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from sequence.bots import make_bot, play_game
from sequence.bots.review import CHANCE_DEALS, Reviewer
from sequence.engine import GameRecord, make_config

MOVES = 100


def hundred_moves() -> tuple[GameRecord, int]:
    """The first 100 moves of the first long enough game, and its seed."""
    config = make_config("classic", players=2)
    for seed in range(200):
        game = play_game(config, [make_bot("easy", seed=1), make_bot("easy", seed=2)], seed=seed)
        record = game.record
        if len(record.moves) >= MOVES:
            return GameRecord(config, record.seed, record.moves[:MOVES], None, record.tags), seed
    raise SystemExit("no game of 100 moves in 200 seeds")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=None, help="deals a decision (expert's)")
    parser.add_argument("--chance-deals", type=int, default=CHANCE_DEALS)
    args = parser.parse_args()
    record, seed = hundred_moves()
    print(f"classic for two, easy against easy, seed {seed}: the first {MOVES} moves")
    runs = [
        ("decisions only", Reviewer(deals=args.deals, chance_deals=0)),
        ("chances (1-deal decisions)", Reviewer(deals=1, chance_deals=args.chance_deals)),
        ("both (sequence review)", Reviewer(deals=args.deals, chance_deals=args.chance_deals)),
    ]
    for name, reviewer in runs:
        wall, cpu = time.perf_counter(), time.process_time()
        review = reviewer.review_game(record)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        n = len(review.moves)
        print(f"{name:<27} {n} decisions, deals {review.deals}, chance deals"
              f" {review.chance_deals}: {cpu:6.2f} s CPU ({1000 * cpu / n:5.1f} ms a decision),"
              f" {wall:6.2f} s wall-clock, {len(review.flagged())} flagged")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
