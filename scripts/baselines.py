#!/usr/bin/env python3
"""The baselines of docs/env.md: what standard methods reach, one command a row.

Each subcommand trains (or sets up) one method, then measures it the project's way: a
round-robin ``sequence tournament`` of ``random``, ``greedy`` and the method's bot, whose
Bradley-Terry Elo (``random`` = 0) is the measure. It prints the table row and writes
``OUT/<name>.json`` (the arguments, the training's wall time, the tournament's results)::

    scripts/baselines.py ppo --opponent random --steps 100000 --seed 0
    scripts/baselines.py ppo --opponent greedy --steps 100000 --seed 0
    scripts/baselines.py selfplay --generations 5 --steps 20000 --seed 0
    scripts/baselines.py selfplay --generations 20 --steps 32768 --envs 4 \\
        --bots random,greedy --bot-share 0.5 --seed 0
    scripts/baselines.py ismcts --simulations 100 --games 20
    scripts/baselines.py table          # the table of every record in runs/baselines
    scripts/baselines.py batched --game classic --steps 1000000 --seed 0 --games 16 \\
        --out baselines                 # a shipped baseline (classic, kids, dice)
    scripts/baselines.py versus         # the shipped ones against random, easy, medium, greedy

- ``ppo``: sb3-contrib's ``MaskablePPO`` (``MlpPolicy``, its default hyper-parameters) on
  ``sequence/<Game>-v0`` through Stable-Baselines3's ``make_vec_env`` (``--envs`` copies)
  against one opponent bot; the saved model plays as ``policy:OUT/ppo-<opponent>.zip``.
- ``selfplay``: ``scripts/selfplay.py`` (MaskablePPO on the PettingZoo env against a pool of
  its own past snapshots and fixed bots: ``--bots``, ``--bot-share``, ``--envs`` are its
  options of those names); the last snapshot plays.
- ``ismcts``: OpenSpiel's information-set MCTS (``ismcts@simulations=N``), no training.
- ``batched``: ``MaskablePPO`` on the batched simulator (:class:`sequence.env.sb3.BatchedVecEnv`,
  ``--envs`` games at once, no wrapper) against a batched bot; measured in a round robin of
  ``random``, ``easy``, ``medium`` and the policy. With ``--out baselines`` it writes the
  shipped policies (``baselines/<game>.zip``, loadable as ``policy:baselines/<game>.zip``).

``table`` prints the records of ``--out`` and the shipped ones of ``baselines/``. ``versus``
plays each shipped policy (``baselines/<game>.zip``) ``--games`` games against each of
``random``, ``easy``, ``medium`` and ``greedy`` in this process (no tournament, no training;
about two minutes of CPU at the default 100) and prints each score with its 95% interval.

PyTorch is held to one thread (``torch.set_num_threads(1)``), so a run's wall time is one
core's. Needs the ``rl``, ``pettingzoo`` and ``openspiel`` extras (the dev setup has them).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import _venv  # noqa: F401  (first: another Python runs this again with .venv's)
from _pool_options import add_pool_options

GAME_IDS = {"classic": "Classic", "kids": "Kids", "dice": "Dice", "draft": "Draft"}
"""The Gymnasium id of each game: ``sequence/<id>-v0``."""


def tournament(
    candidate: str, game: str, games: int, seed: int, workers: int,
    bots: tuple[str, ...] = ("random", "greedy"),
) -> dict[str, Any]:  # fmt: skip
    """``sequence tournament`` of ``bots`` and ``candidate`` (round robin): its JSON."""
    command = [
        sys.executable, "-m", "sequence.cli.main", "tournament", "--game", game,
        *(arg for bot in (*bots, candidate) for arg in ("--bot", bot)),
        "--games", str(games), "--seed", str(seed), "--workers", str(workers),
        "--json", "-", "--quiet",
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"the tournament failed ({done.returncode}): {done.stderr.strip()}")
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def elo_of(results: dict[str, Any], spec: str) -> tuple[float, float, float, float]:
    """``spec``'s Elo, its 95% interval and its score, from a tournament's JSON."""
    for rating in results["ratings"]:
        if rating["bot"] == spec:
            lo, hi = rating["elo_95"]
            return rating["elo"], lo, hi, rating["score"]
    raise KeyError(spec)


HEADER = (
    "| method | game | seed | steps | training | Elo (95% interval) | against random"
    " | against greedy | greedy's Elo | games |\n"
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
)
"""The table's head: Elo is the tournament's (random = 0); "against" columns are the method's
score (a win 1, a draw 0.5) in its pairing with that bot."""


def score_against(results: dict[str, Any], spec: str, other: str) -> float:
    """``spec``'s score in its pairing with ``other``."""
    for pairing in results["pairings"]:
        if (pairing["a"], pairing["b"]) == (spec, other):
            return float(pairing["a_score"])
        if (pairing["a"], pairing["b"]) == (other, spec):
            return 1.0 - float(pairing["a_score"])
    raise KeyError((spec, other))


def row(record: dict[str, Any]) -> str:
    """The table's row for a run's record (``OUT/<name>.json``)."""
    results, spec = record["tournament"], record["candidate"]
    elo, lo, hi, _ = elo_of(results, spec)
    trained = record["steps"] > 0  # ISMCTS is not trained: no seed, steps or time of its own
    seed = str(record["seed"]) if trained else "-"
    steps = f"{record['steps']:,}" if trained else "-"
    training = f"{record['train_seconds'] / 60:.1f} min" if trained else "-"
    return (
        f"| {record['method']} | {record['game']} | {seed} | {steps}"
        f" | {training} | {elo:.0f} ({lo:.0f} to {hi:.0f})"
        f" | {score_against(results, spec, 'random'):.0%}"
        f" | {score_against(results, spec, 'greedy'):.0%}"
        f" | {elo_of(results, 'greedy')[0]:.0f} | {results['games']} |"
    )


SHIPPED_HEADER = (
    "| game | policy | seed | steps | training | against random | against easy"
    " | against medium | Elo (95% interval) | games a pairing |\n"
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
)
"""The shipped baselines' table: each policy's score against the levels, in one tournament."""

SHIPPED = Path(__file__).resolve().parent.parent / "baselines"
"""Where the shipped baseline policies and their records are (``baselines/`` in the checkout)."""

SHIPPED_BOTS = ("random", "easy", "medium")
"""What the shipped baselines are measured against (``medium`` is ``greedy``)."""


def shipped_row(record: dict[str, Any]) -> str:
    """The shipped baselines' table row for a record of ``batched``."""
    results, spec = record["tournament"], record["candidate"]
    elo, lo, hi, _ = elo_of(results, spec)
    against = " | ".join(f"{score_against(results, spec, bot):.0%}" for bot in SHIPPED_BOTS)
    return (
        f"| {record['game']} | `{spec}` | {record['seed']} | {record['steps']:,}"
        f" | {record['train_seconds'] / 60:.1f} min | {against}"
        f" | {elo:.0f} ({lo:.0f} to {hi:.0f}) | {record['games']} |"
    )


def report(name: str, method: str, args: argparse.Namespace, candidate: str,
           steps: int, seconds: float, bots: tuple[str, ...] = ("random", "greedy"),
           ) -> None:  # fmt: skip
    """Measure ``candidate`` against ``bots``, write ``OUT/<name>.json`` and print its row."""
    start = time.perf_counter()
    results = tournament(candidate, args.game, args.games, args.eval_seed, args.workers, bots)
    record = {
        "name": name, "method": method, "game": args.game, "seed": args.seed,
        "argv": sys.argv, "candidate": candidate, "steps": steps, "train_seconds": seconds,
        "eval_seconds": time.perf_counter() - start, "tournament": results, "bots": bots,
        "games": args.games,
    }  # fmt: skip
    path = args.out / f"{name}.json"
    path.write_text(json.dumps(record, indent=1))
    if tuple(bots) == SHIPPED_BOTS:
        print(SHIPPED_HEADER, shipped_row(record), sep="\n", flush=True)
    else:
        print(HEADER, row(record), sep="\n", flush=True)
    print(f"(tournament {record['eval_seconds']:.0f}s; written to {path})", flush=True)


def run_table(args: argparse.Namespace) -> None:
    """Print the table of every record in ``OUT``."""
    paths = dict.fromkeys(p.resolve() for p in sorted(args.out.glob("*.json")))
    paths.update(dict.fromkeys(sorted(SHIPPED.glob("*.json"))))  # in every checkout
    records = [json.loads(p.read_text()) for p in paths]
    shipped = [r for r in records if tuple(r.get("bots", ())) == SHIPPED_BOTS]
    others = [r for r in records if r not in shipped]
    if others or not shipped:
        print(HEADER)
        for record in others:
            print(row(record))
    if shipped:
        print(SHIPPED_HEADER)
        for record in shipped:
            print(shipped_row(record))


VERSUS_BOTS = ("random", "easy", "medium", "greedy")
"""What ``versus`` plays each shipped policy against. ``medium`` is the ``greedy`` bot: on the
same deals it would play the same games, so ``greedy`` plays other deals (from
:data:`GREEDY_DEALS` on), a second sample of the same opponent."""
GREEDY_DEALS = 100_000
"""Added to the first deal's seed for the ``greedy`` column."""


def score_interval(wins: int, draws: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95%) of a score, a draw counted as half a win.

    >>> [round(x, 3) for x in score_interval(0, 0, 40)]
    [0.0, 0.088]
    """
    p = (wins + draws / 2) / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * (p * (1 - p) / games + z * z / (4 * games * games)) ** 0.5 / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def versus(game: str, opponent: str, games: int, seed: int) -> dict[str, Any]:
    """``policy:baselines/<game>.zip`` against ``opponent`` at two players, ``games`` games in
    this process: deals from ``seed``, ``seed + 1``, ..., the policy's seat alternating (the
    same deals for every opponent). Its wins, draws, losses, score and 95% interval."""
    from sequence.bots import make_bot
    from sequence.bots.arena import play_game
    from sequence.engine import make_config

    config = make_config(game, players=2)
    spec = f"policy:{SHIPPED / f'{game}.zip'}"
    wins = draws = 0
    for g in range(games):
        policy, other = make_bot(spec, seed + g), make_bot(opponent, seed + g)
        seat = g % 2
        bots = [policy, other] if seat == 0 else [other, policy]
        result = play_game(config, bots, seed=seed + g)
        for bot in bots:
            bot.close()
        wins += result.winner == seat
        draws += result.winner is None
    lo, hi = score_interval(wins, draws, games)
    return {
        "game": game, "opponent": opponent, "games": games, "seed": seed, "wins": wins,
        "draws": draws, "losses": games - wins - draws, "score": (wins + draws / 2) / games,
        "interval_95": [lo, hi],
    }  # fmt: skip


def run_versus(args: argparse.Namespace) -> None:
    """The shipped policies against random, easy, medium and greedy: a table, one row a game."""
    start = time.process_time()
    one_thread()
    results = []
    print(
        "| game | policy | " + " | ".join(f"against {bot}" for bot in VERSUS_BOTS)
        + " | games each |\n| --- | --- |" + " --- |" * (len(VERSUS_BOTS) + 1)
    )  # fmt: skip
    for game in args.games_of:
        cells = []
        for bot in VERSUS_BOTS:
            deals = args.eval_seed + (GREEDY_DEALS if bot == "greedy" else 0)
            r = versus(game, bot, args.games, deals)
            results.append(r)
            lo, hi = r["interval_95"]
            cells.append(f"{r['score']:.0%} ({lo:.0%} to {hi:.0%})")
        print(f"| {game} | `policy:baselines/{game}.zip` | {' | '.join(cells)} | {args.games} |")
    seconds = time.process_time() - start
    print(f"({seconds:.0f} s of CPU; score: a win 1, a draw 0.5; 95% Wilson intervals)")
    if args.json:
        args.json.write_text(json.dumps({"cpu_seconds": seconds, "results": results}, indent=1))


def one_thread() -> None:
    import torch

    torch.set_num_threads(1)


def run_ppo(args: argparse.Namespace) -> None:
    one_thread()
    import gymnasium  # noqa: F401
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env

    import sequence.env.gym  # noqa: F401  (registers the ids)

    env_id = f"sequence/{GAME_IDS[args.game]}-v0"
    vec = make_vec_env(
        env_id, n_envs=args.envs, seed=args.seed, env_kwargs={"opponents": args.opponent}
    )
    model = MaskablePPO(
        "MlpPolicy", vec, n_steps=args.n_steps, batch_size=min(64, args.n_steps * args.envs),
        seed=args.seed, device="cpu", verbose=0,
    )  # fmt: skip
    start = time.perf_counter()
    model.learn(args.steps)
    seconds = time.perf_counter() - start
    name = f"ppo-{args.opponent}-{args.game}"
    path = args.out / f"{name}.zip"
    model.save(path)
    print(f"trained {model.num_timesteps} steps in {seconds:.0f}s -> {path}", flush=True)
    method = f"MaskablePPO against {args.opponent}"
    report(name, method, args, f"policy:{path}", model.num_timesteps, seconds)


def run_batched(args: argparse.Namespace) -> None:
    """MaskablePPO on the batched simulator (``BatchedVecEnv``, no wrapper): the shipped
    baselines, measured against random, easy and medium."""
    one_thread()
    from sb3_contrib import MaskablePPO

    from sequence.env.sb3 import BatchedVecEnv

    envs = BatchedVecEnv(args.envs, args.game, opponents=args.opponent, seed=args.seed, players=2)
    model = MaskablePPO(
        "MlpPolicy", envs, n_steps=args.n_steps, batch_size=args.batch_size,
        n_epochs=args.epochs, seed=args.seed, device="cpu", verbose=0,
    )  # fmt: skip
    start = time.perf_counter()
    model.learn(args.steps)
    seconds = time.perf_counter() - start
    path = args.out / f"{args.game}.zip"
    model.save(path)
    print(f"trained {model.num_timesteps} steps in {seconds:.0f}s -> {path}", flush=True)
    method = f"MaskablePPO on BatchedVecEnv against {args.opponent}"
    report(args.game, method, args, f"policy:{path}", model.num_timesteps, seconds, SHIPPED_BOTS)


def run_selfplay(args: argparse.Namespace) -> None:
    one_thread()
    here = str(Path(__file__).resolve().parent)
    if here not in sys.path:  # imported from elsewhere (the tests)
        sys.path.insert(0, here)
    import selfplay  # scripts/selfplay.py, beside this file

    from sequence.env.policy import load_model

    folder = args.out / f"selfplay-{args.game}"
    start = time.perf_counter()
    selfplay.main([
        "--game", args.game, "--generations", str(args.generations),
        "--steps", str(args.steps), "--seed", str(args.seed), "--out", str(folder),
        "--envs", str(args.envs), "--bots", args.bots, "--bot-share", str(args.bot_share),
        "--eval-games", "0",
    ])  # fmt: skip
    seconds = time.perf_counter() - start
    path = folder / f"gen-{args.generations}.zip"
    steps = load_model(path).num_timesteps  # whole rollouts: a little over the steps asked
    method = f"MaskablePPO self-play ({args.generations} snapshots"
    if args.bots != "random" or args.bot_share != 0.2:  # not the script's default pool
        method += f"; {args.bots.replace(',', ', ')} {args.bot_share:.0%} of games"
    method += ")"
    report(f"selfplay-{args.game}", method, args, f"policy:{path}", steps, seconds)


def run_ismcts(args: argparse.Namespace) -> None:
    spec = f"ismcts@simulations={args.simulations}"
    report(f"ismcts-{args.game}", f"OpenSpiel ISMCTS, {args.simulations} simulations",
           args, spec, 0, 0.0)  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--game", default="classic", choices=sorted(GAME_IDS),
                        help="the game, 2 players (classic)")  # fmt: skip
    common.add_argument("--seed", type=int, default=0, help="the training's seed (0)")
    common.add_argument("--games", type=int, default=40,
                        help="tournament games a pairing (40)")  # fmt: skip
    common.add_argument("--eval-seed", type=int, default=1, help="the tournament's seed (1)")
    common.add_argument("--workers", type=int, default=1, help="tournament processes (1)")
    common.add_argument("--out", type=Path, default=Path("runs/baselines"),
                        help="where models and results go (runs/baselines)")  # fmt: skip
    sub = parser.add_subparsers(dest="method", required=True)
    ppo = sub.add_parser("ppo", parents=[common], help="MaskablePPO against a bot")
    ppo.add_argument("--opponent", default="random", help="the bot it trains against (random)")
    ppo.add_argument("--steps", type=int, default=100_000, help="training steps (100,000)")
    ppo.add_argument("--envs", type=int, default=4, help="environments in the vector (4)")
    ppo.add_argument(
        "--n-steps", type=int, default=2048, help="steps per environment between PPO updates (2048)"
    )
    ppo.set_defaults(run=run_ppo)
    bat = sub.add_parser(
        "batched", parents=[common], help="MaskablePPO on the batched simulator (shipped)"
    )
    bat.add_argument("--opponent", default="random", choices=["random", "greedy"],
                     help="the batched bot it trains against (random)")  # fmt: skip
    bat.add_argument("--steps", type=int, default=300_000, help="training steps (300,000)")
    bat.add_argument("--envs", type=int, default=64, help="games stepped at once (64)")
    bat.add_argument("--n-steps", type=int, default=64, help="steps per game an update (64)")
    bat.add_argument("--batch-size", type=int, default=512, help="PPO's minibatch (512)")
    bat.add_argument("--epochs", type=int, default=4, help="PPO's epochs an update (4)")
    bat.set_defaults(run=run_batched)
    sp = sub.add_parser("selfplay", parents=[common], help="MaskablePPO against its snapshots")
    sp.add_argument("--generations", type=int, default=5, help="snapshots (5)")
    sp.add_argument("--steps", type=int, default=20_000, help="steps a snapshot (20,000)")
    add_pool_options(sp)
    sp.set_defaults(run=run_selfplay)
    ism = sub.add_parser("ismcts", parents=[common], help="OpenSpiel's ISMCTS")
    ism.add_argument("--simulations", type=int, default=100, help="simulations a move (100)")
    ism.set_defaults(run=run_ismcts)
    vs = sub.add_parser("versus", help="the shipped policies against random, easy, medium, greedy")
    vs.add_argument("--games", type=int, default=100, help="games against each bot (100)")
    vs.add_argument("--eval-seed", type=int, default=1, help="the first deal's seed (1)")
    vs.add_argument("--game", dest="games_of", action="append", choices=["classic", "kids", "dice"],
                    help="a game (repeatable; default: all three)")  # fmt: skip
    vs.add_argument("--json", type=Path, help="also write the results to this file")
    vs.set_defaults(run=run_versus)
    table = sub.add_parser("table", help="the table of every run's record in --out")
    table.add_argument("--out", type=Path, default=Path("runs/baselines"),
                       help="where the records are (runs/baselines)")  # fmt: skip
    table.set_defaults(run=run_table)
    args = parser.parse_args(argv)
    if args.method == "versus":
        args.games_of = args.games_of or ["classic", "kids", "dice"]
    else:
        args.out.mkdir(parents=True, exist_ok=True)
    args.run(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
