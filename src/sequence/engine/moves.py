"""Moves and their text notation, the same for every game of the family.

=================  ==========================================================
notation           move
=================  ==========================================================
``5H@c3``          play 5♥ and put a chip on c3 (also a two-eyed Jack or Unicorn)
``JSxc3``          play a one-eyed Jack (or Dragon) and remove the chip on c3
``@c3``            Dice: put a chip on c3 (the rolled number, or anywhere on 11)
``=c3``            Dice: take the opponent's chip on c3 and put yours there
``xc3``            Dice: remove the opponent's chip on c3 (a roll of 10)
``roll:3+4``       Dice: the dice show 3 and 4 (a chance move)
``dead:5H``        exchange the dead card 5♥
``discard:5H``     no card can be played: discard 5♥ and pass
``pass``           nothing can be done (empty hand, or a Dice roll with no use)
``draw:2``         seat 2 draws its card (option ``manual_draw``)
``pick:5H``        take 5♥ from the face-up draft (option ``draft``)
``penalty:B``      table talk: every member of team B must give up a card
``forfeit:5H``     give up 5♥ for a table-talk penalty
=================  ==========================================================

Seats and teams print 1-based / as letters; in code they are 0-based ints.

>>> str(Move.parse("10h@C3"))
'TH@c3'
>>> Move.parse("draw:2").seat
1
"""

from __future__ import annotations

import re
from enum import IntEnum
from typing import NamedTuple

from .board import TEAM_LETTERS, Space, parse_space, space_name
from .cards import Card, card_name, parse_card
from .errors import InvalidNotationError


class MoveKind(IntEnum):
    PLACE = 0
    REMOVE = 1
    REPLACE = 2
    DEAD = 3
    DISCARD = 4
    PASS = 5
    DRAW = 6
    PICK = 7
    PENALTY = 8
    FORFEIT = 9
    ROLL = 10


class Move(NamedTuple):
    """One move. Immutable and hashable; ``str(move)`` is its notation, :meth:`parse` reads it."""

    kind: MoveKind
    card: Card | None = None
    """The card played, exchanged, discarded, picked or forfeited."""
    space: Space | None = None
    """The space a chip goes to or leaves."""
    seat: int | None = None
    """The seat that draws (``draw``)."""
    team: int | None = None
    """The team penalised for table talk (``penalty``)."""
    dice: tuple[int, int] | None = None
    """The two dice, lower first (``roll``)."""

    def __str__(self) -> str:
        text = _TEXT.get(self)
        if text is None:
            text = _TEXT[self] = self._notation()
        return text

    def _notation(self) -> str:
        k = self.kind
        card = "" if self.card is None else card_name(self.card)
        space = "" if self.space is None else space_name(self.space)
        if k is MoveKind.PLACE:
            return f"{card}@{space}"
        if k is MoveKind.REMOVE:
            return f"{card}x{space}"
        if k is MoveKind.REPLACE:
            return f"={space}"
        if k is MoveKind.PASS:
            return "pass"
        if k is MoveKind.DRAW:
            return f"draw:{self.seat + 1}"  # type: ignore[operator]
        if k is MoveKind.PENALTY:
            return f"penalty:{TEAM_LETTERS[self.team]}"  # type: ignore[index]
        if k is MoveKind.ROLL:
            return f"roll:{self.dice[0]}+{self.dice[1]}"  # type: ignore[index]
        return f"{k.name.lower()}:{card}"

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read a move's notation (see the module docstring); raise InvalidNotationError."""
        t = text.strip()
        m = _PLACEMENT.fullmatch(t)
        if m:
            card = parse_card(m.group(1)) if m.group(1) else None
            op = m.group(2).lower()
            if op == "=" and card is not None:
                raise InvalidNotationError(f"bad move {text!r}: '=' takes no card")
            kind = {"@": MoveKind.PLACE, "x": MoveKind.REMOVE, "=": MoveKind.REPLACE}[op]
            return _intern(cls(kind, card, parse_space(m.group(3))))
        low = t.lower()
        if low == "pass":
            return PASS
        word, sep, arg = low.partition(":")
        if not sep:
            raise InvalidNotationError(f"not a move: {text!r}")
        if word in ("dead", "discard", "pick", "forfeit"):
            return _intern(cls(MoveKind[word.upper()], parse_card(arg)))
        if word == "draw":
            if not arg.isdecimal() or not 1 <= int(arg) <= 12:
                raise InvalidNotationError(f"bad move {text!r}: draw takes a seat number 1-12")
            return _intern(cls(MoveKind.DRAW, seat=int(arg) - 1))
        if word == "penalty":
            if len(arg) != 1 or arg.upper() not in TEAM_LETTERS:
                raise InvalidNotationError(f"bad move {text!r}: penalty takes a team letter A-C")
            return _intern(cls(MoveKind.PENALTY, team=TEAM_LETTERS.index(arg.upper())))
        if word == "roll":
            m = _ROLL.fullmatch(arg)
            if not m:
                raise InvalidNotationError(f"bad move {text!r}: a roll is two dice, e.g. roll:3+4")
            a, b = sorted((int(m.group(1)), int(m.group(2))))
            return roll_move(a, b)
        raise InvalidNotationError(f"not a move: {text!r}")


_PLACEMENT = re.compile(r"([A-Za-z0-9♠♥♦♣]*?)([@xX=])([a-jA-J]\d{1,2})")
_ROLL = re.compile(r"([1-6])\+([1-6])")
_INTERNED: dict[Move, Move] = {}
_TEXT: dict[Move, str] = {}
"""Each move's notation, once computed (there are only a few thousand distinct moves)."""


def _intern(move: Move) -> Move:
    """One object per distinct move, so legal-move lists share them and cost no allocation."""
    return _INTERNED.setdefault(move, move)


PASS = _intern(Move(MoveKind.PASS))


def place_move(card: Card | None, space: Space) -> Move:
    return _intern(Move(MoveKind.PLACE, card, space))


def remove_move(card: Card | None, space: Space) -> Move:
    return _intern(Move(MoveKind.REMOVE, card, space))


def replace_move(space: Space) -> Move:
    return _intern(Move(MoveKind.REPLACE, None, space))


def card_move(kind: MoveKind, card: Card) -> Move:
    """A dead-card exchange, discard, pick or forfeit of ``card``."""
    return _intern(Move(kind, card))


def draw_move(seat: int) -> Move:
    return _intern(Move(MoveKind.DRAW, seat=seat))


def penalty_move(team: int) -> Move:
    return _intern(Move(MoveKind.PENALTY, team=team))


def roll_move(a: int, b: int) -> Move:
    """The roll of two dice (in either order)."""
    try:
        return _ROLLS[a, b]
    except KeyError:
        raise InvalidNotationError(f"dice show 1 to 6, not {a} and {b}") from None


_ROLLS: dict[tuple[int, int], Move] = {
    (a, b): _intern(Move(MoveKind.ROLL, dice=(min(a, b), max(a, b))))
    for a in range(1, 7)
    for b in range(1, 7)
}
