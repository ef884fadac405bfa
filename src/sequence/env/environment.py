"""A Gymnasium-like environment: one learning agent at one seat, bots at the others.

:class:`SequenceEnv` plays the agent's seat; everything between two decisions of the agent is
played automatically: the other seats' turns (by bots, each given only its own seat's view),
Dice rolls (chance, from the game's own seed) and pending draws with option ``manual_draw``
(every seat draws right after its play, the agent included).

- ``reset(seed=None) -> (obs, info)``; ``step(action) -> (obs, reward, terminated, truncated,
  info)``, with ``info["legal_actions"]`` (ids, ascending) and ``info["action_mask"]`` (0/1 per
  action) for the agent's next decision;
- observations are :func:`~sequence.env.encode_observation` of the agent's view, actions the ids
  of :func:`~sequence.env.action_space`;
- reward 0 on every step but the last: +1 when the agent's team wins, -1 when it loses, 0 for a
  draw; ``truncated`` is true when the ``max_turns`` limit ended the game (drawn, reward 0),
  ``terminated`` for every other end;
- an illegal action (an id out of range, or a move not legal now) raises
  :class:`~sequence.env.IllegalActionError` and changes nothing (``illegal="raise"``, the
  default); with ``illegal="penalty"`` it instead ends the episode (``terminated``) with reward
  ``illegal_penalty`` (default -1), ``info["illegal_action"]`` saying why, the game untouched;
- deterministic: the same constructor seed gives the same episodes, ``reset(seed=s)`` the same
  episode for the same ``s`` (the game and the bots are seeded from it).

>>> import random
>>> env = SequenceEnv("kids", opponents="random", seed=3)
>>> obs, info = env.reset()
>>> rng = random.Random(0)
>>> done = False
>>> while not done:
...     obs, reward, terminated, truncated, info = env.step(rng.choice(info["legal_actions"]))
...     done = terminated or truncated
>>> reward in (-1.0, 0.0, 1.0), len(obs) == env.observation_size
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Literal

from ..bots import Bot, make_bot
from ..engine import (
    TEAM_LETTERS,
    Config,
    GameRecord,
    IllegalMoveError,
    Move,
    MoveKind,
    State,
    Termination,
    View,
    card_name,
    config_from_dict,
    make_config,
)
from .actions import ActionSpace, IllegalActionError, action_space
from .observation import ObservationLayout, encode_observation, observation_layout

Opponent = str | Bot
"""A bot spec for :func:`sequence.bots.make_bot` (``"greedy"``, ``"mcts@iterations=50"``), or
a bot."""


class SequenceEnv:
    """One agent against bots in any game of the family.

    ``config`` is a :class:`~sequence.engine.Config`, a dict as ``Config.to_dict()`` gives, or a
    game name with ``make_config`` arguments as keywords (``SequenceEnv("classic", players=4)``).
    ``opponents`` is one bot spec for every other seat (team-mates included), or a list with
    one spec or bot per other seat, in seat order. Bots from specs are made afresh each
    episode with seeds drawn from the episode's seed; a :class:`~sequence.bots.Bot` given as is
    keeps its state, and its ``rng`` is reseeded each episode. Everything after ``config`` is a
    keyword (``SequenceEnv("classic", 2)`` would read as a seat, not a player count).

    >>> env = SequenceEnv("dice", players=4, opponents=["random", "greedy", "random"], seed=1)
    >>> obs, info = env.reset()
    >>> env.agent_team, env.num_actions, sum(info["action_mask"]) == len(info["legal_actions"])
    (0, 109, True)
    """

    def __init__(
        self,
        config: Config | str | dict[str, Any] = "classic",
        *,
        agent_seat: int = 0,
        opponents: Opponent | Sequence[Opponent] = "greedy",
        seed: int | None = 0,
        illegal: Literal["raise", "penalty"] = "raise",
        illegal_penalty: float = -1.0,
        max_turns: int | None = None,
        **config_options: Any,
    ) -> None:
        if isinstance(config, str):
            config = make_config(config, **config_options)
        elif config_options:
            raise TypeError(
                "make_config arguments go with a game name: SequenceEnv('classic', players=4)"
            )
        elif isinstance(config, dict):
            config = config_from_dict(config)
        if not isinstance(config, Config):
            raise TypeError(f"config must be a Config, a dict or a game name, not {config!r}")
        if max_turns is not None:
            config = config.with_options(max_turns=max_turns)
        if not 0 <= agent_seat < config.players:
            raise ValueError(f"no seat {agent_seat} in a {config.players}-player game")
        if illegal not in ("raise", "penalty"):
            raise ValueError(f"illegal must be 'raise' or 'penalty', not {illegal!r}")
        self.config: Config = config
        self.agent_seat = agent_seat
        self.agent_team = config.team_of(agent_seat)
        self.illegal = illegal
        self.illegal_penalty = float(illegal_penalty)
        self.action_space: ActionSpace = action_space(config)
        self.observation_layout: ObservationLayout = observation_layout(config)
        others = [s for s in range(config.players) if s != agent_seat]
        if isinstance(opponents, str | Bot):
            specs: list[Opponent] = [opponents] * len(others)
        else:
            specs = list(opponents)
            if len(specs) != len(others):
                raise ValueError(
                    f"{len(others)} other seats need {len(others)} opponents (or one spec for"
                    f" all), not {len(specs)}"
                )
        for spec in specs:
            if not isinstance(spec, str | Bot):
                raise TypeError(f"an opponent is a bot spec or a Bot, not {spec!r}")
            if isinstance(spec, str):
                make_bot(spec)  # a bad spec fails here, not in the middle of an episode
        self._specs: dict[int, Opponent] = dict(zip(others, specs, strict=True))
        self._rng = random.Random(seed)
        self._bots: dict[int, Bot] = {}
        self._state: State | None = None
        self._done = True
        self.game_seed: int | None = None
        """The seed of the current episode's game: ``State.new(env.config, env.game_seed)``."""

    # --- sizes ---------------------------------------------------------------------------------

    @property
    def num_actions(self) -> int:
        """The number of actions: ids are ``0 .. num_actions - 1``."""
        return self.action_space.n

    @property
    def observation_size(self) -> int:
        """The length of every observation."""
        return self.observation_layout.size

    # --- the episode ----------------------------------------------------------------------------

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[list[int], dict[str, Any]]:
        """Start an episode; return the agent's first observation and ``info``.

        With ``seed``, the episode (game and bots) is fixed by it; without, the next episode of
        the sequence the constructor's seed fixes. ``options`` is accepted as Gymnasium's
        ``reset`` takes it, and must be empty: the game is fixed when the environment is made.
        """
        if options:
            raise ValueError(
                f"reset takes no options ({', '.join(map(str, options))}): the game is fixed"
                " when the environment is made"
            )
        self.close()
        if seed is not None:
            self._rng.seed(seed)
        self.game_seed = self._rng.getrandbits(63)
        self._bots = {}
        for seat, spec in self._specs.items():
            bot_seed = self._rng.getrandbits(63)
            if isinstance(spec, str):
                self._bots[seat] = make_bot(spec, bot_seed)
            else:
                if isinstance(getattr(spec, "rng", None), random.Random):
                    spec.rng.seed(bot_seed)
                self._bots[seat] = spec
        self._state = State.new(self.config, self.game_seed)
        self._done = False
        self._advance()
        self._done = self._state.is_over()
        return self._observe(), self._info()

    def step(self, action: int) -> tuple[list[int], float, bool, bool, dict[str, Any]]:
        """Play the agent's ``action``, then everything up to its next decision or the end.

        Returns ``(obs, reward, terminated, truncated, info)``.
        """
        state = self._require_state()
        if self._done:
            raise RuntimeError("the episode is over: call reset() to start another")
        view = state.view(self.agent_seat)
        try:
            move = self.action_space.action_to_move(action)
        except IllegalActionError as exc:
            return self._reject(str(exc))
        if move not in view.legal_moves:
            return self._reject(self._why_illegal(state, move, action, view))
        state.push(move, seat=self.agent_seat)
        self._take_draw(self.agent_seat)
        self._advance()
        obs, info = self._observe(), self._info()
        outcome = state.outcome
        if outcome is None:
            return obs, 0.0, False, False, info
        self._done = True
        truncated = outcome.termination is Termination.MAX_TURNS
        return obs, self._reward(), not truncated, truncated, info

    def close(self) -> None:
        """Stop the bots this environment made (a user's bot plays in a process of its own);
        bots given as objects are the caller's to close."""
        for seat, bot in self._bots.items():
            if isinstance(self._specs[seat], str):
                bot.close()
        self._bots = {}

    # --- what the agent sees ----------------------------------------------------------------------

    @property
    def view(self) -> View:
        """The agent's current view (the only thing observations are made from)."""
        return self._require_state().view(self.agent_seat)

    def legal_actions(self) -> list[int]:
        """The ids of the agent's legal moves now (empty once the episode is over)."""
        if self._done:  # over by the rules, or by an illegal action under illegal="penalty"
            return []
        return self.action_space.legal_actions(self.view)

    def action_mask(self) -> list[int]:
        """1 per legal action id, 0 elsewhere (all 0 once the episode is over)."""
        if self._done:
            return [0] * self.action_space.n
        return self.action_space.legal_action_mask(self.view)

    def render(self) -> str:
        """The board and the agent's hand as text, from the agent's view.

        The board is :meth:`~sequence.engine.View.board_text`: column letters and row numbers
        as in the move notation (``d3``), chips as their team's letters (capitals when part of
        a completed sequence), empty spaces as their label, free corners as ``**``.
        """
        view = self.view
        lines = view.board_text().splitlines()
        you = f"seat {self.agent_seat}, team {TEAM_LETTERS[self.agent_team]}"
        if view.hand is not None and self.config.spec.uses_cards:
            hand = " ".join(card_name(c) for c in view.hand)
            lines.append(f"you ({you}) hold: {hand}")
        else:
            lines.append(f"you: {you}")
        if view.roll is not None:
            lines.append(f"roll: {view.roll[0]}+{view.roll[1]}")
        return "\n".join(lines)

    def record(self) -> GameRecord:
        """The finished episode's game as a record (hidden cards included, so only at the end)."""
        state = self._require_state()
        if not state.is_over():
            raise RuntimeError("a record shows every hand: it is given only once the game is over")
        return GameRecord.from_state(state)

    # --- inside -------------------------------------------------------------------------------

    def _require_state(self) -> State:
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state

    def _advance(self) -> None:
        """Play chance, bots and draws until the agent has a decision or the game is over."""
        state = self._require_state()
        agent = self.agent_seat
        while not state.is_over():
            if state.is_chance():
                state.push(state.sample_chance())
                continue
            seat = state.to_move
            if seat == agent:
                return
            bot = self._bots[seat]
            view = state.view(seat)
            move = bot.choose(view)
            if move not in view.legal_moves:
                raise RuntimeError(
                    f"opponent {getattr(bot, 'label', '') or bot.name!r} at seat {seat}"
                    f" chose {move!r}, which is not a legal move"
                )
            state.push(move, seat=seat)
            self._take_draw(seat)

    def _take_draw(self, seat: int) -> None:
        state = self._require_state()
        if seat in state.pending_draws and not state.is_over():
            state.push(Move(MoveKind.DRAW, seat=seat), seat=seat)

    def _reward(self) -> float:
        outcome = self._require_state().outcome
        if outcome is None or outcome.winner is None:
            return 0.0
        return 1.0 if outcome.winner == self.agent_team else -1.0

    def _observe(self) -> list[int]:
        return encode_observation(self.view)

    def _info(self) -> dict[str, Any]:
        state = self._require_state()
        view = state.view(self.agent_seat)
        info: dict[str, Any] = {
            "legal_actions": self.action_space.legal_actions(view),
            "action_mask": self.action_space.legal_action_mask(view),
            "turn": view.turns,
        }
        outcome = state.outcome
        if outcome is not None:
            info["outcome"] = outcome
            info["winner"] = outcome.winner
            info["termination"] = outcome.termination.value
        return info

    def _why_illegal(self, state: State, move: Move, action: int, view: View) -> str:
        probe = state.copy(stack=False)
        try:
            probe.push(move, seat=self.agent_seat)
            reason = "the environment does not offer it to the agent now"
        except IllegalMoveError as exc:
            reason = str(exc)
        legal = [str(m) for m in view.legal_moves[:8]]
        more = ", ..." if len(view.legal_moves) > 8 else ""
        return (
            f"action {action} ({move}) is illegal: {reason}."
            f" Legal now: {', '.join(legal)}{more} (see info['legal_actions'])"
        )

    def _reject(self, message: str) -> tuple[list[int], float, bool, bool, dict[str, Any]]:
        if self.illegal == "raise":
            raise IllegalActionError(message)
        self._done = True
        info = self._info()
        info["legal_actions"] = []  # the episode is over: nothing more to choose
        info["action_mask"] = [0] * self.action_space.n
        info["illegal_action"] = message
        # The game is not over, but the episode is: the end keys say how it ended.
        info.update(outcome=None, winner=None, termination="illegal_action")
        return self._observe(), self.illegal_penalty, True, False, info


__all__ = ["Opponent", "SequenceEnv"]
