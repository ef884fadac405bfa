"""``sequence tournament``: play bots against each other in any game and rate them.

Round robin (every pair of bots) or gauntlet (the first bot against each of the others). Each
pairing plays every deal (seed) once per *seat pattern*: with two sides, A-B then B-A on the
same deal; with three sides, every way to give the three colours to the two bots (A-B-B, B-A-B,
..., B-A-A). So first move, cards and dice even out. Games run in worker processes.

A user's bot cannot learn a deal it has still to play: each deal's seed is a hash of the run's
seed (:func:`deal_seed`), so one game's seed tells nothing of the others', and ``--save`` writes
a deal's records only once every game of that deal is over.

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
import hashlib
import itertools
import json
import math
import multiprocessing
import os
import random
import secrets
import signal
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..engine import ConfigError, config_from_dict
from ..engine.games import Config
from .options import add_config_arguments, config_from_args, describe

if TYPE_CHECKING:
    from ..bots import Bot


@dataclass(frozen=True)
class Task:
    """One game: which bot plays each team, from which deal."""

    index: int
    pairing: tuple[int, int]
    specs: tuple[str, ...]
    """Bot spec for each team."""
    labels: tuple[str, ...]
    """What the tables call each team's entry (:func:`entry_labels`)."""
    owners: tuple[int, ...]
    """For each team, the index of its bot in the tournament's bot list."""
    config: dict[str, Any]
    deal: int
    """Which deal of the pairing (0, 1, ...): its games share the seed."""
    seed: int
    time_limit: float | None
    save: bool


def seat_patterns(teams: int) -> list[tuple[int, ...]]:
    """Every way to give ``teams`` sides to two bots (0 and 1), each bot getting at least one.

    >>> seat_patterns(2)
    [(0, 1), (1, 0)]
    >>> len(seat_patterns(3))
    6
    """
    return [p for p in itertools.product((0, 1), repeat=teams) if 0 in p and 1 in p]


def deal_seed(run_seed: int, deal: int) -> int:
    """The seed of deal ``deal`` of a run from ``run_seed``: a hash, so a bot that learns one
    game's seed (from a saved record, say) cannot work out the deals still to come.

    >>> deal_seed(1, 0) == deal_seed(1, 0) != deal_seed(1, 1)
    True
    """
    digest = hashlib.sha256(f"sequence-deal:{run_seed}:{deal}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 2


def entry_labels(specs: list[str]) -> list[str]:
    """What the tables, the JSON and the records call each entry: its spec, numbered where the
    same spec is entered more than once, so that every name points at one entry.

    >>> entry_labels(["random", "greedy", "random"])
    ['random #1', 'greedy', 'random #2']
    """
    entered = Counter(specs)
    seen: Counter[str] = Counter()
    labels = []
    for spec in specs:
        seen[spec] += 1
        labels.append(spec if entered[spec] == 1 else f"{spec} #{seen[spec]}")
    return labels


def make_tasks(
    specs: list[str],
    config: Config,
    mode: str,
    games: int,
    seed: int,
    time_limit: float | None,
    save: bool,
) -> list[Task]:
    if mode == "gauntlet":
        pairings = [(0, j) for j in range(1, len(specs))]
    else:
        pairings = list(itertools.combinations(range(len(specs)), 2))
    labels = entry_labels(specs)
    patterns = seat_patterns(config.teams)
    deals = max(1, math.ceil(games / len(patterns)))
    tasks: list[Task] = []
    for a, b in pairings:
        for deal in range(deals):
            for pattern in patterns:
                owners = tuple(a if p == 0 else b for p in pattern)
                tasks.append(
                    Task(
                        index=len(tasks),
                        pairing=(a, b),
                        specs=tuple(specs[o] for o in owners),
                        labels=tuple(labels[o] for o in owners),
                        owners=owners,
                        config=config.to_dict(),
                        deal=deal,
                        seed=deal_seed(seed, deal),
                        time_limit=time_limit,
                        save=save,
                    )
                )
    return tasks


def _output_problem(json_path: str | None, save_dir: Path | None) -> str | None:
    """Why the results could not be written where asked (``None``: they can)."""
    if json_path and json_path != "-":
        path = Path(json_path)
        parent = path.parent if str(path.parent) else Path(".")
        if path.is_dir():
            return f"--json {json_path}: that is a folder; give a file name"
        if not parent.is_dir():
            return f"--json {json_path}: there is no folder {parent}"
        if not os.access(parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
            return f"--json {json_path}: cannot write there"
    if save_dir is not None and save_dir.exists() and not save_dir.is_dir():
        return f"--save {save_dir}: that is a file, not a folder"
    return None


def start_worker() -> None:
    """Set up a process that plays games. An alarm is the arena's own business (its move timer
    ignores one sent early; by default one would end the process). A Ctrl-C is the main
    process's: it stops the workers itself, keeping the games played."""
    if hasattr(signal, "SIGALRM"):
        signal.signal(signal.SIGALRM, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _leave)


_stopping = False
"""Set in a worker told to stop: its game unwinds, closing its bots, and the worker ends."""


def _leave(signum: int, frame: object) -> None:
    global _stopping
    _stopping = True
    raise KeyboardInterrupt  # the one exception the arena lets through a bot's move


def run_task(task: Task) -> dict[str, Any]:
    """Play one game (in a worker process) and return its summary, picklable."""
    from ..bots.arena import play_game
    from ..bots.base import seat_seed
    from ..bots.isolated import UnstartedBot, contained_bot
    from ..engine import Move, State

    config = config_from_dict(task.config)
    owners = task.owners
    bots: list[Bot] = []
    tags = {"Event": "sequence tournament", "Round": str(task.index + 1)}
    stats_problems: dict[int, str] = {}  # entry -> why its figures were unusable (the first)

    def check_stats(state: State, seat: int, move: Move) -> None:
        if seat < 0:  # a roll of the dice
            return
        owner = owners[seat % config.teams]
        if owner not in stats_problems:  # once is enough to be told
            problem = stats_problem(bots[seat])
            if problem is not None:
                stats_problems[owner] = problem

    try:
        for seat in range(config.players):
            spec, label = task.specs[seat % config.teams], task.labels[seat % config.teams]
            # A user's bot plays in a process of its own, one per seat and game: it cannot
            # reach the game's state, its team-mate's memory, or what it saw in the last game.
            try:
                bot = contained_bot(spec, seed=seat_seed(task.seed, seat))
            except Exception as exc:  # it started when checked, not now: it loses the game
                bot = UnstartedBot(spec, str(exc))
            bot.label = label  # what forfeits name: one entry, when a bot plays itself
            bots.append(bot)
            # The seat tag stays the spec (`sequence play --load` makes the bot from it); a
            # numbered entry's name goes where the replay viewer looks for a player's name.
            tags[f"Seat{seat + 1}"] = spec
            if label != spec:
                tags[f"Name{seat + 1}"] = label
        result = play_game(
            config,
            bots,
            seed=task.seed,
            time_limit=task.time_limit,
            tags=tags,
            on_move=check_stats,
        )
    finally:
        for bot in bots:
            bot.close()
        if _stopping:  # the run was stopped: this worker starts no other game
            os._exit(1)
    seat_stats = [
        {
            "bot": owners[s % config.teams],
            "moves": st.moves,
            "seconds": st.seconds,
            "iterations": st.iterations,
            "searched": st.searched,
        }
        for s, st in enumerate(result.seats)
    ]
    a, b = task.pairing
    if result.forfeit is not None:
        score_a = 0.0 if owners[result.forfeit.team] == a else 1.0
    elif result.winner is None:
        score_a = 0.5
    else:
        score_a = 1.0 if owners[result.winner] == a else 0.0
    return {
        "index": task.index,
        "pairing": [a, b],
        "deal": task.deal,
        "owners": list(owners),
        "seed": task.seed,
        "score_a": score_a,
        "winner": result.winner,
        "termination": result.termination,
        "forfeit": None if result.forfeit is None else result.forfeit.message(),
        "turns": result.turns,
        "seats": seat_stats,
        "stats_problems": stats_problems,
        "record": result.record.to_json(indent=1) if task.save else None,
    }


def stats_problem(bot: Bot) -> str | None:
    """Why the figures ``bot.stats()`` gives for its last move cannot go into the tables
    (``None``: they can). The tables use ``iterations``, a number of 0 or more."""
    from ..bots.isolated import IsolatedBot, failure, is_figure, safe_repr

    if isinstance(bot, IsolatedBot) and bot.stats_problem is not None:
        return bot.stats_problem  # a user's bot: its own process checked what stats() gave
    try:
        figures = bot.stats()
        if not isinstance(figures, dict):
            return f"stats() returned {safe_repr(figures)}, not a dict"
        iterations = figures.get("iterations")
    except Exception as exc:  # a bot's bug costs its figures, not its game
        return f"stats() raised {failure(exc)}"
    if iterations is None:  # a bot that does not search has none to give
        return None
    if not is_figure(iterations) or iterations < 0:
        return f"stats() gave iterations = {safe_repr(iterations)}, not a number of 0 or more"
    return None


# --- statistics ---------------------------------------------------------------------------------


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson interval for a score rate (draws count half) over ``n`` games.

    >>> lo, hi = wilson(0.5, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.404, 0.596)
    """
    if n == 0:
        return 0.0, 1.0
    p = score
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def bradley_terry(
    n_bots: int, games: list[tuple[int, int, float]], iterations: int = 200
) -> list[float]:
    """Elo ratings (first bot at 0) from ``(a, b, score of a)`` games by Bradley-Terry.

    Draws count half a win each. One virtual draw between every pair that met keeps a perfect
    score finite (a weak prior).

    >>> r = bradley_terry(2, [(0, 1, 0.0)] * 30)
    >>> r[0], r[1] > 400
    (0.0, True)
    """
    wins = [[0.0] * n_bots for _ in range(n_bots)]
    for a, b, s in games:
        wins[a][b] += s
        wins[b][a] += 1 - s
    for a, b in itertools.combinations(range(n_bots), 2):
        if wins[a][b] + wins[b][a] > 0:
            wins[a][b] += 0.5
            wins[b][a] += 0.5
    p = [1.0] * n_bots
    for _ in range(iterations):
        new = []
        for i in range(n_bots):
            w = sum(wins[i])
            d = sum(
                (wins[i][j] + wins[j][i]) / (p[i] + p[j])
                for j in range(n_bots)
                if j != i and wins[i][j] + wins[j][i]
            )
            new.append(w / d if d > 0 else p[i])
        geo = math.exp(sum(math.log(max(x, 1e-300)) for x in new) / n_bots)
        p = [x / geo for x in new]
    elo = [400 * math.log10(max(x, 1e-300)) for x in p]
    return [e - elo[0] for e in elo]


def rating_intervals(
    n_bots: int, games: list[tuple[int, int, float]], samples: int = 200, seed: int = 0
) -> list[tuple[float, float]]:
    """95% intervals of :func:`bradley_terry` ratings by bootstrap over the games.

    The games are drawn from a pool that also holds one virtual win and one virtual loss for
    every pair that met (Laplace's rule), so a perfect score still gets an interval.

    >>> lo, hi = rating_intervals(2, [(0, 1, 0.0)] * 30)[1]
    >>> 300 < lo < hi
    True
    """
    if not games:
        return [(0.0, 0.0)] * n_bots
    rng = random.Random(seed)
    pairs = sorted({(min(a, b), max(a, b)) for a, b, _ in games})
    pool = games + [(a, b, s) for a, b in pairs for s in (0.0, 1.0)]
    draws: list[list[float]] = [[] for _ in range(n_bots)]
    for _ in range(samples):
        sample = [pool[rng.randrange(len(pool))] for _ in games]
        for i, r in enumerate(bradley_terry(n_bots, sample, iterations=60)):
            draws[i].append(r)
    out = []
    for d in draws:
        d.sort()
        out.append((d[int(0.025 * (len(d) - 1))], d[int(0.975 * (len(d) - 1))]))
    return out


def summarise(
    specs: list[str], results: list[dict[str, Any]], config: Config, mode: str, seconds: float
) -> dict[str, Any]:
    """The tables of a finished tournament as plain data (what ``--json`` writes)."""
    n_bots = len(specs)
    names = entry_labels(specs)
    stats_problems: dict[int, str] = {}  # entry -> the first reason, in the order of the games
    for r in results:
        for owner, problem in r["stats_problems"].items():
            stats_problems.setdefault(owner, problem)
    by_pair: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for r in results:
        by_pair.setdefault((r["pairing"][0], r["pairing"][1]), []).append(r)
    pairings = []
    games: list[tuple[int, int, float]] = []
    for (a, b), rs in sorted(by_pair.items()):
        wins = sum(1 for r in rs if r["score_a"] == 1.0)
        losses = sum(1 for r in rs if r["score_a"] == 0.0)
        draws = len(rs) - wins - losses
        score = sum(r["score_a"] for r in rs) / len(rs)
        lo, hi = wilson(score, len(rs))
        pairings.append(
            {
                "a": names[a],
                "b": names[b],
                "games": len(rs),
                "a_wins": wins,
                "draws": draws,
                "b_wins": losses,
                "a_score": score,
                "a_score_95": [lo, hi],
                "forfeits": sum(1 for r in rs if r["forfeit"]),
            }
        )
        games.extend((a, b, r["score_a"]) for r in rs)
    elo = bradley_terry(n_bots, games)
    intervals = rating_intervals(n_bots, games)
    ratings = []
    for i, name in enumerate(names):
        moves = seconds_used = its = searched = 0.0
        n_games = 0
        points = 0.0
        for r in results:
            if i not in r["pairing"]:
                continue
            n_games += 1
            points += r["score_a"] if r["pairing"][0] == i else 1 - r["score_a"]
            for st in r["seats"]:
                if st["bot"] == i:
                    moves += st["moves"]
                    seconds_used += st["seconds"]
                    its += st["iterations"]
                    searched += st["searched"]
        if i in stats_problems:  # the sums hold figures that mean nothing: show none
            its = searched = 0.0
        ratings.append(
            {
                "bot": name,
                "elo": elo[i],
                "elo_95": list(intervals[i]),
                "games": n_games,
                "score": points / n_games if n_games else 0.0,
                "ms_per_move": 1000 * seconds_used / moves if moves else 0.0,
                "iterations_per_move": its / searched if searched else 0.0,
                "iterations_per_second": its / seconds_used if its and seconds_used else 0.0,
            }
        )
    return {
        "config": config.to_dict(),
        "mode": mode,
        "bots": names,
        "specs": specs,
        "games": len(results),
        "seconds": seconds,
        "pairings": pairings,
        "ratings": ratings if results else [],  # no games, no ratings (not every Elo at 0)
        "forfeits": [
            r["forfeit"] for r in sorted(results, key=lambda r: r["index"]) if r["forfeit"]
        ],
        "terminations": dict(
            sorted(
                {
                    t: sum(1 for r in results if r["termination"] == t)
                    for t in {r["termination"] for r in results}
                }.items()
            )
        ),
        "stats_problems": {names[i]: problem for i, problem in sorted(stats_problems.items())},
    }


def render(summary: dict[str, Any]) -> None:
    """Print the results tables with rich (to stderr when JSON goes to stdout)."""
    from rich.console import Console
    from rich.table import Table

    console = Console(stderr=summary.get("_stderr", False))
    config = config_from_dict(summary["config"])
    title = f"{describe(config)}: {summary['games']} games in {summary['seconds']:.0f} s"
    if "seed" in summary:
        title += f" (deals from --seed {summary['seed']})"
    t = Table(title=title)
    for col in ("A", "B", "games", "A wins", "draws", "B wins", "A score", "95% interval"):
        # Bot names wrap rather than lose their ends (mypackage.mybot:A and :B look alike cut).
        t.add_column(col, justify="left" if col in ("A", "B") else "right", overflow="fold")
    for p in summary["pairings"]:
        lo, hi = p["a_score_95"]
        t.add_row(
            p["a"], p["b"], str(p["games"]), str(p["a_wins"]), str(p["draws"]), str(p["b_wins"]),
            f"{100 * p['a_score']:.1f}%", f"{100 * lo:.1f}-{100 * hi:.1f}%",
        )  # fmt: skip
    console.print(t)
    r = Table(title="ratings (Bradley-Terry Elo, first bot = 0)")
    for col in (
        "bot",
        "Elo",
        "95% interval",
        "games",
        "score",
        "ms/move",
        "iter/move",
        "iter/s",
    ):
        r.add_column(col, justify="left" if col == "bot" else "right", overflow="fold")
    for x in sorted(summary["ratings"], key=lambda x: -x["elo"]):
        lo, hi = x["elo_95"]
        r.add_row(
            x["bot"], f"{x['elo']:.0f}", f"{lo:.0f} to {hi:.0f}", str(x["games"]),
            f"{100 * x['score']:.1f}%",
            f"{x['ms_per_move']:.1f}",
            f"{x['iterations_per_move']:.0f}" if x["iterations_per_move"] else "-",
            f"{x['iterations_per_second']:.0f}" if x["iterations_per_second"] else "-",
        )  # fmt: skip
    console.print(r)
    for bot, problem in summary["stats_problems"].items():
        console.print(  # a bot's words, as words
            f"note: bot {bot!r}: {problem}; its iter/move and iter/s show -",
            markup=False,
            highlight=False,
        )
    if summary["forfeits"]:
        console.print(f"[bold red]{len(summary['forfeits'])} game(s) lost by forfeit:[/]")
        for msg in summary["forfeits"][:20]:
            console.print(f"  {msg}", markup=False, highlight=False)  # a bot's words, as words


# --- the command --------------------------------------------------------------------------------


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = (
        "bots: random, casual, greedy, lookahead, mcts, easy, medium, hard,"
        " or package.module:Class;\n"
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
        "--save", metavar="DIR",
        help="write every game's record (JSON) into DIR, a new or empty folder",
    )  # fmt: skip
    parser.add_argument("--json", metavar="PATH", help="write the results as JSON ('-' for stdout)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


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
    problem = _output_problem(args.json, save_dir) or _prepare_save(save_dir)
    if problem:  # found now, not after hours of games
        print(f"sequence tournament: {problem}", file=err)
        return 2
    time_limit = args.time_limit if args.time_limit > 0 else None
    seed = secrets.randbits(62) if args.seed is None else args.seed
    tasks = make_tasks(specs, config, args.mode, args.games, seed, time_limit, bool(args.save))
    # Every pairing plays the same deals: a deal is over once each pairing has played it in
    # every seat pattern.
    games_a_deal = len(seat_patterns(config.teams)) * len({task.pairing for task in tasks})
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
        if save_dir is None or record is None:
            return
        # A deal's records are written only once all its games are over: a record holds the
        # deal's seed, and a bot still to play that deal must not find it on the disk.
        deal = result["deal"]
        unsaved.setdefault(deal, []).append((result["index"], record))
        if len(unsaved[deal]) == games_a_deal:
            _write_records(save_dir, unsaved.pop(deal))

    stopped = None
    interrupted = False
    with progress:
        bar = progress.add_task("games", total=len(tasks))
        if in_process:
            try:
                for task in tasks:
                    collect(run_task(task))
                    progress.advance(bar)
            except KeyboardInterrupt:
                stopped, interrupted = "interrupted", True
        else:
            # fork on Linux (fast, and workers inherit protect_process); elsewhere the
            # platform's default, since forking beside the progress bar's thread is unsafe there.
            linux = sys.platform.startswith("linux")
            ctx = multiprocessing.get_context("fork" if linux else None)
            # Not multiprocessing.Pool: its workers are daemons, which may not start the
            # process a user's bot plays in (bots/isolated.py).
            with ProcessPoolExecutor(workers, mp_context=ctx, initializer=start_worker) as pool:
                futures = [pool.submit(run_task, task) for task in tasks]
                try:
                    for future in as_completed(futures):
                        collect(future.result())
                        progress.advance(bar)
                except KeyboardInterrupt:
                    stopped, interrupted = "interrupted", True
                except BrokenProcessPool:  # something killed a worker: keep what was played
                    stopped = "a worker process was killed (by a bot's process, or the system)"
                except Exception as exc:  # a game that failed for a reason of ours: keep the rest
                    stopped = f"a game failed: {type(exc).__name__}: {exc}"
                if stopped:
                    _stop_pool(pool)
    if stopped:
        message = _stopped_message(stopped, len(results), len(tasks), args.json)
        print(f"sequence tournament: {message}", file=err)
        if save_dir is not None:  # the run is over: nothing is left to hide
            for deal in unsaved.values():
                _write_records(save_dir, deal)
    results.sort(key=lambda r: r["index"])
    summary = summarise(specs, results, config, args.mode, time.perf_counter() - start)
    summary["seed"] = seed
    summary["stopped"] = stopped  # a script must not take a stopped run for a whole one
    if json_stdout:
        summary["_stderr"] = True
    if results and (not args.quiet or not json_stdout):
        render(summary)
    summary.pop("_stderr", None)
    if args.json:
        text = json.dumps(summary, indent=2)
        if json_stdout:
            print(text)
        else:
            Path(args.json).write_text(text + "\n", encoding="utf-8")
    return 130 if interrupted else 1 if stopped else 0


def _stopped_message(why: str, played: int, games: int, json_path: str | None) -> str:
    """What a stopped run says on stderr, before its results (if any game finished).

    >>> _stopped_message("interrupted", 0, 4, None)
    'stopped before any game finished: interrupted; there are no results'
    """
    if played:
        return (
            f"stopped after {played} of {games} games: {why};"
            " the results below are of the games that were played"
        )
    # Still written, so that a script waiting for the file finds one that says what happened.
    where = "" if json_path is None else " (the --json output has 0 games and says why)"
    return f"stopped before any game finished: {why}; there are no results{where}"


def _stop_pool(pool: ProcessPoolExecutor) -> None:
    """Stop a pool now: queued games are dropped and games in play end with their workers."""
    processes = list((getattr(pool, "_processes", None) or {}).values())  # no public way < 3.14
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()  # the worker closes its game's bots, then ends (start_worker)
    for process in processes:
        process.join(5)
        if process.is_alive():  # caught where it could not unwind: it must not hold the exit
            process.kill()


def _prepare_save(save_dir: Path | None) -> str | None:
    """Make the ``--save`` folder; why it cannot be used (``None``: it can)."""
    if save_dir is None:
        return None
    try:
        save_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return f"--save {save_dir}: cannot make that folder ({exc.strerror or exc})"
    if any(save_dir.glob("game-*.json")):
        return f"--save {save_dir}: it already holds game records; give a new or empty folder"
    if not os.access(save_dir, os.W_OK):
        return f"--save {save_dir}: cannot write there"
    return None


def _write_records(save_dir: Path, records: list[tuple[int, str]]) -> None:
    for index, record in records:
        path = save_dir / f"game-{index + 1:05d}.json"
        path.write_text(record + "\n", encoding="utf-8")
