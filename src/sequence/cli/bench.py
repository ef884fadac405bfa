"""``sequence bench``: the engine's speed, measured (figures, never pass/fail).

- **moves/s**: random games where every step generates the full list of legal moves, picks
  one at random and pushes it (with its legality check and undo record);
- **games/s**: the same random games, whole games a second (set-up included);
- **copies/s**: ``State.copy()`` of positions taken from those games;
- **push+pop/s**: a move made and undone.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
from typing import Any

from ..engine import Config, ConfigError, State, play_random_game
from .options import add_config_arguments, config_from_args, describe


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_config_arguments(parser)
    parser.add_argument(
        "--seconds",
        type=float,
        default=3.0,
        help="seconds of random games; copies and push+pop are measured for half as long each"
        " (default 3: about 6 s in all)",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=0,
        help="seed of the first random game and of the positions sampled (default 0)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON")


def random_games(config: Config, seconds: float, seed: int) -> dict[str, float]:
    """Play random games for ``seconds``: full legal-move generation at every step."""
    rng = random.Random(seed)
    moves = games = 0
    game_seed = seed
    deadline = time.perf_counter() + seconds
    started = time.perf_counter()
    while time.perf_counter() < deadline:
        state = play_random_game(State.new(config, game_seed), rng)
        game_seed += 1
        moves += len(state.move_stack)
        games += 1
    elapsed = time.perf_counter() - started
    return {"moves_per_second": moves / elapsed, "games_per_second": games / elapsed,
            "moves_per_game": moves / games, "games": games}  # fmt: skip


def sample_positions(config: Config, seed: int, count: int = 200) -> list[State]:
    rng = random.Random(seed)
    out: list[State] = []
    game_seed = seed
    while len(out) < count:
        state = State.new(config, game_seed)
        game_seed += 1
        while not state.is_over() and len(out) < count:
            if state.is_chance():
                state.push(state.sample_chance())
                continue
            # Sampled before the move, so even a game of one move (max_turns=1) gives positions.
            if rng.random() < 0.1:
                out.append(state.copy())
            legal = state.legal_moves
            state.push(legal[int(rng.random() * len(legal))])
    return out


def per_second(action: Any, items: list[State], seconds: float) -> float:
    done = 0
    started = time.perf_counter()
    deadline = started + seconds
    while time.perf_counter() < deadline:
        for item in items:
            action(item)
        done += len(items)
    return done / (time.perf_counter() - started)


def _push_pop(state: State) -> None:
    state.push(state.sample_chance() if state.is_chance() else state.legal_moves[0])
    state.pop()


def run(args: argparse.Namespace) -> int:
    try:
        config = config_from_args(args)
    except ConfigError as exc:
        print(f"sequence bench: {exc}", file=sys.stderr)
        return 2
    if not args.seconds > 0:
        print(f"sequence bench: --seconds must be above 0, not {args.seconds}", file=sys.stderr)
        return 2
    figures: dict[str, Any] = {
        "config": config.to_dict(),
        "python": platform.python_version(),
        "machine": f"{platform.machine()}, {os.cpu_count()} cpus",
    }
    figures.update(random_games(config, args.seconds, args.seed))
    positions = sample_positions(config, args.seed)
    figures["copies_per_second"] = per_second(State.copy, positions, args.seconds / 2)
    figures["push_pop_per_second"] = per_second(_push_pop, positions, args.seconds / 2)
    if args.json:
        print(
            json.dumps(
                {k: round(v, 1) if isinstance(v, float) else v for k, v in figures.items()},
                indent=2,
            )
        )
        return 0
    print(f"{describe(config)} (Python {figures['python']}, {figures['machine']})")
    print(f"  moves/s (full legal-move generation): {figures['moves_per_second']:>10,.0f}")
    print(f"  random games/s:                       {figures['games_per_second']:>10,.1f}"
          f"  ({figures['moves_per_game']:.1f} moves a game)")  # fmt: skip
    print(f"  state copies/s:                       {figures['copies_per_second']:>10,.0f}")
    print(f"  push+pop/s:                           {figures['push_pop_per_second']:>10,.0f}")
    return 0
