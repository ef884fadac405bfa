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

Needs the ``gym`` extra plus PettingZoo: ``.venv/bin/pip install -e
'.[pettingzoo]'`` in the checkout.

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

from typing import Any, Literal

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..engine import Config, State, StepKind, Termination, make_config
from .actions import IllegalActionError, action_space
from .arrays import Observer
from .environment import NO_WINNER
from .gym import board_picture, mask_array, observer_space

Observation = dict[str, Any]

_MOVE = StepKind.MOVE


class SequenceAECEnv(AECEnv[str, Observation, int | None]):
    """A game of the family with every seat an agent (see the module's docs).

    ``game`` and the keywords are :func:`~sequence.engine.make_config`'s (``"draft"`` is classic
    with the draft option). ``reset(seed=s)`` fixes the game; resets without a seed go on from
    the last seed given. ``observation`` (``"flat"`` or ``"planes"``) and ``history`` choose the
    observation as in :class:`~sequence.env.gym.GymSequenceEnv`. ``render_mode``: ``"ansi"``
    (:meth:`render` returns the board as a spectator sees it, no hand), ``"human"`` (prints it
    after every move), ``"rgb_array"`` (a picture of the board).

    Each agent's ``info``, at every step: ``turn``, ``winner`` (the winning team, ``-1``
    while playing or after a draw), ``termination`` (``""`` while playing).
    """

    metadata: dict[str, Any] = {  # noqa: RUF012  # PettingZoo reads this class attribute
        "render_modes": ["ansi", "human", "rgb_array"],
        "name": "sequence_v0",
        # One seat acts at a time: PettingZoo's parallel conversion needs every live agent to
        # act at every step (see docs/env.md).
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        game: str = "classic",
        *,
        render_mode: str | None = None,
        observation: Literal["flat", "planes"] = "flat",
        history: int = 0,
        **config: Any,
    ):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be 'ansi', 'human', 'rgb_array' or None, not {render_mode!r}"
            )
        if observation not in ("flat", "planes"):
            raise ValueError(f"observation must be 'flat' or 'planes', not {observation!r}")
        self.render_mode = render_mode
        self.config: Config = make_config(game, **config)
        self._actions = action_space(self.config)
        self.observer = Observer(self.config, planes=observation == "planes", history=history)
        obs_space = observer_space(self.observer)
        self.possible_agents = [f"seat_{seat}" for seat in range(self.config.players)]
        n = self._actions.n
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": obs_space,
                    "action_mask": spaces.Box(0, 1, shape=(n,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self._rng = np.random.default_rng()
        self._state: State | None = None
        self._mover: int | None = None  # the seat next_step says is to move (None: over)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # --- the game -------------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a game (``seed``: fixes it and the ones after). ``options`` is accepted and
        ignored: PettingZoo's ``api_test`` passes some, and the game is fixed when the
        environment is made."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self._state = State.new(self.config, int(self._rng.integers(2**63 - 1)))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: self._info() for a in self.agents}
        self._advance()
        assert self._mover is not None  # no game is over before its first move
        self.agent_selection = self.possible_agents[self._mover]

    def observe(self, agent: str) -> Observation:
        """``agent``'s observation: its own view, and its legal actions if it is to move."""
        state = self._require_state()
        seat = self._seat(agent)
        view = state.view(seat)
        legal = self._actions.ids(view.legal_moves) if seat == self._mover else ()
        mask = mask_array(legal, self._actions.n)
        return {"observation": self.observer.encode(view), "action_mask": mask}

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
        if seat != self._mover or move not in state.legal_moves_of(seat):
            raise IllegalActionError(
                f"action {action} ({move}) is not legal for {agent} now (see its action_mask)"
            )
        self._cumulative_rewards[agent] = 0.0
        state.push(move)  # the seat to move, one of its legal moves: the engine's fast check
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
                self.infos[other] = self._info()
            self.agent_selection = self._agent((seat + 1) % self.config.players)
        else:
            assert self._mover is not None
            self.agent_selection = self.possible_agents[self._mover]
            turn = state.turns
            for info in self.infos.values():
                info["turn"] = turn
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> Any:
        """As ``render_mode`` says: the board as a spectator sees it as text (``ansi``), printed
        (``human``), or a picture (``rgb_array``); ``None`` without a render mode."""
        if self.render_mode is None:
            return None
        view = self._require_state().view(None)
        if self.render_mode == "rgb_array":
            return board_picture(view)
        text = view.board_text()
        if self.render_mode == "human":
            print(text, end="\n\n")
            return None
        return text

    def close(self) -> None:
        """Nothing to release: the game is in this process."""

    # --- inside -------------------------------------------------------------------------------

    def _advance(self) -> None:
        """Roll the dice and take manual draws until a seat is to move or the game is over:
        the engine's :meth:`~sequence.engine.State.play_forced`."""
        step = self._require_state().play_forced()
        self._mover = step.seat if step.kind is _MOVE else None

    def _info(self) -> dict[str, Any]:
        state = self._require_state()
        outcome = state.outcome
        if outcome is None:
            return {"turn": state.turns, "winner": NO_WINNER, "termination": ""}
        winner = NO_WINNER if outcome.winner is None else outcome.winner
        return {"turn": state.turns, "winner": winner, "termination": outcome.termination.value}

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
