"""What happened and what a roll allows, as public facts a front end can put into words.

A move's notation does not say who made it or whose chip a Jack took; the state knows both,
and both are public (everybody at the table saw them). :func:`history` gives them for every
move; :func:`roll_reason` says what the Dice roll being acted on lets the seat do, and why the
only choice is to pass when it is. Neither reveals a card: the facts are those of the board, the
turn and the move itself.

>>> from sequence.engine import State, make_config
>>> state = State.new(make_config("dice", players=2), seed=1)
>>> _ = state.push_text("roll:4+6")
>>> roll_reason(state)
{'code': 'defence_none', 'total': 10, 'dice': [4, 6], 'extra_turn': False}
>>> state.push_text("pass") and None
>>> [(e["seat"], e["kind"], e["total"]) for e in history(state)]
[(1, 'roll', 10), (1, 'pass', None)]
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .board import space_name, spaces_of
from .cards import card_name
from .dice_rules import DEFENCE, EXTRA_TURN, WILD, DiceRules
from .moves import MoveKind
from .turn import Phase

if TYPE_CHECKING:
    from .state import State

_TO_MOVE = 10
"""The place of ``_to_move`` in a state's undo snapshot (:meth:`State._snapshot`)."""
_CHIPS = 0
_SEQS = 2
"""The places of the chips and of the completed sequences in a state's undo snapshot."""


def roll_meaning(total: int) -> str:
    """What a Dice total is for: ``defence`` (10), ``wild`` (11) or ``number`` (RULES.md §4)."""
    if total == DEFENCE:
        return "defence"
    if total == WILD:
        return "wild"
    return "number"


def history(state: State, start: int = 0) -> list[dict[str, Any]]:
    """Every move so far with its public facts, oldest first (from move number ``start``, 0
    for the first: an entry never changes once its move is made, so a client that holds the
    first ``start`` needs only the rest).

    Each entry: ``move`` (notation), ``kind``, ``seat`` (who made it: the drawing seat for a
    draw, ``None`` for the host's table-talk penalty or where the state was loaded without its
    history), ``card``, ``space``, ``removed`` (the team whose chip a removal or a replacement
    took), ``team`` (the team penalised), ``dice``, ``total`` and ``meaning`` (a roll), and
    ``completed``: the sequences this move completed, each as its spaces in reading order
    (``[]`` for none, and where the state was loaded without its history).
    """
    moves = state._moves
    stack = state._stack
    known = len(stack) == len(moves)
    teams = state.config.teams
    out: list[dict[str, Any]] = []
    for i in range(max(0, start), len(moves)):
        move = moves[i]
        snap = stack[i] if known else None
        kind = move.kind
        seat: int | None = None if snap is None else snap[_TO_MOVE]
        if kind is MoveKind.DRAW:
            seat = move.seat
        elif kind is MoveKind.PENALTY:
            seat = None
        removed: int | None = None
        if snap is not None and move.space is not None and kind in (_REMOVE, _REPLACE):
            chips = snap[_CHIPS]
            removed = next((t for t in range(teams) if chips[t] >> move.space & 1), None)
        total = None if move.dice is None else move.dice[0] + move.dice[1]
        completed: list[list[str]] = []
        if snap is not None:
            after = stack[i + 1][_SEQS] if i + 1 < len(stack) else state._seqs
            for before_team, after_team in zip(snap[_SEQS], after, strict=True):
                completed += [
                    [space_name(s) for s in spaces_of(w)]
                    for w in after_team
                    if w not in before_team
                ]
        out.append(
            {
                "move": str(move),
                "kind": kind.name.lower(),
                "seat": seat,
                "card": None if move.card is None else card_name(move.card),
                "space": None if move.space is None else space_name(move.space),
                "removed": removed,
                "team": move.team,
                "dice": None if move.dice is None else list(move.dice),
                "total": total,
                "meaning": None if total is None else roll_meaning(total),
                "completed": completed,
            }
        )
    return out


_DICE = DiceRules()
_REMOVE = MoveKind.REMOVE
_REPLACE = MoveKind.REPLACE


def roll_reason(state: State) -> dict[str, Any] | None:
    """What the roll being acted on allows (Sequence Dice), or ``None`` when none is.

    ``code`` is one of ``defence`` (remove another team's chip), ``defence_none`` (a 10 with no
    chip it may take: pass), ``wild`` (a chip on any open space), ``wild_full`` (the board is
    full: replace another team's chip, or pass), ``wild_none``, ``number`` (a chip on an open
    space of that number), ``number_replace`` (every such space is taken: replace another team's
    chip on one), ``number_none`` (every such space holds your team's chip: pass) and
    ``out_of_chips`` (your team has no chip left: pass). ``extra_turn``: the same seat rolls
    again afterwards (a 2 or a 12).
    """
    roll = state._roll
    if roll is None or state._outcome is not None or state._phase is Phase.ROLL:
        return None
    total = roll[0] + roll[1]
    code, _ = _DICE.allowance(state)
    return {"code": code, "total": total, "dice": list(roll), "extra_turn": total in EXTRA_TURN}
