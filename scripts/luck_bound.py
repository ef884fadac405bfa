#!/usr/bin/env python3
"""How much of Sequence is luck: lookahead bots that are shown hidden cards, against greedy.

The bots issue asks for a fair bot that beats greedy 80% of the time. This script measures how
far *seeing* the hidden cards takes the same search (``LookaheadBot``), to judge that target:

- ``fair``: the hard level's search, dealing the hidden cards at random (what ``hard`` does);
- ``hands``: the same search given every hand as it really is (the draw pile reshuffled in
  each deal, so future draws stay unknown);
- ``all``: given every hand and the real order of the draw pile (it knows every future draw).

Each plays greedy on paired deals, seats alternated; budgets are in deals, so the figures do not
depend on the machine's speed. Not a test: a measurement (docs/bots.md has the results).

    .venv/bin/python scripts/luck_bound.py --games 200 --deals 30 --depth 3
    .venv/bin/python scripts/luck_bound.py --games 100 --deals 30 --depth 100 --sees hands
    .venv/bin/python scripts/luck_bound.py --game kids --games 400 --deals 30 --depth 3
"""

from __future__ import annotations

import _venv  # noqa: F401  (first: another Python runs this again with .venv's)

# isort: split
import argparse
import multiprocessing
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from sequence.bots import LookaheadBot, make_bot, play_game
from sequence.bots.tournament.stats import wilson
from sequence.engine import Move, State, View, make_config


class Seer(LookaheadBot):
    """The lookahead, dealt the true hidden cards (``sees``: ``hands`` or ``all``)."""

    def __init__(self, seed: int, sees: str, **options: object) -> None:
        super().__init__(seed, **options)  # type: ignore[arg-type]
        self.sees = sees
        self.truth: State | None = None

    def deal(self, view: View, seed: int) -> State:
        if self.sees == "fair" or self.truth is None:
            return super().deal(view, seed)
        state = self.truth.copy(stack=False)
        if self.sees == "hands":
            pile = list(state._deck[state._deck_pos :])
            random.Random(seed).shuffle(pile)
            state._deck, state._deck_pos = tuple(pile), 0
        return state


def pair(job: tuple[str, int, str, int, int, int]) -> float:
    """One deal played twice, the seer in each seat; its score (0 to 2)."""
    game, seed, sees, deals, depth, k = job
    config = make_config(game, players=2)
    score = 0.0
    for seat in (0, 1):
        seer = Seer(seed, sees, time=None, deals=deals, depth=depth, k=k)
        seer.truth = State.new(config, seed)  # the game play_game sets up from this seed

        def follow(state: State, _seat: int, _move: Move, seer: Seer = seer) -> None:
            seer.truth = state

        greedy = make_bot("greedy", seed + 1)
        bots = [seer, greedy] if seat == 0 else [greedy, seer]
        score += play_game(config, bots, seed, on_move=follow).scores[seat]
    return score


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=("classic", "kids"), default="classic")
    parser.add_argument("--sees", choices=("fair", "hands", "all"), action="append")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("-k", type=int, default=6)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2000)
    a = parser.parse_args()
    for sees in a.sees or ("fair", "hands", "all"):
        jobs = [(a.game, a.seed + i, sees, a.deals, a.depth, a.k) for i in range(a.games // 2)]
        with multiprocessing.Pool(a.workers) as pool:
            total = sum(pool.map(pair, jobs))
        games = 2 * len(jobs)
        lo, hi = wilson(total / games, games)
        print(
            f"{a.game}: lookahead seeing {sees:5} (deals={a.deals}, depth={a.depth}, k={a.k})"
            f" vs greedy: {total:g}/{games} = {100 * total / games:.1f}%"
            f" ({100 * lo:.1f}-{100 * hi:.1f}%)",
            flush=True,
        )


if __name__ == "__main__":
    main()
