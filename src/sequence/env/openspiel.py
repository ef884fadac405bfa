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
- **Observers** (:class:`SequenceObserver`) honour OpenSpiel's ``IIGObservationType``:
  ``public_info`` (the board, the discards, the counts, the phase, ...), ``private_info``
  (``SINGLE_PLAYER``: the seat's hand; ``NONE``: not; ``ALL_PLAYERS`` is refused in the card
  games, whose hands are hidden from every other seat) and ``perfect_recall``. Their tensor is
  the flat :class:`sequence.env.arrays.Observer` array's segments that the type asks for,
  after a one-hot ``player``, and their ``dict`` names each piece; observer parameter
  ``history`` (``{"history": K}``) adds the last K public moves. A perfect-recall observer has
  a string (the seat's every hand, as it changed, and the whole public history: what
  ``information_state_string`` gives, what ISMCTS and MCCFR key on) and no tensor: a game
  holds up to ``max_game_length`` moves, too many to one-hot. Everything is made from the
  views of the seat (:class:`~sequence.engine.View`) only.
- ``resample_from_infostate(player, sampler)`` is :meth:`State.sample_from_view` of the
  seat's view, seeded from the sampler, so OpenSpiel's ISMCTS can search it.

>>> import pyspiel
>>> game = pyspiel.load_game("python_sequence_kids")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes()) == game.max_chance_outcomes()
(True, True)
>>> state.apply_action(7)
>>> state.current_player() in (0, 1), len(state.observation_tensor(0)) > 0
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
PRIVATE_SEGMENTS = frozenset({"hand"})
"""The observation segments that only their seat may see (the rest are public)."""
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
        provides_information_state_tensor=False,  # see SequenceObserver: too long to one-hot
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
        self.actions: ActionSpace = actions

    def new_initial_state(self) -> SequenceState:
        return SequenceState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> SequenceObserver:
        """An observer of ``iig_obs_type`` (OpenSpiel's default, as its own Python games:
        the observation, no perfect recall); ``params``: ``{"history": K}`` or none."""
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        return SequenceObserver(self, iig_obs_type, params)


class SequenceState(pyspiel.State):  # type: ignore[misc]
    """A game in progress: the engine's :class:`State` once dealt, chance before that."""

    def __init__(self, game: SequenceGame) -> None:
        super().__init__(game)
        # Kept here, not read from the game: OpenSpiel may hold the game by its C++ part only.
        self.config: Config = game.config
        self.actions: ActionSpace = game.actions
        self.deals: int = game.deals
        self.state: State | None = None  # None until the deal (the first chance node)
        self.hands: list[list[tuple[int, tuple[int, ...]]]] = []
        """Per seat, what it has seen of its own hand: ``(public moves made, hand)`` each
        time its hand changed (its perfect recall, with the public moves)."""

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
            self.hands = [[] for _ in range(self.config.players)]
        elif self.state.is_chance():
            self.state.push(_ROLL_MOVES[action])
        else:
            seat = self.current_player()
            self.state.push(self.actions.action_to_move(action), seat=seat)
        # Open draws (manual_draw) are taken at once; a roll stays a chance node of OpenSpiel's.
        self.state.play_forced(dice=False)
        self._see_hands()

    def _see_hands(self) -> None:
        """Add each seat's hand to what it has seen, where it changed (read from its view)."""
        assert self.state is not None
        for seat, seen in enumerate(self.hands):
            view = self.state.view(seat)
            hand = view.hand or ()
            if not seen or seen[-1][1] != hand:
                seen.append((len(view.move_stack), hand))

    def start_at(self, state: State) -> None:
        """Make ``state`` (a game in progress) this one's: each seat has seen its hand now."""
        self.state = state
        self.hands = [[] for _ in range(self.config.players)]
        self._see_hands()

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
            clone.start_at(State.sample_from_view(self.state.view(player_id), seed))
            # The seat remembers its own past hands; the others' are the sample's now.
            clone.hands[player_id] = list(self.hands[player_id])
        return clone

    def _blank(self) -> SequenceState:
        clone: SequenceState = SequenceState.__new__(SequenceState)
        pyspiel.State.__init__(clone, self.get_game())
        clone.config, clone.actions, clone.deals = self.config, self.actions, self.deals
        clone.state = None
        clone.hands = []
        return clone

    def __deepcopy__(self, memo: dict[int, Any]) -> SequenceState:
        clone = self._blank()
        clone.state = None if self.state is None else self.state.copy()
        clone.hands = [list(seen) for seen in self.hands]
        return clone

    def __str__(self) -> str:
        return "(not dealt)" if self.state is None else self.state.board_text()


def _cards(cards: tuple[int, ...] | None) -> str:
    return " ".join(str(c) for c in cards or ())


class SequenceObserver:
    """OpenSpiel's observer interface (``tensor``, ``dict``, ``set_from``, ``string_from``) for
    one ``IIGObservationType``, made from the seat's views only.

    - ``public_info``: every public segment of the flat
      :class:`~sequence.env.arrays.Observer` array (``board``, ``locked``, ``discards``,
      ``hand_sizes``, ``phase``, ``roll``, ...); the string: the phase, the roll, the seat to
      move, the turn, the chips and the draw pile's size, or with perfect recall every public
      move.
    - ``private_info``: ``SINGLE_PLAYER``, the seat's ``hand`` (the card games'; Dice has
      nothing private); ``NONE``, no hand; ``ALL_PLAYERS`` is refused in the card games (no
      seat may see another's hand) and is ``SINGLE_PLAYER`` in Dice. With perfect recall, the
      string lists each hand the seat held and the public move it got it after.
    - ``perfect_recall``: the string only; ``tensor`` is ``None`` (as OpenSpiel's observers of
      public games) and :meth:`set_from` refuses, since a game holds up to
      ``max_game_length`` moves. ``params={"history": K}`` adds the last K public moves to a
      tensor without perfect recall.

    The tensor is a one-hot ``player`` (the absolute seat; the rest is relative to it, as in
    :class:`~sequence.env.arrays.Observer`), then the chosen segments in the flat layout's
    order; ``dict`` maps each name to its part of the tensor, shaped as its segment.
    """

    def __init__(
        self, game: SequenceGame, iig_obs_type: Any, params: dict[str, Any] | None = None
    ) -> None:
        options = dict(params or {})
        history = options.pop("history", 0)
        if options:
            raise ValueError(
                "observer parameters: only 'history' (the last K public moves),"
                f" not {sorted(options)}"
            )
        if not isinstance(history, int) or isinstance(history, bool) or history < 0:
            raise ValueError(f"observer parameter history must be an int >= 0, not {history!r}")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.public = bool(iig_obs_type.public_info)
        private = iig_obs_type.private_info
        self.observer = Observer(game.config, history=history)
        has_hands = "hand" in self.observer.layout.names
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS and has_hands:
            raise ValueError(
                "private_info ALL_PLAYERS is refused: every hand is hidden from the other"
                " seats, and no observation shows it (ask for SINGLE_PLAYER or NONE)"
            )
        self.private = private != pyspiel.PrivateInfoType.NONE and has_hands
        if self.perfect_recall and history:
            raise ValueError(
                "observer parameter history is for observations without perfect recall"
            )
        players = game.config.players
        pieces: list[tuple[str, int, tuple[int, ...]]] = [("player", players, (players,))]
        take: list[int] = []
        if not self.perfect_recall:
            for seg in self.observer.layout.segments:
                if self.private if seg.name in PRIVATE_SEGMENTS else self.public:
                    pieces.append((seg.name, seg.size, seg.shape))
                    take.extend(range(seg.start, seg.stop))
        self._take = np.asarray(take, dtype=np.intp)
        self.tensor: np.ndarray[Any, np.dtype[np.float32]] | None = None
        self.dict: dict[str, np.ndarray[Any, np.dtype[np.float32]]] = {}
        if not self.perfect_recall:
            tensor = np.zeros(sum(size for _, size, _ in pieces), np.float32)
            index = 0
            for name, size, shape in pieces:
                self.dict[name] = tensor[index : index + size].reshape(shape)
                index += size
            self.tensor = tensor

    def set_from(self, state: SequenceState, player: int) -> None:
        """Write ``player``'s observation of ``state`` into :attr:`tensor` (zeros but
        ``player`` before the deal)."""
        tensor = self.tensor
        if tensor is None:
            raise ValueError(
                "a perfect-recall observer has no tensor (a game holds up to max_game_length"
                " moves); use its string_from, or an observation with params {'history': K}"
            )
        tensor.fill(0.0)
        self.dict["player"][player] = 1.0
        view = state.view(player)
        if view is not None:
            players = len(self.dict["player"])
            tensor[players:] = self.observer.encode(view)[self._take]

    def string_from(self, state: SequenceState, player: int) -> str:
        """``player``'s observation of ``state`` as text, with the pieces the type asks for."""
        view = state.view(player)
        if view is None:
            return f"p{player} (not dealt)"
        pieces = [f"p{player}"]
        if self.private:
            if self.perfect_recall:
                seen = state.hands[player]
                pieces += [f"hand@{moves} [{_cards(hand)}]" for moves, hand in seen]
            else:
                pieces.append(f"hand [{_cards(view.hand)}]")
        if self.public:
            pieces.append(f"{view.phase.name} roll {view.roll} to move {view.to_move}")
            if self.perfect_recall:
                pieces.append("| " + " ".join(str(m) for m in view.move_stack))
            else:
                chips = " ".join(f"{b:x}" for b in view.chips)
                pieces.append(f"turn {view.turns} chips {chips} deck {view.deck_size}")
        return " ".join(pieces)


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
    """The OpenSpiel game of ``config`` (``params``: ``deals``).

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
        root.start_at(State.sample_from_view(view, self.rng.getrandbits(31)))
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
    "PRIVATE_SEGMENTS",
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
    "load_game",
    "short_name",
]
