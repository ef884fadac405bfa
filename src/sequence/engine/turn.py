"""What a turn is made of: the phases, what must happen next, and how a game ends.

Small immutable values shared by the state, the views and the notation:

- :class:`Phase` -- what the seat to act is asked to do;
- :class:`Step` -- what must happen next and who does it (:meth:`State.next_step`, the one
  turn driver every bot, server and environment follows);
- :class:`Outcome` / :class:`Termination` -- how a game ended;
- :class:`Setup` -- the cut for dealer or the Dice roll-off, recorded for replays.

>>> Outcome(Termination.SEQUENCES, 1).result()
'B wins'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, IntEnum

from .board import TEAM_LETTERS
from .cards import Card

CHANCE = -1
"""The actor of a chance node, as in OpenSpiel: the dice."""


class Phase(IntEnum):
    """What the actor is asked to do."""

    PLAY = 0
    """Card games: play a card (after an optional dead-card exchange)."""
    PICK = 1
    """Draft variant: take a face-up card; the turn then ends."""
    PICK_DEAD = 2
    """Draft variant: take a face-up card for an exchanged dead card; then play."""
    FORFEIT = 3
    """Table-talk penalty: the actor gives up a card of their choice."""
    ROLL = 4
    """Dice: the dice are rolled (a chance move)."""
    ACT = 5
    """Dice: act on the roll."""
    OVER = 6


class Termination(Enum):
    """How a game ended."""

    SEQUENCES = "sequences"
    """A side completed the sequences it needed."""
    HEART = "heart"
    """Draft variant: a side holds the four central spaces."""
    STALEMATE = "stalemate"
    """The position can never change again: no card or roll could place or remove a chip for
    any team (drawn; RULES.md §2.9)."""
    MAX_TURNS = "max_turns"
    """The ``max_turns`` limit was reached (drawn)."""
    DRAFT_EMPTY = "draft_empty"
    """Draft variant: the deck ran out and then the face-up row; the side with more completed
    sequences wins (equal: drawn)."""


@dataclass(frozen=True)
class Outcome:
    """The end of a game: how, and which team won (``None`` for a draw)."""

    termination: Termination
    winner: int | None

    def result(self) -> str:
        """``A wins``, ``draw``."""
        return "draw" if self.winner is None else f"{TEAM_LETTERS[self.winner]} wins"


class StepKind(IntEnum):
    """What must happen next in a game (see :meth:`State.next_step`)."""

    ROLL = 0
    """Dice: the dice are rolled, a chance move (``state.push(state.sample_chance())``)."""
    DRAW = 1
    """Option ``manual_draw``: the seat has played and takes its draw (``draw_move(seat)``)."""
    MOVE = 2
    """The seat chooses one of ``state.legal_moves_of(seat)``."""
    OVER = 3
    """The game is over."""


@dataclass(frozen=True, slots=True)
class Step:
    """What must happen next, and who does it (``seat`` is ``None`` once the game is over).

    >>> Step(StepKind.MOVE, 0)
    Step(kind=<StepKind.MOVE: 2>, seat=0)
    """

    kind: StepKind
    seat: int | None


@dataclass(frozen=True)
class Setup:
    """How the game was set up, recorded so a replay shows it (public information)."""

    dealer: int | None
    """The seat that dealt (card games)."""
    first: int
    """The seat that plays first."""
    cuts: tuple[tuple[tuple[int, Card], ...], ...] = ()
    """Classic: each round of the cut for dealer, as (seat, card) pairs; ties cut again."""
    rolls: tuple[tuple[tuple[int, tuple[int, int]], ...], ...] = ()
    """Dice: each round of the start roll-off, as (seat, dice) pairs; ties roll again."""
