"""The bot interface: a bot is given one seat's :class:`~sequence.engine.View` and returns a move.

A bot never sees a :class:`~sequence.engine.State`: only what its seat may know. To search, it
deals the hidden cards itself with :meth:`State.sample_from_view`.

Writing a bot takes a few lines::

    from sequence.bots import Bot
    from sequence.engine import Move, View

    class FirstMove(Bot):
        name = "first"

        def choose(self, view: View) -> Move:
            return view.legal_moves[0]

Run it with ``sequence tournament --bot mypackage.module:FirstMove --bot greedy``.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence

from ..engine import Move, MoveKind, View
from ..engine.dice_rules import ROLL_OUTCOMES

_ROLLS = [m for m, _ in ROLL_OUTCOMES]
_ROLL_WEIGHTS = [p for _, p in ROLL_OUTCOMES]


class Bot:
    """Base class of every bot. Subclasses set :attr:`name` and implement :meth:`choose`."""

    name = "bot"
    label: str = ""
    """The spec the bot was made from (``make_bot`` sets it); tournaments show it."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Move:
        """Return one of ``view.legal_moves``. Called only when the seat has something to do."""
        raise NotImplementedError

    def stats(self) -> dict[str, float]:
        """Figures about the last decision (e.g. ``iterations``), for tournaments."""
        return {}

    def keep_within(self, seconds: float) -> None:
        """Think at most about ``seconds`` a decision from now on (a game with a time limit
        says so before its first move). A bot with a clock of its own lowers it; others
        have nothing to lower."""

    def close(self) -> None:
        """Release what the bot holds (a process, a file); called when its game is over."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


def check_budget(**values: float | None) -> None:
    """Refuse a search budget or size that is not above 0 (``None``: no limit of that kind).

    >>> check_budget(time=1.0, deals=None)
    >>> check_budget(deals=-1)
    Traceback (most recent call last):
    ...
    ValueError: deals must be above 0, not -1
    """
    for name, value in values.items():
        if value is not None and not value > 0:
            raise ValueError(f"{name} must be above 0, not {value}")


def seat_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` of the game dealt from ``game_seed``: a hash, so a bot
    cannot work back from its own seed to the deal (every hand, the draw pile's order).

    >>> seat_seed(1, 0) != seat_seed(1, 1) and seat_seed(1, 0) == seat_seed(1, 0)
    True
    """
    digest = hashlib.sha256(f"sequence-bot:{game_seed}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 2


def obvious_move(legal: Sequence[Move]) -> Move | None:
    """The move a search need not think about, if there is one: the only legal move, a dead-card
    exchange (a free fresh card) or the draw that is due (never worse than not taking it)."""
    if len(legal) == 1:
        return legal[0]
    for m in legal:
        if m.kind is MoveKind.DEAD or m.kind is MoveKind.DRAW:
            return m
    return None


def roll_dice(rng: random.Random) -> Move:
    """A Dice roll drawn with the true probabilities (1/36 a double, 2/36 any other pair): a
    search rolls its own dice, since the engine's would repeat one future in every line."""
    return rng.choices(_ROLLS, _ROLL_WEIGHTS)[0]


class RandomBot(Bot):
    """Uniformly random over the legal moves."""

    name = "random"

    def choose(self, view: View) -> Move:
        return view.legal_moves[self.choose_index(len(view.legal_moves))]

    def choose_index(self, count: int) -> int:
        """The place among ``count`` legal moves of the move :meth:`choose` makes (the same
        draw from :attr:`rng`): a caller that holds the seat's legal moves (a learning
        environment) needs no view for it.

        >>> RandomBot(seed=3).choose_index(10) == RandomBot(seed=3).choose_index(10)
        True
        """
        if count < 1:
            raise IndexError("no legal move to choose from")
        return self.rng.randrange(count)
