"""``sequence simulate``: bots play whole games; a summary (or JSON) of how they ended.

Without ``--bot`` every seat plays uniformly random legal moves (the engine's fastest
playout). With ``--bot SPEC`` (once for every seat, or once per seat or per team) the named
bots play through the arena, each seeing only its seat's view, and every turn's length is
checked against the engine's bound (:attr:`~sequence.engine.Config.turn_move_limit`): the
summary gives the longest turn met, and a longer one stops the run with an error.

    sequence simulate --game kids --players 4 --bot greedy --games 2000
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Callable

from ..bots import Bot, bot_maker
from ..bots.arena import TurnLengths, TurnTooLong, play_game
from ..bots.base import seat_seed
from ..engine import TEAM_LETTERS, ConfigError, State, play_random_game
from .options import add_config_arguments, config_from_args, describe, plural

ENDINGS = {
    "sequences": "sequences completed",
    "heart": "the heart held",
    "stalemate": "everyone passed",
    "max_turns": "turn limit",
    "forfeit": "a bot forfeited",
    "draft_empty": "face-up cards ran out",
}
"""How a game ended (a Termination's value), for the summary."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_config_arguments(parser)
    parser.add_argument("--games", type=int, default=10, help="games to play (default 10)")
    parser.add_argument(
        "--seed", type=int, default=0, help="seed of the first game; game i uses seed+i"
    )
    parser.add_argument(
        "--bot",
        action="append",
        metavar="SPEC",
        help="a bot plays instead of random moves (e.g. greedy, hard); once for every seat,"
        " or once per seat or per team",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object: config, games, wins, endings, average_turns, bots,"
        " longest_turn (the most moves one seat made in a turn; null without --bot, whose"
        " games alone are watched), turn_move_limit (the most the rules allow), seconds,"
        " moves_per_second, results (each game's seed, winner, termination, turns, moves)",
    )


def run(args: argparse.Namespace) -> int:
    try:
        config = config_from_args(args)
    except ConfigError as exc:
        print(f"sequence simulate: {exc}", file=sys.stderr)
        return 2
    if args.games < 1:
        print("sequence simulate: --games must be at least 1", file=sys.stderr)
        return 2
    makers: list[Callable[[int], Bot]] = []
    if args.bot:
        count = len(args.bot)
        if count not in (1, config.teams, config.players):
            print(
                f"sequence simulate: {count} --bot options for {config.players} seats:"
                f" give one, one per team ({config.teams}) or one per seat",
                file=sys.stderr,
            )
            return 2
        try:
            makers = [bot_maker(spec) for spec in args.bot]
        except ValueError as exc:
            print(f"sequence simulate: {exc}", file=sys.stderr)
            return 2
    results = []
    wins: Counter[str] = Counter()
    endings: Counter[str] = Counter()
    started = time.perf_counter()
    total_moves = 0
    longest = 0
    for i in range(args.games):
        seed = args.seed + i
        if makers:
            watch = TurnLengths(config)
            bots = [makers[s % len(makers)](seat_seed(seed, s)) for s in range(config.players)]
            try:
                game = play_game(config, bots, seed, on_move=watch)
            except TurnTooLong as exc:
                print(f"sequence simulate: game {seed}: {exc}", file=sys.stderr)
                return 1
            finally:
                for bot in bots:
                    bot.close()
            longest = max(longest, watch.longest)
            termination, winning, turns = game.termination, game.winner, game.turns
            moves = len(game.record.moves)
        else:
            state = play_random_game(State.new(config, seed), seed)
            outcome = state.outcome
            assert outcome is not None
            termination, winning, turns = outcome.termination.value, outcome.winner, state.turns
            moves = len(state.move_stack)
        winner = None if winning is None else TEAM_LETTERS[winning]
        wins[winner or "draw"] += 1
        endings[termination] += 1
        total_moves += moves
        results.append({
            "seed": seed, "winner": winner, "termination": termination,
            "turns": turns, "moves": moves,
        })  # fmt: skip
    elapsed = time.perf_counter() - started
    summary = {
        "config": config.to_dict(),
        "games": args.games,
        "wins": {k: wins[k] for k in sorted(wins)},
        "endings": dict(endings),
        "average_turns": sum(r["turns"] for r in results) / len(results),
        "bots": args.bot or ["random"],
        "longest_turn": longest if makers else None,
        "turn_move_limit": config.turn_move_limit,
        "seconds": round(elapsed, 3),
        "moves_per_second": round(total_moves / elapsed) if elapsed else None,
        "results": results,
    }
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    print(f"{plural(args.games, 'game')} of {describe(config)}")
    for key in sorted(wins):
        side = "player" if config.team_size == 1 else "team"  # players alone have no team
        label = "draws:" if key == "draw" else f"{side} {key} wins:"
        print(f"  {label:<13} {wins[key]}")
    ended = ", ".join(f"{ENDINGS.get(e, e)} {n}" for e, n in endings.most_common())
    print(f"  endings: {ended}")
    print(f"  average: {summary['average_turns']:.1f} turns a game; {elapsed:.2f} s in all")
    if makers:
        print(
            f"  longest turn: {plural(longest, 'move')} (the rules allow {config.turn_move_limit})"
        )
    return 0
