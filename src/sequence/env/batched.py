"""The batched simulator's public face: N games of one configuration stepped at once with numpy.

This module gives the family of batched simulators (:mod:`~sequence.env.batched_cards`, their
core and the full description; :mod:`~sequence.env.batched_dice`;
:mod:`~sequence.env.batched_draft`) and :func:`batched_env`, which builds the one that plays a
configuration:

- :class:`BatchedSequenceEnv`: classic and Sequence for Kids, every option; it refuses Dice and
  the draft variant with a ``ValueError`` that names the class that plays them;
- :class:`BatchedDiceEnv`: Sequence Dice; :class:`BatchedDraftEnv`: classic's draft variant.
  Both are subclasses of :class:`BatchedSequenceEnv`, with its constructor, steps and info.

The classes live in modules of their own, each subclass's importing the core's, and only this
one imports them all, so that no module imports one that imports it back.

>>> env = batched_env(4, "classic", players=2, seed=0)
>>> type(env).__name__, env.reset()[0].shape
('BatchedSequenceEnv', (4, 827))
>>> env = batched_env(4, "dice", players=2, opponents="self")
>>> type(env).__name__, isinstance(env, BatchedSequenceEnv)
('BatchedDiceEnv', True)
>>> type(batched_env(2, "draft", players=2)).__name__
'BatchedDraftEnv'
>>> BatchedSequenceEnv(4, "dice")
Traceback (most recent call last):
ValueError: BatchedSequenceEnv plays classic and Kids: Dice is BatchedDiceEnv's ...
"""

from __future__ import annotations

from typing import Any

from ..engine import Config, make_config
from .batched_cards import TERMINATIONS, BatchedSequenceEnv, _as_config, supported
from .batched_dice import BatchedDiceEnv
from .batched_draft import BatchedDraftEnv

_ENV_KEYWORDS = frozenset(
    {"opponents", "agent_seat", "seed", "log", "observation", "history", "planes"}
)
"""The constructor's keywords that are not :func:`~sequence.engine.make_config` arguments
(``planes`` included, which the constructor refuses with its own message)."""


def batched_env_class(config: Config | str) -> type[BatchedSequenceEnv]:
    """The batched simulator class that plays ``config`` (a :class:`~sequence.engine.Config`
    or a game name): :class:`BatchedDiceEnv` for Dice, :class:`BatchedDraftEnv` for the draft
    variant, :class:`BatchedSequenceEnv` otherwise.

    >>> batched_env_class("dice").__name__, batched_env_class("classic").__name__
    ('BatchedDiceEnv', 'BatchedSequenceEnv')
    """
    if isinstance(config, str):
        config = make_config(config)
    if config.game == "dice":
        return BatchedDiceEnv
    if config.draft:
        return BatchedDraftEnv
    return BatchedSequenceEnv


def batched_env(
    num_envs: int, config: Config | str = "classic", **kwargs: Any
) -> BatchedSequenceEnv:
    """``num_envs`` games of ``config`` stepped at once, by the class that plays its game
    (:func:`batched_env_class`). ``config`` and ``kwargs`` are the classes' constructor
    arguments (a :class:`~sequence.engine.Config`, or a game name with ``make_config``
    arguments; ``opponents``, ``agent_seat``, ``seed``, ``log``, ``observation``, ``history``),
    and bad ones are refused as the constructor refuses them."""
    options = {k: v for k, v in kwargs.items() if k not in _ENV_KEYWORDS}
    cls = batched_env_class(_as_config(config, options))
    return cls(num_envs, config, **kwargs)


__all__ = [
    "TERMINATIONS",
    "BatchedDiceEnv",
    "BatchedDraftEnv",
    "BatchedSequenceEnv",
    "batched_env",
    "batched_env_class",
    "supported",
]
