"""The batched simulator for the draft variant of classic: N draft games stepped at once.

:class:`BatchedDraftEnv` is :class:`~sequence.env.batched_cards.BatchedSequenceEnv` for classic
with option ``draft``, its subclass (:func:`sequence.env.batched.batched_env` gives it:
``batched_env(1024, "draft")``; ``BatchedDraftEnv(1024, "draft")`` too): the same steps, info,
auto-reset, random opponents and self-play, and the single environment's action ids, masks
and observations (with the ``known_hands`` and ``draft`` segments; flat, planes, history: a pick
is a move of the history, as in the engine's move stack), number for number.
The variant's rules, as the engine's :class:`~sequence.engine.card_rules.DraftRules` plays them:

- hands of six and a face-up row of five (``State.new``'s deal); no card is drawn blind;
- after a card is played (placed, removed, discarded) the same seat **picks** one of the
  face-up cards (a decision: the ``pick`` actions, phase ``pick``), which the top of the deck
  replaces while there is one; then the next seat plays. A dead card is traded for a face-up
  card the same way (phase ``pick_dead``), once a turn, and the seat plays on;
- cards taken face up are public (``known_hands``) until played;
- a team holding the four heart spaces (``e5 f5 e6 f6``) wins at once (``heart``);
- the ending when the cards run out follows :meth:`DraftRules.pick
  <sequence.engine.card_rules.DraftRules.pick>`: once the deck is empty the row shrinks, and
  the pick that takes its last card ends the game (``draft_empty``), won by the team with the
  most completed sequences, drawn when the most are shared -- the winner is the engine's own
  :meth:`~sequence.engine.card_rules.DraftRules.most_sequences`, so a change of that rule in
  the engine is a change here too (the parity test plays games to that end).

>>> from sequence.env.batched import BatchedSequenceEnv, batched_env
>>> env = batched_env(4, "draft", players=2, seed=0)
>>> type(env).__name__
'BatchedDraftEnv'
>>> isinstance(env, BatchedSequenceEnv)
True
>>> obs, info = env.reset()
>>> obs.shape, info["action_mask"].shape
((4, 931), (4, 697))
"""

from __future__ import annotations

import numpy as np

from ..engine import Config
from ..engine.card_rules import DraftRules
from ..engine.games import DRAFT_SIZE
from ..engine.tables import HEART_SPACES
from .batched_cards import (
    _DEAD,
    _DISCARD,
    _DRAFT_EMPTY,
    _HEART,
    _MAX_TURNS,
    _PASS,
    BatchedSequenceEnv,
    BoolArray,
    FloatArray,
    IntArray,
)

_PLAY, _PICK, _PICK_DEAD, _OVER = 0, 1, 2, 6  # Phase.PLAY, PICK, PICK_DEAD, OVER


class BatchedDraftEnv(BatchedSequenceEnv):
    """N games of classic's draft variant stepped at once (see the module's docs); construct
    it as :class:`~sequence.env.batched_cards.BatchedSequenceEnv` (same arguments)."""

    default_game = "draft"

    def _game_arrays(self) -> None:
        n, p, c = self.num_envs, self.players, self.num_cards
        self.row = np.zeros((n, c), dtype=np.int8)
        """Per game: copies of each card in the face-up row."""
        self.known = np.zeros((n, p, c), dtype=np.int8)
        """Per game and seat: the cards it took face up and still holds (public)."""
        self.phase = np.zeros(n, dtype=np.int64)
        """Per game: 0 play, 1 pick (after a card played), 2 pick (after a dead card)."""
        ((_, first, count),) = [b for b in self.space.blocks if b[0] == "pick"]
        self._pick = slice(first, first + count)
        self._pick_card = self._a_card[self._pick]
        self._heart = np.asarray(HEART_SPACES, dtype=np.int64)

    def _refusal(self, config: Config) -> str | None:
        return None if config.draft else "BatchedDraftEnv plays the draft variant (option draft)"

    def _new_games(self, idx: IntArray) -> None:
        """Start new games as classic does (the engine's cut, shuffle and deal); the five
        cards after the hands are the face-up row, as ``State.new`` lays it."""
        super()._new_games(idx)
        dealt = self.config.hand_size * self.players
        top = self.deck[idx, dealt : dealt + DRAFT_SIZE].astype(np.int64)
        self.row[idx] = 0
        np.add.at(self.row, (np.repeat(idx, DRAFT_SIZE), top.reshape(-1)), 1)
        self.deck_pos[idx] = dealt + DRAFT_SIZE
        self.known[idx] = 0
        self.phase[idx] = _PLAY

    def _legal_by_action(self, idx: IntArray) -> BoolArray:
        """:meth:`legal_mask` transposed, ``(actions, games)``: classic's legal actions in the
        play phase; in a pick phase, the face-up cards."""
        picking = self.phase[idx] != _PLAY
        if not picking.any():
            return super()._legal_by_action(idx)
        mask = np.zeros((self.space.n, len(idx)), dtype=np.bool_)
        playing = np.flatnonzero(~picking)
        if playing.size:
            mask[:, playing] = super()._legal_by_action(idx[playing])
        rows = np.flatnonzero(picking & ~self.over[idx])
        picks = mask[self._pick]  # a view: its rows are the pick actions
        picks[:, rows] = (self.row[idx[rows]][:, self._pick_card] > 0).T
        return mask

    def _apply(self, idx: IntArray, actions: IntArray) -> None:
        """Play ``actions`` (legal, by the seat to move) in the games ``idx``."""
        self._mask = None
        kind = self._a_kind[actions]
        card = self._a_card[actions]
        space = self._a_space[actions]
        seat = self.to_move[idx]
        pick = (actions >= self._pick.start) & (actions < self._pick.stop)
        place, remove = self._play_a_card(idx, seat, kind, card, space, (card >= 0) & ~pick)
        dead = (kind == _DEAD) & ~pick
        self.dead_count[idx[dead]] += 1
        self.phase[idx[dead]] = _PICK_DEAD
        passed = ((kind == _DISCARD) | (kind == _PASS)) & ~pick
        self.passes[idx[passed]] += 1
        chip = (place | remove) & ~self.over[idx]
        self.passes[idx[chip]] = 0
        self.phase[idx[chip | passed]] = _PICK  # the turn's card is played: pick one
        stuck = passed & ~self.over[idx]
        if stuck.any():
            self._stalemate(idx[stuck])
        if pick.any():
            self._take(idx[pick], seat[pick], card[pick])

    def _discard_played(self, g: IntArray, seat: IntArray, card: IntArray) -> None:
        """A card played leaves what is known of its seat's hand, too (a picked card is known)."""
        known = self.known[g, seat, card] > 0
        self.known[g[known], seat[known], card[known]] -= 1
        super()._discard_played(g, seat, card)

    def _place_chips(self, g: IntArray, space: IntArray, team: IntArray) -> None:
        """The card games' placement; then the heart: a team holding e5 f5 e6 f6 wins at once
        (after its sequences count)."""
        super()._place_chips(g, space, team)
        heart = (self.board[g[:, None], self._heart] == team[:, None]).all(axis=1)
        heart &= ~self.over[g]
        self.over[g[heart]] = True
        self.winner[g[heart]] = team[heart]
        self.termination[g[heart]] = _HEART

    def _take(self, idx: IntArray, seat: IntArray, card: IntArray) -> None:
        """Each seat takes a face-up card, which the top of the deck replaces (none once the
        deck is empty); the pick that empties the row ends the game (``DraftRules.pick``)."""
        self.hands[idx, seat, card] += 1
        self.known[idx, seat, card] += 1
        self.row[idx, card] -= 1
        more = self.deck_pos[idx] < self.deck_len[idx]
        g = idx[more]
        self.row[g, self.deck[g, self.deck_pos[g]]] += 1
        self.deck_pos[g] += 1
        empty = ~self.row[idx].any(axis=1)
        for i in np.flatnonzero(empty).tolist():
            g1 = int(idx[i])
            winner = DraftRules.most_sequences(self.seq_count[g1].tolist())
            self.over[g1] = True
            self.winner[g1] = -1 if winner is None else winner
            self.termination[g1] = _DRAFT_EMPTY
        on = ~empty
        dead = on & (self.phase[idx] == _PICK_DEAD)
        self.phase[idx[dead]] = _PLAY  # a dead card's replacement: the seat plays on
        turn = on & ~dead
        g, s = idx[turn], seat[turn]
        self.phase[g] = _PLAY
        self.turns[g] += 1
        limit = self.turns[g] >= self.config.max_turns
        self.over[g[limit]] = True
        self.termination[g[limit]] = _MAX_TURNS
        g, s = g[~limit], s[~limit]
        self.to_move[g] = (s + 1) % self.players
        self.dead_count[g] = 0

    def observe(self, idx: IntArray, seat: IntArray | None = None) -> FloatArray:
        """Classic's observation, with the pick phases, the cards other seats took face up
        (``known_hands``) and the face-up row (``draft``)."""
        if seat is None:
            seat = self._observer_seats()[idx]
        out = super().observe(idx, seat)
        m, p, c = len(idx), self.players, self.num_cards
        at, scale = self._at, self._inv_high
        picking = np.flatnonzero((self.phase[idx] != _PLAY) & ~self.over[idx])
        out[picking, at["phase"] + _PLAY] = 0.0
        out[picking, at["phase"] + self.phase[idx[picking]]] = 1.0
        others = (seat[:, None] + np.arange(1, p)) % p  # seats 1..P-1, relative
        k = at["known_hands"]
        known = self.known[idx[:, None], others].reshape(m, (p - 1) * c)
        out[:, k : k + (p - 1) * c] = known * scale[k : k + (p - 1) * c]
        d = at["draft"]
        out[:, d : d + c] = self.row[idx] * scale[d : d + c]
        return out


__all__ = ["BatchedDraftEnv"]
