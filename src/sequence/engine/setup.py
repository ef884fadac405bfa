"""How a game starts, drawn from its seeded random source: the cut for dealer (classic), the
Dice roll-off, and the roll of two dice. Each is recorded in a :class:`~.turn.Setup`, so a
replay shows it.

>>> from sequence.engine import rng
>>> r, setup = roll_off(rng.seed_state(1), 3)
>>> setup.first in (0, 1, 2) and len(setup.rolls[0]) == 3
True
"""

from __future__ import annotations

from collections.abc import Sequence

from . import rng as rngmod
from .cards import Card, card_rank
from .turn import Setup


def cut_for_dealer(r: int, players: int, deck: Sequence[Card]) -> tuple[int, Setup]:
    """Everyone cuts a card; the lowest deals (Aces high), ties cut again (RULES.md §2.3)."""
    contenders = list(range(players))
    rounds = []
    while True:
        # Each contender cuts a different card from the shuffled deck.
        pile = list(deck)
        cut_cards = []
        for _ in contenders:
            r, i = rngmod.below(r, len(pile))
            cut_cards.append(pile.pop(i))
        cut = tuple(zip(contenders, cut_cards, strict=True))
        rounds.append(cut)
        low = min(card_rank(c) for _, c in cut)
        contenders = [seat for seat, c in cut if card_rank(c) == low]
        if len(contenders) == 1:
            dealer = contenders[0]
            return r, Setup(dealer=dealer, first=(dealer + 1) % players, cuts=tuple(rounds))


def opening(r: int, game: str, players: int, deck: Sequence[Card]) -> tuple[int, Setup]:
    """Who deals and who plays first in a new game of ``game``, from the random source ``r``:
    the cut for dealer (classic), a dealer drawn at random (Kids cards have no rank to cut with,
    RULES.md §3) or the roll-off (Dice). Returns ``(the source after it, the set-up)``."""
    if game == "dice":
        return roll_off(r, players)
    if game == "classic":
        return cut_for_dealer(r, players, deck)
    r, dealer = rngmod.below(r, players)
    return r, Setup(dealer=dealer, first=(dealer + 1) % players)


def roll_dice(r: int) -> tuple[int, int, int]:
    """Two dice from the random source ``r``: (the source after them, one die, the other)."""
    r, a = rngmod.below(r, 6)
    r, b = rngmod.below(r, 6)
    return r, a + 1, b + 1


def roll_off(r: int, players: int) -> tuple[int, Setup]:
    """Everyone rolls both dice; the highest total starts, ties roll again (RULES.md §4)."""
    contenders = list(range(players))
    rounds = []
    while True:
        rolled = []
        for seat in contenders:
            r, a, b = roll_dice(r)
            rolled.append((seat, (a, b)))
        rounds.append(tuple(rolled))
        high = max(a + b for _, (a, b) in rolled)
        contenders = [seat for seat, (a, b) in rolled if a + b == high]
        if len(contenders) == 1:
            return r, Setup(dealer=None, first=contenders[0], rolls=tuple(rounds))
