"""The levels a person picks from: each is one documented bot with one budget.

=======  ============================================  ==========================================
level    bot                                           budget
=======  ============================================  ==========================================
easy     :class:`~.greedy.CasualBot` (notice=0.3)      one ply, instant; overlooks cards
medium   :class:`~.greedy.GreedyBot`                   one ply, instant
hard     :class:`~.lookahead.LookaheadBot` (k=6)       1 s a move
=======  ============================================  ==========================================

``docs/bots.md`` has the measured ladder (each level against the one below). Any budget can be
changed from a spec: ``make_bot("hard@time=2")``.

>>> from sequence.bots import make_bot
>>> make_bot("easy").notice, make_bot("hard").time
(0.3, 1.0)
"""

from __future__ import annotations

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


class HardBot(LookaheadBot):
    """Level ``hard``: the lookahead with its defaults, greedy's best 6 moves, 1 s a move."""

    name = "hard"


LEVELS: dict[str, type[Bot]] = {
    "easy": EasyBot,
    "medium": MediumBot,
    "hard": HardBot,
}
