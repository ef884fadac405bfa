"""The fixed integer action space of each game: every move a player can ever make, numbered.

There is one action space per game of the family, the same for every player count and option:

- ``classic`` (also the draft variant, manual draw and the difficult rules): 697 actions;
- ``kids``: 155 actions;
- ``dice``: 109 actions.

Actions are numbered in this order (each block sorted by card number, then by space number,
space = ``row * 10 + col`` as in :mod:`sequence.engine.board`):

==================  ====================================================================
block               moves
==================  ====================================================================
``place``           ``CARD@SPACE``: an ordinary card on each of its two printed spaces;
                    a wild card (two-eyed Jack, Unicorn) on every space but the free
                    corners. Dice: ``@SPACE`` on every space.
``remove``          ``CARDxSPACE``: a remover (one-eyed Jack, Dragon) on every space but the
                    free corners. Dice: ``xSPACE`` on every space (a roll of 10).
``replace``         Dice only: ``=SPACE`` on every space (a full number, or 11 on a full board).
``dead``            ``dead:CARD`` for every ordinary card.
``discard``         ``discard:CARD`` for every card of the deck (nothing can be played).
``pick``            classic only: ``pick:CARD`` for every card (draft variant).
``forfeit``         classic only: ``forfeit:CARD`` for every card (table-talk penalty).
``pass``            ``pass`` (empty hand, or a Dice roll with no use).
``draw``            classic only: ``draw:1`` ... ``draw:12`` (option ``manual_draw``).
==================  ====================================================================

Not actions: Dice rolls (``roll:a+b``) are chance outcomes, and ``penalty:X`` is imposed by
the host, not chosen by a player. :class:`~sequence.env.SequenceEnv` takes the agent's own
draw for it, so ``draw`` actions never appear in its masks; they are in the space so that
every move a :class:`~sequence.engine.View` can offer has a number.

>>> space = action_space("classic")
>>> space.n
697
>>> space.move_to_action(Move.parse("5H@e5"))
30
>>> str(space.action_to_move(30))
'5H@e5'
>>> [str(space.action_to_move(a)) for a in (space.n - 13, space.n - 1)]
['pass', 'draw:12']
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache

from ..engine import (
    GAME_NAMES,
    OPTIONS,
    SPECS,
    CardKind,
    Config,
    Move,
    MoveKind,
    View,
    base_game,
    card_kind,
)

MAX_SEATS = 12
"""The most seats a game of the family has (classic, 12 players): one ``draw`` action each."""


class IllegalActionError(ValueError):
    """An action id that is not in the action space, or not legal in the position."""


def action_id(action: object) -> int:
    """``action`` as an id: an int, a numpy integer or a 0-d integer array; never ``1.7``,
    ``True`` or ``[3]`` (:class:`IllegalActionError`, whether or not it is in range).

    >>> action_id(3)
    3
    >>> action_id(True)
    Traceback (most recent call last):
    ...
    sequence.env.actions.IllegalActionError: an action is an int, not True
    """
    try:
        if action.__class__ is bool:  # an int to Python, but never an action
            raise TypeError
        return operator.index(action)  # type: ignore[arg-type]  # else a TypeError: not one
    except TypeError:
        raise IllegalActionError(f"an action is an int, not {action!r}") from None


@dataclass(frozen=True)
class ActionSpace:
    """The numbered moves of one game. Build it with :func:`action_space`.

    >>> dice = action_space("dice")
    >>> dice.n, str(dice.action_to_move(0)), dice.move_to_action(Move.parse("pass"))
    (109, '@a1', 108)
    """

    game: str
    moves: tuple[Move, ...]
    """Every action's move, indexed by action id."""
    blocks: tuple[tuple[str, int, int], ...]
    """``(name, first id, count)`` of each block of the layout, in order."""
    index: dict[Move, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "index", {m: i for i, m in enumerate(self.moves)})

    @property
    def n(self) -> int:
        """The number of actions (ids are ``0 .. n - 1``)."""
        return len(self.moves)

    def action_to_move(self, action: int) -> Move:
        """The move numbered ``action``; :class:`IllegalActionError` if there is none.

        >>> str(action_space("kids").action_to_move(0))
        'BEAR@b2'
        """
        action = action_id(action)
        if not 0 <= action < len(self.moves):
            raise IllegalActionError(
                f"no action {action} in {self.game}: actions are 0 to {len(self.moves) - 1}"
            )
        return self.moves[action]

    def move_to_action(self, move: Move | str) -> int:
        """The id of ``move`` (a :class:`Move` or its notation); :class:`IllegalActionError` if
        this game has no such move.

        >>> action_space("dice").move_to_action("=a1")
        72
        """
        if isinstance(move, str):
            move = Move.parse(move)
        try:
            return self.index[move]
        except KeyError:
            raise IllegalActionError(f"{move} is not a move of {self.game}") from None

    def ids(self, moves: Sequence[Move]) -> tuple[int, ...]:
        """The ids of ``moves``, in their order (``KeyError`` for a move not in this space).

        Looked up in one call (an ``operator.itemgetter``), not move by move: a move's hash is
        computed afresh at each lookup, and a legal-move list is looked up at every step.

        >>> space = action_space("dice")
        >>> space.ids([Move.parse("pass"), Move.parse("@a1")]), space.ids([])
        ((108, 0), ())
        """
        if len(moves) > 1:
            ids: tuple[int, ...] = operator.itemgetter(*moves)(self.index)
            return ids
        return (self.index[moves[0]],) if moves else ()

    def actions(self, moves: Iterable[Move]) -> list[int]:
        """The ids of ``moves``, in ascending order."""
        index = self.index
        return sorted(index[m] for m in moves)

    def legal_actions(self, view: View) -> list[int]:
        """The ids of ``view.legal_moves``, ascending (empty when the seat has nothing to do)."""
        self._check(view)
        return self.actions(view.legal_moves)

    def legal_action_mask(self, view: View) -> list[int]:
        """One int per action: 1 where the action is in ``view.legal_moves``, else 0.

        >>> from sequence.engine import State, make_config
        >>> view = State.new(make_config("kids"), seed=1).view(1)
        >>> mask = action_space("kids").legal_action_mask(view)
        >>> len(mask), sum(mask) == len(view.legal_moves)
        (155, True)
        """
        self._check(view)
        mask = [0] * len(self.moves)
        index = self.index
        for m in view.legal_moves:
            mask[index[m]] = 1
        return mask

    def block_of(self, action: int) -> str:
        """The name of the block ``action`` lies in (``place``, ``dead``, ...)."""
        for name, first, count in self.blocks:
            if first <= action < first + count:
                return name
        raise IllegalActionError(f"no action {action} in {self.game}")

    def describe(self) -> str:
        """The layout as text, one block a line: ``name  first-last  (count)``."""
        return "\n".join(
            f"{name:<8} {first:>4}-{first + count - 1:<4} ({count})"
            for name, first, count in self.blocks
        )

    def _check(self, view: View) -> None:
        if view.config.game != self.game:
            raise ValueError(
                f"a {view.config.game} view needs the {view.config.game} action space,"
                f" not {self.game}'s"
            )


def _game_of(game: str | Config | View) -> str:
    if isinstance(game, View):
        return game.config.game
    if isinstance(game, Config):
        return game.game
    if game not in GAME_NAMES:
        raise ValueError(f"unknown game {game!r}: choose {', '.join(GAME_NAMES)}")
    return base_game(game)[0]  # draft plays classic's actions


@cache
def _build(game: str) -> ActionSpace:
    spec = SPECS[game]
    layout = spec.layout
    playable = [s for s in layout.spaces if not layout.free >> s & 1]
    blocks: list[tuple[str, int, int]] = []
    moves: list[Move] = []

    def block(name: str, items: Sequence[Move]) -> None:
        if items:
            blocks.append((name, len(moves), len(items)))
            moves.extend(items)

    if spec.uses_cards:
        cards = sorted(set(spec.deck))
        ordinary = [c for c in cards if card_kind(c) is CardKind.ORDINARY]
        place: list[Move] = []
        remove: list[Move] = []
        for c in cards:
            kind = card_kind(c)
            if kind is CardKind.ORDINARY:
                place += [Move(MoveKind.PLACE, c, s) for s in layout.spaces_by_label[c]]
            elif kind is CardKind.WILD:
                place += [Move(MoveKind.PLACE, c, s) for s in playable]
            else:
                remove += [Move(MoveKind.REMOVE, c, s) for s in playable]
        block("place", place)
        block("remove", remove)
        block("dead", [Move(MoveKind.DEAD, c) for c in ordinary])
        block("discard", [Move(MoveKind.DISCARD, c) for c in cards])
        if game in OPTIONS["draft"].games:
            block("pick", [Move(MoveKind.PICK, c) for c in cards])
        if game == "classic":  # table-talk penalties are a rule of classic Sequence only
            block("forfeit", [Move(MoveKind.FORFEIT, c) for c in cards])
    else:
        block("place", [Move(MoveKind.PLACE, None, s) for s in playable])
        block("remove", [Move(MoveKind.REMOVE, None, s) for s in playable])
        block("replace", [Move(MoveKind.REPLACE, None, s) for s in playable])
    block("pass", [Move(MoveKind.PASS)])
    if game in OPTIONS["manual_draw"].games:
        block("draw", [Move(MoveKind.DRAW, seat=s) for s in range(MAX_SEATS)])
    # Every move through the engine's notation, so ids match what Move.parse gives.
    interned = tuple(Move.parse(str(m)) for m in moves)
    if interned != tuple(moves):
        raise AssertionError(f"{game}: the action space does not survive the move notation")
    return ActionSpace(game, interned, tuple(blocks))


def action_space(game: str | Config | View = "classic") -> ActionSpace:
    """The action space of a game (by name, or of a config or view); built once, then cached.

    >>> from sequence.engine import make_config
    >>> action_space(make_config("classic", players=4, draft=True)) is action_space("classic")
    True
    """
    return _build(_game_of(game))


def action_to_move(action: int, game: str | Config | View = "classic") -> Move:
    """The move numbered ``action`` in ``game``'s action space.

    >>> str(action_to_move(0))
    '2S@b1'
    """
    return action_space(game).action_to_move(action)


def move_to_action(move: Move | str, game: str | Config | View = "classic") -> int:
    """The action id of ``move`` in ``game``'s action space.

    >>> move_to_action("pass", "dice")
    108
    """
    return action_space(game).move_to_action(move)


def legal_action_mask(view: View) -> list[int]:
    """The 0/1 mask of ``view.legal_moves`` over its game's action space.

    >>> from sequence.engine import State, make_config
    >>> view = State.new(make_config("dice"), seed=2).view(0)
    >>> sum(legal_action_mask(view))  # the dice are still to be rolled: nothing to choose
    0
    """
    return action_space(view).legal_action_mask(view)


def legal_actions(view: View) -> list[int]:
    """The ids of ``view.legal_moves``, ascending."""
    return action_space(view).legal_actions(view)


__all__ = [
    "MAX_SEATS",
    "ActionSpace",
    "IllegalActionError",
    "action_space",
    "action_to_move",
    "legal_action_mask",
    "legal_actions",
    "move_to_action",
]
