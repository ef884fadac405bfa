"""Any policy as a :class:`~sequence.bots.Bot`: a callable, or a saved Stable-Baselines3 model.

A policy maps an observation and a legal-action mask to an action id (the ids of
:func:`sequence.env.action_space`); :class:`PolicyBot` gives it the seat's view encoded as the
environments encode it (:class:`sequence.env.arrays.Observer`: flat, or planes with
``planes=True``, with ``history`` past moves) and plays the move. Wherever a bot spec is
taken (``sequence tournament --bot``, the terminal game, ``SequenceEnv(opponents=...)``):

- ``policy:path/to/model.zip``: a model saved by Stable-Baselines3 or sb3-contrib
  (``MaskablePPO`` first, then ``PPO``, ``A2C``, ``DQN``); its observation space says which
  encoding it was trained on (a ``Dict``: planes; the size: how much history);
- ``policy:package.module:function``: a callable ``function(observation, mask) -> action``
  (``observation`` a numpy array or dict of arrays, ``mask`` an ``int8`` array);
- ``@deterministic=false`` samples from the model's policy instead of taking its best action.

In Python, ``PolicyBot(policy=my_function)`` or ``PolicyBot(path="model.zip")``. An action the
policy returns that is not legal now is replaced by a random legal one, and counted
(:meth:`stats`: ``illegal``).

>>> import numpy as np
>>> from sequence.engine import State, make_config
>>> def first_legal(observation, mask):
...     return int(np.flatnonzero(mask)[0])
>>> state = State.new(make_config("kids"), seed=1)
>>> bot = PolicyBot(policy=first_legal)
>>> bot.choose(state.view(state.to_move)) in state.legal_moves
True
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from ..bots import Bot
from ..engine import Config, Move, View
from .actions import action_space
from .arrays import Observer

Policy = Callable[[Any, Any], int]
"""``policy(observation, mask) -> action id``: ``mask`` is an ``int8`` array, 1 where legal."""

ALGORITHMS = ("MaskablePPO", "PPO", "A2C", "DQN")
"""The Stable-Baselines3 / sb3-contrib classes a saved model is tried with, in order."""


_MODELS: dict[tuple[str, int, int], Any] = {}
"""The models loaded in this process, by path, modification time and size: a server's bot
worker makes a bot each move (``sequence serve --bot``), and loads the file once."""


def load_model(path: str | Path) -> Any:
    """A saved Stable-Baselines3 (or sb3-contrib) model, whichever of :data:`ALGORITHMS` it is.

    Loaded once a process (again when the file changes); the model is only read from (its
    ``predict``), so the bots that share it stay independent."""
    try:
        info = Path(path).stat()
    except OSError as exc:
        raise ValueError(f"cannot load a model from {path}: {exc.strerror}") from None
    key = (str(Path(path).resolve()), info.st_mtime_ns, info.st_size)
    model = _MODELS.get(key)
    if model is None:
        model = _MODELS[key] = _load(path)
    return model


def _load(path: str | Path) -> Any:
    import stable_baselines3

    classes: list[Any] = []
    try:
        import sb3_contrib

        classes.append(sb3_contrib.MaskablePPO)
    except ImportError:  # pragma: no cover - the rl extra brings it
        pass
    classes += [stable_baselines3.PPO, stable_baselines3.A2C, stable_baselines3.DQN]
    errors = []
    for cls in classes:
        try:
            return cls.load(str(path), device="cpu")
        except Exception as exc:  # the wrong class for this file: try the next
            errors.append(f"{cls.__name__}: {exc}")
    raise ValueError(f"cannot load a model from {path}: " + "; ".join(errors))


def model_policy(model: Any, *, deterministic: bool = True) -> Policy:
    """A policy from a Stable-Baselines3 model (masked when the model takes masks)."""
    maskable = type(model).__name__.startswith("Maskable")

    def policy(observation: Any, mask: Any) -> int:
        if maskable:
            action, _ = model.predict(
                observation, action_masks=mask.astype(bool), deterministic=deterministic
            )
        else:
            action, _ = model.predict(observation, deterministic=deterministic)
        return int(action)

    return policy


def _callable(name: str) -> Policy:
    module, _, attr = name.rpartition(":")
    try:
        found = getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"cannot load the policy {name!r}: {exc}") from None
    if not callable(found):
        raise ValueError(f"{name!r} is not callable")
    return found  # type: ignore[no-any-return]


class PolicyBot(Bot):
    """A policy playing as a bot (see the module's docs).

    Give ``policy`` (a callable) or ``path`` (a saved model ``.zip``, or
    ``package.module:function``). ``planes`` and ``history`` choose the observation for a
    callable (a model's own observation space decides for a model).
    """

    name = "policy"

    def __init__(
        self,
        seed: int = 0,
        path: str | None = None,
        policy: Policy | None = None,
        planes: bool = False,
        history: int = 0,
        deterministic: bool = True,
    ) -> None:
        super().__init__(seed)
        if (path is None) == (policy is None):
            raise ValueError("give a policy or a path (policy:model.zip), not both or neither")
        self.planes = bool(planes)
        self.history = int(history)
        self.model: Any = None
        if policy is None:
            assert path is not None
            if path.endswith(".zip") or Path(path).is_file():
                self.model = load_model(path)
                policy = model_policy(self.model, deterministic=deterministic)
                self.planes = self._model_takes_planes()
            else:
                policy = _callable(path)
        self.policy: Policy = policy
        self._observers: dict[Config, Observer] = {}
        self._illegal = 0

    def _model_takes_planes(self) -> bool:
        """Planes or flat, from the model's space (its history is read off the size, later)."""
        from gymnasium import spaces

        space = self.model.observation_space
        return isinstance(space, spaces.Dict) and "board" in space.spaces

    def _observer(self, config: Config) -> Observer:
        observer = self._observers.get(config)
        if observer is None:
            history = self.history
            if self.model is not None:
                history = self._history_of_model(config)
            observer = Observer(config, planes=self.planes, history=history)
            self._observers[config] = observer
        return observer

    def _history_of_model(self, config: Config) -> int:
        space = self.model.observation_space
        target = space["features"].shape[0] if self.planes else space.shape[0]
        for history in range(0, 257):
            observer = Observer(config, planes=self.planes, history=history)
            size = observer.features_size if self.planes else observer.size
            if size == target:
                return history
            if size > target:
                break
        raise ValueError(
            f"the model's observations ({target} values) are not this game's ({config.game},"
            f" {config.players} players) at any history"
        )

    def choose(self, view: View) -> Move:
        moves = view.legal_moves
        if len(moves) == 1:
            return moves[0]
        actions = action_space(view.config)
        mask = np.zeros(actions.n, dtype=np.int8)
        legal = actions.actions(moves)
        mask[legal] = 1
        observation = self._observer(view.config).encode(view)
        action = int(self.policy(observation, mask))
        if not 0 <= action < actions.n or not mask[action]:
            self._illegal += 1
            action = self.rng.choice(legal)
        return actions.action_to_move(action)

    def stats(self) -> dict[str, float]:
        return {"illegal": float(self._illegal)}


__all__ = ["ALGORITHMS", "Policy", "PolicyBot", "load_model", "model_policy"]
