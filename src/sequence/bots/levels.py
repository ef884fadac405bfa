"""The levels a person picks from: each is one documented bot with one budget.

=======  ============================================  ==========================================
level    bot                                           budget
=======  ============================================  ==========================================
easy     :class:`~.greedy.GreedyBot`                   one ply, instant
medium   :class:`~.lookahead.LookaheadBot` (k=4)       0.2 s a move
hard     :class:`~.lookahead.LookaheadBot` (k=6)       1 s a move
=======  ============================================  ==========================================

``docs/bots.md`` has the measured ladder (each level against the one below). Any budget can be
changed from a spec: ``make_bot("hard@time=2")``.

>>> from sequence.bots import make_bot
>>> make_bot("medium").time, make_bot("hard").time
(0.2, 1.0)
"""

from __future__ import annotations

from typing import Any

from .base import Bot
from .greedy import GreedyBot
from .lookahead import LookaheadBot


class EasyBot(GreedyBot):
    """Level ``easy``: the greedy bot (it plays what looks best now, and never looks ahead)."""

    name = "easy"


class MediumBot(LookaheadBot):
    """Level ``medium``: greedy lookahead over greedy's best 4 moves, a fifth of a second a move."""

    name = "medium"

    def __init__(
        self,
        seed: int = 0,
        time: float | None = 0.2,
        deals: int | None = None,
        k: int = 4,
        **options: Any,
    ) -> None:
        super().__init__(seed, time=time, deals=deals, k=k, **options)


class HardBot(LookaheadBot):
    """Level ``hard``: greedy lookahead over greedy's best 6 moves, one second a move."""

    name = "hard"

    def __init__(
        self,
        seed: int = 0,
        time: float | None = 1.0,
        deals: int | None = None,
        k: int = 6,
        **options: Any,
    ) -> None:
        super().__init__(seed, time=time, deals=deals, k=k, **options)


LEVELS: dict[str, type[Bot]] = {
    "easy": EasyBot,
    "medium": MediumBot,
    "hard": HardBot,
}
