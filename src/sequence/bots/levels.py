"""The levels a person picks from: each is one documented bot with one budget.

=======  ============================================  ==========================================
level    bot                                           budget
=======  ============================================  ==========================================
easy     :class:`~.greedy.CasualBot` (notice=0.3)      one ply, instant; overlooks cards
medium   :class:`~.greedy.GreedyBot`                   one ply, instant
hard     :class:`~.lookahead.LookaheadBot` (k=6,       :data:`HARD_DEALS` deals a move: 8 in
         knowing which cards are gone)                 classic (at most 1 s)
expert   the same search, more deals                   :data:`EXPERT_DEALS` deals a move: 32 in
                                                       classic (at most 5 s)
=======  ============================================  ==========================================

The search levels' budgets are counted in deals, not seconds, so a level plays the same moves
on a fast machine and a busy one and the ladder can be replayed exactly; the time is only a
ceiling, which the deals stay far below (``docs/bots.md`` has the timings). ``docs/bots.md``
has the measured ladder (each level against the one below). Any budget can be changed from a
spec: ``make_bot("hard@deals=40")``.

>>> from sequence.bots import make_bot
>>> make_bot("easy").notice, make_bot("hard").time, make_bot("hard").deals
(0.3, 1.0, 8)
>>> make_bot("expert").time, make_bot("expert").deals, make_bot("expert@deals=5").deals
(5.0, 32, 5)
"""

from __future__ import annotations

from ..engine import Move, View
from .base import Bot
from .greedy import CasualBot, GreedyBot
from .lookahead import LookaheadBot


class EasyBot(CasualBot):
    """Level ``easy``: greedy's judgement, noticing each card in hand with probability 0.3."""

    name = "easy"

    def __init__(self, seed: int = 0, notice: float = 0.3) -> None:
        super().__init__(seed, notice=notice)


class MediumBot(GreedyBot):
    """Level ``medium``: the greedy bot (the best move by the evaluation, one ply)."""

    name = "medium"


HARD_DEALS: dict[str, int] = {"classic": 8, "kids": 32, "dice": 64}
"""Deals ``hard`` searches a move, by game (each candidate played out in every deal). Kids and
Dice get more: a deal costs a quarter and a tenth of classic's there, and a Dice deal's rolls
make one deal say less."""
EXPERT_DEALS: dict[str, int] = {"classic": 32, "kids": 128, "dice": 256}
"""Deals ``expert`` searches a move, by game."""


class _SearchLevel(LookaheadBot):
    """A level that is the lookahead with a budget in deals, by game (:attr:`budget`), and the
    informed evaluation. ``deals=N`` in a spec sets one budget for every game; ``deals=0``
    none (the time decides)."""

    budget: dict[str, int] = HARD_DEALS

    def __init__(
        self,
        seed: int = 0,
        time: float | None = 1.0,
        deals: int | None = None,
        k: int = 6,
        depth: int | None = None,
        prior: float = 0.0,
        leaf: str = "position",
        cards: bool = True,
    ) -> None:
        self.by_game = deals is None
        first = self.budget["classic"] if deals is None else deals
        super().__init__(seed, time, first, k, depth, prior, leaf, cards)

    def choose(self, view: View) -> Move:
        if self.by_game:
            self.deals = self.budget[view.config.game]
        return super().choose(view)


class HardBot(_SearchLevel):
    """Level ``hard``: the lookahead over greedy's best 6 moves, :data:`HARD_DEALS` deals a move
    (1 s at most), judging with what its seat knows of the cards gone for good."""

    name = "hard"


class ExpertBot(_SearchLevel):
    """Level ``expert``: hard's search with four times its deals, :data:`EXPERT_DEALS` a move
    (5 s at most). Not wider: greedy's best 8 or 12 moves measured weaker than its best 6."""

    name = "expert"
    budget = EXPERT_DEALS

    def __init__(
        self,
        seed: int = 0,
        time: float | None = 5.0,
        deals: int | None = None,
        k: int = 6,
        depth: int | None = None,
        prior: float = 0.0,
        leaf: str = "position",
        cards: bool = True,
    ) -> None:
        super().__init__(seed, time, deals, k, depth, prior, leaf, cards)


LEVELS: dict[str, type[Bot]] = {
    "easy": EasyBot,
    "medium": MediumBot,
    "hard": HardBot,
    "expert": ExpertBot,
}
