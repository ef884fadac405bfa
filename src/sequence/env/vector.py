"""The batched simulator as a Gymnasium ``VectorEnv``: N games in one numpy step, no wrapper.

:class:`BatchedVectorEnv` is a :class:`gymnasium.vector.VectorEnv` over
:func:`~sequence.env.batched.batched_env`: the spaces of the Gym env of the same options
(``single_observation_space``: the flat ``Box`` or the ``Dict`` of planes;
``single_action_space``: ``Discrete(num_actions)``), their batched forms, and the masks as
``info["action_mask"]`` (``int8``) and :meth:`BatchedVectorEnv.action_masks` (``bool``, the
method sb3-contrib's ``MaskablePPO`` calls). The other seats are played inside the step, batched:
``opponents="random"`` (the default), ``"greedy"`` (every game, the draft included: greedy's
move values, :class:`~sequence.env.batched_greedy.BatchedGreedy`) or ``"self"`` (the agent plays
every seat; ``info["seat"]`` says whose turn each row is).

Autoreset is Gymnasium's ``SAME_STEP`` mode (``metadata["autoreset_mode"]``): a game that ends is
started again within the step that ended it; the step returns the new game's first observation,
and the finished game's last one in ``info["final_obs"]`` (an object array, ``None`` for the
games that did not end; ``info["_final_obs"]`` marks those that did) with
``info["final_info"]`` (its ``winner`` and ``termination``). So every row of
``info["action_mask"]`` always has a legal action, and every action given is played.

Importing :mod:`sequence.env.gym` registers ``sequence/ClassicBatched-v0`` (and ``Kids``,
``Dice``, ``Draft``) with this class as their vector entry point:
``gymnasium.make_vec("sequence/ClassicBatched-v0", num_envs=1024, opponents="greedy")``.

Needs the ``gym`` extra (Gymnasium and numpy).

>>> envs = BatchedVectorEnv(4, "kids", opponents="greedy", seed=0)
>>> obs, info = envs.reset(seed=1)
>>> obs.shape, envs.single_action_space, envs.action_masks().shape
((4, 355), Discrete(155), (4, 155))
>>> actions = envs.action_space.sample(mask=tuple(info["action_mask"]))
>>> obs, reward, terminated, truncated, info = envs.step(actions)
>>> reward.dtype, info["action_mask"].shape
(dtype('float32'), (4, 155))
"""

from __future__ import annotations

from typing import Any, Literal

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space
from numpy.typing import NDArray

from ..engine import Config
from .batched import TERMINATIONS, batched_env
from .batched_cards import BatchedSequenceEnv
from .gym import observer_space


def rows_of(observations: Any, games: NDArray[np.int64]) -> list[Any]:
    """The observations of ``games``, one object each (an array, or a dict of arrays)."""
    if isinstance(observations, dict):
        return [{key: value[g] for key, value in observations.items()} for g in games.tolist()]
    return [observations[g] for g in games.tolist()]


class BatchedVectorEnv(gymnasium.vector.VectorEnv[Any, Any, Any]):
    """``num_envs`` games of ``game`` (a name or :class:`~sequence.engine.Config`; with
    ``make_config`` keywords) as one Gymnasium vector env (see the module's docs).

    ``opponents`` (``"random"``, ``"greedy"``, ``"self"``), ``agent_seat``, ``observation``
    (``"flat"``, ``"planes"``) and ``history`` are the batched simulator's options;
    :attr:`sim` is the simulator itself (its arrays, ``game_seeds``, ``counters``).
    ``reset(seed=s)`` makes every game again from ``s`` (one int: the games are drawn from it in
    turn); ``options`` are refused, as the Gym env refuses them.
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int = 1,
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
        self.num_envs = num_envs
        self.single_observation_space: spaces.Space[Any] = observer_space(self.sim.observer)
        self.single_action_space: spaces.Space[Any] = spaces.Discrete(self.sim.space.n)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.render_mode = None

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Start a new game in every slot: ``(observations, info)``."""
        if options:
            raise ValueError(f"reset takes no options (the game is fixed when made): {options!r}")
        if isinstance(seed, list):
            raise ValueError(
                "reset takes one seed for every game (each game's is drawn from it), not a list"
            )
        if seed is not None:
            self._np_random_seed = seed
        obs, info = self.sim.reset(seed=seed)
        return obs, info

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        """One action per game (``info["action_mask"]``'s legal ones): ``(obs, rewards,
        terminations, truncations, info)``, ended games started again (``SAME_STEP``)."""
        obs, reward, terminated, truncated, info = self.sim.step(actions)
        ended = terminated | truncated
        final = info.pop("final_observation")
        winner = info.pop("winner")
        termination = info.pop("termination")
        if ended.any():
            final_obs = np.full(self.num_envs, None, dtype=object)
            games = np.flatnonzero(ended)
            for g, row in zip(games.tolist(), rows_of(final, games), strict=True):
                final_obs[g] = row
            info["final_obs"] = final_obs
            info["_final_obs"] = ended
            info["final_info"] = {
                "winner": winner,
                "_winner": ended,
                "termination": np.asarray(TERMINATIONS, dtype=object)[termination],
                "_termination": ended,
            }
            info["_final_info"] = ended
        return obs, reward, terminated, truncated, info

    def action_masks(self) -> NDArray[np.bool_]:
        """The legal actions of every game now, ``(num_envs, num_actions)`` booleans."""
        return self.sim.action_masks()


__all__ = ["BatchedVectorEnv", "rows_of"]
