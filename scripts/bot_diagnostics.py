#!/usr/bin/env python3
"""Why a search level gains little over greedy in a game: two measurements, not tests.

- ``choices``: a level (default ``hard``) plays ``--games`` games against greedy; for every
  decision it searched, count the legal moves, the distinct values the evaluation gives them,
  and whether the level played something other than the evaluation's best move (where the
  search overrode greedy's judgement). Few searched decisions a game, or few real choices,
  leave a search little to gain.
- ``pile``: greedy plays greedy; how many cards are left in the draw pile when the game ends
  (an exact endgame search needs an end where few unknown cards remain).

docs/bots.md has the figures.

    .venv/bin/python scripts/bot_diagnostics.py choices --games 20
    .venv/bin/python scripts/bot_diagnostics.py pile --games 300
"""

from __future__ import annotations

import _venv  # noqa: F401  (first: another Python runs this again with .venv's)

# isort: split
import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from sequence.bots import Bot, make_bot, play_game
from sequence.bots.heuristic import evaluator_for
from sequence.engine import Move, State, View, make_config


class Probe(Bot):
    """Wraps a search bot; records each searched decision's choices and its departure from
    the evaluation's best move."""

    def __init__(self, inner: Bot) -> None:
        super().__init__(inner.seed)
        self.inner = inner
        self.name = inner.name
        self.legal: list[int] = []
        self.distinct: list[int] = []
        self.departs = 0

    def choose(self, view: View) -> Move:
        move = self.inner.choose(view)
        if self.inner.stats().get("deals"):
            assert view.team is not None
            ev = evaluator_for(view.config).informed(view)
            values = [
                ev.move_value(m, view.chips, view.sequences, view.team) for m in view.legal_moves
            ]
            self.legal.append(len(values))
            self.distinct.append(len({round(v, 6) for v in values}))
            mine = ev.move_value(move, view.chips, view.sequences, view.team)
            self.departs += mine < max(values) - 1e-9
        return move


def choices(game: str, level: str, games: int, seed: int) -> None:
    config = make_config(game, 2)
    legal: list[int] = []
    distinct: list[int] = []
    departs = 0
    for g in range(games):
        probe = Probe(make_bot(level, seed + g))
        greedy = make_bot("greedy", seed + g + 100)
        play_game(config, [probe, greedy] if g % 2 == 0 else [greedy, probe], seed + g)
        legal += probe.legal
        distinct += probe.distinct
        departs += probe.departs
    n = len(legal)
    print(
        f"{game:8} {level}: {n / games:.1f} searched decisions a game ({n} in {games} games);"
        f" legal moves {statistics.mean(legal):.1f},"
        f" distinct values {statistics.mean(distinct):.1f};"
        f" not the evaluation's best move in {departs} ({100 * departs / n:.1f}%)",
        flush=True,
    )


def pile(game: str, games: int, seed: int) -> None:
    config = make_config(game, 2)
    left: list[int] = []
    for g in range(games):
        last: list[State] = []

        def follow(state: State, _seat: int, _move: Move, last: list[State] = last) -> None:
            last[:] = [state]

        bots = [make_bot("greedy", seed + g), make_bot("greedy", seed + g + 1)]
        play_game(config, bots, seed + g, on_move=follow)
        left.append(last[0].deck_size)
    left.sort()
    print(
        f"{game:8} {games} greedy games: draw pile at the end mean {statistics.mean(left):.1f},"
        f" median {left[games // 2]}, 5th percentile {left[games // 20]}, least {left[0]}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("choices", "pile"))
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--level", default="hard")
    parser.add_argument("--game", nargs="+", default=["classic", "kids", "dice"])
    parser.add_argument("--seed", type=int, default=5000)
    a = parser.parse_args()
    for game in a.game:
        if a.what == "choices":
            choices(game, a.level, a.games, a.seed)
        elif game != "dice":  # Dice has no cards
            pile(game, a.games, a.seed)


if __name__ == "__main__":
    main()
