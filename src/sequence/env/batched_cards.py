"""The batched simulator's core: N games of one card-game configuration stepped at once with numpy.

This module holds the class the whole family is built on, :class:`BatchedSequenceEnv` (classic
and Kids); :mod:`sequence.env.batched_dice` and :mod:`sequence.env.batched_draft` subclass it,
and :mod:`sequence.env.batched`, the public face, gives all three and
:func:`~sequence.env.batched.batched_env`, which picks the class for a configuration (the
classes are in modules of their own so that no module imports one that imports it).

:class:`BatchedSequenceEnv` keeps N games as arrays (the board as one owner per space, hands
as card counts, draw and discard piles as card arrays) and steps all of them with a handful
of numpy operations, for the large-scale self-play that pgx-like simulators are used for. It
needs numpy only: no GPU, no JAX.

It gives what the single environment gives, number for number:

- the same action ids (:func:`~sequence.env.action_space`) and masks (1 for each legal move);
- the same observations as the Gymnasium face (:class:`~sequence.env.arrays.Observer`,
  ``float32`` in [0, 1]), made from the acting seat's knowledge only: the flat vector, or with
  ``observation="planes"`` a dict of ``board`` ``(N, C, rows, cols)`` and ``features``
  ``(N, F)``; ``history=K`` adds the last K public moves (each game keeps their action ids in
  a ring buffer, emptied when it starts again), as the ``history`` segment and, with planes,
  one plane per move;
- the same games: each game is the engine's game with its seed (``State.new(config, seed)``):
  who deals is the engine's :func:`~sequence.engine.setup.opening`, the deck's order comes from
  the engine's own shuffle keys (:func:`~sequence.engine.rng.shuffle_keys`, put in order by one
  numpy argsort for all new games), a draw pile that runs out is reshuffled the same way from
  the engine's random source, and which five cards make a sequence when a placement completes
  several windows is the engine's decision too (:func:`~sequence.engine.lines.choose_windows`).
  ``tests/env/test_batched.py`` plays batched games beside the engine, move for move, and
  checks every mask, observation, reward and end.

Three ways to play (``opponents``):

- ``"random"`` (the default): the agent holds ``agent_seat`` in every game; the other seats
  choose uniformly among their legal actions, as the ``random`` bot does. One step is the
  agent's move and the other seats' moves up to its next decision, as in the Gymnasium env.
- ``"greedy"``: as ``"random"``, but the other seats play as the ``greedy`` bot plays, batched
  (:class:`~sequence.env.batched_greedy.BatchedGreedy`: its move values, ties at random);
  every game of the family, the draft variant's picks and heart included.
- ``"self"``: the agent plays every seat. One step is one move, by the seat to move in each
  game; observations and masks are that seat's, ``info["seat"]`` says which.

Games that end are started again at once (auto-reset, as vector environments do): the step
returns the new game's first observation, and the final one in ``info["final_observation"]``.

Covered: every game of the family. This class plays classic (2, 3, 4, 6, 8, 9, 10, 12 players;
teams) and Sequence for Kids, with options ``max_turns``, ``chips_per_colour``, ``manual_draw``
(each draw taken at once, as the single environment takes it with
:meth:`~sequence.engine.State.play_forced`, and a move of the ``history``; none after the turn
that ends a game) and ``difficult``; :class:`~sequence.env.batched_dice.BatchedDiceEnv` plays
Dice and :class:`~sequence.env.batched_draft.BatchedDraftEnv` the draft variant
(:func:`sequence.env.batched.batched_env` gives the right one), every one with the flat, planes
and history observations. Not (yet): table-talk penalties, bots other than random and
greedy.

>>> import numpy as np
>>> env = BatchedSequenceEnv(4, "classic", players=2, seed=0)
>>> obs, info = env.reset()
>>> obs.shape, info["action_mask"].shape
((4, 827), (4, 697))
>>> rng = np.random.default_rng(0)
>>> obs, reward, terminated, truncated, info = env.step(env.sample_actions(rng))
>>> reward.shape, bool((info["action_mask"].sum(axis=1) > 0).all())
((4,), True)
>>> env = BatchedSequenceEnv(4, "classic", players=2, observation="planes", history=2)
>>> obs, info = env.reset()
>>> obs["board"].shape, obs["features"].shape
((4, 9, 10, 10), (4, 1623))
"""

from __future__ import annotations

import random
from typing import Any, ClassVar, Literal

import numpy as np
from numpy.typing import NDArray

from ..engine import Config, MoveKind, make_config
from ..engine import rng as engine_rng
from ..engine.board import STRIDE
from ..engine.lines import choose_windows, new_windows
from ..engine.moves import draw_move
from ..engine.setup import opening
from ..engine.tables import game_tables
from .actions import ActionSpace, action_space
from .arrays import Observer
from .batched_greedy import BatchedGreedy
from .observation import ObservationLayout, observation_layout

IntArray = NDArray[np.int64]
BoolArray = NDArray[np.bool_]
FloatArray = NDArray[np.float32]

# What an action does, by kind (the blocks of the action space a card game uses).
_PLACE, _REMOVE, _DEAD, _DISCARD, _PASS, _OTHER = range(6)
_KINDS = {
    MoveKind.PLACE: _PLACE,
    MoveKind.REMOVE: _REMOVE,
    MoveKind.DEAD: _DEAD,
    MoveKind.DISCARD: _DISCARD,
    MoveKind.PASS: _PASS,
}

# Terminations, as ``info["termination"]`` gives them (the engine's Termination values).
_PLAYING, _SEQUENCES, _MAX_TURNS, _STALEMATE, _HEART, _DRAFT_EMPTY = range(6)
TERMINATIONS = ("", "sequences", "max_turns", "stalemate", "heart", "draft_empty")
"""``info["termination_code"]`` indexes this tuple: ``""`` while playing."""

_PHASE_PLAY, _PHASE_OVER = 0, 6  # Phase.PLAY, Phase.OVER


def supported(config: Config) -> str | None:
    """Why :class:`BatchedSequenceEnv` cannot play ``config``, or ``None`` if it can: every
    configuration of the family is played now (table-talk penalties are a host's act, not a
    configuration, and are not offered)."""
    if config.game not in ("classic", "kids", "dice"):  # pragma: no cover - a new game
        return f"the batched simulator does not play {config.game} yet"
    return None


def _as_config(config: Config | str, options: dict[str, Any]) -> Config:
    if isinstance(config, str):
        return make_config(config, **options)
    if options:
        raise TypeError("make_config arguments go with a game name")
    return config


def _rows_as_voids(table: FloatArray) -> NDArray[np.void]:
    """Each row of a 2-d float32 table as one numpy void (its bytes): indexing the result
    gathers whole rows at the cost of single items."""
    table = np.ascontiguousarray(table, dtype=np.float32)
    return table.view(np.dtype((np.void, table.shape[1] * table.itemsize))).reshape(-1)


class BatchedSequenceEnv:
    """N games of one configuration, stepped at once (see the module's docs).

    ``num_envs`` games of ``config`` (a :class:`~sequence.engine.Config` or a game name with
    ``make_config`` arguments). ``seed`` fixes every game: game ``i``'s seeds are drawn from
    it in turn, each new game the next one. ``observation`` (``"flat"`` or ``"planes"``) and
    ``history`` are the Gym env's options of the same names: the steps give what its
    :class:`~sequence.env.arrays.Observer` gives, one row per game (:attr:`observer` is one,
    for ``channels``, ``board_shape`` and ``features_size``).

    This class plays classic and Kids and refuses Dice and the draft variant (a ``ValueError``
    naming the class that plays them): :class:`~sequence.env.batched_dice.BatchedDiceEnv` and
    :class:`~sequence.env.batched_draft.BatchedDraftEnv` are its subclasses for those, with the
    same constructor, steps and info, and :func:`sequence.env.batched.batched_env` gives the
    one that plays a configuration.
    """

    def _refusal(self, config: Config) -> str | None:
        """Why this class does not play ``config`` (another of the family may), or ``None``."""
        if config.game == "dice":
            return (
                "BatchedSequenceEnv plays classic and Kids: Dice is BatchedDiceEnv's "
                "(sequence.env.batched.batched_env(n, config) picks the class)"
            )
        if config.draft:
            return (
                "BatchedSequenceEnv plays classic and Kids: the draft variant is "
                "BatchedDraftEnv's (sequence.env.batched.batched_env(n, config) picks the class)"
            )
        return None

    default_game: ClassVar[str] = "classic"
    """The game played when no ``config`` is given (a subclass's own game)."""

    def __init__(
        self,
        num_envs: int,
        config: Config | str | None = None,
        *,
        opponents: Literal["random", "greedy", "self"] = "random",
        agent_seat: int = 0,
        seed: int | None = 0,
        log: bool = False,
        observation: Literal["flat", "planes"] = "flat",
        history: int = 0,
        **config_options: Any,
    ) -> None:
        if "planes" in config_options:
            raise ValueError("board planes are asked with observation='planes', as in the Gym env")
        if observation not in ("flat", "planes"):
            raise ValueError(f"observation must be 'flat' or 'planes', not {observation!r}")
        config = _as_config(self.default_game if config is None else config, config_options)
        why = supported(config) or self._refusal(config)
        if why:
            raise ValueError(why)
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs}")
        if opponents not in ("random", "greedy", "self"):
            raise ValueError(f"opponents must be 'random', 'greedy' or 'self', not {opponents!r}")
        if not 0 <= agent_seat < config.players:
            raise ValueError(f"no seat {agent_seat} in a {config.players}-player game")
        self.config = config
        self.num_envs = n = num_envs
        self.opponents = opponents
        self.agent_seat = agent_seat
        self.self_play = opponents == "self"
        self.space: ActionSpace = action_space(config)
        self.layout: ObservationLayout = observation_layout(config)
        """The flat layout without the history (what :meth:`observe` gives)."""
        self.observation_layout: ObservationLayout = observation_layout(config, history)
        """The layout of the flat observations the steps give (with ``history``, its segment
        at the end); with planes, the features are its segments after ``locked``."""
        self.planes = observation == "planes"
        self.history = history
        self._tables(config)
        self._observation_tables(config)
        self._seeder = random.Random(seed)
        self._np_rng = np.random.default_rng(self._seeder.getrandbits(63))
        p, t, c = self.players, self.teams, self.num_cards
        d = len(config.spec.deck)
        self._deck_cards = d
        # The games' state, one row per game.
        self.board = np.full((n, self.board_size), -1, dtype=np.int8)
        """Per game and space (``row * 10 + col``): the team whose chip is there, or -1."""
        self.hands = np.zeros((n, p, c), dtype=np.int8)
        """Per game and seat: copies held of each card (cards in ``layout.cards`` order)."""
        self.deck = np.zeros((n, d), dtype=np.int16)
        self.deck_len = np.zeros(n, dtype=np.int64)
        self.deck_pos = np.zeros(n, dtype=np.int64)
        self.discards = np.zeros((n, p, d), dtype=np.int16)
        self.discard_len = np.zeros((n, p), dtype=np.int64)
        self.discard_counts = np.zeros((n, c), dtype=np.int16)
        self.chip_counts = np.zeros((n, t), dtype=np.int64)
        self.locks = np.zeros((n, t, self.board_size), dtype=np.bool_)
        """Per game and team: the spaces of its completed sequences (free corners included)."""
        self.window_counts = np.zeros((n, t, self._no_window + 1), dtype=np.int8)
        """Per game, team and window: its spaces holding the team's chip or a free corner."""
        self.locked = np.zeros((n, self.board_size), dtype=np.bool_)
        """Per game: the spaces of every completed sequence (the chips no one may remove)."""
        self.seqs = np.full((n, t, self._max_seqs), -1, dtype=np.int64)
        self.seq_count = np.zeros((n, t), dtype=np.int64)
        self.to_move = np.zeros(n, dtype=np.int64)
        self.turns = np.zeros(n, dtype=np.int64)
        self.passes = np.zeros(n, dtype=np.int64)
        self.dead_count = np.zeros(n, dtype=np.int64)
        """Per game: dead cards exchanged in this turn so far."""
        self.over = np.zeros(n, dtype=np.bool_)
        self.winner = np.full(n, -1, dtype=np.int64)
        self.termination = np.zeros(n, dtype=np.int64)
        self.rng_state = [0] * n
        """The engine's random source of each game (a 64-bit int): its reshuffles."""
        self.game_seeds = np.zeros(n, dtype=np.int64)
        """Each game's seed: ``State.new(env.config, seed)`` is the same game. For replaying and
        checking; an agent that reads it during a game is cheating (it rebuilds the deal)."""
        self.episodes = np.zeros(n, dtype=np.int64)
        """Games finished in each slot."""
        self.counters = {"reshuffles": 0, "window_choices": 0, "broken_sequences": 0}
        """How often the rare paths ran (reshuffles; a placement completing several windows;
        ``difficult``: a sequence broken by a one-eyed Jack)."""
        k = max(history, 1)
        self._hist = np.full((n, k), -1, dtype=np.int64)
        """With ``history``: per game, a ring buffer of its last public moves' action ids
        (``space.n`` for a move with none: a Dice roll), the latest at ``(count - 1) % K``."""
        self._hist_count = np.zeros(n, dtype=np.int64)
        """Per game: the public moves made so far in the game (their ring buffer's end)."""
        self._rows = np.arange(n)
        self._mask: BoolArray | None = None
        self._mask_ids: tuple[IntArray, IntArray] = (self._rows, self._rows)  # set with _mask
        self._out: dict[str, Any] = {}  # what one step gives back, filled as games end
        self.log = log
        self.opponent_log: list[list[int]] = [[] for _ in range(n)]
        """With ``log``: per game, the other seats' actions in the last step, after the
        agent's (random opponents), up to its next decision or the end of the game."""
        self.opening_log: list[list[int]] = [[] for _ in range(n)]
        """With ``log``: per game, the other seats' actions at the start of the game now in
        the slot, before the agent's first decision (when the slot started a game this step)."""
        self._game_arrays()
        self._greedy = BatchedGreedy(self) if opponents == "greedy" else None

    def _game_arrays(self) -> None:
        """Make the per-game arrays a subclass's game adds to these (none here)."""

    # --- tables ---------------------------------------------------------------------------------

    def _tables(self, config: Config) -> None:
        spec = config.spec
        board = spec.layout
        self.players, self.teams = config.players, config.teams
        self.board_size = board.rows * STRIDE
        lay = self.layout
        cards = lay.cards
        self.num_cards = len(cards)
        self.card_index = {card: i for i, card in enumerate(cards)}
        self._cards = np.asarray(cards, dtype=np.int64)
        self._spec_deck = np.asarray([self.card_index[c] for c in spec.deck], dtype=np.int16)
        index = self.card_index
        a = self.space.n
        kind = np.full(a, _OTHER, dtype=np.int64)
        card = np.full(a, -1, dtype=np.int64)
        where = np.full(a, -1, dtype=np.int64)
        for i, move in enumerate(self.space.moves):
            kind[i] = _KINDS.get(move.kind, _OTHER)
            if move.card is not None:
                card[i] = index[move.card]
            if move.space is not None:
                where[i] = move.space
        self._a_kind, self._a_card, self._a_space = kind, card, where
        place = np.flatnonzero(kind == _PLACE)
        remove = np.flatnonzero(kind == _REMOVE)
        dead = np.flatnonzero(kind == _DEAD)
        discard = np.flatnonzero(kind == _DISCARD)
        (passing,) = np.flatnonzero(kind == _PASS)
        for block in (place, remove, dead, discard):  # each block is one run of ids
            assert (np.diff(block) == 1).all()
        self._place = slice(int(place[0]), int(place[-1]) + 1)
        self._remove = slice(int(remove[0]), int(remove[-1]) + 1)
        self._dead = slice(int(dead[0]), int(dead[-1]) + 1)
        self._discard = slice(int(discard[0]), int(discard[-1]) + 1)
        self._pass = int(passing)
        self._play_end = self._remove.stop  # place and remove: the "moves" of the rules
        assert self._place.stop == self._remove.start
        self._dead_card = card[dead]
        spaces = [board.spaces_by_label[int(cards[i])] for i in card[dead]]
        self._dead_s1 = np.asarray([s[0] for s in spaces], dtype=np.int64)
        self._dead_s2 = np.asarray([s[1] for s in spaces], dtype=np.int64)
        self._discard_card = card[discard]
        self._play_card = card[: self._play_end]
        self._play_space = where[: self._play_end]
        # Where each place or remove action looks in legal_mask's targets: a space, or a
        # space of the second half (removing).
        removing = kind[: self._play_end] == _REMOVE
        self._play_target = self._play_space + removing * (board.rows * STRIDE)
        # legal_mask by runs: a card whose actions are one long run (a jack, over every
        # space) is its hand bit times the run's targets, gathered once per distinct list of
        # targets; the other cards' actions are gathered one by one.
        self._mask_runs: list[tuple[int, int, int, int]] = []  # start, stop, card, target list
        targets: dict[tuple[int, ...], int] = {}
        singles = np.ones(self._play_end, dtype=np.bool_)
        start = 0
        while start < self._play_end:
            stop = start
            while stop < self._play_end and card[stop] == card[start]:
                stop += 1
            if stop - start >= 8:
                key = tuple(self._play_target[start:stop].tolist())
                self._mask_runs.append(
                    (start, stop, int(card[start]), targets.setdefault(key, len(targets)))
                )
                singles[start:stop] = False
            start = stop
        self._run_targets = [np.asarray(key, dtype=np.int64) for key in targets]
        self._single_actions = np.flatnonzero(singles)
        self._single_card = self._play_card[singles]
        self._single_target = self._play_target[singles]
        self._dead_limit = config.spec.dead_cards_per_turn  # RULES.md §2.4, §3
        self._stuck_passes = config.spec.stuck_passes  # Kids: no card to play, the turn passes
        self._board_tables(config)

    def _board_tables(self, config: Config) -> None:
        """The tables every game of the family shares: spaces, windows, observation scales."""
        board = config.spec.layout
        lay = self.layout
        free = np.zeros(self.board_size, dtype=np.bool_)
        playable = np.zeros(self.board_size, dtype=np.bool_)
        for s in board.spaces:
            free[s] = bool(board.free >> s & 1)
            playable[s] = not free[s]
        self._free, self._playable = free, playable
        self._limits = np.asarray(config.chips, dtype=np.int64)
        self._difficult = config.difficult  # one-eyed Jacks break sequences (RULES.md §2.8)
        # Windows: their spaces, those through each space, and how many spaces two share.
        self._geo = geo = game_tables(config.game, config.line_length).geo
        windows = list(geo.windows)
        self._window_bits = windows
        self._free_bits = board.free
        self._window_id = {w: i for i, w in enumerate(windows)}
        nw = len(windows)
        cells = np.asarray([geo.window_spaces[w] for w in windows], dtype=np.int64)
        self._window_cells = np.vstack([cells, np.zeros((1, cells.shape[1]), dtype=np.int64)])
        width = max(len(geo.through[s]) for s in board.spaces)
        through = np.full((self.board_size, width), nw, dtype=np.int64)  # nw: no window
        for s in board.spaces:
            ids = [self._window_id[w] for w in geo.through[s]]
            through[s, : len(ids)] = ids
        self._through = through
        shared = np.zeros((nw + 1, nw + 1), dtype=np.int8)
        bits = np.zeros((nw, self.board_size), dtype=np.int8)
        bits[np.arange(nw)[:, None], cells] = 1
        shared[:nw, :nw] = bits @ bits.T
        self._shared = shared
        self._no_window = nw
        self._length = config.line_length
        free_in = np.zeros(nw + 1, dtype=np.int8)
        free_in[:nw] = [(w & board.free).bit_count() for w in windows]
        self._free_in_window = free_in
        self._max_seqs = config.sequences_to_win + 4
        # Observations: where each segment starts, and the scale of every entry.
        self._cells = np.asarray(
            [r * STRIDE + col for r in range(board.rows) for col in range(board.cols)],
            dtype=np.int64,
        )
        self._free_cells = free[self._cells]
        self._inv_high = (1.0 / np.asarray(lay.high(), dtype=np.float64)).astype(np.float32)
        self._at = at = {name: lay[name].start for name in lay.names}
        # observe writes these segments whole (with these, all of them, in order).
        written = (
            *("board", "locked", "sequences", "supply", "hand", "discard_tops", "discards"),
            *("hand_sizes", "deck_size", "phase", "to_move", "turn", "flags"),
        )
        self._all_written = tuple(lay.names) == written and lay["flags"].stop == lay.size
        self._one_hot_segments = [
            slice(lay[name].start, lay[name].stop)
            for name in ("discard_tops", "phase", "to_move")
            if name in lay.names  # Dice has no cards
        ]
        # The board and locked segments are one-hot per space: each space's entries are one row
        # of a table, taken whole (a numpy void of the row's bytes, one gather per segment).
        # Board: the row of (observer's team, free corner or not, owner + 1: 0 for none); locked:
        # the row of (observer's team, the teams whose sequences hold the space, a bit each).
        # Teams are counted from the observer's, so the row depends on it.
        t = self.teams
        board_lut = np.zeros((t, 2, t + 1, t + 2), dtype=np.float32)
        lock_lut = np.zeros((t, 1 << t, t), dtype=np.float32)
        for mine in range(t):
            board_lut[mine, 0, 0, t] = 1.0  # an empty space
            board_lut[mine, 1, 0, t + 1] = 1.0  # a free corner
            for team in range(t):
                board_lut[mine, 0, team + 1, (team - mine) % t] = 1.0
                for held in range(1 << t):
                    lock_lut[mine, held, (team - mine) % t] = held >> team & 1
        self._board_rows = _rows_as_voids(board_lut.reshape(-1, t + 2))
        self._lock_rows = _rows_as_voids(lock_lut.reshape(-1, t))
        self._board_stride = 2 * (t + 1)  # rows per observer team
        self._grid = (board.rows, board.cols)
        assert (
            self._cells == (np.arange(board.rows)[:, None] * STRIDE + np.arange(board.cols)).ravel()
        ).all()
        self._cell_offset = (1 + self._free_cells.astype(np.int64) * (t + 1)).reshape(self._grid)
        # Those two segments hold 0 and 1 only: the scaling skips them when their high is 1.
        plain = at["sequences"]
        assert at["board"] == 0 and at["locked"] == len(self._cells) * (t + 2)
        assert plain == at["locked"] + len(self._cells) * t
        self._scale_from = plain if (self._inv_high[:plain] == 1).all() else 0

    def _observation_tables(self, config: Config) -> None:
        """What the planes and the history are made from: the card printed on each space (the
        hand plane), the space of each action (the last-moves planes), the draw actions."""
        self.observer = Observer(config, planes=self.planes, history=self.history)
        """The single environment's observer of the same options: its ``channels``,
        ``board_shape`` and ``features_size`` describe this simulator's observations too."""
        board = config.spec.layout
        cells = self._cells.tolist()
        cell_of = {s: i for i, s in enumerate(cells)}
        cards = self.layout.cards
        card_at = np.full(len(cells), len(cards), dtype=np.int64)  # len(cards): no card
        for card in cards:
            for s in board.spaces_by_label.get(card, ()):
                card_at[cell_of[s]] = self.card_index[card]
        self._card_at = card_at
        copies = max((config.spec.deck.count(card) for card in cards), default=1)
        self._hand_plane_scale = np.float32(1.0 / copies)  # as the Observer's scale holds it
        n = self.space.n
        move_cell = np.full(n + 1, -1, dtype=np.int64)  # n: a move with no action id
        for i, move in enumerate(self.space.moves):
            if move.space is not None:
                move_cell[i] = cell_of[move.space]
        self._move_cell = move_cell
        self._draw_action = np.asarray(
            [self.space.index.get(draw_move(s), n) for s in range(config.players)], dtype=np.int64
        )

    # --- the episode -----------------------------------------------------------------------------

    def reset(self, seed: int | None = None) -> tuple[FloatArray, dict[str, Any]]:
        """Start a new game in every slot; ``(observations, info)``.

        With ``seed``, the games are those of a new environment with that seed.
        """
        if seed is not None:
            self._seeder.seed(seed)
            self._np_rng = np.random.default_rng(self._seeder.getrandbits(63))
        rows = self._rows
        self.episodes[:] = 0
        self._clear_logs()
        self._new_games(rows)
        self._play_opponents(finish=False)
        seat = self._observer_seats()
        obs = self.observation(rows, seat)
        return obs, self._info(self._all_masks())

    def step(self, actions: Any) -> tuple[Any, FloatArray, BoolArray, BoolArray, dict[str, Any]]:
        """Play one action in every game (each the acting seat's: see ``info["action_mask"]``);
        ``(obs, reward, terminated, truncated, info)``, each with one row per game.

        An action that is not legal raises :class:`ValueError` (nothing is played then): mask
        your policy with ``info["action_mask"]``. The reward is the acting seat's team's: +1
        for a win, -1 for a loss, 0 otherwise; ``truncated`` marks a game drawn at the
        ``max_turns`` limit. Finished games start again: ``info["final_observation"]`` holds
        their last observation (rows of other games are 0), ``info["final_info"]`` nothing
        else.
        """
        given = np.asarray(actions)
        if given.dtype.kind not in "iu":  # 0.5 would be cut to 0, True read as 1
            raise ValueError(f"actions are integers, not {given.dtype} ({actions!r})")
        actions = given.astype(np.int64, copy=False).reshape(-1)
        n = self.num_envs
        if actions.shape != (n,):
            raise ValueError(f"step takes one action per game ({n}), not {actions.shape}")
        rows = self._rows
        actor = self.to_move.copy()
        mask = self._all_masks()
        bad = (actions < 0) | (actions >= self.space.n)
        bad[~bad] = ~mask[rows[~bad], actions[~bad]]
        if bad.any():
            g = int(np.flatnonzero(bad)[0])
            raise ValueError(
                f"game {g}: action {int(actions[g])} is not legal for seat {int(actor[g])}"
            )
        self._act(rows, actions)
        self._begin_step(actor)
        self._clear_logs()
        self._finish_games()
        self._play_opponents(finish=True)
        obs = self.observation(rows, self._observer_seats())
        info = self._info(self._all_masks())
        out = self._out
        info["final_observation"] = out["final"]
        info["winner"] = out["winner"]
        info["termination"] = out["termination"]
        done, truncated = out["done"], out["truncated"]
        return obs, out["reward"], done & ~truncated, truncated, info

    def sample_actions(self, rng: np.random.Generator | None = None) -> IntArray:
        """A uniformly random legal action in every game (what the random opponent plays)."""
        self._all_masks()
        return self._sample(*self._mask_ids, rng or self._np_rng)

    # --- inside: the turn ----------------------------------------------------------------------

    def _observer_seats(self) -> IntArray:
        return self.to_move if self.self_play else np.full(self.num_envs, self.agent_seat)

    def _clear_logs(self) -> None:
        if self.log:
            for entries in (*self.opponent_log, *self.opening_log):
                entries.clear()

    def _begin_step(self, actor: IntArray) -> None:
        n = self.num_envs
        self._out = {
            "actor": actor,
            "team": actor % self.teams,
            "done": np.zeros(n, dtype=np.bool_),
            "reward": np.zeros(n, dtype=np.float32),
            "truncated": np.zeros(n, dtype=np.bool_),
            "winner": np.full(n, -1, dtype=np.int64),
            "termination": np.zeros(n, dtype=np.int64),
            "final": self._zero_observations(n),
        }

    def _finish_games(self) -> None:
        """Games just over (not yet marked done this step): their reward (the acting seat's
        team's), final observation, winner and termination, and a new game each."""
        out = self._out
        done = out["done"]
        ended = np.flatnonzero(self.over & ~done)
        if not ended.size:
            return
        done[ended] = True
        winner = self.winner[ended]
        won = winner == out["team"][ended]
        out["reward"][ended] = np.where(winner < 0, 0.0, np.where(won, 1.0, -1.0))
        termination = self.termination[ended]
        out["truncated"][ended] = termination == _MAX_TURNS
        out["winner"][ended] = winner
        out["termination"][ended] = termination
        final, obs = out["final"], self.observation(ended, out["actor"][ended])
        if self.planes:
            final["board"][ended] = obs["board"]
            final["features"][ended] = obs["features"]
        else:
            final[ended] = obs
        self.episodes[ended] += 1
        self._new_games(ended)

    def _play_opponents(self, finish: bool) -> None:
        """With bot opponents: play the other seats until the agent is to move in every
        game (with ``finish``, games that end meanwhile are scored and start again)."""
        if self.self_play:
            return
        agent = self.agent_seat
        while True:
            if finish:
                self._finish_games()
            idx = np.flatnonzero(~self.over & (self.to_move != agent))
            if not idx.size:
                return
            if self._greedy is not None:
                actions = self._greedy.choose(idx, self._np_rng)
            else:
                _, legal, counts = self._legal_ids(self._legal_by_action(idx))
                actions = self._sample(legal, counts, self._np_rng)
            if self.log:
                new = self._out["done"][idx] if finish else np.ones(len(idx), dtype=np.bool_)
                for g, a, fresh in zip(idx.tolist(), actions.tolist(), new.tolist(), strict=True):
                    (self.opening_log if fresh else self.opponent_log)[g].append(a)
            self._act(idx, actions)

    @staticmethod
    def _sample(actions: IntArray, counts: IntArray, rng: np.random.Generator) -> IntArray:
        """One of each game's legal ``actions`` (as :meth:`_legal_ids` gives them), uniformly."""
        starts = np.cumsum(counts) - counts
        pick = (rng.random(len(counts)) * counts).astype(np.int64)
        # A game with nothing to do (over) gets action 0; it is never played.
        return np.where(counts > 0, actions[np.minimum(starts + pick, len(actions) - 1)], 0)

    def _new_games(self, idx: IntArray) -> None:
        """Start a new game in each slot of ``idx`` from its next seed, as ``State.new`` sets it
        up: the engine's opening (who deals) and the engine's shuffle keys per game, then every
        deck put in order by one stable argsort of those keys and dealt one card at a time from
        the seat left of the dealer (``tests/env/test_batched.py`` checks each against
        ``State.new``)."""
        self._hist_count[idx] = 0
        m = len(idx)
        config = self.config
        p, c, d = self.players, self.num_cards, self._deck_cards
        spec_deck = config.spec.deck
        first = np.empty(m, dtype=np.int64)
        keys = bytearray()
        seeds = self.game_seeds
        rng_state = self.rng_state
        for i, g in enumerate(idx.tolist()):
            seed = self._seeder.getrandbits(63)
            seeds[g] = seed
            r, setup = opening(engine_rng.seed_state(seed), config.game, p, spec_deck)
            rng_state[g], raw = engine_rng.shuffle_keys(r, d)
            keys += raw
            first[i] = setup.first
        order = np.frombuffer(bytes(keys), dtype="<u8").reshape(m, d).argsort(axis=1, kind="stable")
        deck = self._spec_deck[order]  # (m, d) card indices, the top of the pile first
        self.deck[idx, :d] = deck
        self.deck_len[idx] = d
        dealt = config.hand_size * p
        self.deck_pos[idx] = dealt
        seat = (first[:, None] + np.arange(dealt)) % p  # who gets the i-th card dealt
        where = (np.arange(m)[:, None] * p + seat) * c + deck[:, :dealt]
        self.hands[idx] = np.bincount(where.reshape(-1), minlength=m * p * c).reshape(m, p, c)
        self.to_move[idx] = first
        self.discard_len[idx] = 0
        self.discard_counts[idx] = 0
        self._clear_boards(idx)

    def _clear_boards(self, idx: IntArray) -> None:
        """An empty board and a game not yet begun in each slot of ``idx`` (every game's)."""
        self.board[idx] = -1
        self.chip_counts[idx] = 0
        self.locks[idx] = False
        self.locked[idx] = False
        self.window_counts[idx] = self._free_in_window
        self._mask = None
        self.seqs[idx] = -1
        self.seq_count[idx] = 0
        self.turns[idx] = 0
        self.passes[idx] = 0
        self.dead_count[idx] = 0
        self.over[idx] = False
        self.winner[idx] = -1
        self.termination[idx] = _PLAYING

    def legal_mask(self, idx: IntArray) -> BoolArray:
        """The legal actions of the seat to move in each game of ``idx`` (all ``False`` in a
        game that is over), as the engine's rules give them."""
        return self._masks(idx)[0]

    def _masks(self, idx: IntArray) -> tuple[BoolArray, IntArray, IntArray]:
        """:meth:`legal_mask` of ``idx``, with each game's legal ids and their count."""
        games, actions, counts = self._legal_ids(self._legal_by_action(idx))
        mask = np.zeros((len(idx), self.space.n), dtype=np.bool_)
        mask[games, actions] = True
        return mask, actions, counts

    def _legal_by_action(self, idx: IntArray) -> BoolArray:
        """:meth:`legal_mask` transposed, ``(actions, games)``: one row per action, so that
        every action's entries are taken from the rows of per-card and per-space arrays of the
        same layout (whole rows, not scattered columns)."""
        m = len(idx)
        sp = self.board_size
        live = ~self.over[idx]
        seat = self.to_move[idx]
        team = seat % self.teams
        has = np.ascontiguousarray((self.hands[idx, seat] > 0).T)  # (cards, m)
        board = np.ascontiguousarray(self.board[idx].T)  # (spaces, m)
        occupied = board >= 0
        empty = ~occupied
        empty &= self._playable[:, None]
        can_place = (self.chip_counts[idx, team] < self._limits[team]) & live
        # Where each card may act, one above the other: placing (open spaces), removing (chips
        # of other teams outside a completed sequence).
        target = np.empty((2 * sp, m), dtype=np.bool_)
        np.logical_and(empty, can_place, out=target[:sp])
        removable = target[sp:]
        np.not_equal(board, team, out=removable)
        removable &= occupied
        if not self._difficult:
            removable &= ~self.locked[idx].T
        removable &= live
        mask = np.zeros((self.space.n, m), dtype=np.bool_)
        mask[self._single_actions] = has[self._single_card] & target[self._single_target]
        run_targets: dict[int, BoolArray] = {}
        for start, stop, card, spaces in self._mask_runs:
            if spaces not in run_targets:
                run_targets[spaces] = target[self._run_targets[spaces]]
            np.logical_and(run_targets[spaces], has[card], out=mask[start:stop])
        any_play: BoolArray = np.any(mask[: self._play_end], axis=0)
        dead_ok = live & (self.dead_count[idx] < self._dead_limit)
        dead = mask[self._dead]
        np.logical_or(empty[self._dead_s1], empty[self._dead_s2], out=dead)
        np.logical_not(dead, out=dead)  # both spaces taken
        dead &= has[self._dead_card]
        dead &= dead_ok
        stuck = live & ~any_play
        if stuck.any():
            holding = has.any(axis=0)
            if self._stuck_passes:
                # Kids (RULES.md §3): a dead card while one may be exchanged, else a pass.
                mask[self._pass] = stuck & ~np.any(dead, axis=0)
            else:
                mask[self._discard] = has[self._discard_card] & (stuck & holding)
                mask[self._pass] = stuck & ~holding
        return mask

    @staticmethod
    def _legal_ids(by_action: BoolArray) -> tuple[IntArray, IntArray, IntArray]:
        """The legal actions of :meth:`_legal_by_action`'s games, ``(games, actions, counts)``:
        each game's legal ids in ascending order, the games in order, and each game's count."""
        m = by_action.shape[1]
        flat = np.flatnonzero(by_action)  # by action, then game
        actions, games = np.divmod(flat, m)
        # A stable sort by game (a radix sort for 16-bit keys) keeps each game's ids ascending.
        key = games.astype(np.uint16) if m <= 1 << 16 else games
        order = np.argsort(key, kind="stable")
        games, actions = games[order], actions[order]
        return games, actions, np.bincount(games, minlength=m)

    def _all_masks(self) -> BoolArray:
        """:meth:`legal_mask` of every game, kept until a game changes (with its legal ids,
        for sampling)."""
        if self._mask is None:
            self._mask, *ids = self._masks(self._rows)
            self._mask_ids = (ids[0], ids[1])
        return self._mask

    def _act(self, idx: IntArray, actions: IntArray) -> None:
        """Play ``actions`` (legal, by the seat to move) in the games ``idx``, recorded in the
        history first (what they bring about, a draw or a roll, is recorded after them)."""
        self._push(idx, actions)
        self._apply(idx, actions)

    def _push(self, idx: IntArray, actions: IntArray) -> None:
        """Record a public move in each game of ``idx`` (with ``history``; else nothing)."""
        k = self.history
        if k and idx.size:
            count = self._hist_count[idx]
            self._hist[idx, count % k] = actions
            self._hist_count[idx] = count + 1

    def _apply(self, idx: IntArray, actions: IntArray) -> None:
        """Play ``actions`` (legal, by the seat to move) in the games ``idx``."""
        self._mask = None
        kind = self._a_kind[actions]
        card = self._a_card[actions]
        space = self._a_space[actions]
        seat = self.to_move[idx]
        place, remove = self._play_a_card(idx, seat, kind, card, space, card >= 0)
        dead = kind == _DEAD
        if dead.any():
            self.dead_count[idx[dead]] += 1
            self._draw(idx[dead], seat[dead])
        passed = (kind == _DISCARD) | (kind == _PASS)
        self.passes[idx[passed]] += 1
        chip = (place | remove) & ~self.over[idx]
        self.passes[idx[chip]] = 0
        ends = chip | passed  # the turn ends: draw, then the next seat
        manual = self.config.manual_draw
        if ends.any():
            if not manual:
                drawing = ends
                if self._stuck_passes:  # Kids: a seat that passes holding cards keeps them
                    drawing = ends & ~((kind == _PASS) & self.hands[idx, seat].any(axis=1))
                self._draw(idx[drawing], seat[drawing])
            g, s = idx[ends], seat[ends]
            self.turns[g] += 1
            limit = self.turns[g] >= self.config.max_turns
            if limit.any():
                self.over[g[limit]] = True
                self.termination[g[limit]] = _MAX_TURNS
            g, s = g[~limit], s[~limit]
            self.to_move[g] = (s + 1) % self.players
            self.dead_count[g] = 0
        stuck = passed & ~self.over[idx]
        if stuck.any():
            self._stalemate(idx[stuck])
        if manual:
            # manual_draw: the seat's draw is its own step, which the single environment takes
            # at once (State.play_forced) unless the turn ended the game (the turn limit, a
            # stalemate): then nobody draws. The draw changes neither end, so it comes last.
            drawing = ends & ~self.over[idx]
            if drawing.any():
                self._draw(idx[drawing], seat[drawing])
                self._push(idx[drawing], self._draw_action[seat[drawing]])

    def _play_a_card(
        self,
        idx: IntArray,
        seat: IntArray,
        kind: IntArray,
        card: IntArray,
        space: IntArray,
        played: BoolArray,
    ) -> tuple[BoolArray, BoolArray]:
        """What every card game's move does with its card: the cards ``played`` go to the
        discard piles, chips are placed and removed. Returns which games placed, which removed."""
        self._discard_played(idx[played], seat[played], card[played])
        place = kind == _PLACE
        if place.any():
            self._place_chips(idx[place], space[place], seat[place] % self.teams)
        remove = kind == _REMOVE
        if remove.any():
            self._remove_chips(idx[remove], space[remove])
        return place, remove

    def _discard_played(self, g: IntArray, seat: IntArray, card: IntArray) -> None:
        """Each card played goes from its seat's hand to the seat's discard pile."""
        self.hands[g, seat, card] -= 1
        self.discards[g, seat, self.discard_len[g, seat]] = card
        self.discard_len[g, seat] += 1
        self.discard_counts[g, card] += 1

    def _place_chips(self, g: IntArray, space: IntArray, team: IntArray) -> None:
        """Each team puts a chip on a space of its game; the sequences it completes count."""
        self.board[g, space] = team
        self.chip_counts[g, team] += 1
        self._sequences(g, space, team)

    def _remove_chips(self, g: IntArray, space: IntArray) -> None:
        """A one-eyed Jack takes the chip off a space of each game."""
        owner = self.board[g, space].astype(np.int64)
        self.board[g, space] = -1
        self.chip_counts[g, owner] -= 1
        self.window_counts.reshape(-1)[self._window_slots(g, owner, self._through[space])] -= 1
        if self._difficult:
            self._break_sequences(g, space, owner)

    def _draw(self, idx: IntArray, seat: IntArray) -> None:
        """Each seat draws the top card of its game's pile; an empty pile is made again from
        the discard piles, shuffled by the engine's random source (as the engine does)."""
        empty = self.deck_pos[idx] >= self.deck_len[idx]
        if empty.any():
            for g in idx[empty].tolist():
                self._reshuffle(g)
            ok = self.deck_pos[idx] < self.deck_len[idx]
            idx, seat = idx[ok], seat[ok]
        top = self.deck[idx, self.deck_pos[idx]]
        self.hands[idx, seat, top] += 1
        self.deck_pos[idx] += 1

    def _reshuffle(self, g: int) -> None:
        pile = np.concatenate(
            [self.discards[g, seat, : self.discard_len[g, seat]] for seat in range(self.players)]
        )
        if not pile.size:
            return
        # engine_rng.shuffled's order (by key, ties by position), from its own keys.
        self.rng_state[g], raw = engine_rng.shuffle_keys(self.rng_state[g], len(pile))
        order = np.frombuffer(raw, dtype="<u8").argsort(kind="stable")
        self.deck[g, : len(pile)] = pile[order]
        self.deck_len[g] = len(pile)
        self.deck_pos[g] = 0
        self.discard_len[g] = 0
        self.discard_counts[g] = 0
        self.counters["reshuffles"] += 1

    def _stalemate(self, idx: IntArray) -> None:
        """Games whose position can never change again end drawn (RULES.md §2.9)."""
        board = self.board[idx]
        occupied = board >= 0
        open_space = (~occupied & self._playable).any(axis=1)
        supply = (self.chip_counts[idx] < self._limits).any(axis=1)
        unlocked = occupied if self._difficult else occupied & ~self.locked[idx]
        frozen = ~((open_space & supply) | unlocked.any(axis=1))
        g = idx[frozen]
        self.over[g] = True
        self.termination[g] = _STALEMATE

    def _break_sequences(self, idx: IntArray, space: IntArray, owner: IntArray) -> None:
        """Option ``difficult``: a chip removed from a completed sequence breaks it, and the
        owner's chips may still make one elsewhere (the engine's ``State._remove`` and
        ``_rescan``, with its own ``new_windows`` and ``choose_windows``), game by game."""
        hit = self.locked[idx, space]
        bits = self._window_bits
        for g, sp, tm in zip(
            idx[hit].tolist(), space[hit].tolist(), owner[hit].tolist(), strict=True
        ):
            self.counters["broken_sequences"] += 1
            kept = [
                w
                for w in self.seqs[g, tm, : self.seq_count[g, tm]].tolist()
                if not bits[w] >> sp & 1
            ]
            chips = [0] * self.teams
            for s in np.flatnonzero(self.board[g] >= 0).tolist():
                chips[int(self.board[g, s])] |= 1 << s
            occupied = 0
            for m in chips:
                occupied |= m
            own = chips[tm] | self.config.spec.layout.free
            existing = tuple(bits[w] for w in kept)
            found = new_windows(self._geo.windows, own, existing)
            if found:
                chosen = choose_windows(self._geo, found, own, existing, occupied & ~chips[tm])
                kept += [self._window_id[w] for w in chosen]
            self.seqs[g, tm] = -1
            self.seqs[g, tm, : len(kept)] = kept
            self.seq_count[g, tm] = len(kept)
            self.locks[g, tm] = False
            for w in kept:
                self.locks[g, tm, self._window_cells[w]] = True
            self.locked[g] = self.locks[g].any(axis=0)
            if len(kept) >= self.config.sequences_to_win and not self.over[g]:
                self.over[g] = True
                self.winner[g] = tm
                self.termination[g] = _SEQUENCES

    def _window_slots(self, idx: IntArray, team: IntArray, windows: IntArray) -> IntArray:
        """Where ``window_counts[idx, team, windows]`` lie in the flat array (one index array
        is cheaper than three)."""
        base = (idx * self.teams + team) * (self._no_window + 1)
        return base[:, None] + windows

    def _sequences(self, idx: IntArray, space: IntArray, team: IntArray) -> None:
        """After a chip is placed: the windows through it that become sequences (RULES.md §1)."""
        through = self._through[space]  # (m, k) windows, padded with the empty window
        flat = self._window_slots(idx, team, through)
        window_counts = self.window_counts.reshape(-1)  # a view
        counts = window_counts[flat]
        counts += 1
        window_counts[flat] = counts
        complete = (counts >= self._length) & (through < self._no_window)
        if not complete.any():
            return
        rows = np.flatnonzero(complete.any(axis=1))
        idx, team, through, complete = idx[rows], team[rows], through[rows], complete[rows]
        held = self.seqs[idx, team]  # (m, slots), -1: none
        held = np.where(held < 0, self._no_window, held)
        apart = (self._shared[through[:, :, None], held[:, None, :]] <= 1).all(axis=2)
        candidate = complete & apart
        count = candidate.sum(axis=1)
        # One new sequence (the common case): recorded for all those games at once.
        one = np.flatnonzero(count == 1)
        if one.size:
            g, tm = idx[one], team[one]
            w = through[one, candidate[one].argmax(axis=1)]
            self.seqs[g, tm, self.seq_count[g, tm]] = w
            self.seq_count[g, tm] += 1
            cells = self._window_cells[w]  # (k, length)
            self.locks[g[:, None], tm[:, None], cells] = True
            self.locked[g[:, None], cells] = True
        # Several at once: which ones is the engine's decision, game by game (rare).
        many = np.flatnonzero(count > 1)
        if many.size:
            own, others = self._bitboards(idx[many], team[many])
            for i, own1, others1 in zip(many.tolist(), own, others, strict=True):
                g1, tm1 = int(idx[i]), int(team[i])
                windows = through[i, candidate[i]].tolist()
                for w1 in self._choose_windows(g1, tm1, windows, own1, others1):
                    self.seqs[g1, tm1, self.seq_count[g1, tm1]] = w1
                    self.seq_count[g1, tm1] += 1
                    self.locks[g1, tm1, self._window_cells[w1]] = True
                    self.locked[g1, self._window_cells[w1]] = True
        some = count > 0
        g, tm = idx[some], team[some]
        won = (self.seq_count[g, tm] >= self.config.sequences_to_win) & ~self.over[g]
        g, tm = g[won], tm[won]
        self.over[g] = True
        self.winner[g] = tm
        self.termination[g] = _SEQUENCES

    def _bitboards(self, idx: IntArray, team: IntArray) -> tuple[list[int], list[int]]:
        """The engine's bitboards (an int, bit ``s`` for space ``s``) of each game of ``idx``:
        the chips of ``team``, and those of every other team."""
        board = self.board[idx]
        mine = board == team[:, None]
        packed = np.packbits(
            np.stack([mine, (board >= 0) & ~mine], axis=1), axis=2, bitorder="little"
        )
        nbytes = packed.shape[2]
        raw = packed.tobytes()
        ints = [int.from_bytes(raw[i : i + nbytes], "little") for i in range(0, len(raw), nbytes)]
        return ints[0::2], ints[1::2]

    def _choose_windows(
        self, g: int, team: int, windows: list[int], own: int, others: int
    ) -> list[int]:
        """Which windows a placement completing several records: the engine's own decision
        (:func:`sequence.engine.lines.choose_windows`, RULES.md §1) on game ``g``'s board
        (``own``: the team's chips, ``others``: the other teams', as :meth:`_bitboards` gives
        them)."""
        self.counters["window_choices"] += 1
        bits = self._window_bits
        existing = tuple(bits[w] for w in self.seqs[g, team, : self.seq_count[g, team]].tolist())
        chosen = choose_windows(
            self._geo, [bits[w] for w in windows], own | self._free_bits, existing, others
        )
        return [self._window_id[w] for w in chosen]

    # --- observations --------------------------------------------------------------------------

    def observe(self, idx: IntArray, seat: IntArray | None = None) -> FloatArray:
        """The flat observation (as :class:`~sequence.env.arrays.Observer` makes it, scaled to
        [0, 1]) of ``seat`` (default: the agent's seat, or the seat to move in self-play) in
        each game of ``idx``: its own hand and what is public, nothing else."""
        if seat is None:
            seat = self._observer_seats()[idx]
        m = len(idx)
        p, t, c = self.players, self.teams, self.num_cards
        at = self._at
        if self._all_written:  # every entry is written below: no need to clear them first
            out = np.empty((m, self.layout.size), dtype=np.float32)
            for zeros in self._one_hot_segments:  # their 1s are set below
                out[:, zeros] = 0.0
        else:
            out = np.zeros((m, self.layout.size), dtype=np.float32)
        my_team = seat % t
        rel_teams = (my_team[:, None] + np.arange(t)) % t  # (m, t): absolute team of each
        rel_seats = (seat[:, None] + np.arange(p)) % p
        rows = idx[:, None]
        cells = self._cells
        nc = len(cells)
        # The table's rows, (m, rows, cols), in C order (the voids' bytes are viewed as
        # floats); the board's spaces are row * STRIDE + col, so a reshape finds them.
        grid = (m, self._grid[0], STRIDE)
        board = self.board[idx].reshape(grid)[:, :, : self._grid[1]]
        row = np.add(board, self._cell_offset, order="C", dtype=np.int64)
        row += (my_team * self._board_stride)[:, None, None]
        out[:, : nc * (t + 2)] = self._board_rows[row].view(np.float32).reshape(m, -1)
        locks = self.locks[idx].view(np.uint8)  # (m, t, board)
        bits = locks[:, 0].copy()
        for k in range(1, t):
            bits |= locks[:, k] << k
        bits = np.add(
            bits.reshape(grid)[:, :, : self._grid[1]],
            (my_team << t)[:, None, None],
            order="C",
            dtype=np.int64,
        )
        out[:, at["locked"] : at["locked"] + nc * t] = (
            self._lock_rows[bits].view(np.float32).reshape(m, -1)
        )
        scale = self._inv_high  # each entry is written scaled

        def put(name: str, width: int, values: Any) -> None:
            start = at[name]
            np.multiply(
                values,
                scale[start : start + width],
                out=out[:, start : start + width],
                dtype=np.float32,
            )

        def one_hot(games: IntArray, where: IntArray) -> None:
            out[games, where] = scale[where]

        put("sequences", t, self.seq_count[rows, rel_teams])
        put("supply", t, self._limits[rel_teams] - self.chip_counts[rows, rel_teams])
        hands = self.hands[idx]  # (m, p, c)
        put("hand", c, hands[np.arange(m), seat])
        lengths = self.discard_len[rows, rel_seats]  # (m, p)
        tops = self.discards[rows, rel_seats, np.maximum(lengths - 1, 0)]
        game, rel = np.nonzero(lengths > 0)
        one_hot(game, at["discard_tops"] + rel * c + tops[game, rel])
        put("discards", c, self.discard_counts[idx])
        sizes = hands.sum(axis=2, dtype=np.int64)
        put("hand_sizes", p, np.take_along_axis(sizes, rel_seats, 1))
        put("deck_size", 1, (self.deck_len[idx] - self.deck_pos[idx])[:, None])
        games = np.arange(m)
        one_hot(games, at["phase"] + np.where(self.over[idx], _PHASE_OVER, _PHASE_PLAY))
        one_hot(games, at["to_move"] + (self.to_move[idx] - seat) % p)
        put("turn", 1, self.turns[idx][:, None])
        put("flags", 2, np.stack([self.dead_count[idx], self.passes[idx]], axis=1))
        if self._scale_from:  # the board and locked segments: 0 and 1, scaled by 1
            return out
        start = at["sequences"]
        out[:, :start] *= scale[:start]
        return out

    def observation(self, idx: IntArray, seat: IntArray | None = None) -> Any:
        """The observation the steps give of ``seat`` in each game of ``idx``: :meth:`observe`
        with the ``history`` segment after it, or with ``observation="planes"`` a dict of
        ``board`` ``(m, C, rows, cols)`` and ``features`` ``(m, F)`` -- row for row what the
        Gym env's :class:`~sequence.env.arrays.Observer` of the same options gives."""
        if seat is None:
            seat = self._observer_seats()[idx]
        flat = self.observe(idx, seat)
        if not self.planes:
            return self._with_history(flat, idx) if self.history else flat
        m, t, c = len(idx), self.teams, self.num_cards  # planes: from the flat observation
        nc = len(self._cells)
        channels, rows, cols = self.observer.board_shape
        board = np.zeros((m, channels, nc), dtype=np.float32)
        locked = nc * (t + 2)
        board[:, : t + 2] = flat[:, :locked].reshape(m, nc, t + 2).transpose(0, 2, 1)
        tail = locked + nc * t
        board[:, t + 2 : 2 * t + 2] = flat[:, locked:tail].reshape(m, nc, t).transpose(0, 2, 1)
        plane = 2 * t + 2
        if c:  # the hand plane: the copies held of the card printed on each space
            held = np.zeros((m, c + 1), dtype=np.float32)
            held[:, :c] = self.hands[idx, seat]
            np.multiply(held[:, self._card_at], self._hand_plane_scale, out=board[:, plane])
            plane += 1
        if self.history:  # one plane per past move, marking its space
            ids = self._recent(idx)
            cell = self._move_cell[np.where(ids < 0, self.space.n, ids)]
            game, back = np.nonzero(cell >= 0)
            board[game, plane + back, cell[game, back]] = 1.0
        features = flat[:, tail:]
        return {
            "board": board.reshape(m, channels, rows, cols),
            "features": self._with_history(features, idx)
            if self.history
            else np.ascontiguousarray(features),
        }

    def _recent(self, idx: IntArray) -> IntArray:
        """The action ids of the last ``history`` public moves of each game of ``idx``, the
        latest first (-1 where the game has had fewer)."""
        k = self.history
        back = np.arange(k)
        count = self._hist_count[idx][:, None]
        ids: IntArray = self._hist[idx[:, None], (count - 1 - back) % k]
        ids[count <= back] = -1
        return ids

    def _with_history(self, flat: FloatArray, idx: IntArray) -> FloatArray:
        """``flat`` (the flat observation, or the features before the history) with the
        ``history`` segment after it (one-hot action ids, the latest move first): zeros
        (freshly mapped pages, not written) and a 1 per past move."""
        width = self.space.n + 1
        base = flat.shape[1]
        out = np.zeros((len(idx), base + self.history * width), dtype=np.float32)
        out[:, :base] = flat
        ids = self._recent(idx)
        game, back = np.nonzero(ids >= 0)
        out[game, base + back * width + ids[game, back]] = 1.0
        return out

    def _zero_observations(self, n: int) -> Any:
        """``n`` observations of zeros, shaped as the steps give them."""
        if self.planes:
            return {
                "board": np.zeros((n, *self.observer.board_shape), dtype=np.float32),
                "features": np.zeros((n, self.observer.features_size), dtype=np.float32),
            }
        return np.zeros((n, self.observation_layout.size), dtype=np.float32)

    def _info(self, mask: BoolArray) -> dict[str, Any]:
        return {
            "action_mask": mask.astype(np.int8),
            "seat": self.to_move.copy()
            if self.self_play
            else np.full(self.num_envs, self.agent_seat),
            "turn": self.turns.copy(),
            "episodes": self.episodes.copy(),
        }

    def action_masks(self) -> BoolArray:
        """The legal actions of every game now, as booleans (the acting seat's)."""
        return self._all_masks().copy()


__all__ = ["TERMINATIONS", "BatchedSequenceEnv", "supported"]
