#!/usr/bin/env python3
"""How long the search levels think a move: CPU seconds (``time.process_time``) per decision.

``hard`` and ``expert`` count their budget in deals, not seconds (so they play the same on any
machine and the ladder replays exactly); their time limits (1 s, 5 s) are only ceilings. This
script checks that the deals stay under those ceilings: each level plays ``--games`` games
against greedy in each configuration, and every decision it searches is timed in CPU seconds,
which a busy machine does not inflate as it does wall-clock time. Not a test: a measurement
(docs/bots.md has the figures).

    .venv/bin/python scripts/bot_budget.py --games 4
    .venv/bin/python scripts/bot_budget.py --levels expert --configs classic2 --games 2
"""

from __future__ import annotations

import _venv  # noqa: F401  (first: another Python runs this again with .venv's)

# isort: split
import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from sequence.bots import Bot, make_bot, play_game
from sequence.engine import Move, View, make_config

CONFIGS = {
    "classic2": ("classic", 2, {}),
    "classic3": ("classic", 3, {}),
    "kids2": ("kids", 2, {}),
    "dice2": ("dice", 2, {}),
    "draft2": ("classic", 2, {"draft": True}),
}


class Timed(Bot):
    """Wraps a bot; records the CPU seconds of each decision it had to search."""

    def __init__(self, inner: Bot) -> None:
        super().__init__(inner.seed)
        self.inner = inner
        self.name = inner.name
        self.times: list[float] = []

    def choose(self, view: View) -> Move:
        start = time.process_time()
        move = self.inner.choose(view)
        if self.inner.stats().get("deals"):
            self.times.append(time.process_time() - start)
        return move


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", nargs="+", default=["hard", "expert"])
    parser.add_argument("--configs", nargs="+", default=list(CONFIGS), choices=list(CONFIGS))
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    a = parser.parse_args()
    for level in a.levels:
        for name in a.configs:
            game, players, options = CONFIGS[name]
            config = make_config(game, players, **options)
            times: list[float] = []
            for g in range(a.games):
                bot = Timed(make_bot(level, a.seed + g))
                others = [make_bot("greedy", a.seed + g + 100 + s) for s in range(players - 1)]
                seat = g % players
                play_game(config, [*others[:seat], bot, *others[seat:]], a.seed + g)
                times += bot.times
            times.sort()
            p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
            print(
                f"{level:7} {name:9} {len(times):5} searched moves:"
                f" mean {statistics.mean(times):.3f} s, 99th percentile {p99:.3f} s,"
                f" max {times[-1]:.3f} s (CPU)",
                flush=True,
            )


if __name__ == "__main__":
    main()
