"""The ``greedy`` bot, batched: its move values for N games at once, from the simulator's arrays.

:class:`~sequence.bots.GreedyBot` plays the legal move with the highest
:meth:`~sequence.bots.heuristic.Evaluator.move_value` (ties at random). :class:`BatchedGreedy`
computes the same values for every legal action of every game of a
:class:`~sequence.env.batched_cards.BatchedSequenceEnv` (classic, Kids, Dice and the draft
variant) with numpy, from per-window tables instead of bitboards:

- a window's chips per team are ``window_counts`` less its free corners; a window is open to a
  team when no other team has a chip in it and it shares at most one space with each of the
  team's completed sequences (``_blocked_by_own``);
- a placement's value on space ``s`` is the sum, over the windows through ``s``, of the attack
  value for the mover and the block value for each other team (plus the win bonuses), exactly
  the terms of ``Evaluator.place_value``; a removal's is ``Evaluator.remove_value``'s terms;
- two-eyed Jacks (Unicorns) pay ``WILD_COST``, one-eyed Jacks (Dragons) ``REMOVER_COST``; a
  dead card is worth ``DEAD_VALUE``; a discard is minus the card's value (a Jack
  ``JACK_KEEP``; an ordinary card its best open space's placement value plus one, or 0); a pass
  is worth 0;
- Dice plays no card: no Jack's cost; a replacement (``=c3``) is the placement's value on the
  board without the chip it takes off plus that chip's removal value, as
  ``Evaluator.move_value`` adds them;
- the draft variant adds the heart (``e5 f5 e6 f6``, held whole: a win) to placements and
  removals on its four spaces, as ``Evaluator.place_value``, ``_threat`` and ``remove_value``
  add it: a placement there is worth the mover's attack on the heart (``WIN`` when it completes
  it) while no other team holds a heart space, plus, for each other team holding the only
  chips there, the block (``WIN / 10`` against its third); removing a chip there adds 1.5
  times that block for its owner. A pick from the face-up row is worth the card's value
  (``Evaluator.card_value``, on those placement values: what greedy maximises when it picks).

The constants are the heuristic's own (imported, not copied). Only the mover's legal moves (its
hand, through the mask) and public information are read. ``tests/env/test_batched_greedy.py``
compares every legal action's value with ``Evaluator.move_value`` on the engine's state of the
same game, so the set of best moves is greedy's on every position checked; among equal best
moves both pick at random (each from its own random source), so two runs agree on the
distribution of moves, not move for move.

>>> from sequence.env.batched import batched_env
>>> env = batched_env(3, "kids", opponents="self", seed=0)
>>> _ = env.reset()
>>> greedy = BatchedGreedy(env)
>>> values = greedy.values(np.arange(3))
>>> bool((np.isfinite(values) == env.action_masks()).all())
True
>>> chosen = greedy.choose(np.arange(3), np.random.default_rng(0))
>>> bool((values[np.arange(3), chosen] == values.max(axis=1)).all())
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import numpy as np
from numpy.typing import NDArray

from ..bots.heuristic import (
    ATTACK,
    BLOCK,
    DEAD_VALUE,
    JACK_KEEP,
    REMOVER_COST,
    WILD_COST,
    WIN,
)
from ..engine import CardKind, card_kind
from ..engine.tables import HEART_SPACES

if TYPE_CHECKING:
    from .batched_cards import BatchedSequenceEnv
    from .batched_dice import BatchedDiceEnv
    from .batched_draft import BatchedDraftEnv

IntArray = NDArray[np.int64]
BoolArray = NDArray[np.bool_]
Values = NDArray[np.float64]

TIE = 1e-9
"""Values closer than this are equal, as :meth:`GreedyBot.best` compares them."""


class BatchedGreedy:
    """Greedy's move values and choices for the games of one batched simulator.

    ``env`` is a :class:`~sequence.env.batched_cards.BatchedSequenceEnv` of any game of the
    family: classic, Kids, Dice, or the draft variant (a
    :class:`~sequence.env.batched_draft.BatchedDraftEnv`)."""

    def __init__(self, env: BatchedSequenceEnv) -> None:
        config = env.config
        self.env = env
        self.length = config.line_length
        self.to_win = config.sequences_to_win
        self._attack = np.asarray(ATTACK, dtype=np.float64)
        self._block = np.asarray(BLOCK, dtype=np.float64)
        self._dice = config.game == "dice"
        self._draft = config.draft
        if self._dice:  # no cards: placements, removals, replacements (=c3) and the pass
            self._place_space = env._a_space[env._place]
            self._place_cost = np.zeros(len(self._place_space))
            self._remove_space = env._a_space[env._remove]
            self._replace = cast("BatchedDiceEnv", env)._replace
            self._replace_space = env._a_space[self._replace]
            return
        cards = env.layout.cards
        kinds = [card_kind(c) for c in cards]
        a_card = env._a_card
        place, remove = env._place, env._remove
        wild = np.asarray([k is CardKind.WILD for k in kinds] + [False], dtype=np.bool_)
        self._place_space = env._a_space[place]
        self._place_cost = np.where(wild[a_card[place]], WILD_COST, 0.0)
        self._remove_space = env._a_space[remove]
        # An ordinary card's spaces (two in classic), -1 for none; a Jack is worth JACK_KEEP.
        layout = config.spec.layout
        spaces = np.full((len(cards), 2), -1, dtype=np.int64)
        for i, card in enumerate(cards):
            found = () if layout.numbered else layout.spaces_by_label.get(card, ())
            spaces[i, : len(found)] = found[:2]
        self._card_spaces = spaces
        self._card_is_jack = np.asarray([k is not CardKind.ORDINARY for k in kinds])
        self._discard_card = env._discard_card
        if self._draft:  # the heart's spaces, and the card each pick action takes
            draft = cast("BatchedDraftEnv", env)
            self._heart = np.asarray(HEART_SPACES, dtype=np.int64)
            self._pick = draft._pick
            self._pick_card = draft._pick_card

    def values(self, idx: IntArray) -> Values:
        """Greedy's value of every action in each game of ``idx``, ``(len(idx), actions)``, for
        the seat to move (``-inf`` where the action is not legal)."""
        env = self.env
        m = len(idx)
        rows = np.arange(m)
        nw = env._no_window
        length = self.length
        team = env.to_move[idx] % env.teams
        with_free = env.window_counts[idx].astype(np.int64)  # (m, teams, windows + 1)
        chips = with_free - env._free_in_window
        occupied = chips.sum(axis=1)  # (m, windows + 1): chips of every team
        real = np.arange(nw + 1) < nw
        blocked = self._blocked(idx)
        # Per team: its open windows (no chip of another team, not blocked by its sequences).
        open_to = (occupied[:, None, :] == chips) & ~blocked & real
        mine = with_free[rows, team]  # (m, windows + 1)
        my_open = open_to[rows, team]
        # Placing: the mover's attack, window by window (need: chips still needed after it).
        need = np.clip(length - 1 - mine, 0, len(ATTACK) - 1)
        attack = np.where(my_open, self._attack[need], 0.0)
        completes = my_open & (need == 0)
        # ... and the block of every other team (need: chips it still needs, before it).
        their_need = length - with_free
        block = np.where(open_to, self._block[np.clip(their_need - 1, 0, len(BLOCK) - 1)], 0.0)
        fours = open_to & (their_need == 1)
        others = np.arange(env.teams)[None, :] != team[:, None]  # (m, teams)
        block *= others[:, :, None]
        fours &= others[:, :, None]
        through = env._through  # (spaces, k)
        place = attack[:, through].sum(axis=2)  # (m, spaces)
        done = completes[:, through].sum(axis=2)
        seq_count = env.seq_count[idx]  # (m, teams)
        wins = (done > 0) & (seq_count[rows, team][:, None] + np.minimum(done, 2) >= self.to_win)
        place += np.where(wins, WIN, 0.0)
        for o in range(env.teams):
            threat = block[:, o][:, through].sum(axis=2)
            stop = (
                fours[:, o][:, through].any(axis=2) & (seq_count[:, o] + 1 >= self.to_win)[:, None]
            )
            place += threat + np.where(stop, WIN / 10, 0.0)
        # Removing the chip of team ``owner`` on a space: the danger of its windows through it,
        # plus a fifth of the mover's attack in the windows it frees.
        owner = env.board[idx].astype(np.int64)  # (m, spaces), -1: empty
        danger = np.where(
            open_to & (their_need >= 1),
            self._block[np.clip(their_need - 1, 0, len(BLOCK) - 1)] * 1.5,
            0.0,
        )
        frees = (occupied - chips[rows, team] == 1) & real
        room = np.where(
            frees, self._attack[np.clip(length - 1 - mine, 0, len(ATTACK) - 1)] * 0.2, 0.0
        )
        remove = danger[rows[:, None, None], np.maximum(owner, 0)[:, :, None], through].sum(
            axis=2
        ) + room[:, through].sum(axis=2)
        if self._draft:
            self._add_heart(owner, team, place, remove)
        values = np.full((m, env.space.n), -np.inf)
        values[:, env._pass] = 0.0
        if self._dice:  # no card is played: no Jack's cost
            values[:, env._place] = place[:, self._place_space]
            values[:, env._remove] = remove[:, self._remove_space]
            spaces = self._replace_space
            values[:, self._replace] = (
                self._replace_values(idx, with_free, blocked, owner, team, spaces)
                + remove[:, spaces]
            )
        else:
            values[:, env._place] = place[:, self._place_space] - self._place_cost
            values[:, env._remove] = remove[:, self._remove_space] - REMOVER_COST
            values[:, env._dead] = DEAD_VALUE
            if not env._stuck_passes:
                cards = self._card_values(idx, place)
                values[:, env._discard] = -cards[:, self._discard_card]
                if self._draft:  # a pick from the face-up row: what holding the card is worth
                    values[:, self._pick] = cards[:, self._pick_card]
        legal = env._legal_by_action(idx).T
        values[~legal] = -np.inf
        return values

    def _replace_values(
        self,
        idx: IntArray,
        with_free: IntArray,
        blocked: BoolArray,
        owner: IntArray,
        team: IntArray,
        spaces: IntArray,
    ) -> Values:
        """Dice ``=s``: the placement's value on each of ``spaces`` once the chip there is
        taken off (``Evaluator.place_value(..., replaced=owner)``), ``(m, len(spaces))``: the
        terms of :meth:`values`' placements, on the window counts less the owner's chip."""
        env = self.env
        m, teams, nw, length = len(idx), env.teams, env._no_window, self.length
        rows = np.arange(m)
        through = env._through[spaces]  # (S, k), padded with the empty window
        real = through < nw
        # Per game, team, space and window through it: the counts without the chip replaced.
        taken = owner[:, spaces][:, None, :] == np.arange(teams)[None, :, None]  # (m, T, S)
        counts = with_free[:, :, through] - taken[..., None]  # (m, T, S, k)
        chips = counts - env._free_in_window[through]
        occupied = chips.sum(axis=1)  # (m, S, k)
        open_to = (occupied[:, None] == chips) & ~blocked[:, :, through] & real
        mine = counts[rows, team]
        my_open = open_to[rows, team]
        need = np.clip(length - 1 - mine, 0, len(ATTACK) - 1)
        value = np.where(my_open, self._attack[need], 0.0).sum(axis=2)
        done = (my_open & (need == 0)).sum(axis=2)
        seq_count = env.seq_count[idx]
        wins = (done > 0) & (seq_count[rows, team][:, None] + np.minimum(done, 2) >= self.to_win)
        value += np.where(wins, WIN, 0.0)
        their_need = length - counts
        block = np.where(open_to, self._block[np.clip(their_need - 1, 0, len(BLOCK) - 1)], 0.0)
        fours = open_to & (their_need == 1)
        for o in range(teams):
            other = team != o  # (m,)
            threat = block[:, o].sum(axis=2)
            stop = fours[:, o].any(axis=2) & (seq_count[:, o] + 1 >= self.to_win)[:, None]
            value += np.where(other[:, None], threat + np.where(stop, WIN / 10, 0.0), 0.0)
        out: Values = value
        return out

    def _add_heart(self, owner: IntArray, team: IntArray, place: Values, remove: Values) -> None:
        """The draft's heart (``e5 f5 e6 f6``): add its terms to the placement and removal
        values of its four spaces, in place (``Evaluator.place_value``, ``_threat`` and
        ``remove_value``; each term is the same on the four spaces, as only the counts of
        chips in the heart matter)."""
        teams = self.env.teams
        m = len(team)
        rows = np.arange(m)
        heart = self._heart
        held = (owner[:, heart][:, :, None] == np.arange(teams)).sum(axis=1)  # (m, teams)
        # Per team: no other team has a chip in the heart (its chips alone, or none).
        alone = held == held.sum(axis=1, keepdims=True)
        last = len(ATTACK) - 1
        mine = held[rows, team]
        need = 3 - mine  # after the chip placed, on an empty heart space
        attack = np.where(need == 0, WIN, self._attack[np.clip(need, 0, last)])
        value = np.where(alone[rows, team], attack, 0.0)
        # Each other team's heart, blocked (it needs 4 - held chips, at least one).
        their_need = np.clip(4 - held, 1, len(BLOCK))
        block = np.where(their_need == 1, WIN / 10, self._block[their_need - 1])
        others = np.arange(teams)[None, :] != team[:, None]
        value += np.where(alone & others, block, 0.0).sum(axis=1)
        place[:, heart] += value[:, None]
        # Removing another team's chip there: 1.5 times its owner's heart, blocked (the
        # owner's count with the chip still in place).
        at = owner[:, heart]  # (m, 4): the owner of each heart space, -1 for none
        theirs = (at >= 0) & (at != team[:, None])
        w = np.maximum(at, 0)
        danger = self._block[np.clip(4 - held[rows[:, None], w], 1, len(BLOCK)) - 1] * 1.5
        remove[:, heart] += np.where(theirs & alone[rows[:, None], w], danger, 0.0)

    def _blocked(self, idx: IntArray) -> BoolArray:
        """Per game, team and window: it shares two spaces or more with one of the team's
        completed sequences (it can never be a new one)."""
        env = self.env
        seqs = env.seqs[idx]  # (m, teams, slots), -1: none
        blocked = np.zeros((len(idx), env.teams, env._no_window + 1), dtype=np.bool_)
        some = np.flatnonzero(env.seq_count[idx].any(axis=1))
        if some.size:
            held = np.where(seqs[some] < 0, env._no_window, seqs[some])
            blocked[some] = (env._shared[held] > 1).any(axis=2)
        return blocked

    def _card_values(self, idx: IntArray, place: Values) -> Values:
        """What holding each card is worth (``Evaluator.card_value``), ``(m, cards)``."""
        env = self.env
        spaces = self._card_spaces
        empty = env.board[idx] < 0
        best = np.zeros((len(idx), len(spaces)))
        for k in range(spaces.shape[1]):
            s = spaces[:, k]
            ok = (s >= 0)[None, :] & empty[:, np.maximum(s, 0)]
            best = np.maximum(best, np.where(ok, place[:, np.maximum(s, 0)] + 1.0, 0.0))
        best[:, self._card_is_jack] = JACK_KEEP
        return best

    def choose(self, idx: IntArray, rng: np.random.Generator) -> IntArray:
        """Greedy's move in each game of ``idx`` (which must not be over): a best-valued legal
        action, equal best ones picked uniformly."""
        values = self.values(idx)
        best = values.max(axis=1)
        ties = values >= (best - TIE)[:, None]
        counts = ties.sum(axis=1)
        pick = (rng.random(len(idx)) * counts).astype(np.int64)
        chosen: IntArray = np.argmax(np.cumsum(ties, axis=1) > pick[:, None], axis=1)
        return chosen.astype(np.int64)


__all__ = ["TIE", "BatchedGreedy"]
