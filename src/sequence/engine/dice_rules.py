"""Sequence Dice's rules: what a roll lets the seat do, and why anything else is refused.

As in :mod:`.card_rules`, each condition is one predicate (:meth:`DiceRules.defence_targets`,
:meth:`DiceRules.number_spaces`, :func:`~.card_rules.has_supply`,
:func:`~.card_rules.open_spaces`), read by both :meth:`DiceRules.moves` and
:meth:`DiceRules.refusal` (RULES.md §4).

>>> from sequence.engine import State, make_config
>>> state = State.new(make_config("dice", players=2), seed=1)
>>> _ = state.push_text("roll:3+4")
>>> state.push_text("@a1")
Traceback (most recent call last):
...
sequence.engine.errors.IllegalMoveError: @a1: you rolled 7; a1 is a 2
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board import Bitboard, space_name
from .card_rules import Refusal, has_supply, open_spaces
from .moves import PASS, Move, MoveKind, roll_move
from .tables import expand

if TYPE_CHECKING:
    from .state import State

ROLL_OUTCOMES: tuple[tuple[Move, float], ...] = tuple(
    (roll_move(a, b), (1 if a == b else 2) / 36) for a in range(1, 7) for b in range(a, 7)
)
"""The 21 distinct rolls of two dice, lower die first, with their probabilities."""

DEFENCE, WILD = 10, 11
EXTRA_TURN = (2, 12)
"""Totals after which the same seat rolls again (RULES.md §4)."""


class DiceRules:
    """Roll two dice, then act on the total: place, replace, remove (defence), or pass."""

    # --- the predicates: each condition of the rules once ---------------------------------------

    @staticmethod
    def opponents(st: State, team: int) -> Bitboard:
        return st._occ & ~st._chips[team]

    @staticmethod
    def defence_targets(st: State, team: int) -> Bitboard:
        """What a 10 removes: another team's chip, not on a 2 or a 12 space."""
        return st._occ & ~st._chips[team] & ~st._t.no_defence

    @staticmethod
    def number_spaces(st: State, total: int) -> Bitboard:
        """The spaces of a number (2 to 9, 12)."""
        return st._t.number_mask[total]

    # --- generation -----------------------------------------------------------------------------

    def allowance(self, st: State) -> tuple[str, Bitboard]:
        """What the roll being acted on lets the seat do (RULES.md §4): a code and the spaces it
        concerns. One decision, read by :meth:`moves` and by the explanation a player is shown
        (:func:`~.narrate.roll_reason`).

        ``defence`` (remove another team's chip, not on a 2 or 12) / ``defence_none``;
        ``out_of_chips`` (no chip left to place: pass); ``wild`` (a chip on any open space) /
        ``wild_full`` (a full board: replace another team's chip, or pass) / ``wild_none``;
        ``number`` (a chip on an open space of the number) / ``number_replace`` (all are taken:
        replace another team's chip on one) / ``number_none`` (all hold the team's chips).
        """
        team = st._to_move % st._teams
        assert st._roll is not None
        total = st._roll[0] + st._roll[1]
        if total == DEFENCE:
            targets = self.defence_targets(st, team)
            return ("defence" if targets else "defence_none"), targets
        if not has_supply(st, team):
            return "out_of_chips", 0
        if total == WILD:
            empty = open_spaces(st)
            if empty:
                return "wild", empty
            opponents = self.opponents(st, team)
            return ("wild_full" if opponents else "wild_none"), opponents
        spaces = self.number_spaces(st, total)
        empty = spaces & ~st._occ
        if empty:
            return "number", empty
        taken = spaces & self.opponents(st, team)
        return ("number_replace" if taken else "number_none"), taken

    def moves(self, st: State) -> list[Move]:
        """The actor's legal moves for the roll being acted on."""
        code, spaces = self.allowance(st)
        t = st._t
        moves: list[Move] = []
        if code == "number" or code == "wild":
            expand(t.place[None], spaces, moves)
        elif code == "defence":
            expand(t.remove[None], spaces, moves)
        elif code == "number_replace":
            expand(t.replace, spaces, moves)
        elif code == "wild_full":  # the seat *may* replace any opponent chip (§4 Decision)
            expand(t.replace, spaces, moves)
            moves.append(PASS)
        return moves or [PASS]

    # --- refusals -------------------------------------------------------------------------------

    def refusal(self, st: State, move: Move) -> Refusal:
        """Why ``move``, which :meth:`moves` does not offer, is refused."""
        kind = move.kind
        if kind not in (MoveKind.PLACE, MoveKind.REPLACE, MoveKind.REMOVE, MoveKind.PASS):
            return "move_not_in_game", {"kind": kind.name.lower(), "title": st.config.spec.title}
        if move.card is not None:
            return "dice_no_cards", {}
        if kind is MoveKind.PASS:
            return "roll_usable", {}
        space = move.space
        assert space is not None
        if not st.config.spec.layout.contains(space):
            return "off_board", {}
        assert st._roll is not None
        total = st._roll[0] + st._roll[1]
        where = space_name(space)
        if total == DEFENCE:
            return "defence_target", {"space": where}
        if not has_supply(st, st._to_move % st._teams):
            return "out_of_chips", {}
        if total == WILD:
            return "wild_roll", {"kind": kind.name.lower(), "space": where}
        label = st.config.spec.layout.labels[space]
        if label != total:
            return "wrong_number", {"total": total, "space": where, "label": label}
        return "number_rule", {"space": where, "total": total}

    # --- the turn -------------------------------------------------------------------------------

    @staticmethod
    def after_roll_used(st: State, seat: int) -> None:
        """The roll was acted on: the next seat rolls, or the same one after a 2 or a 12."""
        roll = st._roll
        st._roll = None
        extra = roll is not None and roll[0] + roll[1] in EXTRA_TURN
        st._next_turn(seat if extra else (seat + 1) % st._players)

    def after_pass(self, st: State, seat: int) -> None:
        """A roll nothing could use was passed: as any used roll."""
        self.after_roll_used(st, seat)

    def can_ever_change(self, st: State) -> bool:
        """Some roll could still place, replace or remove a chip (RULES.md §2.9, for Dice).

        An open space takes a chip (an 11 goes anywhere) while its team has one left; a chip
        off the 2 and 12 spaces can be removed by a 10; and on a full board an 11 replaces any
        chip of another team for a team that has a chip left.
        """
        teams = range(st._teams)
        if open_spaces(st) and any(has_supply(st, t) for t in teams):
            return True
        if st._occ & ~st._t.no_defence:
            return True
        return any(has_supply(st, t) and self.opponents(st, t) for t in teams)
