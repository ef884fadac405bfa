#!/usr/bin/env python3
"""MaskablePPO's training speed on the batched simulator against SB3's ``SubprocVecEnv``.

Trains sb3-contrib's ``MaskablePPO`` (``MlpPolicy``, ``n_steps`` and ``batch_size`` below, one
epoch, PyTorch on one thread) for ``--steps`` agent steps, once per vector env, and prints the
steps per second each reached (wall time of ``learn``, rollouts and updates together):

- ``subproc``: ``make_vec_env("sequence.env.gym:sequence/<Game>-v0", n_envs=N,
  vec_env_cls=SubprocVecEnv)``, one Gym env per worker process;
- ``batched``: :class:`sequence.env.sb3.BatchedVecEnv` with N games (and with ``--wide`` games).

Same game, opponent and hyper-parameters for each::

    scripts/bench_vec.py --game classic --opponent greedy --envs 8 --wide 64 --steps 8192
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import _venv  # noqa: F401  (first: another Python runs this again with .venv's)


def train(envs: Any, steps: int, n_steps: int) -> float:
    """Steps per second of MaskablePPO's ``learn(steps)`` on ``envs``."""
    from sb3_contrib import MaskablePPO

    batch = min(256, n_steps * envs.num_envs)
    model = MaskablePPO("MlpPolicy", envs, n_steps=n_steps, batch_size=batch, n_epochs=1, seed=0)
    start = time.perf_counter()
    model.learn(steps)
    return model.num_timesteps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--game", default="classic", choices=["classic", "kids", "dice"])
    parser.add_argument("--opponent", default="greedy", choices=["random", "greedy"])
    parser.add_argument("--envs", type=int, default=8, help="games (and worker processes)")
    parser.add_argument("--wide", type=int, default=64, help="games of a second batched run")
    parser.add_argument("--steps", type=int, default=8192, help="agent steps per run")
    args = parser.parse_args()

    import torch
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import SubprocVecEnv

    from sequence.env.sb3 import BatchedVecEnv

    torch.set_num_threads(1)
    game_id = f"sequence.env.gym:sequence/{args.game.title()}-v0"
    kwargs = {"opponents": args.opponent}
    n_rollout = max(args.steps // (4 * args.envs), 16)
    rows = []
    subproc = make_vec_env(
        game_id, n_envs=args.envs, vec_env_cls=SubprocVecEnv, env_kwargs=kwargs, seed=0
    )
    rows.append((f"SubprocVecEnv, {args.envs} workers", train(subproc, args.steps, n_rollout)))
    subproc.close()
    for n in (args.envs, args.wide):
        envs = BatchedVecEnv(n, args.game, seed=0, **kwargs)  # type: ignore[arg-type]
        rows.append(
            (
                f"BatchedVecEnv, {n} games",
                train(envs, args.steps, max(n_rollout * args.envs // n, 16)),
            )
        )
    print(f"MaskablePPO, {args.game} against {args.opponent}, {args.steps} steps each")
    for name, rate in rows:
        print(f"  {name:32} {rate:8.0f} steps/s  ({rate / rows[0][1]:.1f}x)")


if __name__ == "__main__":
    main()
