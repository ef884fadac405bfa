"""The batched simulator for Sequence Dice: N games of Dice stepped at once with numpy.

:class:`BatchedDiceEnv` is :class:`~sequence.env.batched_cards.BatchedSequenceEnv` for Dice, its
subclass (:func:`sequence.env.batched.batched_env` gives it for a Dice configuration:
``batched_env(1024, "dice")``; ``BatchedDiceEnv(1024, "dice")`` too): the same steps, info,
auto-reset, random opponents and self-play, and the single environment's action ids, masks
and observations (flat, planes, history), number for number. What differs is the game
(RULES.md §4):

- **The roll is chance**, made for the players as the single environment makes it
  (:meth:`~sequence.engine.State.play_forced`): right after a game starts and after every
  action of a game that goes on, from each game's own engine random source (SplitMix64, one
  64-bit state per game, stepped for all games at once; :func:`roll_dice` gives exactly
  :func:`sequence.engine.setup.roll_dice`'s dice). So a batched game is the engine's game with
  its seed, rolls included, and the observation shows the roll being acted on. A roll is a
  public move without an action id: in the ``history``, the "no action" entry, as the engine's
  move stack gives it to the single environment's observer.
- **What a roll allows** (:meth:`~sequence.env.batched_cards.BatchedSequenceEnv.legal_mask`, as
  :meth:`sequence.engine.dice_rules.DiceRules.allowance` decides): 2 to 9 and 12, a chip on an
  open space of the number, or when all four are covered replacing another team's chip on one
  (all four the team's: pass); 10, removing another team's chip off the 2 and 12 spaces (none:
  pass); 11, a chip anywhere open, and on a full board replacing any other team's chip *or*
  passing (the Dice 11 Decision); no chip left in supply: pass (a 10 still removes).
- After a 2 or a 12 the same seat rolls again (even after a pass); a line of
  ``dice_line_length`` (5 or 6) wins; ``max_turns`` and the stalemate end a game drawn.

>>> import numpy as np
>>> from sequence.env.batched import BatchedSequenceEnv, batched_env
>>> env = batched_env(4, "dice", players=2, seed=0)
>>> type(env).__name__
'BatchedDiceEnv'
>>> isinstance(env, BatchedSequenceEnv)
True
>>> obs, info = env.reset()
>>> obs.shape, info["action_mask"].shape
((4, 258), (4, 109))
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ..engine import Config, MoveKind
from ..engine import rng as engine_rng
from ..engine.board import STRIDE
from ..engine.dice_rules import DEFENCE, EXTRA_TURN, WILD
from ..engine.setup import roll_off
from .batched_cards import (
    _MAX_TURNS,
    _STALEMATE,
    BatchedSequenceEnv,
    BoolArray,
    FloatArray,
    IntArray,
)

U64Array = NDArray[np.uint64]

_PHASE_ACT, _PHASE_OVER = 5, 6  # Phase.ACT, Phase.OVER
_GOLDEN = np.uint64(engine_rng.GOLDEN)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_LIMIT6 = np.uint64((1 << 64) - (1 << 64) % 6)  # engine_rng.below(state, 6)'s rejection bound


def _next_u64(state: U64Array) -> tuple[U64Array, U64Array]:
    """:func:`sequence.engine.rng.next_u64` for many states at once (uint64 arithmetic wraps)."""
    state = state + _GOLDEN
    z = state
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return state, z ^ (z >> np.uint64(31))


def roll_dice(state: U64Array) -> tuple[U64Array, IntArray, IntArray]:
    """Two dice for each random source in ``state``, as :func:`sequence.engine.setup.roll_dice`
    draws them (each die ``rng.below(state, 6) + 1``): ``(the sources after, one die, the
    other)``. A draw the engine rejects (4 chances in 2**64) is redrawn by the engine itself."""
    dice = []
    for _ in range(2):
        before = state
        state, z = _next_u64(before)
        die = (z % np.uint64(6)).astype(np.int64) + 1
        rejected = np.flatnonzero(z >= _LIMIT6)
        for i in rejected.tolist():
            r, value = engine_rng.below(int(before[i]), 6)
            state[i], die[i] = r, value + 1
        dice.append(die)
    return state, dice[0], dice[1]


class BatchedDiceEnv(BatchedSequenceEnv):
    """N games of Sequence Dice stepped at once (see the module's docs); construct it as
    :class:`~sequence.env.batched_cards.BatchedSequenceEnv` (same arguments)."""

    default_game = "dice"

    def _game_arrays(self) -> None:
        n = self.num_envs
        self.dice_rng = np.zeros(n, dtype=np.uint64)
        """The engine's random source of each game (SplitMix64 state): its rolls."""
        self.roll = np.zeros((n, 2), dtype=np.int64)
        """Per game: the roll being acted on, lower die first (0s when there is none)."""

    def _refusal(self, config: Config) -> str | None:
        return None if config.game == "dice" else f"BatchedDiceEnv plays Dice, not {config.game}"

    # --- tables ---------------------------------------------------------------------------------

    def _tables(self, config: Config) -> None:
        board = config.spec.layout
        self.players, self.teams = config.players, config.teams
        self.board_size = board.rows * STRIDE
        self.num_cards = 0
        self.card_index = {}
        self._cards = np.zeros(0, dtype=np.int64)
        blocks: dict[MoveKind, list[tuple[int, int]]] = {}
        for i, move in enumerate(self.space.moves):
            blocks.setdefault(move.kind, []).append((i, -1 if move.space is None else move.space))
        place, remove, replace = (
            blocks[k] for k in (MoveKind.PLACE, MoveKind.REMOVE, MoveKind.REPLACE)
        )
        ((self._pass, _),) = blocks[MoveKind.PASS]
        # Each block is one run of ids over the same spaces in the same order.
        self._block_spaces = np.asarray([s for _, s in place], dtype=np.int64)
        for block in (place, remove, replace):
            ids = [i for i, _ in block]
            assert ids == list(range(ids[0], ids[0] + len(ids)))
            assert [s for _, s in block] == self._block_spaces.tolist()
        self._place = slice(place[0][0], place[-1][0] + 1)
        self._remove = slice(remove[0][0], remove[-1][0] + 1)
        self._replace = slice(replace[0][0], replace[-1][0] + 1)
        # Per action: what it does (0 place, 1 remove, 2 replace, 3 pass) and where.
        kind = np.full(self.space.n, 3, dtype=np.int64)
        where = np.zeros(self.space.n, dtype=np.int64)
        for code, block in enumerate((place, remove, replace)):
            for i, s in block:
                kind[i], where[i] = code, s
        self._a_kind, self._a_space = kind, where
        label = np.zeros(self.board_size, dtype=np.int64)  # 0: not a space
        for s, number in board.labels.items():
            label[s] = number
        self._label = label
        self._no_defence = (label == 2) | (label == 12)
        self._board_tables(config)

    # --- games ----------------------------------------------------------------------------------

    def _new_games(self, idx: IntArray) -> None:
        """Start a new game in each slot of ``idx`` from its next seed, as ``State.new`` does
        (the engine's roll-off picks who starts), then roll for the first seat."""
        self._hist_count[idx] = 0
        for g in idx.tolist():
            seed = self._seeder.getrandbits(63)
            self.game_seeds[g] = seed
            r, setup = roll_off(engine_rng.seed_state(seed), self.players)
            self.dice_rng[g] = r
            self.to_move[g] = setup.first
        self._clear_boards(idx)
        self._roll(idx)

    def _roll(self, idx: IntArray) -> None:
        """The seat to move in each game of ``idx`` rolls (chance, the game's own source)."""
        self.dice_rng[idx], a, b = roll_dice(self.dice_rng[idx])
        self.roll[idx, 0] = np.minimum(a, b)
        self.roll[idx, 1] = np.maximum(a, b)
        self._push(idx, np.full(len(idx), self.space.n))  # a roll has no action id

    def _legal_by_action(self, idx: IntArray) -> BoolArray:
        """:meth:`legal_mask` transposed, ``(actions, games)``: the legal actions of the seat
        to move in each game of ``idx`` for the roll it acts on (all ``False`` in a game that
        is over), as the engine's Dice rules give them."""
        m = len(idx)
        live = ~self.over[idx]
        team = self.to_move[idx] % self.teams
        total = self.roll[idx].sum(axis=1)
        board = self.board[idx]
        occupied = board >= 0
        others = occupied & (board != team[:, None])
        empty = ~occupied & self._playable
        supply = (self.chip_counts[idx, team] < self._limits[team]) & live
        defence = (total == DEFENCE) & live
        wild = (total == WILD) & supply
        number = supply & (total != DEFENCE) & (total != WILD)
        on_number = self._label == total[:, None]
        number_open = empty & on_number
        open_left = number_open.any(axis=1)
        full = ~empty.any(axis=1)
        place = (wild[:, None] & empty) | (number & open_left)[:, None] & number_open
        replace = (wild & full)[:, None] & others
        replace |= (number & ~open_left)[:, None] & others & on_number
        remove = defence[:, None] & others & ~self._no_defence
        spaces = self._block_spaces
        mask = np.zeros((m, self.space.n), dtype=np.bool_)
        mask[:, self._place] = place[:, spaces]
        mask[:, self._remove] = remove[:, spaces]
        mask[:, self._replace] = replace[:, spaces]
        # Pass: nothing else to do, or an 11 on a full board (the seat *may* replace).
        mask[:, self._pass] = live & (~mask.any(axis=1) | (wild & full))
        return np.ascontiguousarray(mask.T)

    def _apply(self, idx: IntArray, actions: IntArray) -> None:
        """Play ``actions`` (legal, by the seat to move) in the games ``idx``; then the next
        seat (the same after a 2 or a 12) rolls, in each game that goes on."""
        self._mask = None
        kind = self._a_kind[actions]
        space = self._a_space[actions]
        seat = self.to_move[idx]
        team = seat % self.teams
        # Replacing and removing: the other team's chip goes home and out of its windows.
        off = (kind == 1) | (kind == 2)
        if off.any():
            g, sp = idx[off], space[off]
            owner = self.board[g, sp].astype(np.int64)
            self.board[g, sp] = -1
            self.chip_counts[g, owner] -= 1
            self.window_counts[g[:, None], owner[:, None], self._through[sp]] -= 1
        place = (kind == 0) | (kind == 2)
        if place.any():
            g, sp, tm = idx[place], space[place], team[place]
            self.board[g, sp] = tm
            self.chip_counts[g, tm] += 1
            self._sequences(g, sp, tm)
        passed = kind == 3
        self.passes[idx[passed]] += 1
        live = ~self.over[idx]
        self.passes[idx[live & ~passed]] = 0
        # The roll is used (unless the move won: the engine keeps its roll then): next turn.
        g, s = idx[live], seat[live]
        extra = np.isin(self.roll[g].sum(axis=1), EXTRA_TURN)
        self.roll[g] = 0
        self.turns[g] += 1
        limit = self.turns[g] >= self.config.max_turns
        self.over[g[limit]] = True
        self.termination[g[limit]] = _MAX_TURNS
        g, s, extra = g[~limit], s[~limit], extra[~limit]  # the last turn keeps its seat
        self.to_move[g] = np.where(extra, s, (s + 1) % self.players)
        stuck = passed & ~self.over[idx]
        if stuck.any():
            self._stalemate(idx[stuck])
        on = idx[~self.over[idx]]
        if on.size:
            self._roll(on)

    def _stalemate(self, idx: IntArray) -> None:
        """Games in which no roll could ever place, replace or remove a chip end drawn
        (:meth:`sequence.engine.dice_rules.DiceRules.can_ever_change`)."""
        board = self.board[idx]
        occupied = board >= 0
        supply = self.chip_counts[idx] < self._limits  # (m, teams)
        open_space = (~occupied & self._playable).any(axis=1) & supply.any(axis=1)
        removable = (occupied & ~self._no_defence).any(axis=1)
        others = occupied[:, None, :] & (board[:, None, :] != np.arange(self.teams)[:, None])
        replaceable = (supply & others.any(axis=2)).any(axis=1)
        frozen = ~(open_space | removable | replaceable)
        g = idx[frozen]
        self.over[g] = True
        self.termination[g] = _STALEMATE

    # --- observations ---------------------------------------------------------------------------

    def observe(self, idx: IntArray, seat: IntArray | None = None) -> FloatArray:
        """The flat observation (:class:`~sequence.env.arrays.Observer`'s, scaled to [0, 1]) of
        ``seat`` (default: the agent's seat, or the seat to move in self-play) in each game of
        ``idx``: the board, sequences, supplies, whose turn, the turn, passes and the roll."""
        if seat is None:
            seat = self._observer_seats()[idx]
        m = len(idx)
        p, t = self.players, self.teams
        at = self._at
        out = np.zeros((m, self.layout.size), dtype=np.float32)
        rel_teams = (seat[:, None] % t + np.arange(t)) % t
        rows = idx[:, None]
        cells = self._cells
        nc = len(cells)
        board = self.board[idx][:, cells].astype(np.int64)
        seg = out[:, at["board"] : at["board"] + nc * (t + 2)].reshape(m, nc, t + 2)
        for k in range(t):
            seg[:, :, k] = board == rel_teams[:, k : k + 1]
        seg[:, :, t] = (board < 0) & ~self._free_cells
        seg[:, :, t + 1] = self._free_cells
        locks = self.locks[rows, rel_teams][:, :, cells]
        out[:, at["locked"] : at["locked"] + nc * t] = locks.transpose(0, 2, 1).reshape(m, -1)
        out[:, at["sequences"] : at["sequences"] + t] = self.seq_count[rows, rel_teams]
        supply = self._limits[rel_teams] - self.chip_counts[rows, rel_teams]
        out[:, at["supply"] : at["supply"] + t] = supply
        over = self.over[idx]
        arange = np.arange(m)
        out[arange, at["phase"] + np.where(over, _PHASE_OVER, _PHASE_ACT)] = 1.0
        out[arange, at["to_move"] + (self.to_move[idx] - seat) % p] = 1.0
        out[:, at["turn"]] = self.turns[idx]
        out[:, at["flags"] + 1] = self.passes[idx]
        lo, hi = self.roll[idx, 0], self.roll[idx, 1]
        rolled = np.flatnonzero(lo > 0)
        base = at["roll"]
        out[rolled, base + lo[rolled] - 1] = 1.0
        out[rolled, base + 5 + hi[rolled]] = 1.0
        out[rolled, base + 10 + lo[rolled] + hi[rolled]] = 1.0
        out *= self._inv_high
        return out


__all__ = ["BatchedDiceEnv", "roll_dice"]
