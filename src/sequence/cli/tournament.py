"""``sequence tournament``: play bots against each other in any game and rate them.

This module is the command: its options, their checks, the progress bar and the order of
things. Who plays whom, the games and the statistics are the bots' layer's
(:mod:`sequence.bots.tournament`); what the run writes is :mod:`.tournament_output`'s.

Round robin (every pair of bots) or gauntlet (the first bot against each of the others). Each
pairing plays every deal (seed) once per *seat pattern*: with two sides, A-B then B-A on the
same deal; with three sides, every way to give the three colours to the two bots (A-B-B, B-A-B,
..., B-A-A). So first move, cards and dice even out. Games run in worker processes.

A user's bot cannot learn a deal it has still to play: each deal's seed is a hash of the run's
seed (:func:`~sequence.bots.tournament.deal_seed`), so one game's seed tells nothing of the
others', and ``--save`` writes a deal's records only once every game of that deal is over.

Examples::

    sequence tournament --bot random --bot greedy --games 100
    sequence tournament --mode gauntlet --bot hard --bot greedy --bot medium --game kids
    sequence tournament --bot mypackage.mybot:MyBot --bot greedy --time-limit 2 --save games/
    sequence tournament --bot greedy --bot "mcts@iterations=200,time=0" --players 3 --json -

A bot that raises, returns an illegal move or exceeds ``--time-limit`` loses that game; the
reason is listed under the tables and in the JSON.

The same bot may be entered more than once (``--bot random --bot random``: does a seat or the
first move favour a side?). Each entry is rated on its own and named ``random #1``, ``random #2``.
"""

from __future__ import annotations

import argparse
import math
import os
import secrets
import sys
import time
from pathlib import Path
from typing import Any

from ..bots.tournament import make_tasks, play_all, summarise
from ..bots.tournament.schedule import games_a_deal
from ..engine import ConfigError
from .options import add_config_arguments, config_from_args
from .tournament_output import (
    output_problem,
    prepare_save,
    render,
    stopped_message,
    write_json,
    write_records,
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = (
        "bots: random, casual, greedy, lookahead, mcts, easy, medium, hard, expert,"
        " ismcts (OpenSpiel's),"
        " policy:model.zip (a saved Stable-Baselines3 model), or package.module:Class;\n"
        "add @key=value,... for arguments, e.g. mcts@time=0.5 or mcts@iterations=200,time=0"
    )
    parser.add_argument(
        "--bot", action="append", default=[], metavar="SPEC", help="a bot (give two or more)"
    )
    parser.add_argument("--mode", choices=("round-robin", "gauntlet"), default="round-robin",
                        help="every pair, or the first bot against each of the others")  # fmt: skip
    add_config_arguments(parser)
    parser.add_argument(
        "--games", type=int, default=20,
        help="games a pairing, rounded up to whole seat patterns (default: 20)",
    )  # fmt: skip
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        help="the run's seed, from which every deal's is hashed (default: a random 62-bit number,"
        " printed with the results; other processes can read a seed given here, so leave it"
        " out when bots must not know the deals)",
    )
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                        help="worker processes (default: one per core)")  # fmt: skip
    parser.add_argument(
        "--time-limit", type=float, default=30.0,
        help="seconds a move; over it loses the game (default: 30; 0: none)",
    )  # fmt: skip
    parser.add_argument(
        "--time-rules", choices=("strict", "course"), default="strict",
        help="strict: a move over --time-limit loses the game; course: as the COMP90054"
        " framework, each late, failed or illegal move is a warning and a random move is"
        " played for it, and the third warning loses (give --time-limit 1 for its second)",
    )  # fmt: skip
    parser.add_argument(
        "--save", metavar="DIR",
        help="write every game's record (JSON) into DIR, a new or empty folder",
    )  # fmt: skip
    parser.add_argument("--json", metavar="PATH", help="write the results as JSON ('-' for stdout)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


COURSE_WARNINGS = 3
"""Warnings that lose a game under ``--time-rules course`` (the course's ``game.py``)."""


def run(args: argparse.Namespace) -> int:
    from ..bots.isolated import check_bot, is_user_bot, protect_process

    specs: list[str] = args.bot
    err = sys.stderr
    if len(specs) < 2:
        print("sequence tournament: give at least two bots (--bot A --bot B)", file=err)
        return 2
    for name, value, least in (("--games", args.games, 1), ("--workers", args.workers, 1)):
        if value < least:
            print(f"sequence tournament: {name} must be at least {least}", file=err)
            return 2
    if args.time_limit < 0 or not math.isfinite(args.time_limit):
        print("sequence tournament: --time-limit is 0 (none) or more seconds", file=err)
        return 2
    users_bots = any(is_user_bot(spec) for spec in specs)
    if users_bots:
        # Before any user's code runs (checking a spec runs it): neither this process nor the
        # workers forked from it can then be read by a bot's process.
        protect_process()
    try:
        config = config_from_args(args)
        for spec in specs:
            check_bot(spec)  # a user's module is imported in a process of its own, never here
    except (ConfigError, ValueError) as exc:
        print(f"sequence tournament: {exc}", file=err)
        return 2
    save_dir = Path(args.save) if args.save else None
    problem = output_problem(args.json, save_dir) or prepare_save(save_dir)
    if problem:  # found now, not after hours of games
        print(f"sequence tournament: {problem}", file=err)
        return 2
    time_limit = args.time_limit if args.time_limit > 0 else None
    seed = secrets.randbits(62) if args.seed is None else args.seed
    warnings = COURSE_WARNINGS if args.time_rules == "course" else 0
    tasks = make_tasks(
        specs, config, args.mode, args.games, seed, time_limit, bool(args.save), warnings
    )
    deal_games = games_a_deal(tasks, config.teams)
    results: list[dict[str, Any]] = []
    unsaved: dict[int, list[tuple[int, str]]] = {}
    start = time.perf_counter()
    json_stdout = args.json == "-"
    workers = min(args.workers, len(tasks))
    # A user's bot can kill the process that runs its game: never this one.
    in_process = workers == 1 and not users_bots

    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    console = Console(stderr=True)
    progress = Progress(
        TextColumn("[bold]games"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        TextColumn("ETA"), TimeRemainingColumn(), console=console, disable=args.quiet,
    )  # fmt: skip

    def collect(result: dict[str, Any]) -> None:
        record = result.pop("record")
        results.append(result)
        if save_dir is not None and record is not None:
            # A deal's records are written only once all its games are over: a record holds the
            # deal's seed, and a bot still to play that deal must not find it on the disk.
            deal = result["deal"]
            unsaved.setdefault(deal, []).append((result["index"], record))
            if len(unsaved[deal]) == deal_games:
                write_records(save_dir, unsaved.pop(deal))
        progress.advance(bar)

    with progress:
        bar = progress.add_task("games", total=len(tasks))
        stop = play_all(tasks, workers, collect, in_process=in_process)
    if stop is not None:
        message = stopped_message(stop.reason, len(results), len(tasks), args.json)
        print(f"sequence tournament: {message}", file=err)
        if save_dir is not None:  # the run is over: nothing is left to hide
            for deal in unsaved.values():
                write_records(save_dir, deal)
    results.sort(key=lambda r: r["index"])
    summary = summarise(specs, results, config, args.mode, time.perf_counter() - start)
    summary["seed"] = seed
    # A script must not take a stopped run for a whole one.
    summary["stopped"] = None if stop is None else stop.reason
    if json_stdout:
        summary["_stderr"] = True
    if results and (not args.quiet or not json_stdout):
        render(summary)
    summary.pop("_stderr", None)
    if args.json:
        write_json(summary, args.json)
    if stop is None:
        return 0
    return 130 if stop.interrupted else 1
