"""The batched simulator as a Stable-Baselines3 ``VecEnv``: MaskablePPO trains on it as it is.

:class:`BatchedVecEnv` is a :class:`stable_baselines3.common.vec_env.VecEnv` over
:func:`~sequence.env.batched.batched_env`, with the Gym env's spaces (flat ``Box`` or ``Dict``
of planes; ``Discrete(num_actions)``) and SB3's conventions:

- autoreset as SB3 does it: a game that ends starts again in the same step, ``dones`` marks it,
  and its ``info`` holds ``terminal_observation`` and ``TimeLimit.truncated`` (the ``max_turns``
  limit), with ``episode`` (``r``, ``l``, ``t``, as SB3's ``Monitor`` writes it, so training
  logs show ``ep_rew_mean``) and ``winner`` and ``termination``;
- masks as sb3-contrib's ``MaskablePPO`` reads them from a ``VecEnv``:
  ``env_method("action_masks")`` gives one ``bool`` row per game (and :meth:`action_masks`
  all of them at once);
- seeding: ``seed(s)`` (what ``model.set_random_seed`` and ``MaskablePPO(seed=...)`` call)
  makes the next ``reset()`` start every game again from ``s``.

One simulator runs every game, so ``get_attr`` reads the simulator's attribute (the same for
each game), and ``env_method`` calls only ``action_masks`` (anything else would act on every game
at once: call ``env.sim``'s methods for that).

>>> from sb3_contrib import MaskablePPO
>>> envs = BatchedVecEnv(8, "kids", opponents="greedy", seed=0)
>>> model = MaskablePPO("MlpPolicy", envs, n_steps=16, batch_size=64, seed=0)
>>> model = model.learn(128)
>>> len(envs.env_method("action_masks")), envs.env_method("action_masks")[0].dtype
(8, dtype('bool'))

Needs the ``rl`` extra (Stable-Baselines3, sb3-contrib).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, Literal

import gymnasium
import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray
from stable_baselines3.common.vec_env import VecEnv
from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices, VecEnvStepReturn

from ..engine import Config
from .batched import TERMINATIONS, batched_env
from .batched_cards import BatchedSequenceEnv
from .gym import observer_space
from .vector import rows_of


class BatchedVecEnv(VecEnv):
    """``num_envs`` games of ``game`` (a name or :class:`~sequence.engine.Config`, with
    ``make_config`` keywords) as one SB3 ``VecEnv`` (see the module's docs).

    ``opponents`` (``"random"``, ``"greedy"``, ``"self"``), ``agent_seat``, ``observation``
    (``"flat"``, ``"planes"``: use ``"MultiInputPolicy"``) and ``history`` are the batched
    simulator's options; :attr:`sim` is the simulator.
    """

    def __init__(
        self,
        num_envs: int,
        game: Config | str = "classic",
        *,
        opponents: Literal["random", "greedy", "self"] = "random",
        agent_seat: int = 0,
        seed: int | None = None,
        observation: Literal["flat", "planes"] = "flat",
        history: int = 0,
        **config_options: Any,
    ) -> None:
        self.sim: BatchedSequenceEnv = batched_env(
            num_envs,
            game,
            opponents=opponents,
            agent_seat=agent_seat,
            seed=seed,
            observation=observation,
            history=history,
            **config_options,
        )
        """The batched simulator this env steps."""
        super().__init__(
            num_envs, observer_space(self.sim.observer), spaces.Discrete(self.sim.space.n)
        )
        self._actions: NDArray[np.int64] | None = None
        self._lengths = np.zeros(num_envs, dtype=np.int64)
        self._returns = np.zeros(num_envs, dtype=np.float64)
        self._started = time.monotonic()

    def reset(self) -> Any:
        """Start a new game in every slot (from the seed :meth:`seed` gave, if any)."""
        seed = self._seeds[0]
        obs, _ = self.sim.reset(seed=seed)
        self._reset_seeds()
        self._reset_options()
        self._lengths[:] = 0
        self._returns[:] = 0.0
        return obs

    def step_async(self, actions: NDArray[Any]) -> None:
        self._actions = np.asarray(actions)

    def step_wait(self) -> VecEnvStepReturn:
        if self._actions is None:
            raise RuntimeError("step_wait without step_async")
        actions, self._actions = self._actions, None
        obs, reward, terminated, truncated, info = self.sim.step(actions)
        dones = terminated | truncated
        self._lengths += 1
        self._returns += reward
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        games = np.flatnonzero(dones)
        if games.size:
            elapsed = round(time.monotonic() - self._started, 6)
            finals = rows_of(info["final_observation"], games)
            for g, final in zip(games.tolist(), finals, strict=True):
                infos[g] = {
                    "terminal_observation": final,
                    "TimeLimit.truncated": bool(truncated[g]),
                    "episode": {
                        "r": float(self._returns[g]),
                        "l": int(self._lengths[g]),
                        "t": elapsed,
                    },
                    "winner": int(info["winner"][g]),
                    "termination": TERMINATIONS[int(info["termination"][g])],
                }
            self._lengths[games] = 0
            self._returns[games] = 0.0
        return obs, reward, dones, infos

    def action_masks(self) -> NDArray[np.bool_]:
        """The legal actions of every game now, ``(num_envs, num_actions)`` booleans."""
        return self.sim.action_masks()

    def close(self) -> None:
        """Nothing to release: the games are arrays of this process."""

    def _games(self, indices: VecEnvIndices) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """The simulator's attribute ``attr_name``, once per game of ``indices``
        (``render_mode``: ``None``, the games are not rendered)."""
        value = None if attr_name == "render_mode" else getattr(self.sim, attr_name)
        return [value for _ in self._games(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        """Set the simulator's attribute (every game's: ``indices`` must name them all)."""
        if sorted(self._games(indices)) != list(range(self.num_envs)):
            raise ValueError("one simulator runs every game: set_attr sets it for all of them")
        setattr(self.sim, attr_name, value)

    def env_method(
        self,
        method_name: str,
        *method_args: Any,
        indices: VecEnvIndices = None,
        **method_kwargs: Any,
    ) -> list[Any]:
        """``action_masks``: each game's row of :meth:`action_masks` (what MaskablePPO calls);
        other methods are refused (they would act on every game: call ``env.sim``'s)."""
        if method_name != "action_masks":
            raise AttributeError(
                f"BatchedVecEnv runs every game in one simulator: env_method calls only "
                f"'action_masks', not {method_name!r} (call env.sim.{method_name} instead)"
            )
        masks = self.sim.action_masks()
        return [masks[g] for g in self._games(indices)]

    def env_is_wrapped(
        self,
        wrapper_class: type[gymnasium.Wrapper[Any, Any, Any, Any]],
        indices: VecEnvIndices = None,
    ) -> list[bool]:
        """No game is wrapped (there is no per-game Gymnasium env to wrap)."""
        return [False for _ in self._games(indices)]

    def get_images(self) -> Sequence[NDArray[Any] | None]:
        """No pictures: the batched simulator does not render."""
        return [None for _ in range(self.num_envs)]


__all__ = ["BatchedVecEnv"]
