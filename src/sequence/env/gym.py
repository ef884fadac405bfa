"""The learning environment as a Gymnasium ``Env``, for RL libraries that expect one.

:class:`GymSequenceEnv` wraps :class:`~sequence.env.SequenceEnv` (one agent, bots at the other
seats) with Gymnasium's spaces and seeding: a ``Discrete`` action space, a ``Box`` of
``float32`` observations, ``info["action_mask"]`` as a numpy array and an ``action_masks()``
method for maskable policies (the convention of sb3-contrib's ``MaskablePPO``). Importing the
module registers ``sequence/Classic-v0``, ``sequence/Kids-v0``, ``sequence/Dice-v0`` and
``sequence/Draft-v0``; their keywords go to ``SequenceEnv`` (``players``, ``teams``,
``opponents``, ``illegal``, rule options, ...).

Needs the ``gym`` extra: ``pip install 'sequence-games[gym]'`` (Gymnasium and numpy).

>>> import gymnasium
>>> import sequence.env.gym
>>> env = gymnasium.make("sequence/Kids-v0", opponents="random")
>>> obs, info = env.reset(seed=1)
>>> obs.shape == env.observation_space.shape, int(env.action_space.n)
(True, 155)
>>> action = int(info["legal_actions"][0])
>>> obs, reward, terminated, truncated, info = env.step(action)
>>> bool(info["action_mask"][info["legal_actions"]].all())
True
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

from .environment import SequenceEnv
from .observation import ObservationLayout

ObsArray = NDArray[np.float32]

ENV_IDS = {
    "sequence/Classic-v0": "classic",
    "sequence/Kids-v0": "kids",
    "sequence/Dice-v0": "dice",
    "sequence/Draft-v0": "draft",
}
"""The registered ids and the game each plays (``Draft``: classic with the draft option)."""


class GymSequenceEnv(gymnasium.Env[ObsArray, np.int64]):
    """:class:`~sequence.env.SequenceEnv` with Gymnasium's spaces, seeding and render modes.

    ``game`` and the keywords are ``SequenceEnv``'s: a game name (``"draft"`` is classic with
    the draft option), ``make_config`` arguments, ``opponents``, ``illegal``, ... Seeding
    follows Gymnasium: ``reset(seed=s)`` seeds the environment's ``np_random``, and each
    episode's game and bots are seeded from it, so ``reset(seed=s)`` always gives the same
    episode and the resets after it the same sequence of episodes.
    ``render_mode="ansi"`` makes :meth:`render` return the board and the agent's hand as text.

    Everything the agent gets is made from its seat's view: the observation, the mask, the legal
    actions, ``info["turn"]`` and, at the end, the outcome. An illegal action ends the episode
    with reward ``illegal_penalty`` (-1) and ``info["illegal_action"]`` saying why: the default
    here is ``illegal="penalty"``, since RL libraries sample from the whole action space; pass
    ``illegal="raise"`` to get :class:`~sequence.env.IllegalActionError` instead. The
    observation space's bounds are :meth:`~sequence.env.ObservationLayout.high`.

    >>> env = GymSequenceEnv("dice", players=2, opponents="greedy")
    >>> obs, info = env.reset(seed=5)
    >>> env.observation_space.contains(obs), env.action_masks().dtype
    (True, dtype('bool'))
    """

    # Gymnasium reads this class attribute; render_fps is for video recorders: a move a frame.
    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(self, game: str = "classic", *, render_mode: str | None = None, **kwargs: Any):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be 'ansi' or None, not {render_mode!r}")
        # Illegal actions end the episode unless asked otherwise: an RL library samples from
        # the whole Discrete space (Gymnasium's own checker does) and must not crash on one.
        kwargs.setdefault("illegal", "penalty")
        self.env = SequenceEnv(game, seed=None, **kwargs)
        """The wrapped environment (its ``view``, ``legal_actions()``, ``record()`` at the end)."""
        self.render_mode = render_mode
        self.action_space = spaces.Discrete(self.env.num_actions)
        self.observation_space = observation_box(self.env.observation_layout)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsArray, dict[str, Any]]:
        """Start an episode; ``options`` must be empty (the game is fixed when the env is made)."""
        super().reset(seed=seed)
        episode_seed = int(self.np_random.integers(2**63 - 1))
        obs, info = self.env.reset(seed=episode_seed, options=options)
        return self._obs(obs), self._info(info)

    def step(self, action: Any) -> tuple[ObsArray, float, bool, bool, dict[str, Any]]:
        """Play ``action`` (an int or a 0-d integer array), then the other seats up to the
        agent's next decision; ``(obs, reward, terminated, truncated, info)``."""
        # The action space takes numpy integers and 0-d arrays as they are, and refuses the rest.
        obs, reward, terminated, truncated, info = self.env.step(action)
        return self._obs(obs), reward, terminated, truncated, self._info(info)

    def action_masks(self) -> NDArray[np.bool_]:
        """``True`` for each legal action now (all ``False`` once the episode is over)."""
        return np.asarray(self.env.action_mask(), dtype=np.bool_)

    def render(self) -> str | None:
        """The board and the agent's hand as text with ``render_mode="ansi"``; else ``None``."""
        return self.env.render() if self.render_mode == "ansi" else None

    @staticmethod
    def _obs(obs: list[int]) -> ObsArray:
        return np.asarray(obs, dtype=np.float32)

    @staticmethod
    def _info(info: dict[str, Any]) -> dict[str, Any]:
        out = dict(info)
        out["action_mask"] = np.asarray(info["action_mask"], dtype=np.int8)
        out["legal_actions"] = np.asarray(info["legal_actions"], dtype=np.int64)
        return out


def observation_box(layout: ObservationLayout) -> spaces.Space[ObsArray]:
    """The observations of a layout as a Gymnasium space: ``float32``, 0 to ``layout.high()``."""
    high = np.asarray(layout.high(), dtype=np.float32)
    return spaces.Box(np.zeros_like(high), high, dtype=np.float32)


def register_envs() -> None:
    """Register the ids of :data:`ENV_IDS` with Gymnasium (done on import; idempotent)."""
    for env_id, game in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point=GymSequenceEnv, kwargs={"game": game})


register_envs()

__all__ = ["ENV_IDS", "GymSequenceEnv", "observation_box", "register_envs"]
