"""``sequence simulate``: random bots play whole games; a summary (or JSON) of the results."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter

from ..engine import TEAM_LETTERS, ConfigError, State, play_random_game
from .options import add_config_arguments, config_from_args, describe, plural

ENDINGS = {
    "sequences": "sequences completed",
    "heart": "the heart held",
    "stalemate": "everyone passed",
    "max_turns": "turn limit",
    "draft_empty": "face-up cards ran out",
}
"""How a game ended (a Termination's value), for the summary."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_config_arguments(parser)
    parser.add_argument("--games", type=int, default=10, help="games to play (default 10)")
    parser.add_argument(
        "--seed", type=int, default=0, help="seed of the first game; game i uses seed+i"
    )
    parser.add_argument("--json", action="store_true", help="print JSON, one object")


def run(args: argparse.Namespace) -> int:
    try:
        config = config_from_args(args)
    except ConfigError as exc:
        print(f"sequence simulate: {exc}", file=sys.stderr)
        return 2
    if args.games < 1:
        print("sequence simulate: --games must be at least 1", file=sys.stderr)
        return 2
    results = []
    wins: Counter[str] = Counter()
    endings: Counter[str] = Counter()
    started = time.perf_counter()
    total_moves = 0
    for i in range(args.games):
        seed = args.seed + i
        state = play_random_game(State.new(config, seed), seed)
        outcome = state.outcome
        assert outcome is not None
        winner = None if outcome.winner is None else TEAM_LETTERS[outcome.winner]
        wins[winner or "draw"] += 1
        endings[outcome.termination.value] += 1
        total_moves += len(state.move_stack)
        results.append({
            "seed": seed, "winner": winner, "termination": outcome.termination.value,
            "turns": state.turns, "moves": len(state.move_stack),
        })  # fmt: skip
    elapsed = time.perf_counter() - started
    summary = {
        "config": config.to_dict(),
        "games": args.games,
        "wins": {k: wins[k] for k in sorted(wins)},
        "endings": dict(endings),
        "average_turns": sum(r["turns"] for r in results) / len(results),
        "seconds": round(elapsed, 3),
        "moves_per_second": round(total_moves / elapsed) if elapsed else None,
        "results": results,
    }
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    print(f"{plural(args.games, 'game')} of {describe(config)}")
    for key in sorted(wins):
        label = "draws:" if key == "draw" else f"team {key} wins:"
        print(f"  {label:<13} {wins[key]}")
    ended = ", ".join(f"{ENDINGS.get(e, e)} {n}" for e, n in endings.most_common())
    print(f"  endings: {ended}")
    print(f"  average: {summary['average_turns']:.1f} turns a game; {elapsed:.2f} s in all")
    return 0
