"""The levels a person picks from: each is one documented bot with one budget.

=======  ============================================  ==========================================
level    bot                                           budget
=======  ============================================  ==========================================
easy     :class:`~.greedy.GreedyBot`                   one ply, instant
medium   :class:`~.mcts.MCTSBot`                       0.2 s a move (at most 400 iterations)
hard     :class:`~.mcts.MCTSBot`                       1 s a move
=======  ============================================  ==========================================

``docs/bots.md`` has the measured ladder (each level against the one below). Any budget can be
changed from a spec: ``make_bot("hard@time=2")``.

>>> from sequence.bots import make_bot
>>> make_bot("medium").time, make_bot("hard").time
(0.2, 1.0)
"""

from __future__ import annotations

from .greedy import GreedyBot
from .mcts import MCTSBot


class EasyBot(GreedyBot):
    """Level ``easy``: the greedy bot (it plays what looks best now, and never looks ahead)."""

    name = "easy"


class MediumBot(MCTSBot):
    """Level ``medium``: ISMCTS with a fifth of a second (and at most 400 iterations) a move."""

    name = "medium"

    def __init__(
        self,
        seed: int = 0,
        iterations: int | None = 400,
        time: float | None = 0.2,
        **options: float,
    ) -> None:
        super().__init__(seed, iterations=iterations, time=time, **options)  # type: ignore[arg-type]


class HardBot(MCTSBot):
    """Level ``hard``: ISMCTS with one second a move."""

    name = "hard"

    def __init__(
        self,
        seed: int = 0,
        iterations: int | None = None,
        time: float | None = 1.0,
        **options: float,
    ) -> None:
        super().__init__(seed, iterations=iterations, time=time, **options)  # type: ignore[arg-type]


LEVELS: dict[str, type[MCTSBot] | type[GreedyBot]] = {
    "easy": EasyBot,
    "medium": MediumBot,
    "hard": HardBot,
}
