"""The game state: set-up, legal moves, push/pop, outcome, views and resampling.

One :class:`State` plays every game of the family. What differs between the games is data in
:mod:`.games` plus three hooks here: how a card game's turn goes (:meth:`State._card_moves`),
how a Dice turn goes (:meth:`State._dice_moves`), and the draft variant's face-up cards.

Every field of a state is an immutable value (ints, tuples), so :meth:`State.copy` shares them
and :meth:`State.pop` restores a saved snapshot of references: both are exact and cheap.

>>> state = State.new(make_config("classic", players=2), seed=7)
>>> move = state.legal_moves[0]
>>> state.push(move)
>>> state.pop() == move
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum, IntEnum
from functools import cache
from itertools import combinations
from typing import TYPE_CHECKING, Any

from . import rng as rngmod
from .board import (
    FILES,
    STRIDE,
    Bitboard,
    BoardLayout,
    LineGeometry,
    Space,
    line_geometry,
    space_name,
)
from .cards import CARD_COUNT, CARD_KINDS, Card, CardKind, card_name, card_rank
from .errors import IllegalMoveError
from .games import Config, make_config
from .moves import (
    PASS,
    TEAM_LETTERS,
    Move,
    MoveKind,
    card_move,
    draw_move,
    penalty_move,
    place_move,
    remove_move,
    replace_move,
    roll_move,
)

if TYPE_CHECKING:
    from .view import View


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
    """Every player passed for a whole round (drawn)."""
    MAX_TURNS = "max_turns"
    """The ``max_turns`` limit was reached (drawn)."""
    DECK_EMPTY = "deck_empty"
    """Draft variant: the deck ran out (drawn)."""


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


_OVER_STEP = Step(StepKind.OVER, None)
_STEPS = {
    kind: tuple(Step(kind, seat) for seat in range(12))
    for kind in (StepKind.ROLL, StepKind.DRAW, StepKind.MOVE)
}


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


# Enum members read on the hot path, bound once as globals: `MoveKind.PLACE` is looked up
# through the enum metaclass's __getattr__ hook (about 900 instructions a read, callgrind), a
# global costs a few dozen. Elsewhere the enums are written out.
_PLACE, _REPLACE, _REMOVE, _ROLL = MoveKind.PLACE, MoveKind.REPLACE, MoveKind.REMOVE, MoveKind.ROLL
_PLAY, _ACT, _ROLLING = Phase.PLAY, Phase.ACT, Phase.ROLL
_WILD = CardKind.WILD

STEPS = (1, STRIDE, STRIDE + 1, STRIDE - 1)
"""How far apart neighbouring spaces are, per direction of board.DIRECTIONS (a bit shift)."""
HEART_SPACES = (44, 45, 54, 55)
"""e5 f5 e6 f6: 5♥ 4♥ 2♥ 3♥ in the middle of the classic board (draft variant)."""
HEART: Bitboard = sum(1 << s for s in HEART_SPACES)
CHANCE = -1
"""The actor of a chance node, as in OpenSpiel: the dice."""

ROLL_OUTCOMES: tuple[tuple[Move, float], ...] = tuple(
    (roll_move(a, b), (1 if a == b else 2) / 36) for a in range(1, 7) for b in range(a, 7)
)


# --- tables built once per game -------------------------------------------------------------

_NBYTES = 13  # 100 spaces fit in 13 bytes


def _byte_table(moves_at: dict[Space, Move]) -> tuple[tuple[tuple[Move, ...], ...], ...]:
    """``table[k][b]``: the moves at the spaces of bits ``b`` of byte ``k`` of a bitboard.

    Turning a bitboard into moves a byte at a time costs 13 lookups instead of a loop over
    up to 96 bits: this is the hot path of Jacks, Unicorns, Dragons and Dice.
    """
    table = []
    for k in range(_NBYTES):
        # Each row is built from the row so far: the moves of ``b`` are those of ``b`` without
        # its top bit, then the top bit's (ascending bit order). Building every entry bit by bit
        # cost more than a whole game of classic.
        row: list[tuple[Move, ...]] = [()]
        for top in range(8):
            move = moves_at.get(8 * k + top)
            extra = () if move is None else (move,)
            row += [low + extra for low in row]
        table.append(tuple(row))
    return tuple(table)


def _expand(
    table: tuple[tuple[tuple[Move, ...], ...], ...], mask: Bitboard, out: list[Move]
) -> None:
    for k, b in enumerate(mask.to_bytes(_NBYTES, "little")):
        if b:
            out += table[k][b]


@dataclass(frozen=True)
class _Tables:
    """Precomputed per game (and line length): geometry and every move object."""

    geo: LineGeometry
    free: Bitboard
    playable: Bitboard
    card_spaces: dict[Card, tuple[Space, ...]]
    card_mask: dict[Card, Bitboard]
    place: dict[Card | None, tuple[tuple[tuple[Move, ...], ...], ...]]
    remove: dict[Card | None, tuple[tuple[tuple[Move, ...], ...], ...]]
    replace: tuple[tuple[tuple[Move, ...], ...], ...]
    ordinary: dict[Card, dict[Bitboard, tuple[Move, ...]]]
    """For an ordinary card: its open spaces (a subset of its two) -> the moves onto them."""
    dead: dict[Card, Move]
    number_mask: dict[int, Bitboard]
    no_defence: Bitboard
    length: int
    star: list[Bitboard]
    """Per space: the union of its four reaches; too few of a team's chips there, no new line."""
    lines: list[tuple[tuple[Bitboard, int, Bitboard], ...]]
    """Per space, per direction: (its reach, the step between neighbours, where a window
    through the space starts: space - k * step)."""
    by_card: list[tuple[Bitboard, dict[Bitboard, tuple[Move, ...]], Move] | None]
    """Indexed by card, for ordinary cards: (its spaces, open spaces -> moves, dead-card move)."""


@cache
def _tables(game: str, line_length: int) -> _Tables:
    cfg = make_config(game, 2)
    layout = cfg.spec.layout
    geo = line_geometry(layout, line_length)
    playable = layout.playable
    spaces = [s for s in layout.spaces if playable >> s & 1]
    place: dict[Card | None, Any] = {}
    remove: dict[Card | None, Any] = {}
    card_spaces: dict[Card, tuple[Space, ...]] = {}
    ordinary: dict[Card, dict[Bitboard, tuple[Move, ...]]] = {}
    if cfg.spec.uses_cards:
        for card in set(cfg.spec.deck):
            kind = CARD_KINDS[card]
            if kind is CardKind.ORDINARY:
                card_spaces[card] = layout.spaces_by_label[card]
                a, b = card_spaces[card]
                ma, mb = place_move(card, a), place_move(card, b)
                ordinary[card] = {1 << a: (ma,), 1 << b: (mb,), 1 << a | 1 << b: (ma, mb)}
            elif kind is CardKind.WILD:
                place[card] = _byte_table({s: place_move(card, s) for s in spaces})
            else:
                remove[card] = _byte_table({s: remove_move(card, s) for s in spaces})
        replace_table: Any = ()
    else:
        place[None] = _byte_table({s: place_move(None, s) for s in spaces})
        remove[None] = _byte_table({s: remove_move(None, s) for s in spaces})
        replace_table = _byte_table({s: replace_move(s) for s in spaces})
    number_mask: dict[int, Bitboard] = {}
    if layout.numbered:
        for s, n in layout.labels.items():
            number_mask[n] = number_mask.get(n, 0) | 1 << s
    return _Tables(
        geo=geo,
        free=layout.free,
        playable=playable,
        card_spaces=card_spaces,
        card_mask={c: sum(1 << s for s in sp) for c, sp in card_spaces.items()},
        place=place,
        remove=remove,
        replace=replace_table,
        ordinary=ordinary,
        dead={c: card_move(MoveKind.DEAD, c) for c in card_spaces},
        number_mask=number_mask,
        no_defence=number_mask.get(2, 0) | number_mask.get(12, 0),
        length=line_length,
        star=[_union(geo.reach.get(s, ())) for s in range(100)],
        lines=[
            tuple(
                (
                    reach,
                    step,
                    sum(1 << (s - k * step) for k in range(line_length) if s - k * step >= 0),
                )
                for reach, step in zip(geo.reach.get(s, ()), STEPS, strict=False)
            )
            for s in range(100)
        ],
        by_card=[
            (sum(1 << s for s in card_spaces[c]), ordinary[c], card_move(MoveKind.DEAD, c))
            if c in ordinary
            else None
            for c in range(CARD_COUNT)
        ],
    )


def _union(masks: tuple[Bitboard, ...]) -> Bitboard:
    out = 0
    for m in masks:
        out |= m
    return out


def _without(cards: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]


def _set(items: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return items[:i] + (value,) + items[i + 1 :]


_FIELDS = (
    "_chips", "_occ", "_seqs", "_locked", "_hands", "_discards", "_deck", "_deck_pos", "_draft",
    "_known", "_to_move", "_phase", "_dead_used", "_passes", "_turns", "_pending", "_forfeit",
    "_roll", "_rng", "_outcome",
)  # fmt: skip
"""The fields that make up a position; a snapshot for undo is their values, in this order."""


class State:
    """A game in progress: everything on the table, every hand, the draw pile, whose turn.

    Create one with :meth:`new` (from a seed), :meth:`from_position` (from notation) or
    :meth:`sample_from_view` (a guess at the hidden cards). Act on it with :meth:`legal_moves`,
    :meth:`push` and :meth:`pop`; look at it with :meth:`view` (one seat's knowledge),
    :meth:`outcome` and :meth:`position`.
    """

    __slots__ = (
        *_FIELDS, "config", "_t", "_moves", "_stack", "setup", "seed", "_legal",
        "_players", "_teams", "_auto_draw", "_limits", "_max_turns", "_next_roll",
    )  # fmt: skip

    _chips: tuple[Bitboard, ...]
    _occ: Bitboard
    _seqs: tuple[tuple[Bitboard, ...], ...]
    _locked: Bitboard
    _hands: tuple[tuple[Card, ...], ...]
    _discards: tuple[tuple[Card, ...], ...]
    _deck: tuple[Card, ...]
    _deck_pos: int
    _draft: tuple[Card, ...]
    _known: tuple[tuple[Card, ...], ...]
    _to_move: int
    _phase: Phase
    _dead_used: bool
    _passes: int
    _turns: int
    _pending: tuple[int, ...]
    _forfeit: tuple[tuple[int, ...], int, Phase] | None
    _roll: tuple[int, int] | None
    _rng: int
    _outcome: Outcome | None

    # --- creation ---------------------------------------------------------------------------

    def __init__(self, config: Config) -> None:
        """An empty table for ``config``; use :meth:`new` to set up a game."""
        self.config = config
        self._t = _tables(config.game, config.line_length)
        n, teams = config.players, config.teams
        self._players = n
        self._teams = teams
        self._limits = config.chips
        self._max_turns = config.max_turns
        # The common case gets a fast path in _apply: a card game whose draws are automatic.
        self._auto_draw = config.spec.uses_cards and not config.manual_draw and not config.draft
        self._chips = (0,) * teams
        self._occ = 0
        self._seqs = ((),) * teams
        self._locked = 0
        self._hands = ((),) * n
        self._discards = ((),) * n
        self._deck = ()
        self._deck_pos = 0
        self._draft = ()
        self._known = ((),) * n
        self._to_move = 0
        self._phase = Phase.PLAY if config.spec.uses_cards else Phase.ROLL
        self._dead_used = False
        self._passes = 0
        self._turns = 0
        self._pending = ()
        self._forfeit = None
        self._roll = None
        self._rng = 0
        self._outcome = None
        self._moves: list[Move] = []
        self._stack: list[tuple[Any, ...]] = []
        self.setup: Setup | None = None
        self.seed: int | None = None
        self._legal: tuple[Move, ...] | None = None
        self._next_roll: tuple[int, int, Move] | None = None
        """(random source, its state after the roll, the roll): sample_chance's result for push."""
        """The actor's legal moves, kept until the state changes: push checks against it."""

    @classmethod
    def new(cls, config: Config | None = None, seed: int = 0) -> State:
        """Set up a game from ``seed``: the cut for dealer, shuffle and deal (or the Dice roll-off).

        The same config and seed always give the same game.
        """
        config = config or make_config()
        state = cls(config)
        state.seed = seed
        r = rngmod.seed_state(seed)
        n = config.players
        if config.game == "dice":
            r, setup = _roll_off(r, n)
        elif config.game == "classic":
            r, setup = _cut_for_dealer(r, n, config.spec.deck)
        else:
            # Kids cards have no rank to cut with: the dealer is drawn at random (RULES.md §3).
            r, dealer = rngmod.below(r, n)
            setup = Setup(dealer=dealer, first=(dealer + 1) % n)
        if config.spec.uses_cards:
            r, deck = rngmod.shuffled(r, config.spec.deck)
            size = config.hand_size
            hands: list[list[Card]] = [[] for _ in range(n)]
            # Deal by the table: one card at a time, starting left of the dealer.
            for i in range(size * n):
                hands[(setup.first + i) % n].append(deck[i])
            state._hands = tuple(tuple(h) for h in hands)
            pos = size * n
            if config.draft:
                state._draft = tuple(deck[pos : pos + 5])
                pos += 5
            state._deck = tuple(deck)
            state._deck_pos = pos
        state._rng = r
        state._to_move = setup.first
        state.setup = setup
        return state

    # --- the public surface -----------------------------------------------------------------

    @property
    def to_move(self) -> int:
        """The seat whose turn it is (during a Dice roll, the seat about to roll)."""
        return self._to_move

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def move_stack(self) -> tuple[Move, ...]:
        """Every move pushed since the set-up (or since the position was created)."""
        return tuple(self._moves)

    @property
    def turns(self) -> int:
        """Turns completed."""
        return self._turns

    def actor(self) -> int:
        """Who must act now: a seat, or :data:`CHANCE` while the dice are to be rolled."""
        return CHANCE if self._phase is _ROLLING else self._to_move

    def next_step(self) -> Step:
        """What must happen next: the one turn driver every player of a game follows.

        Bots, arenas, servers and environments all loop on it::

            while (step := state.next_step()).kind is not StepKind.OVER:
                if step.kind is StepKind.ROLL:
                    state.push(state.sample_chance())
                elif step.kind is StepKind.DRAW:
                    state.push(draw_move(step.seat))
                else:
                    state.push(choose(state.view(step.seat)), seat=step.seat)

        A seat with a draw open (option ``manual_draw``) takes it before the next seat moves;
        a front end that lets a person draw later reads :attr:`pending_draws` instead.

        >>> state = State.new(make_config("dice", players=2), seed=3)
        >>> state.next_step().kind is StepKind.ROLL
        True
        """
        if self._outcome is not None:
            return _OVER_STEP
        if self._phase is _ROLLING:
            return _STEPS[StepKind.ROLL][self._to_move]
        if self._pending:
            return _STEPS[StepKind.DRAW][self._pending[0]]
        return _STEPS[StepKind.MOVE][self._to_move]

    def is_chance(self) -> bool:
        """True while the dice are to be rolled (see chance_outcomes and sample_chance)."""
        return self._phase is _ROLLING

    def chance_outcomes(self) -> tuple[tuple[Move, float], ...]:
        """The 21 distinct rolls with their probabilities (only at a chance node)."""
        return ROLL_OUTCOMES if self._phase is Phase.ROLL else ()

    def sample_chance(self) -> Move:
        """The roll this game's own random source gives next (what a replay will see)."""
        if self._phase is not _ROLLING:
            raise IllegalMoveError("no dice to roll now")
        rng = self._rng
        cached = self._next_roll
        if cached is not None and cached[0] == rng:
            return cached[2]
        after, a, b = _roll(rng)
        move = roll_move(a, b)
        self._next_roll = (rng, after, move)
        return move

    def is_over(self) -> bool:
        return self._outcome is not None

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""
        return self._outcome

    def returns(self) -> list[float]:
        """Per seat: 1 for a win, -1 for a loss, 0 for a draw or a game still going."""
        o = self._outcome
        if o is None or o.winner is None:
            return [0.0] * self.config.players
        return [
            1.0 if self.config.team_of(s) == o.winner else -1.0 for s in range(self.config.players)
        ]

    def team_of(self, seat: int) -> int:
        return seat % self.config.teams

    def hand_of(self, seat: int) -> tuple[Card, ...]:
        """A seat's hand: hidden information, shown to its holder only (via :meth:`view`)."""
        return self._hands[seat]

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """How many cards each seat holds (public)."""
        return tuple(len(h) for h in self._hands)

    @property
    def known_hands(self) -> tuple[tuple[Card, ...], ...]:
        """Per seat, the cards publicly known to be in its hand (draft variant: taken face up)."""
        return self._known

    @property
    def chips(self) -> tuple[Bitboard, ...]:
        """Per team, the spaces holding its chips as a bitboard (bit ``s`` = space ``s``)."""
        return self._chips

    def chip_at(self, space: Space) -> int | None:
        """The team whose chip is on ``space``, or ``None``."""
        if not self._occ >> space & 1:
            return None
        for team, mask in enumerate(self._chips):
            if mask >> space & 1:
                return team
        raise AssertionError("occupied space with no chip")

    def supply(self, team: int) -> int:
        """Chips a team has left to place."""
        return self.config.chips[team] - self._chips[team].bit_count()

    @property
    def sequences(self) -> tuple[tuple[Bitboard, ...], ...]:
        """Per team, its completed sequences, each as a bitboard of its spaces.

        >>> state = State.new(seed=1)
        >>> state.chips, state.sequences
        ((0, 0), ((), ()))
        """
        return self._seqs

    def sequence_spaces(self, team: int) -> tuple[tuple[Space, ...], ...]:
        """A team's completed sequences, each as its spaces in line order."""
        return tuple(self._t.geo.window_spaces[w] for w in self._seqs[team])

    @property
    def discards(self) -> tuple[tuple[Card, ...], ...]:
        """Per seat, its face-up discard pile, bottom first."""
        return self._discards

    @property
    def deck_size(self) -> int:
        return len(self._deck) - self._deck_pos

    @property
    def draft(self) -> tuple[Card, ...]:
        """Draft variant: the face-up cards to take from."""
        return self._draft

    @property
    def roll(self) -> tuple[int, int] | None:
        """Dice: the dice of the roll being acted on."""
        return self._roll

    @property
    def pending_draws(self) -> tuple[int, ...]:
        """Option ``manual_draw``: seats that have played and may still draw."""
        return self._pending

    @property
    def dead_card_exchanged(self) -> bool:
        """A dead card has been exchanged this turn (one per turn)."""
        return self._dead_used

    @property
    def passes(self) -> int:
        """Passes in a row (a turn with no chip placed or removed)."""
        return self._passes

    @property
    def forfeits_due(self) -> tuple[int, ...]:
        """Seats that still owe a card to a table-talk penalty, in the order they give it."""
        return self._forfeit[0] if self._forfeit else ()

    def dead_cards(self, seat: int) -> tuple[Card, ...]:
        """The distinct ordinary cards in a seat's hand whose spaces are both covered."""
        occ = self._occ
        masks = self._t.card_mask
        return tuple(
            c for c in dict.fromkeys(self._hands[seat]) if c in masks and occ & masks[c] == masks[c]
        )

    def copy(self, stack: bool = True) -> State:
        """An independent copy; with ``stack=False`` it cannot :meth:`pop` past this point."""
        new = State.__new__(State)
        new._restore(self._snapshot())
        new.config = self.config
        new._t = self._t
        new._players = self._players
        new._teams = self._teams
        new._limits = self._limits
        new._max_turns = self._max_turns
        new._next_roll = self._next_roll
        new._auto_draw = self._auto_draw
        new.setup = self.setup
        new.seed = self.seed
        new._moves = self._moves.copy() if stack else []
        new._stack = self._stack.copy() if stack else []
        new._legal = self._legal
        return new

    def __eq__(self, other: object) -> bool:
        """Two states are equal when their positions are (history aside)."""
        if not isinstance(other, State):
            return NotImplemented
        return self.config == other.config and self._key() == other._key()

    def __hash__(self) -> int:
        return hash((self.config, self._key()))

    def _key(self) -> tuple[Any, ...]:
        # The draw pile is kept as (cards, position of the next one); only what is left counts.
        snap = self._snapshot()
        return (*snap[:6], self._deck[self._deck_pos :], *snap[8:])

    def __repr__(self) -> str:
        cfg = self.config
        return f"<State {cfg.game} {cfg.players}p turn {self._turns} {self.position()!r}>"

    # --- moves --------------------------------------------------------------------------------

    @property
    def legal_moves(self) -> tuple[Move, ...]:
        """The moves whoever must act may make now (:attr:`to_move`'s; at a chance node the
        possible rolls). A table-talk penalty is not a seat's move (the host imposes it): see
        :meth:`penalty_allowed`. For another seat's moves, see :meth:`legal_moves_of`."""
        if self._outcome is not None:
            return ()
        moves = self._legal
        if moves is None:
            phase = self._phase
            if phase is _PLAY:
                moves = tuple(self._card_moves())
            elif phase is _ACT:
                moves = tuple(self._dice_moves())
            elif phase is _ROLLING:
                moves = tuple(m for m, _ in ROLL_OUTCOMES)
            elif phase is Phase.FORFEIT:
                moves = tuple(
                    card_move(MoveKind.FORFEIT, c)
                    for c in dict.fromkeys(self._hands[self._to_move])
                )
            else:
                moves = tuple(card_move(MoveKind.PICK, c) for c in dict.fromkeys(self._draft))
            self._legal = moves
        return moves

    def legal_moves_of(self, seat: int) -> tuple[Move, ...]:
        """The moves ``seat`` may make now: the actor's :attr:`legal_moves`, or for another seat
        its open draw (option ``manual_draw``), or nothing."""
        if seat == self._to_move:
            return self.legal_moves
        if self._outcome is None and seat in self._pending:
            return (draw_move(seat),)
        return ()

    def _card_moves(self) -> list[Move]:
        seat = self._to_move
        team = seat % self._teams
        t = self._t
        occ = self._occ
        can_place = self._chips[team].bit_count() < self._limits[team]
        moves: list[Move] = []
        dead: list[Move] = []
        by_card = t.by_card
        # Non-negative, unlike ~occ: an int & a negative int costs half as much again.
        empty = t.playable & ~occ
        for card in set(self._hands[seat]):
            ordinary = by_card[card]
            if ordinary is not None:  # its two spaces
                open_spaces = ordinary[0] & empty
                if open_spaces:
                    if can_place:
                        moves += ordinary[1][open_spaces]
                elif not self._dead_used:
                    dead.append(ordinary[2])
            elif CARD_KINDS[card] is _WILD:
                if can_place:
                    _expand(t.place[card], empty, moves)
            else:
                targets = occ & ~self._chips[team]
                if not self.config.difficult:
                    targets &= ~self._locked
                _expand(t.remove[card], targets, moves)
        if moves:
            return moves + dead if dead else moves
        # No card can be played (RULES.md §2.9): exchange a dead card, or discard any card.
        hand = self._hands[seat]
        if not hand:
            return [PASS]
        return dead + [card_move(MoveKind.DISCARD, c) for c in dict.fromkeys(hand)]

    def _dice_moves(self) -> list[Move]:
        seat = self._to_move
        team = seat % self.config.teams
        t = self._t
        occ = self._occ
        assert self._roll is not None
        total = self._roll[0] + self._roll[1]
        opponents = occ & ~self._chips[team]
        can_place = self._chips[team].bit_count() < self.config.chips[team]
        moves: list[Move] = []
        if total == 10:  # defence: remove any opponent chip except on 2 and 12
            _expand(t.remove[None], opponents & ~t.no_defence, moves)
        elif total == 11:  # wild: any empty space; a full board: replace any opponent chip
            if can_place:
                empty = t.playable & ~occ
                if empty:
                    _expand(t.place[None], empty, moves)
                else:
                    _expand(t.replace, opponents, moves)
        elif can_place:
            spaces = t.number_mask[total]
            empty = spaces & ~occ
            if empty:
                _expand(t.place[None], empty, moves)
            else:
                _expand(t.replace, spaces & opponents, moves)
        return moves or [PASS]

    def is_legal(self, move: Move, seat: int | None = None) -> bool:
        return self._illegal(move, seat) is None

    def push(self, move: Move, seat: int | None = None) -> None:
        """Make ``move``. With ``seat``, also check that this seat may make it.

        Raises :class:`IllegalMoveError`, saying why, and leaves the state untouched when the
        move is not legal.
        """
        legal = self._legal
        # Fast paths: the actor's legal moves are known (bots and playouts ask for them first),
        # or the dice are rolled at a chance node (every roll is possible).
        kind = move.kind
        if kind is _ROLL and self._phase is _ROLLING and seat is None:
            pass
        elif legal is None or seat is not None or move not in legal:
            reason = self._illegal(move, seat)
            if reason is not None:
                raise IllegalMoveError(f"{move}: {reason}")
        self._make(move)

    def _make(self, move: Move) -> None:
        """Make a move known to be legal (random playouts): push without the check."""
        self._stack.append(self._snapshot())
        self._moves.append(move)
        self._legal = None
        if move.kind is _PLACE and self._auto_draw:
            self._place_card_and_draw(self._to_move, move.card, move.space)  # type: ignore[arg-type]
        else:
            self._apply(move)

    def push_text(self, text: str, seat: int | None = None) -> Move:
        """Parse a move's notation and push it; return the move."""
        move = Move.parse(text)
        self.push(move, seat)
        return move

    def pop(self) -> Move:
        """Undo the last move, restoring the exact previous state; return that move."""
        if not self._stack:
            raise IndexError("no move to undo")
        self._restore(self._stack.pop())
        self._legal = None
        return self._moves.pop()

    def peek(self) -> Move | None:
        """The last move pushed."""
        return self._moves[-1] if self._moves else None

    def penalty_allowed(self, team: int) -> str | None:
        """Why a table-talk penalty on ``team`` cannot be imposed now, or ``None`` if it can."""
        return self._illegal(penalty_move(team), None)

    # --- legality, with reasons ---------------------------------------------------------------

    def _illegal(self, move: Move, seat: int | None) -> str | None:
        if not isinstance(move, Move):
            return "not a move"
        if self._outcome is not None:
            return "the game is over"
        kind = move.kind
        cfg = self.config
        if kind is MoveKind.DRAW:
            if not cfg.manual_draw:
                return "cards are drawn automatically in this game (option manual_draw is off)"
            if move.seat is None or not 0 <= move.seat < cfg.players:
                return "no such seat"
            if seat is not None and seat != move.seat:
                return "you can only draw for yourself"
            if move.seat not in self._pending:
                return (
                    "there is no draw to take: it was taken,"
                    " or it lapsed when the next player played and drew"
                )
            return None
        if kind is MoveKind.PENALTY:
            return self._penalty_illegal(move)
        if seat is not None and seat != self._to_move:
            return f"it is not your turn (seat {self._to_move + 1} is to act)"
        phase = self._phase
        if kind is MoveKind.ROLL:
            return None if phase is Phase.ROLL and move.dice is not None else "no dice to roll now"
        if phase is Phase.ROLL:
            return "the dice must be rolled first"
        if cfg.game == "dice":
            return self._dice_illegal(move)
        me = self._to_move
        hand = self._hands[me]
        if phase is Phase.FORFEIT:
            if kind is not MoveKind.FORFEIT:
                return "a table-talk penalty is due: give up a card first (forfeit:CARD)"
            return None if move.card in hand else f"you do not hold {_cname(move.card)}"
        if phase in (Phase.PICK, Phase.PICK_DEAD):
            if kind is not MoveKind.PICK:
                return "take one of the face-up cards now (pick:CARD)"
            return (
                None
                if move.card in self._draft
                else f"{_cname(move.card)} is not among the face-up cards"
            )
        if kind in (MoveKind.PICK, MoveKind.FORFEIT):
            return f"no {kind.name.lower()} is due now"
        if kind is MoveKind.PASS:
            return (
                None
                if not hand
                else "you hold cards: play one, or discard one if none can be played"
            )
        card = move.card
        if card is None or card not in hand:
            return (
                f"you do not hold {_cname(card)}" if card is not None else "name the card you play"
            )
        if kind is MoveKind.DEAD:
            if card not in self._t.card_mask:
                return f"{card_name(card)} is never dead: it goes anywhere or removes a chip"
            if self._occ & self._t.card_mask[card] != self._t.card_mask[card]:
                free = [space_name(s) for s in self._t.card_spaces[card] if not self._occ >> s & 1]
                return f"{card_name(card)} is not dead: {' and '.join(free)} still open"
            if self._dead_used:
                return "only one dead card may be exchanged a turn"
            return None
        if kind is MoveKind.DISCARD:
            if any(m.kind in (MoveKind.PLACE, MoveKind.REMOVE) for m in self._card_moves()):
                return "you can play a card, so you may not discard to pass"
            return None
        space = move.space
        if space is None or not cfg.spec.layout.contains(space):
            return "that space is not on the board"
        ckind = CARD_KINDS[card]
        team = me % cfg.teams
        if kind is MoveKind.PLACE:
            if ckind is CardKind.REMOVER:
                return (
                    f"{card_name(card)} removes a chip; it does not place one"
                    f" (write {card_name(card)}x{space_name(space)})"
                )
            if self._t.free >> space & 1:
                return f"{space_name(space)} is a free corner: no chip goes there"
            if self._occ >> space & 1:
                return f"{space_name(space)} is taken"
            if ckind is CardKind.ORDINARY and not self._t.card_mask[card] >> space & 1:
                where = " and ".join(space_name(s) for s in self._t.card_spaces[card])
                return f"{card_name(card)} goes on {where}, not {space_name(space)}"
            if self._chips[team].bit_count() >= cfg.chips[team]:
                return f"team {TEAM_LETTERS[team]} has no chips left to place"
            return None
        if kind is MoveKind.REMOVE:
            if ckind is not CardKind.REMOVER:
                return (
                    f"{card_name(card)} places a chip; only a one-eyed Jack or a Dragon removes one"
                )
            owner = self.chip_at(space) if cfg.spec.layout.contains(space) else None
            if owner is None:
                return f"there is no chip on {space_name(space)}"
            if owner == team:
                return f"the chip on {space_name(space)} is your own team's"
            if not cfg.difficult and self._locked >> space & 1:
                return f"the chip on {space_name(space)} is part of a completed sequence"
            return None
        return f"{kind.name.lower()} is not a move in {cfg.spec.title}"

    def _penalty_illegal(self, move: Move) -> str | None:
        cfg = self.config
        if cfg.game != "classic":
            return "table-talk penalties are a rule of classic Sequence"
        if move.team is None or not 0 <= move.team < cfg.teams:
            return "no such team"
        if cfg.team_size < 2:
            return "players who play alone have no team-mates to coach"
        if self._phase is not Phase.PLAY:
            return "a penalty can be imposed only between plays"
        if not any(self._hands[s] for s in cfg.members(move.team)):
            return f"nobody in team {TEAM_LETTERS[move.team]} holds a card"
        return None

    def _dice_illegal(self, move: Move) -> str | None:
        kind = move.kind
        if kind not in (MoveKind.PLACE, MoveKind.REPLACE, MoveKind.REMOVE, MoveKind.PASS):
            return f"{kind.name.lower()} is not a move in Sequence Dice"
        if move.card is not None:
            return "Sequence Dice has no cards: write @e5, =e5 or xe5"
        if move in self._dice_moves():
            return None
        assert self._roll is not None
        total = self._roll[0] + self._roll[1]
        if kind is MoveKind.PASS:
            return "the roll can be used: pass only when nothing can be done"
        space = move.space
        assert space is not None
        if not self.config.spec.layout.contains(space):
            return "that space is not on the board"
        where = space_name(space)
        if total == 10:
            return (
                "a roll of 10 removes an opponent's chip (not on 2 or 12):"
                f" xSPACE, and {where} is not one"
            )
        if (
            self._chips[self._to_move % self.config.teams].bit_count()
            >= self.config.chips[self._to_move % self.config.teams]
        ):
            return "you have no chips left to place"
        if total == 11:
            return (
                "a roll of 11 puts a chip on any empty space (or replaces one when the board"
                f" is full); not {kind.name.lower()} on {where}"
            )
        label = self.config.spec.layout.labels[space]
        if label != total:
            return f"you rolled {total}; {where} is a {label}"
        return (
            f"{where}: a roll of {total} places on an empty {total},"
            " or replaces an opponent's chip when all four are covered"
        )

    # --- applying moves -------------------------------------------------------------------------

    def _snapshot(self) -> tuple[Any, ...]:
        return (
            self._chips, self._occ, self._seqs, self._locked, self._hands, self._discards,
            self._deck, self._deck_pos, self._draft, self._known, self._to_move, self._phase,
            self._dead_used, self._passes, self._turns, self._pending, self._forfeit,
            self._roll, self._rng, self._outcome,
        )  # fmt: skip

    def _restore(self, snap: tuple[Any, ...]) -> None:
        (
            self._chips, self._occ, self._seqs, self._locked, self._hands, self._discards,
            self._deck, self._deck_pos, self._draft, self._known, self._to_move, self._phase,
            self._dead_used, self._passes, self._turns, self._pending, self._forfeit,
            self._roll, self._rng, self._outcome,
        ) = snap  # fmt: skip

    def _apply(self, move: Move) -> None:
        """Every move but the hot path (a card placed with automatic draw), which push takes."""
        kind = move.kind
        me = self._to_move
        if kind is _PLACE or kind is _REPLACE:
            self._play_card(me, move.card)
            self._place(me, move.space)  # type: ignore[arg-type]
        elif kind is _REMOVE:
            self._play_card(me, move.card)
            self._remove(move.space)  # type: ignore[arg-type]
        elif kind is _ROLL:
            cached = self._next_roll
            self._rng = cached[1] if cached and cached[0] == self._rng else _roll(self._rng)[0]
            self._roll = move.dice
            self._phase = _ACT
            return
        elif kind is MoveKind.DEAD:
            self._play_card(me, move.card)
            self._dead_used = True
            if self.config.draft:
                self._phase = Phase.PICK_DEAD
            else:
                self._draw(me)
            return
        elif kind is MoveKind.DISCARD or kind is MoveKind.PASS:
            if move.card is not None:
                self._play_card(me, move.card)
            self._passes += 1
            self._end_action(me, passed=True)
            return
        elif kind is MoveKind.DRAW:
            self._take_draw(move.seat)  # type: ignore[arg-type]
            return
        elif kind is MoveKind.PICK:
            self._pick(me, move.card)  # type: ignore[arg-type]
            return
        elif kind is MoveKind.PENALTY:
            self._impose_penalty(move.team)  # type: ignore[arg-type]
            return
        elif kind is MoveKind.FORFEIT:
            self._forfeit_card(me, move.card)  # type: ignore[arg-type]
            return
        if self._outcome is None:
            self._passes = 0
            self._end_action(me, passed=False)

    def _place_card_and_draw(self, seat: int, card: Card, space: Space) -> None:
        """The hot path: play a card, place its chip, draw, next player (as the general path)."""
        hands = list(self._hands)
        hand = hands[seat]
        i = hand.index(card)
        discards = list(self._discards)
        discards[seat] += (card,)
        self._discards = tuple(discards)
        self._place(seat, space)
        pos = self._deck_pos
        deck = self._deck
        if self._outcome is None and pos < len(deck):
            hands[seat] = hand[:i] + hand[i + 1 :] + (deck[pos],)
            self._deck_pos = pos + 1
            self._hands = tuple(hands)
        else:
            hands[seat] = hand[:i] + hand[i + 1 :]
            self._hands = tuple(hands)
            if self._outcome is not None:
                return
            self._draw(seat)
        self._passes = 0
        turns = self._turns + 1
        self._turns = turns
        if turns >= self._max_turns:
            self._finish(Termination.MAX_TURNS, None)
            return
        self._to_move = (seat + 1) % self._players
        self._dead_used = False

    def _play_card(self, seat: int, card: Card | None) -> None:
        """Move a card from the seat's hand to its discard pile (nothing at Dice)."""
        if card is None:
            return
        self._hands = _set(self._hands, seat, _without(self._hands[seat], card))
        self._discards = _set(self._discards, seat, (*self._discards[seat], card))
        if self.config.draft and card in self._known[seat]:
            self._known = _set(self._known, seat, _without(self._known[seat], card))

    def _place(self, seat: int, space: Space) -> None:
        team = seat % self._teams
        bit = 1 << space
        chips = self._chips
        if self._occ & bit:  # Dice replacement: the opponent's chip goes home
            chips = tuple(m & ~bit for m in chips)
        own = chips[team] | bit
        self._chips = chips[:team] + (own,) + chips[team + 1 :]
        self._occ |= bit
        t = self._t
        length = t.length
        own |= t.free
        if (own & t.star[space]).bit_count() >= length:
            for reach, step, starts in t.lines[space]:
                line = own & reach
                if line.bit_count() >= length:
                    # Bit p of `run` survives if p, p+step, ... (length spaces) are all the
                    # team's; only windows through this space matter (older runs are no news).
                    pairs = line & line >> step
                    run = pairs & pairs >> 2 * step  # runs of 4
                    if length == 5:
                        run &= line >> 4 * step
                    elif length == 6:
                        run &= pairs >> 4 * step
                    if run & starts:
                        self._new_sequences(team, space, own)
                        break
        if own & HEART == HEART and self.config.draft and self._outcome is None:
            self._finish(Termination.HEART, team)

    def _new_sequences(self, team: int, space: Space, own: Bitboard) -> None:
        existing = self._seqs[team]
        candidates = [
            w
            for w in self._t.geo.through[space]
            if own & w == w and all((w & e).bit_count() <= 1 for e in existing)
        ]
        if not candidates:
            return
        chosen = self._choose_windows(team, candidates, own)
        self._record(team, existing + chosen)

    def _choose_windows(
        self, team: int, candidates: list[Bitboard], own: Bitboard
    ) -> tuple[Bitboard, ...]:
        """Which five (RULES.md §1 Decision), for a placement that completes several windows.

        1. The most sequences: the largest set of complete windows sharing at most one space
           with each other and with the team's existing sequences.
        2. Among those, the most room for a later sequence: for each chosen window, the best
           window on the same line that could still become a new sequence (sharing at most one
           space with all chosen and existing ones, holding no opponent chip), counted by the
           team's chips already in it.
        3. Then the windows nearest the top-left (smallest space numbers), so it is deterministic.
        """
        if len(candidates) == 1:
            return (candidates[0],)
        geo = self._t.geo
        existing = self._seqs[team]
        opponents = self._occ & ~self._chips[team]
        pool = sorted(candidates, key=lambda w: geo.window_spaces[w])[:12]
        best: tuple[tuple[int, int, tuple[tuple[Space, ...], ...]], tuple[Bitboard, ...]] | None = (
            None
        )
        for size in range(len(pool), 0, -1):
            for combo in combinations(pool, size):
                if any((a & b).bit_count() > 1 for a, b in combinations(combo, 2)):
                    continue
                held = existing + combo
                room = 0
                for w in combo:
                    line = geo.line_of[w]
                    room += max(
                        (
                            (own & other).bit_count()
                            for other in geo.windows
                            if geo.line_of[other] == line
                            and not other & opponents
                            and all((other & h).bit_count() <= 1 for h in held)
                        ),
                        default=0,
                    )
                # Larger is better; negated spaces make the top-left window win a tie.
                order = tuple(
                    tuple(-s for s in ws) for ws in sorted(geo.window_spaces[w] for w in combo)
                )
                key = (size, room, order)
                if best is None or key > best[0]:
                    best = (key, combo)
            if best is not None:
                break
        assert best is not None
        return best[1]

    def _record(self, team: int, seqs: tuple[Bitboard, ...]) -> None:
        self._seqs = _set(self._seqs, team, seqs)
        locked = 0
        for team_seqs in self._seqs:
            for w in team_seqs:
                locked |= w
        self._locked = locked & ~self._t.free
        if len(seqs) >= self.config.sequences_to_win and self._outcome is None:
            self._finish(Termination.SEQUENCES, team)

    def _remove(self, space: Space) -> None:
        bit = 1 << space
        owner = next(team for team, m in enumerate(self._chips) if m & bit)
        self._chips = _set(self._chips, owner, self._chips[owner] & ~bit)
        self._occ &= ~bit
        if self._locked & bit:  # only under `difficult`: the sequence is broken
            kept = tuple(w for w in self._seqs[owner] if not w & bit)
            self._record(owner, kept)
            self._rescan(owner)

    def _rescan(self, team: int) -> None:
        """After a sequence is broken (``difficult``), a run still five long counts again."""
        own = self._chips[team] | self._t.free
        existing = self._seqs[team]
        candidates = [
            w
            for w in self._t.geo.windows
            if own & w == w and all((w & e).bit_count() <= 1 for e in existing)
        ]
        if candidates:
            self._record(team, existing + self._choose_windows(team, candidates, own))

    def _end_action(self, seat: int, passed: bool) -> None:
        """After a card is played (or a Dice roll used): draw, then the next turn."""
        cfg = self.config
        if cfg.game == "dice":
            roll = self._roll
            self._roll = None
            extra = roll is not None and roll[0] + roll[1] in (2, 12)
            self._next_turn(seat if extra else (seat + 1) % cfg.players)
            return
        if cfg.draft:
            self._phase = Phase.PICK
            return
        if cfg.manual_draw:
            self._pending = (*self._pending, seat)
        else:
            self._draw(seat)
        if passed and self._passes >= cfg.players:
            self._finish(Termination.STALEMATE, None)
            return
        self._next_turn((seat + 1) % cfg.players)

    def _next_turn(self, seat: int) -> None:
        self._turns += 1
        if self._turns >= self.config.max_turns:
            self._finish(Termination.MAX_TURNS, None)
            return
        self._to_move = seat
        self._dead_used = False
        self._phase = _ROLLING if self.config.game == "dice" else _PLAY
        if self._pending and seat in self._pending:  # loss of card: the draw lapsed
            self._pending = tuple(s for s in self._pending if s != seat)

    def _draw(self, seat: int) -> None:
        """The seat draws the top card; an empty pile is first made again from the discards."""
        if self._deck_pos >= len(self._deck):
            pile = [c for d in self._discards for c in d]
            if not pile:
                return
            self._rng, deck = rngmod.shuffled(self._rng, pile)
            self._deck = tuple(deck)
            self._deck_pos = 0
            self._discards = ((),) * self.config.players
        self._hands = _set(self._hands, seat, (*self._hands[seat], self._deck[self._deck_pos]))
        self._deck_pos += 1

    def _take_draw(self, seat: int) -> None:
        self._draw(seat)
        previous = (seat - 1) % self.config.players
        # This seat has now played and drawn: the previous seat's draw lapses (loss of card).
        self._pending = tuple(s for s in self._pending if s != seat and s != previous)

    def _pick(self, seat: int, card: Card) -> None:
        self._hands = _set(self._hands, seat, (*self._hands[seat], card))
        self._known = _set(self._known, seat, (*self._known[seat], card))
        draft = _without(self._draft, card)
        if self._deck_pos < len(self._deck):
            draft = (*draft, self._deck[self._deck_pos])
            self._deck_pos += 1
            self._draft = draft
        else:
            self._draft = draft
            self._finish(Termination.DECK_EMPTY, None)
            return
        if self._phase is Phase.PICK_DEAD:
            self._phase = Phase.PLAY
        else:
            if self._passes >= self.config.players:
                self._finish(Termination.STALEMATE, None)
                return
            self._next_turn((seat + 1) % self.config.players)

    def _impose_penalty(self, team: int) -> None:
        n = self.config.players
        order = [(self._to_move + i) % n for i in range(n)]
        due = tuple(s for s in order if s % self.config.teams == team and self._hands[s])
        self._forfeit = (due, self._to_move, self._phase)
        self._to_move = due[0]
        self._phase = Phase.FORFEIT

    def _forfeit_card(self, seat: int, card: Card) -> None:
        self._play_card(seat, card)
        assert self._forfeit is not None
        due, resume_seat, resume_phase = self._forfeit
        due = due[1:]
        if due:
            self._forfeit = (due, resume_seat, resume_phase)
            self._to_move = due[0]
        else:
            self._forfeit = None
            self._to_move = resume_seat
            self._phase = resume_phase

    def _finish(self, termination: Termination, winner: int | None) -> None:
        self._outcome = Outcome(termination, winner)
        self._phase = Phase.OVER
        self._pending = ()  # nobody draws once the game is over

    # --- views and hidden information ---------------------------------------------------------

    def view(self, seat: int | None) -> View:
        """What ``seat`` may see (``None``: a spectator): its own hand and everything public."""
        from .view import View

        return View.of(self, seat)

    @classmethod
    def sample_from_view(cls, view: View, seed: int) -> State:
        """A full state consistent with ``view``: the hidden cards dealt at random from ``seed``.

        Every card the viewer cannot see (other hands, the draw pile) is drawn from the cards
        not visible to it; cards publicly known to be in a hand (taken from the draft) stay
        there. The viewer's own knowledge is unchanged: ``sample.view(seat) == view``.
        """
        from .view import state_from_view

        return state_from_view(view, seed)

    def resample(self, seat: int | None, seed: int) -> State:
        """Shorthand for ``State.sample_from_view(self.view(seat), seed)``."""
        return State.sample_from_view(self.view(seat), seed)

    # --- notation -------------------------------------------------------------------------------

    def position(self) -> str:
        """The position in text (see :mod:`.position`); :meth:`from_position` reads it back."""
        from .position import write_position

        return write_position(self)

    @classmethod
    def from_position(cls, text: str) -> State:
        from .position import read_position

        return read_position(text)

    def board_text(self) -> str:
        """The board for people: the label of each space, and team letters on chips, under the
        column letters and beside the row numbers that the move notation uses (``d3``)."""
        return board_text(self.config.spec.layout, self.chip_at, self._locked)


def board_text(
    layout: BoardLayout, chip_at: Callable[[Space], int | None], locked: Bitboard
) -> str:
    """The text of :meth:`State.board_text` (and of ``View.board_text``): chips of a completed
    sequence (``locked``) in capitals."""
    lines = ["   " + "".join(f" {FILES[c]}  " for c in range(layout.cols)).rstrip()]
    for r in range(layout.rows):
        cells = []
        for c in range(layout.cols):
            s = r * STRIDE + c
            team = chip_at(s)
            if team is not None:
                letter = TEAM_LETTERS[team]
                mark = letter * 2 if locked >> s & 1 else letter.lower() * 2
                cells.append(f"[{mark}]")
            else:
                cells.append(f" {layout.label_name(s)[:2]:<2} ")
        lines.append(f"{r + 1:>2} " + "".join(cells))
    return "\n".join(lines)


# --- set-up helpers ---------------------------------------------------------------------------


def _cut_for_dealer(r: int, players: int, deck: Sequence[Card]) -> tuple[int, Setup]:
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


def _roll(r: int) -> tuple[int, int, int]:
    r, a = rngmod.below(r, 6)
    r, b = rngmod.below(r, 6)
    return r, a + 1, b + 1


def _roll_off(r: int, players: int) -> tuple[int, Setup]:
    """Everyone rolls both dice; the highest total starts, ties roll again (RULES.md §4)."""
    contenders = list(range(players))
    rounds = []
    while True:
        rolled = []
        for seat in contenders:
            r, a, b = _roll(r)
            rolled.append((seat, (a, b)))
        rounds.append(tuple(rolled))
        high = max(a + b for _, (a, b) in rolled)
        contenders = [seat for seat, (a, b) in rolled if a + b == high]
        if len(contenders) == 1:
            return r, Setup(dealer=None, first=contenders[0], rolls=tuple(rounds))


def _cname(card: Card | None) -> str:
    return "that card" if card is None else card_name(card)


def count_cards(state: State) -> Counter[Card]:
    """Every card of the game wherever it is (hands, discards, draw pile, draft): for checks."""
    counts: Counter[Card] = Counter()
    for h in state._hands:
        counts.update(h)
    for d in state._discards:
        counts.update(d)
    counts.update(state._deck[state._deck_pos :])
    counts.update(state._draft)
    return counts


def play_random_game(state: State, seed: int | random.Random = 0) -> State:
    """Play ``state`` to the end with uniformly random legal moves; return it.

    The dice come from the game's own random source; a seat with a pending draw (option
    ``manual_draw``) always draws. Deterministic from ``seed`` (or the ``random.Random`` given).
    """
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    manual = state.config.manual_draw
    push, make = state.push, state._make
    card_moves, dice_moves, uniform = state._card_moves, state._dice_moves, rng.random
    legal: Sequence[Move]
    while state._outcome is None:
        # As legal_moves and push(), without the copy of the list and the legality check:
        # the move is taken from the legal moves themselves (or is the dice's roll).
        phase = state._phase
        if phase is _ROLLING:
            make(state.sample_chance())
            continue
        if phase is _PLAY:
            legal = card_moves()
        elif phase is _ACT:
            legal = dice_moves()
        else:
            legal = state.legal_moves
        seat = state._to_move
        make(legal[int(uniform() * len(legal))])
        if manual and seat in state._pending and state._outcome is None:
            push(draw_move(seat))
    return state
