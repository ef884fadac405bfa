#!/usr/bin/env python3
"""Self-play training on the PettingZoo environment, against a pool of past snapshots.

sb3-contrib's ``MaskablePPO`` learns one seat of :func:`sequence.env.pettingzoo.env`; every
other seat is played by an opponent drawn, each episode, from the pool: the snapshots this run
saved so far (the newest most often) and fixed bots (``--bots``, the uniform random policy by
default), one of which plays one episode in five (``--bot-share``) and every episode until
the first snapshot. The learner's seat is drawn each episode too. After each generation of
``--steps`` steps the model is saved as ``DIR/gen-<k>.zip`` and joins the pool, and its win
rate against the random bot is printed. Every snapshot plays wherever a bot spec is taken::

    scripts/selfplay.py --game kids --generations 5 --steps 20000 --out runs/kids
    sequence tournament --game kids --bot policy:runs/kids/gen-5.zip --bot greedy
    scripts/selfplay.py --game classic --generations 20 --steps 32768 --envs 4 \\
        --bots random,greedy --bot-share 0.5 --out runs/classic

``--envs N`` steps N copies of the game for the learner (Stable-Baselines3's ``DummyVecEnv``:
its policy runs once for the N of them). Snapshots in the pool play through their
networks' forward pass directly (:func:`fast_policy`), not ``model.predict``.

Seeds: ``--seed`` seeds the model, the environment and the pool's draws, so a run repeats.
Needs the ``rl`` and ``pettingzoo`` extras (the dev setup has both).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

import _venv  # noqa: F401  (first: another Python runs this again with .venv's)
import gymnasium
import numpy as np
import torch
from _pool_options import add_pool_options
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import DummyVecEnv

from sequence.bots import Bot, BotSpecError, make_bot
from sequence.env.pettingzoo import SequenceAECEnv
from sequence.env.policy import Policy, PolicyBot, load_model

Opponent = Policy | Bot
"""A seat's player in the pool: a policy (observation, mask -> action) or a bot (view -> move)."""


def random_policy(rng: np.random.Generator) -> Policy:
    def policy(observation: Any, mask: Any) -> int:
        return int(rng.choice(np.flatnonzero(mask)))

    return policy


def fast_policy(model: Any) -> Policy:
    """A saved ``MaskablePPO`` model's deterministic policy: its actor network's forward pass
    with the illegal actions' logits masked, the action ``model.predict`` would give (without
    its per-call checks and conversions, which cost more than the network here)."""
    policy = model.policy
    policy.set_training_mode(False)

    def act(observation: Any, mask: Any) -> int:
        with torch.no_grad():
            obs = torch.as_tensor(observation, dtype=torch.float32).unsqueeze(0)
            features = policy.extract_features(obs, policy.pi_features_extractor)
            logits = policy.action_net(policy.mlp_extractor.forward_actor(features))[0]
            logits[torch.as_tensor(mask == 0)] = -torch.inf
            return int(torch.argmax(logits))

    return act


def pool_bots(specs: str, seed: int) -> list[Opponent]:
    """The fixed opponents of ``--bots`` (comma-separated bot specs): ``random`` is the
    uniform random policy over the mask, any other spec a bot (:func:`sequence.bots.make_bot`)."""
    rng = np.random.default_rng(seed)
    names = [name.strip() for name in specs.split(",") if name.strip()]
    if not names:
        raise SystemExit("--bots needs at least one bot")  # i18n: ignore
    try:
        return [random_policy(rng) if n == "random" else make_bot(n, seed=seed) for n in names]
    except BotSpecError as exc:  # a mistyped spec: one line, as the other commands say it
        raise SystemExit(f"--bots: {exc}") from None  # i18n: ignore


class SelfPlayEnv(gymnasium.Env[Any, int]):
    """One seat of the PettingZoo game as a Gymnasium env; ``pool`` policies play the others
    (a snapshot drawn each episode, or one of ``bots``: one episode in ``1 / bot_share``, and
    every episode while the pool is empty; the uniform random policy when ``bots`` is None)."""

    def __init__(
        self,
        game: str,
        pool: list[Policy],
        seed: int,
        bots: list[Opponent] | None = None,
        bot_share: float = 0.2,
        **config: Any,
    ) -> None:
        self.aec = SequenceAECEnv(game, **config)
        agent = self.aec.possible_agents[0]
        self.observation_space = self.aec.observation_space(agent)["observation"]
        self.action_space = self.aec.action_space(agent)
        self.pool = pool
        self.rng = random.Random(seed)
        self.np_rng = np.random.default_rng(seed)
        self.learner = agent
        self.bots: list[Opponent] = bots if bots is not None else [random_policy(self.np_rng)]
        self.bot_share = bot_share
        self.opponent: Opponent = self.bots[0]
        self._mask = np.zeros(self.action_space.n, dtype=np.int8)  # type: ignore[attr-defined]

    def _draw_opponent(self) -> Opponent:
        if not self.pool or self.rng.random() < self.bot_share:
            return self.bots[0] if len(self.bots) == 1 else self.rng.choice(self.bots)
        # the newest snapshots most often: weight k + 1 for the k-th
        weights = [k + 1 for k in range(len(self.pool))]
        return self.rng.choices(self.pool, weights=weights)[0]

    def _advance(self) -> tuple[Any, float, bool]:
        """Let the other seats play up to the learner's turn or the end."""
        aec = self.aec
        for agent in aec.agent_iter():
            if aec.terminations[agent] or aec.truncations[agent]:
                if agent == self.learner:
                    reward = float(aec._cumulative_rewards[agent])
                    self._mask = np.zeros_like(self._mask)
                    return aec.observe(agent)["observation"], reward, True
                aec.step(None)
                continue
            if agent == self.learner:
                obs = aec.observe(agent)
                self._mask = obs["action_mask"]
                return obs["observation"], 0.0, False
            if isinstance(self.opponent, Bot):  # a bot reads its view: no observation made
                state = aec._state
                assert state is not None
                move = self.opponent.choose(state.view(aec.possible_agents.index(agent)))
                aec.step(aec._actions.index[move])
            else:
                obs = aec.observe(agent)
                aec.step(int(self.opponent(obs["observation"], obs["action_mask"])))
        raise AssertionError("the learner always sees the end")  # pragma: no cover

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        self.aec.reset(seed=self.rng.getrandbits(31))
        self.learner = self.rng.choice(self.aec.possible_agents)
        self.opponent = self._draw_opponent()
        obs, _, _ = self._advance()
        return obs, {}

    def step(self, action: int) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        self.aec.step(int(action))
        obs, reward, done = self._advance()
        return obs, reward, done, False, {}

    def action_masks(self) -> Any:
        return self._mask.astype(bool)


def win_rate(path: Path, game: str, games: int, seed: int, **options: Any) -> float:
    """The snapshot's score (win 1, draw 0.5) against the random bot, seats alternating."""
    from sequence.bots import RandomBot
    from sequence.engine import State, StepKind, draw_move, make_config

    bot = PolicyBot(path=str(path))
    config = make_config(game, **options)
    score = 0.0
    for k in range(games):
        state = State.new(config, seed=seed + k)
        other = RandomBot(seed=seed + k)
        mine = k % config.players
        while (step := state.next_step()).kind is not StepKind.OVER:
            if step.kind is StepKind.ROLL:
                state.push(state.sample_chance())
            elif step.kind is StepKind.DRAW:
                state.push(draw_move(step.seat))  # type: ignore[arg-type]
            else:
                player = bot if step.seat == mine else other
                state.push(player.choose(state.view(step.seat)), seat=step.seat)
        returns = state.returns()
        score += (returns[mine] + 1) / 2
    return score / games


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="kids", help="classic, kids, dice or draft (kids)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--generations", type=int, default=5, help="snapshots to make (5)")
    parser.add_argument("--steps", type=int, default=20_000, help="steps a generation")
    add_pool_options(parser)
    parser.add_argument(
        "--n-steps",
        type=int,
        default=None,
        help="steps per game copy between PPO updates (2048 / envs, at most --steps)",
    )
    parser.add_argument("--eval-games", type=int, default=20, help="games against random (0: none)")
    parser.add_argument("--max-turns", type=int, default=None, help="a shorter game limit")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("selfplay"), help="snapshot folder")
    args = parser.parse_args(argv)

    config: dict[str, Any] = {"players": args.players}
    if args.max_turns:
        config["max_turns"] = args.max_turns
    args.out.mkdir(parents=True, exist_ok=True)
    pool: list[Policy] = []
    if args.envs < 1 or not 0 <= args.bot_share <= 1:
        raise SystemExit("--envs must be at least 1 and --bot-share within [0, 1]")  # i18n: ignore

    def make(k: int) -> SelfPlayEnv:
        seed = args.seed + k
        bots = None if args.bots == "random" else pool_bots(args.bots, seed)
        return SelfPlayEnv(args.game, pool, seed, bots, args.bot_share, **config)

    env: Any = make(0)
    if args.envs > 1:
        env = DummyVecEnv([lambda k=k: make(k) for k in range(args.envs)])  # type: ignore[misc]
    n_steps = args.n_steps or min(2048 // args.envs, max(32, args.steps // args.envs))
    model = MaskablePPO(
        "MlpPolicy", env, seed=args.seed, n_steps=max(8, n_steps),
        batch_size=min(64, max(32, args.steps)), verbose=0, device="cpu",
    )  # fmt: skip
    start = time.perf_counter()
    for generation in range(1, args.generations + 1):
        model.learn(args.steps, reset_num_timesteps=False)
        path = args.out / f"gen-{generation}.zip"
        model.save(path)
        pool.append(fast_policy(load_model(path)))
        score = ""
        if args.eval_games > 0:
            rate = win_rate(path, args.game, args.eval_games, args.seed + 10_000, **config)
            score = f" {rate:.0%} against random,"
        print(
            f"generation {generation}: {model.num_timesteps} steps, {len(pool)} in the pool,"
            f"{score} {time.perf_counter() - start:.0f}s -> {path}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
