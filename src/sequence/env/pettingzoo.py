"""Every seat a learning agent: the game as a PettingZoo ``AECEnv``, for self-play.

:func:`env` makes the environment as PettingZoo's classic games are made (an illegal action
ends the game with -1 for the agent that chose it; out-of-range actions and calls out of order
are refused); :class:`SequenceAECEnv` is the raw environment. Agents are ``seat_0`` ..
``seat_{P-1}``. Each agent's observation is a dict, ``{"observation": float32 array,
"action_mask": int8 array}``, made from that seat's :class:`~sequence.engine.View` only; actions
are the ids of :func:`~sequence.env.action_space`. Chance (Dice rolls) and, with option
``manual_draw``, the draw after each play are taken by the environment. Rewards come at the
end: +1 to every agent of the winning team, -1 to the others, 0 for a draw; a game stopped by
``max_turns`` is *truncated*, any other end *terminated*.

Needs the ``gym`` extra plus PettingZoo: ``pip install 'sequence-games[pettingzoo]'``.

>>> from sequence.env.pettingzoo import env as make_env
>>> game = make_env("kids", players=3)
>>> game.reset(seed=1)
>>> final = {}
>>> for agent in game.agent_iter():
...     observation, reward, termination, truncation, info = game.last()
...     if termination or truncation:
...         final[agent] = reward
...         game.step(None)  # a finished agent steps with None, then leaves
...     else:
...         legal = observation["action_mask"].nonzero()[0]
...         game.step(int(legal[0]))  # a policy chooses among the legal actions
>>> sorted(final.values()) in ([-1.0, -1.0, 1.0], [0.0, 0.0, 0.0])
True
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..engine import Config, Move, MoveKind, State, Termination, make_config
from .actions import IllegalActionError, action_space
from .gym import observation_box
from .observation import encode_observation, observation_layout

Observation = dict[str, NDArray[Any]]


class SequenceAECEnv(AECEnv[str, Observation, int | None]):
    """A game of the family with every seat an agent (see the module's docs).

    ``game`` and the keywords are :func:`~sequence.engine.make_config`'s (``"draft"`` is classic
    with the draft option). ``reset(seed=s)`` fixes the game; resets without a seed go on from
    the last seed given. ``render_mode="ansi"``: :meth:`render` returns the board as a
    spectator sees it (no hand).
    """

    metadata: dict[str, Any] = {  # noqa: RUF012  # PettingZoo reads this class attribute
        "render_modes": ["ansi"],
        "name": "sequence_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(self, game: str = "classic", *, render_mode: str | None = None, **config: Any):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be 'ansi' or None, not {render_mode!r}")
        self.render_mode = render_mode
        self.config: Config = make_config(game, **config)
        self._actions = action_space(self.config)
        box = observation_box(observation_layout(self.config))
        self.possible_agents = [f"seat_{seat}" for seat in range(self.config.players)]
        n = self._actions.n
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": box,
                    "action_mask": spaces.Box(0, 1, shape=(n,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self._rng = np.random.default_rng()
        self._state: State | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # --- the game -------------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self._state = State.new(self.config, int(self._rng.integers(2**63 - 1)))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._advance()
        self.agent_selection = self._agent(self._state.to_move)

    def observe(self, agent: str) -> Observation:
        """``agent``'s observation: its own view, and its legal actions if it is to move."""
        state = self._require_state()
        seat = self._seat(agent)
        view = state.view(seat)
        if state.is_over() or state.to_move != seat:
            mask = [0] * self._actions.n
        else:
            mask = self._actions.legal_action_mask(view)
        return {
            "observation": np.asarray(encode_observation(view), dtype=np.float32),
            "action_mask": np.asarray(mask, dtype=np.int8),
        }

    def step(self, action: int | None) -> None:
        """Play the selected agent's action (``None`` once it is terminated or truncated)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self._require_state()
        seat = self._seat(agent)
        if action is None:
            raise IllegalActionError(f"{agent} is to move: an action is needed, not None")
        move = self._actions.action_to_move(action)  # numpy integers too; never 1.5
        if move not in state.view(seat).legal_moves:
            raise IllegalActionError(
                f"action {action} ({move}) is not legal for {agent} now (see its action_mask)"
            )
        self._cumulative_rewards[agent] = 0.0
        state.push(move, seat=seat)
        if seat in state.pending_draws and not state.is_over():
            state.push(Move(MoveKind.DRAW, seat=seat), seat=seat)
        self._advance()
        outcome = state.outcome
        if outcome is not None:
            truncated = outcome.termination is Termination.MAX_TURNS
            for other in self.agents:
                team = self.config.team_of(self._seat(other))
                won = outcome.winner is not None and team == outcome.winner
                lost = outcome.winner is not None and team != outcome.winner
                self.rewards[other] = 1.0 if won else -1.0 if lost else 0.0
                self.terminations[other] = not truncated
                self.truncations[other] = truncated
                self.infos[other] = {
                    "winner": outcome.winner,
                    "termination": outcome.termination.value,
                }
            self.agent_selection = self._agent((seat + 1) % self.config.players)
        else:
            self.agent_selection = self._agent(state.to_move)
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The board as a spectator sees it, with ``render_mode="ansi"``; else ``None``."""
        if self.render_mode != "ansi":
            return None
        return self._require_state().view(None).board_text()

    def close(self) -> None:
        """Nothing to release: the game is in this process."""

    # --- inside -------------------------------------------------------------------------------

    def _advance(self) -> None:
        """Roll the dice (chance) until a seat has a decision or the game is over."""
        state = self._require_state()
        while state.is_chance() and not state.is_over():
            state.push(state.sample_chance())

    def _require_state(self) -> State:
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state

    @staticmethod
    def _agent(seat: int) -> str:
        return f"seat_{seat}"

    def _seat(self, agent: str) -> int:
        try:
            return self.possible_agents.index(agent)
        except ValueError:
            raise ValueError(f"no agent {agent!r}: the agents are {self.possible_agents}") from None


def env(game: str = "classic", **kwargs: Any) -> AECEnv[str, Observation, int | None]:
    """:class:`SequenceAECEnv` wrapped as PettingZoo's classic games are: an illegal action
    ends the game with -1 for its agent (0 for the others), an out-of-range action and a call
    out of order are refused."""
    raw = SequenceAECEnv(game, **kwargs)
    wrapped: AECEnv[str, Observation, int | None] = wrappers.TerminateIllegalWrapper(
        raw, illegal_reward=-1
    )
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


__all__ = ["SequenceAECEnv", "env"]
