"""The greedy bot: the best move one ply deep by the evaluation in :mod:`.heuristic`.

What a good casual player does, in this order of value:

1. exchange a dead card (it costs nothing and the turn goes on; the engine offers the exchange
   only while the turn's limit allows it: one in classic, three in Kids);
2. win, or complete a sequence (a free corner counts as a chip);
3. block an opponent's four (the space they need next turn) or open three;
4. extend its own lines, preferring spaces that serve several lines at once;
5. keep two-eyed Jacks for a win or a block, and one-eyed Jacks for the most dangerous chip
   (each Jack pays a cost in the evaluation, so it is spent only when it gains more);
6. when nothing can be played, discard (or forfeit) the least useful card, or in Kids pass
   (the engine's only move then); in the draft variant, take the most useful face-up card.

Ties are broken at random (from the bot's seed), so two greedy bots do not play one game.

>>> from sequence.engine import State, make_config
>>> state = State.new(make_config("classic", players=2), seed=4)
>>> bot = GreedyBot(seed=1)
>>> bot.choose(state.view(state.to_move)) in state.legal_moves
True
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine import Move, View
from .base import Bot
from .heuristic import evaluator_for


class GreedyBot(Bot):
    """One-ply heuristic: the legal move with the highest :meth:`Evaluator.move_value`."""

    name = "greedy"

    def choose(self, view: View) -> Move:
        moves = view.legal_moves
        if len(moves) == 1:
            return moves[0]
        return self.best(view, moves)

    def best(self, view: View, moves: Sequence[Move]) -> Move:
        """The move of ``moves`` with the highest value, ties at random."""
        ev = evaluator_for(view.config)
        team = view.team
        assert team is not None
        best: list[Move] = []
        best_value = float("-inf")
        for move in moves:
            v = ev.move_value(move, view.chips, view.sequences, team)
            if v > best_value + 1e-9:
                best, best_value = [move], v
            elif v >= best_value - 1e-9:
                best.append(move)
        return best[0] if len(best) == 1 else self.rng.choice(best)


class CasualBot(GreedyBot):
    """Greedy's judgement with a casual player's attention: it overlooks some of its options.

    Each turn it notices each card in its hand with probability ``notice`` (at least one card),
    and plays greedy's best move among those cards' moves. At Dice, where moves have no card,
    it notices each move with that probability. So it usually plays well, and now and then
    misses a block, a Jack or its own best line, which a person can exploit.

    >>> from sequence.engine import State, make_config
    >>> state = State.new(make_config("classic", players=2), seed=4)
    >>> CasualBot(seed=1).choose(state.view(state.to_move)) in state.legal_moves
    True
    """

    name = "casual"

    def __init__(self, seed: int = 0, notice: float = 0.5) -> None:
        super().__init__(seed)
        if not 0.0 < notice <= 1.0:
            raise ValueError(f"notice is a probability above 0, not {notice!r}")
        self.notice = float(notice)

    def choose(self, view: View) -> Move:
        moves = view.legal_moves
        if len(moves) == 1:
            return moves[0]
        rng = self.rng
        cards = sorted({m.card for m in moves if m.card is not None})
        if cards:
            seen = {c for c in cards if rng.random() < self.notice} or {rng.choice(cards)}
            pool = [m for m in moves if m.card is None or m.card in seen]
        else:
            pool = [m for m in moves if rng.random() < self.notice] or [rng.choice(moves)]
        return self.best(view, pool)
