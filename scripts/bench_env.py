#!/usr/bin/env python3
"""The learning environments' speed beside the engine's, measured in one run.

Three figures for one configuration (classic for two unless told otherwise):

- **engine moves/s**: random games as ``sequence bench`` plays them (full legal-move generation
  at every step, :func:`sequence.engine.play_random_game`), and of them the **decisions/s**:
  the moves a player chooses, every move but a Dice roll (chance) and a ``manual_draw`` draw.
  Classic and Kids make one move a turn, Dice two (the roll, then the chip), so the same
  environment work is half the share of Dice's moves/s; the share of decisions/s compares
  the games like for like;
- **Gym steps/s**: ``sequence/...-v0`` episodes against the ``random`` opponent, the agent
  choosing uniformly among the legal actions of ``info["action_mask"]`` (one step is the
  agent's move and the opponents' moves up to its next decision: about two moves at two
  players);
- **AEC steps/s**: PettingZoo self-play, every seat choosing at random among the legal actions
  of ``observation["action_mask"]`` (one step is one move).

Each is also given as a share of the engine's moves/s and of its decisions/s. The three run by
turns, in eight chunks each, so that a machine whose speed drifts during the run (other work
starting or ending on it) moves them together rather than the one measured then. With
``--batched``, also the batched simulator's steps/s (:func:`sequence.env.batched.batched_env`,
numpy) at N = 1, 64 and 1,024 games at once, against random opponents (a step as the Gym
env's), against greedy opponents (:class:`~sequence.env.batched_greedy.BatchedGreedy`, every
game of the family, the draft included; a step as against random) and in self-play (a step is
one move). With ``--observations``, the batched simulator at N = 1,024 against random opponents
with each observation, one after the other in one run: flat, ``observation="planes"``,
``history=K`` and both (``--history K``, default 8). The policy reads only the action mask, so
the script runs unchanged against older versions of the environment (``--batched`` needs one
whose batched greedy plays the game asked for)::

    scripts/bench_env.py --seconds 5
    PYTHONPATH=/path/to/other/checkout/src .venv/bin/python scripts/bench_env.py

Figures, not pass/fail: they depend on the machine and on what else runs on it. They are per
second of the process's CPU time (``--wall``: of the wall clock), so a busy machine slows them
less than it slows the wall clock.
"""

from __future__ import annotations

import _venv  # noqa: F401  (first: another Python runs this again with .venv's)

# isort: split
import argparse
import importlib.util
import json
import platform
import random
import time
from collections.abc import Generator
from operator import attrgetter, countOf
from typing import Any

try:
    import numpy as np
except ModuleNotFoundError:
    raise SystemExit(
        "scripts/bench_env.py needs the learning extras: .venv/bin/pip install -e"
        " '.[gym,pettingzoo]' (make setup installs them)"
    ) from None

from sequence.engine import MoveKind, State, make_config, play_random_game

_clock = time.process_time
"""Every figure is per second of this process's CPU time, not of the wall clock: on a machine
shared with other work the wall clock counts the time other processes ran, and a ratio taken
from two wall-clock figures measured a few seconds apart depends on how busy the machine was
in each. ``--wall`` uses the wall clock instead."""


Counter = Generator[int, float, None]
"""A measure run in chunks: sent the clock reading to stop at, it works until then and yields
how many moves (or steps) it made. Primed with ``next``, which does its setting up."""


_NOT_DECISIONS = (MoveKind.ROLL, MoveKind.DRAW)
"""The moves no player chooses: a Dice roll (chance) and, with ``manual_draw``, a draw."""


def engine_moves(config: Any, seed: int, tally: list[int]) -> Counter:
    """Moves of random games; their moves and decisions (moves but rolls and draws) added up
    in ``tally``."""
    rng = random.Random(seed)
    game_seed = seed
    kind = attrgetter("kind")
    until = yield 0
    while True:
        moves = 0
        while _clock() < until:
            stack = play_random_game(State.new(config, game_seed), rng).move_stack
            moves += len(stack)
            kinds = list(map(kind, stack))  # C loops: a fraction of a percent of a game
            tally[0] += len(stack)
            tally[1] += len(stack) - sum(countOf(kinds, k) for k in _NOT_DECISIONS)
            game_seed += 1
        until = yield moves


_STEPS_PER_CLOCK = 64
"""Steps between two readings of the clock: reading the process's CPU time is a system call
that costs about 1% of a Gym step, work the environment does not do."""


def _choose(mask: Any, rng: random.Random) -> int:
    """A uniform choice among the legal actions of ``mask``, the agent every figure shares.

    ``mask.nonzero()`` and ``item`` rather than ``np.flatnonzero`` and ``int(legal[i])``: the
    same action from the same draw, for a third of the time (numpy's module-level functions
    are Python wrappers). Measured here is the environment, not the agent.
    """
    (legal,) = mask.nonzero()
    return int(legal.item(int(rng.random() * len(legal))))


def gym_steps(game: str, options: dict[str, Any], seed: int) -> Counter:
    import gymnasium

    import sequence.env.gym

    env_id = {game_: id_ for id_, game_ in sequence.env.gym.ENV_IDS.items()}[game]
    env = gymnasium.make(env_id, opponents="random", **options).unwrapped
    rng = random.Random(seed)
    _, info = env.reset(seed=seed)
    until = yield 0
    while True:
        steps = 0
        while _clock() < until:
            for _ in range(_STEPS_PER_CLOCK):
                _, _, terminated, truncated, info = env.step(_choose(info["action_mask"], rng))
                if terminated or truncated:
                    _, info = env.reset()
            steps += _STEPS_PER_CLOCK
        until = yield steps


def aec_steps(game: str, options: dict[str, Any], seed: int) -> Counter:
    from sequence.env.pettingzoo import SequenceAECEnv

    env = SequenceAECEnv(game, **options)
    rng = random.Random(seed)
    env.reset(seed=seed)
    until = yield 0
    while True:
        steps = 0
        while _clock() < until:
            target = steps + _STEPS_PER_CLOCK
            while steps < target:
                observation, _, termination, truncation, _ = env.last()
                if termination or truncation:
                    env.step(None)
                    if not env.agents:
                        env.reset()
                    continue
                env.step(_choose(observation["action_mask"], rng))
                steps += 1
        until = yield steps


ROUNDS = 8
"""How many chunks each measure of :func:`interleaved` runs in."""


def interleaved(counters: dict[str, Counter], seconds: float) -> dict[str, float]:
    """Each counter's moves (or steps) per second, the counters run by turns in chunks of
    ``seconds / ROUNDS``: a machine that slows down or speeds up while they run (other work
    starting or ending on it) changes every figure alike, not the one that ran then."""
    done = {name: [0, 0.0] for name in counters}
    for counter in counters.values():
        next(counter)
    for _ in range(ROUNDS):
        for name, counter in counters.items():
            started = _clock()
            count = counter.send(started + seconds / ROUNDS)
            done[name][0] += count
            done[name][1] += _clock() - started
    return {name: count / elapsed for name, (count, elapsed) in done.items()}


def batched_steps(
    game: str,
    options: dict[str, Any],
    n: int,
    opponents: str,
    seconds: float,
    seed: int,
    observation: dict[str, Any] | None = None,
) -> float:
    from sequence.env.batched import batched_env

    env = batched_env(n, game, opponents=opponents, seed=seed, **options, **(observation or {}))
    rng = np.random.default_rng(seed)
    env.reset()
    env.step(env.sample_actions(rng))  # warm up
    steps = 0
    started = _clock()
    while _clock() - started < seconds:
        env.step(env.sample_actions(rng))
        steps += n
    return steps / (_clock() - started)


BATCH_SIZES = (1, 64, 1024)


def observation_options(history: int) -> dict[str, dict[str, Any]]:
    """The batched simulator's observations ``--observations`` measures, by name."""
    return {
        "flat": {},
        "planes": {"observation": "planes"},
        f"history={history}": {"history": history},
        f"planes, history={history}": {"observation": "planes", "history": history},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="classic", choices=["classic", "kids", "dice", "draft"])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=3.0, help="per figure (default 3)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument(
        "--batched",
        action="store_true",
        help="also the batched simulator at N = 1, 64, 1024 (vs random, vs greedy, self-play)",
    )
    parser.add_argument(
        "--observations",
        action="store_true",
        help="the batched simulator at N = 1024 with flat, planes, history and both",
    )
    parser.add_argument("--history", type=int, default=8, help="K for --observations")
    parser.add_argument("--no-single", action="store_true", help="skip the Gym and AEC envs")
    parser.add_argument(
        "--wall", action="store_true", help="per second of wall-clock time, not of CPU time"
    )
    args = parser.parse_args()
    needed = ["gymnasium"] + ([] if args.no_single else ["pettingzoo"])
    missing = [name for name in needed if importlib.util.find_spec(name) is None]
    if missing:
        parser.exit(
            2,
            f"{parser.prog}: {' and '.join(missing)} missing: .venv/bin/pip install -e"
            " '.[gym,pettingzoo]' (make setup installs them)\n",
        )
    if args.wall:
        global _clock
        _clock = time.perf_counter
    options = {"players": args.players}
    config = make_config(args.game, **options)
    tally = [0, 0]
    counters = {"engine_moves_per_second": engine_moves(config, args.seed, tally)}
    if not args.no_single:
        counters["gym_steps_per_second"] = gym_steps(args.game, options, args.seed)
        counters["aec_steps_per_second"] = aec_steps(args.game, options, args.seed)
    figures: dict[str, Any] = {
        "game": args.game,
        "players": args.players,
        "python": platform.python_version(),
        **interleaved(counters, args.seconds),
    }
    engine = figures["engine_moves_per_second"]
    decisions = figures["engine_decisions_per_second"] = engine * tally[1] / tally[0]
    if not args.no_single:
        figures["gym_share"] = figures["gym_steps_per_second"] / engine
        figures["aec_share"] = figures["aec_steps_per_second"] / engine
        figures["gym_share_of_decisions"] = figures["gym_steps_per_second"] / decisions
        figures["aec_share_of_decisions"] = figures["aec_steps_per_second"] / decisions
    if args.batched:
        for mode in ("random", "greedy", "self"):
            for n in BATCH_SIZES:
                figures[f"batched_{mode}_{n}_steps_per_second"] = batched_steps(
                    args.game, options, n, mode, args.seconds, args.seed
                )
    observations = observation_options(args.history) if args.observations else {}
    for name, obs_options in observations.items():
        figures[f"batched_random_1024_{name}_steps_per_second"] = batched_steps(
            args.game, options, 1024, "random", args.seconds, args.seed, obs_options
        )
    if args.json:
        print(json.dumps({k: round(v, 3) if isinstance(v, float) else v
                          for k, v in figures.items()}, indent=2))  # fmt: skip
        return
    print(f"{args.game}, {args.players} players (Python {figures['python']})")
    print(f"  engine moves/s (random games):   {engine:>9,.0f}")
    print(f"    of which decisions/s:          {decisions:>9,.0f}"
          "  (every move but Dice rolls and draws)")  # fmt: skip
    if not args.no_single:
        print(f"  Gym steps/s (vs random):         {figures['gym_steps_per_second']:>9,.0f}"
              f"  ({figures['gym_share']:.1%} of the engine's moves/s,"
              f" {figures['gym_share_of_decisions']:.1%} of its decisions/s)")  # fmt: skip
        print(f"  PettingZoo AEC steps/s:          {figures['aec_steps_per_second']:>9,.0f}"
              f"  ({figures['aec_share']:.1%},"
              f" {figures['aec_share_of_decisions']:.1%})")  # fmt: skip
    if args.batched:
        print("  batched simulator steps/s (N games at once):")
        for mode, what in (("random", "vs random"), ("greedy", "vs greedy"), ("self", "self-play")):
            for n in BATCH_SIZES:
                rate = figures[f"batched_{mode}_{n}_steps_per_second"]
                label = f"{what}, N = {n:,}:"
                print(
                    f"    {label:<31}{rate:>9,.0f}  ({rate / engine:.0%} of the engine's moves/s)"
                )
    if observations:
        print("  batched steps/s by observation (vs random, N = 1,024):")
        flat = figures["batched_random_1024_flat_steps_per_second"]
        for name in observations:
            rate = figures[f"batched_random_1024_{name}_steps_per_second"]
            print(f"    {name + ':':<31}{rate:>9,.0f}  ({rate / flat:.2f} of flat)")


if __name__ == "__main__":
    main()
