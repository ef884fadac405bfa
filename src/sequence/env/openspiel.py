"""Every game of the family as an OpenSpiel game (the ``openspiel`` extra: ``open-spiel``).

Importing this module registers, with ``pyspiel.register_game``, one Python game per game of
the family: ``python_sequence_classic``, ``python_sequence_kids``, ``python_sequence_dice`` and
``python_sequence_draft``. Every configuration is a game parameter (``players``, ``teams``
(0: the rule book's default) and the options of :data:`sequence.engine.OPTIONS` that the game
has), so ``pyspiel.load_game("python_sequence_classic", {"players": 4})`` is the 4-player game.

- **Sequential, imperfect information, terminal rewards**: one OpenSpiel player per seat;
  ``returns()`` is the engine's (+1 for each seat of the winning team, -1 for the others, 0
  for a draw). Teams are equal in size, so with 2 teams the returns sum to 0 and the game is
  declared ``ZERO_SUM`` (``utility_sum`` 0: OpenSpiel's zero-sum tools take it); with 3 teams
  a win gives +1 to one team and -1 to two, and it is declared ``GENERAL_SUM``.
- **Explicit stochastic chance.** The shuffle, deal and set-up (cut for dealer, Dice roll-off)
  are the first chance node: its ``deals`` outcomes (a game parameter, default 4,096) are
  seeds of the engine's own seeded shuffle, equally likely, so the deal is a uniform draw from
  ``deals`` shuffles (every card's place in the draw pile is fixed by it and hidden from every
  seat: the later draws are not further chance nodes). Each Dice roll is a chance node with
  the engine's 21 outcomes and their probabilities (:meth:`State.chance_outcomes`). With
  option ``manual_draw`` a seat's draw is taken for it right after its play.
- **Actions** are the ids of :func:`sequence.env.action_space` (``num_distinct_actions`` is
  its ``n``); a chance action is an index into the chance outcomes.
- **Observations** reuse :class:`sequence.env.arrays.Observer`: ``observation_tensor`` is the
  flat observation of the seat's view, ``information_state_tensor`` the same with the last
  ``history`` public moves (a game parameter, default 16); ``information_state_string`` is the
  seat's hand and the whole public history. Both are made from the seat's
  :class:`~sequence.engine.View` only.
- ``resample_from_infostate(player, sampler)`` is :meth:`State.sample_from_view` of the
  seat's view, seeded from the sampler, so OpenSpiel's ISMCTS can search it.

>>> import pyspiel
>>> game = pyspiel.load_game("python_sequence_kids")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes()) == game.max_chance_outcomes()
(True, True)
>>> state.apply_action(7)
>>> state.current_player() in (0, 1), len(state.information_state_tensor(0)) > 0
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

from ..bots import Bot
from ..bots.base import check_budget
from ..engine import (
    OPTIONS,
    Config,
    Move,
    State,
    StepKind,
    View,
    make_config,
    play_random_game,
)
from ..engine.dice_rules import ROLL_OUTCOMES
from .actions import ActionSpace, action_space
from .arrays import Observer

GAMES = ("classic", "kids", "dice", "draft")
"""The games registered, each as ``python_sequence_<game>``."""
DEALS = 4096
"""The default number of deals (seeds of the engine's shuffle) the first chance node draws from."""
HISTORY = 16
"""The default number of public moves in the information-state tensor."""
MOVES_PER_TURN = 4
"""A bound on the actions of one turn (a dead-card exchange, a play, a penalty, a roll)."""

_ROLL_MOVES: tuple[Move, ...] = tuple(m for m, _ in ROLL_OUTCOMES)
_ROLL_ACTIONS = [(i, p) for i, (_, p) in enumerate(ROLL_OUTCOMES)]


def short_name(game: str) -> str:
    """The name OpenSpiel knows ``game`` by.

    >>> short_name("dice")
    'python_sequence_dice'
    """
    return f"python_sequence_{game}"


def _option_defaults(game: str) -> dict[str, Any]:
    base = "classic" if game == "draft" else game
    out: dict[str, Any] = {}
    for name, option in OPTIONS.items():
        if base not in option.games or name == "draft":
            continue
        default = option.default
        out[name] = 0 if default is None else default  # OpenSpiel has no None: 0 is "none"
    return out


def _parameters(game: str) -> dict[str, Any]:
    return {
        "players": 2,
        "teams": 0,
        "deals": DEALS,
        "history": HISTORY,
        **_option_defaults(game),
    }


def _config(game: str, params: dict[str, Any]) -> Config:
    options = {k: v for k, v in params.items() if k in OPTIONS}
    for name, option in OPTIONS.items():
        if name in options and option.default is None and options[name] == 0:
            options[name] = None
    teams = params.get("teams", 0) or None
    return make_config(game, players=int(params.get("players", 2)), teams=teams, **options)


def _game_type(game: str, teams: int = 2) -> pyspiel.GameType:
    """The game's OpenSpiel type; zero-sum with 2 teams (the default), general-sum with more."""
    zero_sum = teams == 2
    return pyspiel.GameType(
        short_name=short_name(game),
        long_name=f"Python Sequence ({game})",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(
            pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM
        ),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=12,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(game),
    )


class SequenceGame(pyspiel.Game):  # type: ignore[misc]
    """One configuration of one game of the family, as OpenSpiel sees it."""

    game = "classic"
    """The game of the family (a subclass per game is registered)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        game = self.game
        params = {**_parameters(game), **(params or {})}
        config = _config(game, params)
        deals = int(params["deals"])
        if deals < 1:
            raise ValueError(f"deals must be at least 1, not {deals}")
        actions = action_space(config)
        info = pyspiel.GameInfo(
            num_distinct_actions=actions.n,
            max_chance_outcomes=max(deals, len(ROLL_OUTCOMES)),
            num_players=config.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if config.teams == 2 else None,
            max_game_length=(config.max_turns + 1) * MOVES_PER_TURN,
        )
        super().__init__(_game_type(game, config.teams), info, params)
        self.config: Config = config
        self.deals = deals
        self.history = int(params["history"])
        self.actions: ActionSpace = actions
        self.observer_flat = Observer(config)
        self.observer_history = Observer(config, history=self.history)

    def new_initial_state(self) -> SequenceState:
        return SequenceState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> SequenceObserver:
        recall = iig_obs_type is None or bool(iig_obs_type.perfect_recall)
        return SequenceObserver(self, perfect_recall=recall)


class SequenceState(pyspiel.State):  # type: ignore[misc]
    """A game in progress: the engine's :class:`State` once dealt, chance before that."""

    def __init__(self, game: SequenceGame) -> None:
        super().__init__(game)
        # Kept here, not read from the game: OpenSpiel may hold the game by its C++ part only.
        self.config: Config = game.config
        self.actions: ActionSpace = game.actions
        self.deals: int = game.deals
        self.state: State | None = None  # None until the deal (the first chance node)

    # --- whose turn ---------------------------------------------------------------------------

    def current_player(self) -> int:
        if self.state is None:
            return int(pyspiel.PlayerId.CHANCE)
        step = self.state.next_step()
        if step.kind is StepKind.OVER:
            return int(pyspiel.PlayerId.TERMINAL)
        if step.kind is StepKind.ROLL:
            return int(pyspiel.PlayerId.CHANCE)
        assert step.seat is not None
        return step.seat

    def is_terminal(self) -> bool:
        return self.state is not None and self.state.is_over()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.state is None:
            p = 1.0 / self.deals
            return [(i, p) for i in range(self.deals)]
        return list(_ROLL_ACTIONS) if self.state.is_chance() else []

    def _legal_actions(self, player: int) -> list[int]:
        if self.state is None or self.current_player() != player:
            return []
        return self.actions.actions(self.state.legal_moves_of(player))

    def _apply_action(self, action: int) -> None:
        if self.state is None:
            self.state = State.new(self.config, seed=int(action))
        elif self.state.is_chance():
            self.state.push(_ROLL_MOVES[action])
        else:
            seat = self.current_player()
            self.state.push(self.actions.action_to_move(action), seat=seat)
        # Open draws (manual_draw) are taken at once; a roll stays a chance node of OpenSpiel's.
        self.state.play_forced(dice=False)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}" if self.state is None else f"roll {_ROLL_MOVES[action]}"
        return str(self.actions.action_to_move(action))

    def returns(self) -> list[float]:
        if self.state is None:
            return [0.0] * self.config.players
        return [float(r) for r in self.state.returns()]

    # --- hidden information -------------------------------------------------------------------

    def view(self, player: int | None) -> View | None:
        """``player``'s view (``None``: a spectator's); ``None`` before the deal."""
        return None if self.state is None else self.state.view(player)

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> SequenceState:
        """A state ``player_id`` cannot tell from this one: the hidden cards dealt anew."""
        clone = self._blank()
        if self.state is not None:
            seed = int(probability_sampler() * 2**31)
            clone.state = State.sample_from_view(self.state.view(player_id), seed)
        return clone

    def _blank(self) -> SequenceState:
        clone: SequenceState = SequenceState.__new__(SequenceState)
        pyspiel.State.__init__(clone, self.get_game())
        clone.config, clone.actions, clone.deals = self.config, self.actions, self.deals
        clone.state = None
        return clone

    def __deepcopy__(self, memo: dict[int, Any]) -> SequenceState:
        clone = self._blank()
        clone.state = None if self.state is None else self.state.copy()
        return clone

    def __str__(self) -> str:
        return "(not dealt)" if self.state is None else self.state.board_text()


def information_state_string(view: View | None) -> str:
    """What the seat knows, as text: its hand, the phase, the roll and every public move."""
    if view is None:
        return "(not dealt)"
    hand = " ".join(str(c) for c in view.hand or ())
    moves = " ".join(str(m) for m in view.move_stack)
    return f"seat {view.seat} hand [{hand}] {view.phase.name} roll {view.roll} | {moves}"


def observation_string(view: View | None) -> str:
    """What the seat sees now, as text: its hand, the phase and the board."""
    if view is None:
        return "(not dealt)"
    hand = " ".join(str(c) for c in view.hand or ())
    chips = " ".join(f"{b:x}" for b in view.chips)
    return (
        f"seat {view.seat} hand [{hand}] {view.phase.name} roll {view.roll} to move"
        f" {view.to_move} turn {view.turns} chips {chips} deck {view.deck_size}"
    )


class SequenceObserver:
    """OpenSpiel's observer interface (``tensor``, ``dict``, ``set_from``, ``string_from``):
    the flat :class:`~sequence.env.arrays.Observer` array of the seat's view, with the public
    history for the information state (``perfect_recall``)."""

    def __init__(self, game: SequenceGame, *, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.observer = game.observer_history if perfect_recall else game.observer_flat
        self.tensor = np.zeros(self.observer.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: SequenceState, player: int) -> None:
        view = state.view(player)
        if view is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = self.observer.encode(view)

    def string_from(self, state: SequenceState, player: int) -> str:
        view = state.view(player)
        if self.perfect_recall:
            return information_state_string(view)
        return observation_string(view)


class SequenceClassicGame(SequenceGame):
    """``python_sequence_classic``: Sequence, for 2 to 12 players."""

    game = "classic"


class SequenceKidsGame(SequenceGame):
    """``python_sequence_kids``: Sequence for Kids."""

    game = "kids"


class SequenceDiceGame(SequenceGame):
    """``python_sequence_dice``: Sequence Dice."""

    game = "dice"


class SequenceDraftGame(SequenceGame):
    """``python_sequence_draft``: Sequence with the draft variant."""

    game = "draft"


GAME_CLASSES: dict[str, type[SequenceGame]] = {
    "classic": SequenceClassicGame,
    "kids": SequenceKidsGame,
    "dice": SequenceDiceGame,
    "draft": SequenceDraftGame,
}
"""The class registered for each game (module-level, so that a game pickles by its name)."""


def _register() -> None:
    registered = set(pyspiel.registered_names())
    for game in GAMES:
        if short_name(game) not in registered:
            pyspiel.register_game(_game_type(game), GAME_CLASSES[game])


_register()


def load_game(game: str = "classic", **params: Any) -> SequenceGame:
    """``pyspiel.load_game(short_name(game), params)``.

    >>> load_game("classic", players=4).num_players()
    4
    """
    return pyspiel.load_game(short_name(game), params)  # type: ignore[no-any-return]


def game_for(config: Config, **params: Any) -> SequenceGame:
    """The OpenSpiel game of ``config`` (``params``: ``deals``, ``history``).

    >>> game_for(make_config("draft", players=4)).get_type().short_name
    'python_sequence_draft'
    """
    game = "draft" if config.draft else config.game
    options = {k: (0 if v is None else v) for k, v in config.options().items() if k != "draft"}
    return load_game(game, players=config.players, teams=config.teams, **options, **params)


class EngineRolloutEvaluator(mcts.RandomRolloutEvaluator):  # type: ignore[misc]
    """OpenSpiel's random-rollout evaluation (uniform priors; a leaf's value is the mean
    return of ``n_rollouts`` uniformly random playouts), with each playout run by the engine's
    :func:`~sequence.engine.play_random_game` on a copy of the leaf's :class:`State` rather
    than through OpenSpiel's state: the same distribution of games, about 18 times faster on
    classic (no action ids, no legal-action lists through pybind)."""

    def __init__(self, n_rollouts: int, rng: random.Random) -> None:
        super().__init__(n_rollouts)
        self.rng = rng

    def evaluate(self, state: SequenceState) -> Any:
        if state.state is None:  # not dealt: OpenSpiel's own rollout deals
            return super().evaluate(state)
        total = np.zeros(state.config.players)
        for _ in range(self.n_rollouts):
            total += play_random_game(state.state.copy(), self.rng).returns()
        return total / self.n_rollouts


class ISMCTSBot(Bot):
    """OpenSpiel's information-set MCTS (``open_spiel.python.algorithms.ismcts``) as a bot.

    Named ``ismcts`` in :func:`sequence.bots.make_bot` (``ismcts@simulations=200``): the bots
    layer routes the name here without importing it. Each decision loads the configuration's
    OpenSpiel game (:func:`game_for`), puts a state consistent with the seat's view at the root
    (:meth:`State.sample_from_view`; ISMCTS deals the hidden cards anew for every simulation
    with ``resample_from_infostate``) and plays the action ISMCTS visits most. ``simulations``
    per decision; ``rollouts``: random games played to evaluate a new leaf; ``uct_c``: the
    exploration constant.
    """

    name = "ismcts"

    def __init__(
        self, seed: int = 0, simulations: int = 100, rollouts: int = 1, uct_c: float = 2.0
    ) -> None:
        super().__init__(seed)
        check_budget(simulations=simulations, rollouts=rollouts)
        self.simulations = int(simulations)
        self.rollouts = int(rollouts)
        self.uct_c = float(uct_c)
        self._games: dict[Config, SequenceGame] = {}

    def choose(self, view: View) -> Move:
        from open_spiel.python.algorithms import ismcts

        if len(view.legal_moves) == 1:
            return view.legal_moves[0]
        config = view.config
        game = self._games.get(config)
        if game is None:
            game = self._games[config] = game_for(config, deals=1)
        root = game.new_initial_state()
        root.state = State.sample_from_view(view, self.rng.getrandbits(31))
        random_state = np.random.RandomState(self.rng.getrandbits(31))
        evaluator = EngineRolloutEvaluator(self.rollouts, self.rng)
        bot = ismcts.ISMCTSBot(
            game, evaluator, self.uct_c, self.simulations, random_state=random_state
        )
        rng = self.rng

        def resample(state: SequenceState, player: int) -> SequenceState:
            return state.resample_from_infostate(player, rng.random)

        bot.set_resampler(resample)
        action = bot.step(root)
        return root.actions.action_to_move(int(action))


__all__ = [
    "DEALS",
    "GAMES",
    "GAME_CLASSES",
    "EngineRolloutEvaluator",
    "ISMCTSBot",
    "SequenceClassicGame",
    "SequenceDiceGame",
    "SequenceDraftGame",
    "SequenceGame",
    "SequenceKidsGame",
    "SequenceObserver",
    "SequenceState",
    "game_for",
    "information_state_string",
    "load_game",
    "observation_string",
    "short_name",
]
