"""The learning environment as a Gymnasium ``Env``, for RL libraries that expect one.

:class:`GymSequenceEnv` wraps :class:`~sequence.env.SequenceEnv` (one agent, bots at the other
seats) with Gymnasium's spaces and seeding: a ``Discrete`` action space, observations of
:class:`~sequence.env.arrays.Observer` (``float32`` in [0, 1]: a flat ``Box``, or with
``observation="planes"`` a ``Dict`` of board planes and features), ``info["action_mask"]`` as a
numpy array and an ``action_masks()`` method for maskable policies (the convention of
sb3-contrib's ``MaskablePPO``). ``info`` has the same keys, of the same types and shapes, at
every step of every episode, so vector environments can stack it. Importing the module
registers ``sequence/Classic-v0``, ``sequence/Kids-v0``, ``sequence/Dice-v0`` and
``sequence/Draft-v0``; their keywords go to ``SequenceEnv`` (``players``, ``teams``,
``opponents``, ``illegal``, rule options, ...). In a process that has not imported it (a
``SubprocVecEnv`` worker), ``"sequence.env.gym:sequence/Classic-v0"`` makes Gymnasium import it
first: Gymnasium 1.x loads no package's ids by itself. It also registers
``sequence/ClassicBatched-v0`` (``Kids``, ``Dice``, ``Draft``) for ``gymnasium.make_vec``: the
batched simulator as one vector env (:class:`~sequence.env.vector.BatchedVectorEnv`).

Needs the ``gym`` extra: ``.venv/bin/pip install -e '.[gym]'`` in the
checkout (Gymnasium and numpy).

>>> import gymnasium
>>> import sequence.env.gym
>>> env = gymnasium.make("sequence/Kids-v0", opponents="random")
>>> obs, info = env.reset(seed=1)
>>> obs.shape == env.observation_space.shape, int(env.action_space.n)
(True, 155)
>>> action = int(info["action_mask"].nonzero()[0][0])
>>> obs, reward, terminated, truncated, info = env.step(action)
>>> sorted(info)
['action_mask', 'illegal_action', 'termination', 'turn', 'winner']
"""

from __future__ import annotations

from collections.abc import Iterable
from operator import itemgetter
from typing import Any, Literal

import gymnasium
import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

from ..engine import View
from ..engine.board import STRIDE
from .arrays import Observer
from .environment import NO_WINNER, SequenceEnv
from .observation import ObservationLayout

ENV_IDS = {
    "sequence/Classic-v0": "classic",
    "sequence/Kids-v0": "kids",
    "sequence/Dice-v0": "dice",
    "sequence/Draft-v0": "draft",
}
"""The registered ids and the game each plays (``Draft``: classic with the draft option)."""


class GymSequenceEnv(gymnasium.Env[Any, np.int64]):
    """:class:`~sequence.env.SequenceEnv` with Gymnasium's spaces, seeding and render modes.

    ``game`` and the keywords are ``SequenceEnv``'s: a game name (``"draft"`` is classic with
    the draft option), ``make_config`` arguments, ``opponents``, ``illegal``, ... Seeding
    follows Gymnasium: ``reset(seed=s)`` seeds the environment's ``np_random``, and each
    episode's game and bots are seeded from it, so ``reset(seed=s)`` always gives the same
    episode and the resets after it the same sequence of episodes.

    - ``observation``: ``"flat"`` (a ``Box`` vector) or ``"planes"`` (a ``Dict`` of
      ``board``, ``C x rows x cols``, and ``features``); ``history``: the last K public moves
      (see :class:`~sequence.env.arrays.Observer` and ``docs/env.md``). Values lie in [0, 1].
    - ``render_mode``: ``"ansi"`` (:meth:`render` returns the board and the agent's hand as
      text), ``"human"`` (:meth:`step` prints that text after every step, and :meth:`render`
      returns ``None``, as Gymnasium's contract for ``"human"`` says: the display is kept by
      ``step``; so Gymnasium's ``check_env``, which makes an env of every mode, resets it and
      calls ``render()``, prints nothing), ``"rgb_array"`` (a picture of the board,
      ``H x W x 3`` ``uint8``: what video recorders and Stable-Baselines3's ``make_vec_env`` ask
      for).
    - ``info``, at every step: ``action_mask`` (``int8``, one per action), ``turn`` (turns
      completed), ``winner`` (the winning team, ``-1`` while playing, after a draw or an
      illegal action), ``termination`` (``""`` while playing; ``"sequences"``,
      ``"max_turns"``, ... or ``"illegal_action"`` at the end), ``illegal_action`` (why the
      last action was illegal, else ``""``). The legal ids are ``info["action_mask"]``'s
      non-zero entries, or ``env.unwrapped.legal_actions()``.

    Everything the agent gets is made from its seat's view. An illegal action ends the episode
    with reward ``illegal_penalty`` (-1): the default here is ``illegal="penalty"``, since RL
    libraries sample from the whole action space; pass ``illegal="raise"`` to get
    :class:`~sequence.env.IllegalActionError` instead. An action that is not an integer raises
    it either way (a bug in the caller, which a penalty would hide as a learning signal).

    >>> env = GymSequenceEnv("dice", players=2, opponents="greedy", observation="planes")
    >>> obs, info = env.reset(seed=5)
    >>> env.observation_space.contains(obs), obs["board"].shape, env.action_masks().dtype
    (True, (6, 6, 6), dtype('bool'))
    """

    # Gymnasium reads this class attribute; render_fps is for video recorders: a move a frame.
    metadata: dict[str, Any] = {  # noqa: RUF012
        "render_modes": ["ansi", "human", "rgb_array"],
        "render_fps": 1,
    }

    def __init__(
        self,
        game: str = "classic",
        *,
        render_mode: str | None = None,
        observation: Literal["flat", "planes"] = "flat",
        history: int = 0,
        **kwargs: Any,
    ):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be 'ansi', 'human', 'rgb_array' or None, not {render_mode!r}"
            )
        if observation not in ("flat", "planes"):
            raise ValueError(f"observation must be 'flat' or 'planes', not {observation!r}")
        # Illegal actions end the episode unless asked otherwise: an RL library samples from
        # the whole Discrete space (Gymnasium's own checker does) and must not crash on one.
        kwargs.setdefault("illegal", "penalty")
        self.env = SequenceEnv(game, seed=None, **kwargs)
        """The wrapped environment (its ``view``, ``legal_actions()``, ``record()`` at the end)."""
        # This env's info has no legal_actions: an illegal action's message points to the mask.
        self.env.legal_hint = "info['action_mask'] or env.unwrapped.action_masks()"
        self.observer = Observer(self.env.config, planes=observation == "planes", history=history)
        self.env.observer = self.observer.encode
        self.render_mode = render_mode
        self.action_space = spaces.Discrete(self.env.num_actions)
        self._num_actions = self.env.num_actions
        self.observation_space = observer_space(self.observer)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Start an episode; ``options`` must be empty (the game is fixed when the env is made)."""
        super().reset(seed=seed)
        episode_seed = int(self.np_random.integers(2**63 - 1))
        self.env._start(episode_seed, options)
        view = self.env.view
        return self.observer.encode(view), self._info("", view)

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Play ``action`` (an int or a 0-d integer array), then the other seats up to the
        agent's next decision; ``(obs, reward, terminated, truncated, info)``."""
        # The action space takes numpy integers and 0-d arrays as they are, and refuses the rest.
        env = self.env
        reward, terminated, truncated, illegal = env._play(action)
        view = env._view or env.view  # the agent's view, which _play made
        obs = self.observer.encode(view)
        if self.render_mode == "human":
            print(env.render(), end="\n\n")
        return obs, reward, terminated, truncated, self._info(illegal, view)

    def legal_actions(self) -> list[int]:
        """The ids of the agent's legal actions now, ascending (empty once the episode is over)."""
        return self.env.legal_actions()

    def action_masks(self) -> NDArray[np.bool_]:
        """``True`` for each legal action now (all ``False`` once the episode is over)."""
        return self._mask().astype(np.bool_)

    def render(self) -> Any:
        """As ``render_mode`` says: text (``ansi``), a picture (``rgb_array``); ``None`` without
        a render mode and in ``human`` mode, whose steps print the board themselves."""
        if self.render_mode is None or self.render_mode == "human":
            return None
        if self.render_mode == "rgb_array":
            return board_picture(self.env.view)
        return self.env.render()

    def _mask(self) -> NDArray[np.int8]:
        return mask_array(self.env._legal_ids(), self._num_actions)

    def _info(self, illegal: str, view: View) -> dict[str, Any]:
        """``info``: the same keys at every step; ``view`` is the agent's (``env.view``)."""
        outcome, turns = _OUTCOME_AND_TURNS(view)
        if illegal:
            winner, termination = NO_WINNER, "illegal_action"
        elif outcome is None:
            winner, termination = NO_WINNER, ""
        else:
            winner = NO_WINNER if outcome.winner is None else outcome.winner
            termination = outcome.termination.value
        return {
            "action_mask": self._mask(),
            "turn": turns,
            "winner": winner,
            "termination": termination,
            "illegal_action": illegal,
        }


_INT8 = np.dtype(np.int8)
_OUTCOME_AND_TURNS = itemgetter(View._fields.index("outcome"), View._fields.index("turns"))
"""A view's outcome and turns completed, read by place (a named tuple's field read by name is
looked up in its class at every read)."""


def mask_array(actions: Iterable[int], n: int) -> NDArray[np.int8]:
    """An ``int8`` array of ``n`` zeros with 1 at each of ``actions`` (a fresh, writable array).

    Set in a ``bytearray`` and wrapped by one numpy call: indexing an array with a list of ids
    converts the list element by element, which costs more than the rest of building a mask.

    >>> mask_array([3, 0], 5).tolist()
    [1, 0, 0, 1, 0]
    """
    raw = bytearray(n)
    for action in actions:
        raw[action] = 1
    return np.frombuffer(raw, _INT8)  # positional: numpy parses a keyword at some cost


def observer_space(observer: Observer) -> spaces.Space[Any]:
    """The observations of an :class:`~sequence.env.arrays.Observer` as a Gymnasium space:
    a ``Box`` from 0 to 1, or with planes a ``Dict`` of two."""
    if not observer.planes:
        return spaces.Box(0.0, 1.0, shape=(observer.size,), dtype=np.float32)
    return spaces.Dict(
        {
            "board": spaces.Box(0.0, 1.0, shape=observer.board_shape, dtype=np.float32),
            "features": spaces.Box(0.0, 1.0, shape=(observer.features_size,), dtype=np.float32),
        }
    )


def observation_box(layout: ObservationLayout) -> spaces.Space[Any]:
    """The raw (unscaled) observations of a layout as a Gymnasium space: ``float32``, 0 to
    ``layout.high()``."""
    high = np.asarray(layout.high(), dtype=np.float32)
    return spaces.Box(np.zeros_like(high), high, dtype=np.float32)


_PALETTE = {
    "blue": (40, 90, 200),
    "green": (40, 160, 70),
    "red": (200, 50, 50),
    "yellow": (230, 190, 30),
}
_CELL = 16


def board_picture(view: View) -> NDArray[np.uint8]:
    """The board as a picture (``rows * 16 x cols * 16 x 3``, ``uint8``): chips in their
    team's colour (darker in a completed sequence), free corners black, empty spaces light."""
    layout = view.config.spec.layout
    colours = [_PALETTE.get(c, (128, 128, 128)) for c in view.config.spec.colours]
    image = np.full((layout.rows * _CELL, layout.cols * _CELL, 3), 235, dtype=np.uint8)
    locked = view.locked
    for r in range(layout.rows):
        for c in range(layout.cols):
            s = r * STRIDE + c
            team = view.chip_at(s)
            if layout.free >> s & 1:
                colour: tuple[int, ...] = (20, 20, 20)
            elif team is None:
                colour = (235, 230, 215)
            else:
                colour = colours[team]
                if locked >> s & 1:
                    colour = tuple(v // 2 for v in colour)
            cell = image[r * _CELL : (r + 1) * _CELL, c * _CELL : (c + 1) * _CELL]
            cell[1:-1, 1:-1] = colour
    return image


BATCHED_IDS = {
    "sequence/ClassicBatched-v0": "classic",
    "sequence/KidsBatched-v0": "kids",
    "sequence/DiceBatched-v0": "dice",
    "sequence/DraftBatched-v0": "draft",
}
"""Ids for ``gymnasium.make_vec`` only: the batched simulator as one vector env
(:class:`~sequence.env.vector.BatchedVectorEnv`), keywords its own."""


def register_envs() -> None:
    """Register the ids of :data:`ENV_IDS` and :data:`BATCHED_IDS` with Gymnasium (done on
    import; idempotent)."""
    for env_id, game in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point=GymSequenceEnv, kwargs={"game": game})
    for env_id, game in BATCHED_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                env_id,
                vector_entry_point="sequence.env.vector:BatchedVectorEnv",
                kwargs={"game": game},
            )


register_envs()

__all__ = [
    "BATCHED_IDS",
    "ENV_IDS",
    "GymSequenceEnv",
    "board_picture",
    "mask_array",
    "observation_box",
    "observer_space",
    "register_envs",
]
