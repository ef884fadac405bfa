#!/usr/bin/env python3
"""Compare the engine's speed at another commit with this checkout's, side by side in one run.

    scripts/bench_compare.py d23ecfc                 # sequence bench, alternately, 3 rounds
    scripts/bench_compare.py d23ecfc --instructions  # also callgrind, on the same games

The other commit is checked out in a ``git worktree`` (removed afterwards) and both trees run
``sequence bench --json`` in turn, round after round, so a busy machine slows both alike; the
table gives each figure's median and the ratio new/old. ``--instructions`` counts instructions
per move with valgrind's callgrind on random games that are the same move for move under both
trees (seeds whose game has no pass: a pass is where rule changes may part them), less the
start-up: the measure that a shared machine's load does not move.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import _venv  # noqa: F401  (re-runs this script with .venv/bin/python where needed)

ROOT = Path(__file__).resolve().parent.parent
GAMES = (("classic", 2), ("classic", 4), ("kids", 2), ("dice", 2))
FIGURES = ("moves_per_second", "games_per_second", "copies_per_second", "push_pop_per_second")

SAME_GAMES = """
import hashlib, sys
from sequence.engine import MoveKind, State, make_config, play_random_game
game, count, seeds_file = sys.argv[1], int(sys.argv[2]), sys.argv[3]
config = make_config(game, 2)
if count == 0:  # choose the seeds: games with no pass (run in the old tree)
    quiet = [
        seed for seed in range(600)
        if not any(m.kind in (MoveKind.DISCARD, MoveKind.PASS)
                   for m in play_random_game(State.new(config, seed), seed).move_stack)
    ]
    open(seeds_file, "w").write(" ".join(map(str, quiet)))
    sys.exit()
seeds = [int(s) for s in open(seeds_file).read().split()][:count]
digest, moves = hashlib.sha1(), 0
for seed in seeds:
    stack = play_random_game(State.new(config, seed), seed).move_stack
    moves += len(stack)
    digest.update(" ".join(map(str, stack)).encode())
print("MOVES", moves, digest.hexdigest())
"""


def run(src: Path, *args: str) -> str:
    env = {**os.environ, "PYTHONPATH": str(src)}
    return subprocess.run(
        [sys.executable, *args], env=env, check=True, capture_output=True, text=True
    ).stdout


def bench(src: Path, game: str, players: int, seconds: float) -> dict[str, float]:
    out = run(src, "-m", "sequence.cli.main", "bench", "--game", game, "--players",
              str(players), "--seconds", str(seconds), "--json")  # fmt: skip
    return json.loads(out)  # type: ignore[no-any-return]


def instructions(src: Path, game: str, count: int, seeds: Path) -> tuple[int, int, str]:
    """(instructions, moves, digest of the moves) for ``count`` games under callgrind."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    result = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
         "-c", SAME_GAMES, game, str(count), str(seeds)],
        env=env, check=True, capture_output=True, text=True,
    )  # fmt: skip
    collected = next(line for line in result.stderr.splitlines() if "Collected" in line)
    _, moves, digest = result.stdout.split()
    return int(collected.split()[-1]), int(moves), digest


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("commit", help="the commit to compare with (e.g. the one before a change)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--instructions", action="store_true", help="also count with callgrind")
    parser.add_argument("--games", type=int, default=150, help="games for --instructions")
    args = parser.parse_args()
    if args.instructions and shutil.which("valgrind") is None:
        parser.error("--instructions needs valgrind (apt-get install valgrind)")
    workdir = Path(tempfile.mkdtemp(prefix="bench-compare-"))
    old_tree = workdir / "old"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(old_tree),
                    args.commit], check=True, capture_output=True)  # fmt: skip
    trees = {"old": old_tree / "src", "new": ROOT / "src"}
    try:
        results: dict[tuple[str, int, str, str], list[float]] = {}
        for round_ in range(args.rounds):
            for game, players in GAMES:
                for name, src in trees.items():
                    figures = bench(src, game, players, args.seconds)
                    for key in FIGURES:
                        results.setdefault((game, players, key, name), []).append(figures[key])
            print(f"round {round_ + 1} of {args.rounds} done", file=sys.stderr)
        print(f"sequence bench, {args.rounds} rounds alternately, medians (new/old):")
        print(f"{'game':<12}{'figure':<22}{'old':>12}{'new':>12}{'new/old':>9}")
        for game, players in GAMES:
            for key in FIGURES:
                old = statistics.median(results[(game, players, key, "old")])
                new = statistics.median(results[(game, players, key, "new")])
                print(f"{game} {players}p".ljust(12) + f"{key:<22}{old:>12,.0f}{new:>12,.0f}"
                      f"{new / old:>9.2f}")  # fmt: skip
        if args.instructions:
            print("\ninstructions per move, the same games under both (callgrind):")
            for game in ("classic", "dice"):
                seeds = workdir / f"seeds-{game}"
                run(trees["old"], "-c", SAME_GAMES, game, "0", str(seeds))
                per_move = {}
                digests = set()
                for name, src in trees.items():
                    total, moves, digest = instructions(src, game, args.games, seeds)
                    start, first, _ = instructions(src, game, 1, seeds)
                    per_move[name] = (total - start) / (moves - first)
                    digests.add(digest)
                same = "same games" if len(digests) == 1 else "the games differ: not comparable"
                print(
                    f"  {game}: old {per_move['old']:,.0f}, new {per_move['new']:,.0f}"
                    f" ({per_move['new'] / per_move['old'] - 1:+.1%}; {same})"
                )
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(old_tree)],
                       check=False, capture_output=True)  # fmt: skip
        shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
