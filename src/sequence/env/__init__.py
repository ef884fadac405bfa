"""A learning environment over the engine: integer actions, flat observations, bots to play.

- :mod:`.actions` -- the fixed action space of each game: ``action_to_move``,
  ``move_to_action``, ``legal_action_mask``;
- :mod:`.observation` -- a seat's :class:`~sequence.engine.View` as a flat list of ints, with a
  documented layout per configuration;
- :mod:`.environment` -- :class:`SequenceEnv`, Gymnasium-like: ``reset`` and ``step``, with the
  other seats played by bots and the dice rolled for you;
- :mod:`.arrays` (numpy) -- observations as arrays in [0, 1], flat or board planes, with an
  optional history of moves; :mod:`.gym` and :mod:`.pettingzoo` -- the Gymnasium and
  PettingZoo faces; :mod:`.batched` (numpy) -- N games stepped at once, the same actions,
  masks and observations, for every game (``batched_env(n, config)`` picks the class).

Pure Python with no dependencies beyond the engine: observations and masks are plain lists
(:func:`as_array` turns one into a numpy array where numpy is installed). See ``docs/env.md``.

>>> env = SequenceEnv("classic", players=2, opponents="greedy", seed=7)
>>> obs, info = env.reset()
>>> obs, reward, terminated, truncated, info = env.step(info["legal_actions"][0])
>>> info["winner"], info["termination"]  # the same keys at every step; -1: no winner (yet)
(-1, '')
>>> len(obs) == env.observation_size, len(info["action_mask"]) == env.num_actions
(True, True)
"""

from .actions import (
    MAX_SEATS,
    ActionSpace,
    IllegalActionError,
    action_space,
    action_to_move,
    legal_action_mask,
    legal_actions,
    move_to_action,
)
from .environment import Opponent, SequenceEnv
from .observation import (
    ObservationLayout,
    Segment,
    as_array,
    encode_observation,
    observation_layout,
)

__all__ = [
    "MAX_SEATS",
    "ActionSpace",
    "IllegalActionError",
    "ObservationLayout",
    "Opponent",
    "Segment",
    "SequenceEnv",
    "action_space",
    "action_to_move",
    "as_array",
    "encode_observation",
    "legal_action_mask",
    "legal_actions",
    "move_to_action",
    "observation_layout",
]
