"""A Gymnasium-like environment: one learning agent at one seat, bots at the others.

:class:`SequenceEnv` plays the agent's seat; everything between two decisions of the agent is
played automatically: the other seats' turns (by bots, each given only its own seat's view),
Dice rolls (chance, from the game's own seed) and pending draws with option ``manual_draw``
(every seat draws right after its play, the agent included).

- ``reset(seed=None) -> (obs, info)``; ``step(action) -> (obs, reward, terminated, truncated,
  info)``; ``info`` has the same keys at every step: ``legal_actions`` (ids, ascending) and
  ``action_mask`` (0/1 per action) for the agent's next decision, ``turn``, ``winner`` (the
  winning team; :data:`NO_WINNER`, -1, while playing, after a draw or an illegal action),
  ``termination`` (``""`` while playing), ``outcome`` (``None`` while playing) and
  ``illegal_action`` (``""`` unless the episode ended on one);
- what happens between two decisions of the agent follows the engine's turn driver:
  :meth:`~sequence.engine.State.play_forced` makes the rolls and draws, the bots the moves;
- observations are :func:`~sequence.env.encode_observation` of the agent's view, actions the ids
  of :func:`~sequence.env.action_space`;
- reward 0 on every step but the last: +1 when the agent's team wins, -1 when it loses, 0 for a
  draw; ``truncated`` is true when the ``max_turns`` limit ended the game (drawn, reward 0),
  ``terminated`` for every other end;
- an illegal action (an id out of range, or a move not legal now) raises
  :class:`~sequence.env.IllegalActionError` and changes nothing (``illegal="raise"``, the
  default); with ``illegal="penalty"`` it instead ends the episode (``terminated``) with reward
  ``illegal_penalty`` (default -1), ``info["illegal_action"]`` saying why, the game untouched.
  An action that is not an integer (``3.0``, ``True``, ``None``, an array of one) is a bug in
  the caller, not a choice: it raises ``IllegalActionError`` under either option;
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
from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any, Literal

from ..bots import Bot, RandomBot, bot_maker
from ..engine import (
    TEAM_LETTERS,
    Config,
    GameRecord,
    IllegalMoveError,
    Outcome,
    State,
    StepKind,
    Termination,
    View,
    card_name,
    config_from_dict,
    make_config,
)
from .actions import ActionSpace, IllegalActionError, action_id, action_space
from .observation import ObservationLayout, encode_observation, observation_layout

Opponent = str | Bot
"""A bot spec for :func:`sequence.bots.make_bot` (``"greedy"``, ``"mcts@iterations=50"``), or
a bot."""

NO_WINNER = -1
"""``info["winner"]`` while the game runs, after a draw, and after an illegal action."""

_MOVE = StepKind.MOVE
_LEGAL_AND_OUTCOME = itemgetter(View._fields.index("legal_moves"), View._fields.index("outcome"))
"""A view's legal moves and outcome, read by place (see :meth:`SequenceEnv._advance`)."""


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

    legal_hint: str = "info['legal_actions']"
    """Where an illegal action's message tells the caller to look for the legal ones: a
    wrapper whose ``info`` differs (the Gym env's has only ``action_mask``) sets its own."""

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
        observer: Callable[[View], Any] | None = None,
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
        elif isinstance(opponents, list | tuple):
            specs = list(opponents)
            if len(specs) != len(others):
                raise ValueError(
                    f"{len(others)} other seats need {len(others)} opponents (or one spec for"
                    f" all), not {len(specs)}"
                )
        else:
            raise TypeError(
                "opponents is a bot spec ('greedy'), a Bot, or a list of them (one per other"
                f" seat), not {opponents!r}"
            )
        # Per seat: the bot given, or what makes one from its spec (read once).
        self._opponents: dict[int, Bot | Callable[[int], Bot]] = {}
        for seat, spec in zip(others, specs, strict=True):
            if isinstance(spec, Bot):
                self._opponents[seat] = spec
            elif isinstance(spec, str):
                make = self._opponents[seat] = bot_maker(spec)
                make(0).close()  # a bad spec fails here, not in the middle of an episode
            else:
                raise TypeError(f"an opponent is a bot spec or a Bot, not {spec!r}")
        self._rng = random.Random(seed)
        self._bots: dict[int, Bot] = {}
        self.observer: Callable[[View], Any] = observer or encode_observation
        """Makes an observation of the agent's view (default :func:`encode_observation`)."""
        self._state: State | None = None
        self._view: View | None = None  # the agent's, built once a step
        self._ids: tuple[int, ...] | None = None  # the ids of its legal moves, in their order
        self._view_of = View.of  # read once: a class's attribute is looked up at every read
        self._space_ids = self.action_space.ids
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
    ) -> tuple[Any, dict[str, Any]]:
        """Start an episode; return the agent's first observation and ``info``.

        With ``seed``, the episode (game and bots) is fixed by it; without, the next episode of
        the sequence the constructor's seed fixes. ``options`` is accepted as Gymnasium's
        ``reset`` takes it, and must be empty: the game is fixed when the environment is made.
        """
        self._start(seed, options)
        return self.observer(self.view), self._info()

    def step(self, action: int) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Play the agent's ``action``, then everything up to its next decision or the end.

        Returns ``(obs, reward, terminated, truncated, info)``.
        """
        reward, terminated, truncated, illegal = self._play(action)
        return self.observer(self.view), reward, terminated, truncated, self._info(illegal)

    def _start(self, seed: int | None, options: dict[str, Any] | None) -> None:
        """``reset`` but the observation and ``info`` (which each face makes its own way)."""
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
        for seat, opponent in self._opponents.items():
            bot_seed = self._rng.getrandbits(63)
            if isinstance(opponent, Bot):
                if isinstance(getattr(opponent, "rng", None), random.Random):
                    opponent.rng.seed(bot_seed)
                self._bots[seat] = opponent
            else:
                self._bots[seat] = opponent(bot_seed)
        self._state = State.new(self.config, self.game_seed)
        self._done = False
        self._advance()
        self._done = self._state.is_over()

    def _play(self, action: Any) -> tuple[float, bool, bool, str]:
        """``step`` but the observation and ``info``: ``(reward, terminated, truncated, why the
        action was illegal or "")``. Afterwards ``_view`` is the agent's view and ``_ids`` its
        legal ids (unchanged after an illegal action)."""
        state = self._state
        if state is None:
            raise RuntimeError("call reset() first")
        if self._done:
            raise RuntimeError("the episode is over: call reset() to start another")
        # The agent's legal moves are found by their ids (ints, cheaper to compare than moves),
        # and the one chosen is made by its place among them: no second legality check. Only
        # an action that is not among them is looked at further, to say why.
        # Not an integer: a caller's bug, not a choice, raised whatever ``illegal`` says.
        chosen = action if action.__class__ is int else action_id(action)
        try:
            at = self._legal_ids().index(chosen)
        except ValueError:
            return self._reject(self._why_illegal(state, chosen))
        state.push_index(at, self.agent_seat, undo=False)
        outcome = self._advance()
        if outcome is None:
            return 0.0, False, False, ""
        self._done = True
        truncated = outcome.termination is Termination.MAX_TURNS
        return self._reward(), not truncated, truncated, ""

    def close(self) -> None:
        """Stop the bots this environment made (a user's bot plays in a process of its own);
        bots given as objects are the caller's to close."""
        for seat, bot in self._bots.items():
            if bot is not self._opponents[seat]:
                bot.close()
        self._bots = {}

    # --- what the agent sees ----------------------------------------------------------------------

    @property
    def view(self) -> View:
        """The agent's current view (the only thing observations are made from); built once
        for each decision of the agent."""
        if self._view is None:
            self._view = self._require_state().view(self.agent_seat)
        return self._view

    def legal_actions(self) -> list[int]:
        """The ids of the agent's legal moves now, ascending (empty once the episode is over)."""
        return sorted(self._legal_ids())

    def action_mask(self) -> list[int]:
        """1 per legal action id, 0 elsewhere (all 0 once the episode is over)."""
        mask = [0] * self.action_space.n
        for action in self._legal_ids():
            mask[action] = 1
        return mask

    def _legal_ids(self) -> tuple[int, ...]:
        """The ids of the agent's legal moves now, in the engine's order (not sorted): the
        order of ``view.legal_moves``. Empty once the episode is over (by the rules, or by an
        illegal action under ``illegal="penalty"``); found once for each decision."""
        if self._done:
            return ()
        ids = self._ids
        if ids is None:
            ids = self._ids = self._space_ids(self.view.legal_moves)
        return ids

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

    def _advance(self) -> Outcome | None:
        """Play chance, bots and draws until the agent has a decision or the game is over: the
        engine's :meth:`~sequence.engine.State.play_forced` rolls the dice and takes the draws,
        the bots make the other seats' moves. Then the agent's view and the ids of its legal
        moves are made (every face reads both at once); returns the outcome (``None`` while
        playing)."""
        state = self._state  # set by _start, which alone calls this before _play can
        assert state is not None
        agent = self.agent_seat
        # The game is never taken back: no undo records (push_index's undo=False likewise).
        while (step := state.play_forced(undo=False)).kind is _MOVE:
            seat = step.seat
            assert seat is not None
            if seat == agent:
                break
            bot = self._bots[seat]
            if type(bot) is RandomBot:
                # It reads nothing but the count of its seat's legal moves: no view to build.
                state.push_index(
                    bot.choose_index(len(state.legal_moves_of(seat))), seat, undo=False
                )
                continue
            view = state.view(seat)
            move = bot.choose(view)
            try:
                at = view.legal_moves.index(move)
            except ValueError:
                raise RuntimeError(
                    f"opponent {getattr(bot, 'label', '') or bot.name!r} at seat {seat}"
                    f" chose {move!r}, which is not a legal move"
                ) from None
            # Its place among the legal moves: made without checking its legality again.
            state.push_index(at, seat, undo=False)
        # The view's fields read by place: a named tuple's field read by name is looked up in
        # its class at every read.
        self._view = view = self._view_of(state, agent)
        legal, outcome = _LEGAL_AND_OUTCOME(view)
        self._ids = self._space_ids(legal) if legal else ()
        return outcome  # type: ignore[no-any-return]

    def _reward(self) -> float:
        outcome = self._require_state().outcome
        if outcome is None or outcome.winner is None:
            return 0.0
        return 1.0 if outcome.winner == self.agent_team else -1.0

    def _info(self, illegal: str = "") -> dict[str, Any]:
        """The same keys at every step: ``legal_actions``, ``action_mask``, ``turn``,
        ``winner``, ``termination``, ``outcome``, ``illegal_action``."""
        view = self.view
        outcome = view.outcome
        termination = "illegal_action" if illegal else ""
        if outcome is not None and not illegal:
            termination = outcome.termination.value
        winner = NO_WINNER
        if outcome is not None and outcome.winner is not None and not illegal:
            winner = outcome.winner
        return {
            "legal_actions": self.legal_actions(),
            "action_mask": self.action_mask(),
            "turn": view.turns,
            "winner": winner,
            "termination": termination,
            "outcome": None if illegal else outcome,
            "illegal_action": illegal,
        }

    def _why_illegal(self, state: State, action: int) -> str:
        """Why ``action`` is not one of the agent's legal actions now, in words."""
        try:
            move = self.action_space.action_to_move(action)
        except IllegalActionError as exc:
            return str(exc)
        view = self.view
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
            f" Legal now: {', '.join(legal)}{more} (see {self.legal_hint})"
        )

    def _reject(self, message: str) -> tuple[float, bool, bool, str]:
        if self.illegal == "raise":
            raise IllegalActionError(message)
        # The game is not over, but the episode is: info's end keys say how it ended.
        self._done = True
        return self.illegal_penalty, True, False, message


__all__ = ["NO_WINNER", "Opponent", "SequenceEnv"]
