"""The game state: set-up, legal moves, push/pop, outcome, views and resampling.

One :class:`State` plays every game of the family: the chips, cards and turn it holds are the
same everywhere. What differs between the games is data in :mod:`.games` and the per-game rules
beside this core: :mod:`.card_rules` (classic, Kids and the draft variant) and
:mod:`.dice_rules`, each generating the legal moves and saying why any other move is refused.
:meth:`State.next_step` is the turn driver: what must happen next, and who does it.

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
from collections.abc import Callable, Collection, Sequence
from typing import Any

from . import rng as rngmod
from .board import TEAM_LETTERS, Bitboard, Space, board_text
from .card_rules import CardRules, DraftRules, Refusal, card_label
from .cards import Card
from .dice_rules import ROLL_OUTCOMES, DiceRules
from .errors import IllegalMoveError
from .games import CLASSIC, KIDS, Config, make_config
from .lines import choose_windows, new_windows
from .moves import Move as Move
from .moves import MoveKind, card_move, draw_move, penalty_move, roll_move
from .position import read_position, write_position
from .setup import opening, roll_dice
from .tables import game_tables
from .tuples import replaced, without
from .turn import CHANCE, Outcome, Phase, Setup, Step, StepKind, Termination
from .view import View

__all__ = [
    "CHANCE",
    "Outcome",
    "Phase",
    "Setup",
    "State",
    "Step",
    "StepKind",
    "Termination",
    "count_cards",
    "play_random_game",
]

# Enum members read on the hot path, bound once as globals: `MoveKind.PLACE` is looked up
# through the enum metaclass's __getattr__ hook (about 900 instructions a read, callgrind), a
# global costs a few dozen. Elsewhere the enums are written out.
_PLACE, _REPLACE, _REMOVE, _ROLL = MoveKind.PLACE, MoveKind.REPLACE, MoveKind.REMOVE, MoveKind.ROLL
_PLAY, _ACT, _ROLLING = Phase.PLAY, Phase.ACT, Phase.ROLL

_MOVE_STEP, _ROLL_STEP, _DRAW_STEP = StepKind.MOVE, StepKind.ROLL, StepKind.DRAW
# Every step a game can ask for, made once: next_step runs before every move of every game.
_OVER_STEP = Step(StepKind.OVER, None)
_ROLL_STEPS, _DRAW_STEPS, _MOVE_STEPS = (
    tuple(Step(kind, seat) for seat in range(12))
    for kind in (StepKind.ROLL, StepKind.DRAW, StepKind.MOVE)
)


_CLASSIC_RULES = CardRules(CLASSIC)
_KIDS_RULES = CardRules(KIDS)
_DRAFT_RULES = DraftRules()
_DICE_RULES = DiceRules()


def _rules_for(config: Config) -> CardRules | DiceRules:
    """The per-game rules of ``config``'s game."""
    if config.game == "dice":
        return _DICE_RULES
    if config.draft:
        return _DRAFT_RULES
    return _KIDS_RULES if config.game == "kids" else _CLASSIC_RULES


_FIELDS = (
    "_chips", "_occ", "_seqs", "_locked", "_hands", "_discards", "_deck", "_deck_pos", "_draft",
    "_known", "_to_move", "_phase", "_exchanges", "_passes", "_turns", "_pending", "_forfeit",
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
        *_FIELDS, "config", "_t", "_rules", "_moves", "_stack", "setup", "seed", "_legal",
        "_players", "_teams", "_auto_draw", "_heart", "_limits", "_max_turns", "_next_roll",
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
    _exchanges: int
    """Dead cards exchanged in this turn so far."""
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
        self._t = game_tables(config.game, config.line_length)
        self._rules = _rules_for(config)
        n, teams = config.players, config.teams
        self._players = n
        self._teams = teams
        self._limits = config.chips
        self._max_turns = config.max_turns
        # The common case gets a fast path in _apply: a card game whose draws are automatic.
        self._auto_draw = config.spec.uses_cards and not config.manual_draw and not config.draft
        self._heart = config.draft  # the draft's heart is looked for after each placement
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
        self._exchanges = 0
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
        r, setup = opening(r, config.game, n, config.spec.deck)
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

    def next_step(self, waiting: Collection[int] = ()) -> Step:
        """What must happen next: the one turn driver every player of a game follows.

        Bots, arenas, servers and environments all loop on it::

            while (step := state.next_step()).kind is not StepKind.OVER:
                if step.kind is StepKind.ROLL:
                    state.push(state.sample_chance())
                elif step.kind is StepKind.DRAW:
                    state.push(draw_move(step.seat))
                else:
                    state.push(choose(state.view(step.seat)), seat=step.seat)

        A seat with a draw open (option ``manual_draw``) takes it before the next seat moves.
        At a real table a person may draw late (RULES.md §2.5): the seats in ``waiting`` have
        chosen to leave their open draws for now, so the step passes them by (another open
        draw, else the seat to move), and the draw stays theirs until it lapses.

        >>> state = State.new(make_config("dice", players=2), seed=3)
        >>> state.next_step().kind is StepKind.ROLL
        True
        """
        if self._outcome is not None:
            return _OVER_STEP
        if self._phase is _ROLLING:
            return _ROLL_STEPS[self._to_move]
        pending = self._pending
        if pending:
            if not waiting:
                return _DRAW_STEPS[pending[0]]
            for seat in pending:
                if seat not in waiting:
                    return _DRAW_STEPS[seat]
        return _MOVE_STEPS[self._to_move]

    def play_forced(
        self, roll: Callable[[State], Move] | None = None, *, dice: bool = True, undo: bool = True
    ) -> Step:
        """Make every step no player chooses, up to a seat's decision or the end; return it.

        What no player chooses: a Dice roll (chance), and with option ``manual_draw`` a seat's
        open draw (taken at once). The rolls are :meth:`sample_chance`'s (this game's own
        random source, what a replay sees), or ``roll(state)``'s when given (a roll move,
        e.g. a caller's own random source). With ``dice=False`` a roll is left to the caller
        (an OpenSpiel chance node): the method stops at it. Returns the step reached: a
        ``MOVE`` (``seat`` chooses one of its legal moves), ``OVER``, or with ``dice=False`` a
        ``ROLL``. Nothing is made when the game already waits for a decision. With
        ``undo=False`` the moves made keep no undo records, as :meth:`push_index`'s (a game that
        is never taken back, as a learning environment's): :meth:`pop` cannot go back past them.

        The loop every learning environment runs between two decisions::

            while (step := state.play_forced()).kind is StepKind.MOVE:
                state.push(choose(state.view(step.seat)))

        >>> state = State.new(make_config("dice", players=2), seed=3)
        >>> state.next_step().kind is StepKind.ROLL
        True
        >>> step = state.play_forced()
        >>> step.kind is StepKind.MOVE, step.seat == state.to_move, state.roll is not None
        (True, True, True)
        >>> state.play_forced() == step  # already at a decision: nothing more is made
        True
        """
        next_step, make = self.next_step, self._make
        while True:
            step = next_step()
            kind = step.kind
            if kind is _ROLL_STEP:
                if not dice:
                    return step
                if roll is None:  # this game's own roll: legal by construction
                    move = self.sample_chance()
                else:
                    move = roll(self)
                    if getattr(move, "kind", None) is not _ROLL:
                        self.push(move)  # not a roll: push() says why it is refused
                        continue
                if not undo:
                    self._stack.clear()  # the undo records before this move no longer apply
                make(move, undo)
            elif kind is _DRAW_STEP:  # the seat's open draw: legal by construction
                if not undo:
                    self._stack.clear()
                make(draw_move(step.seat), undo)  # type: ignore[arg-type]
            else:
                return step

    def is_chance(self) -> bool:
        """True while the dice are to be rolled (see chance_outcomes and sample_chance)."""
        return self._phase is _ROLLING

    def chance_outcomes(self) -> tuple[tuple[Move, float], ...]:
        """The 21 distinct rolls with their probabilities (only at a chance node)."""
        return ROLL_OUTCOMES if self._phase is Phase.ROLL else ()

    def sample_chance(self) -> Move:
        """The roll this game's own random source gives next (what a replay will see)."""
        if self._phase is not _ROLLING:
            raise IllegalMoveError("no_roll_due")
        rng = self._rng
        cached = self._next_roll
        if cached is not None and cached[0] == rng:
            return cached[2]
        after, a, b = roll_dice(rng)
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
        """A dead card has been exchanged this turn."""
        return self._exchanges > 0

    @property
    def dead_cards_exchanged(self) -> int:
        """Dead cards exchanged this turn (at most :attr:`GameSpec.dead_cards_per_turn`)."""
        return self._exchanges

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

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        """``copy.deepcopy`` is :meth:`copy`: the rule objects and tables stay shared."""
        return self.copy()

    def copy(self, stack: bool = True) -> State:
        """An independent copy; with ``stack=False`` it cannot :meth:`pop` past this point."""
        new = State.__new__(State)
        new._restore(self._snapshot())
        new.config = self.config
        new._t = self._t
        new._rules = self._rules
        new._players = self._players
        new._teams = self._teams
        new._limits = self._limits
        new._max_turns = self._max_turns
        new._next_roll = self._next_roll
        new._auto_draw = self._auto_draw
        new._heart = self._heart
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
            if phase is _PLAY or phase is _ACT:
                moves = tuple(self._rules.moves(self))
            elif phase is _ROLLING:
                moves = tuple(m for m, _ in ROLL_OUTCOMES)
            elif phase is Phase.FORFEIT:
                moves = tuple(
                    card_move(MoveKind.FORFEIT, c)
                    for c in dict.fromkeys(self._hands[self._to_move])
                )
            else:
                moves = tuple(DraftRules.pick_moves(self))
            self._legal = moves
        return moves

    def legal_moves_of(self, seat: int) -> tuple[Move, ...]:
        """The moves ``seat`` may make now: the actor's :attr:`legal_moves`, or for another seat
        its open draw (option ``manual_draw``), or nothing."""
        if self._outcome is not None:
            return ()
        if seat == self._to_move and self._phase is not _ROLLING:
            moves = self._legal  # known once asked for (every decision asks twice or more)
            if moves is None:
                moves = self.legal_moves
            return moves + (draw_move(seat),) if seat in self._pending else moves
        return (draw_move(seat),) if seat in self._pending else ()

    def is_legal(self, move: Move, seat: int | None = None) -> bool:
        """Whether ``move`` may be made now (by ``seat``, when given)."""
        return self._refusal(move, seat) is None

    def refusal(self, move: Move, seat: int | None = None) -> IllegalMoveError | None:
        """Why ``move`` may not be made now (by ``seat``, when given), or ``None`` if it may.

        The error names the mistake with a code (``exc.code``) and its values (``exc.params``),
        which front ends render in the player's language; :meth:`push` raises the same error.

        >>> state = State.new(make_config("classic", players=2), seed=1)
        >>> state.refusal(Move.parse("5H@a1")).code
        'free_corner'
        """
        refused = self._refusal(move, seat)
        if refused is None:
            return None
        code, params = refused
        return IllegalMoveError(code, move=move if isinstance(move, Move) else None, **params)

    def push(self, move: Move, seat: int | None = None) -> None:
        """Make ``move``. With ``seat``, also check that this seat may make it.

        Raises :class:`IllegalMoveError`, saying why, and leaves the state untouched when the
        move is not legal.
        """
        legal = self._legal
        # Fast paths: the actor's legal moves are known (bots and playouts ask for them first),
        # or the dice are rolled at a chance node (every roll is possible).
        try:
            kind = move.kind
        except AttributeError:  # not a Move at all
            raise IllegalMoveError("not_a_move") from None
        if kind is _ROLL and self._phase is _ROLLING and seat is None:
            pass
        elif legal is None or seat is not None or move not in legal:
            refused = self._refusal(move, seat)
            if refused is not None:
                raise IllegalMoveError(refused[0], move=move, **refused[1])
        self._make(move)

    def push_index(self, index: int, seat: int, *, undo: bool = True) -> Move:
        """Make the ``index``-th of ``seat``'s legal moves (:meth:`legal_moves_of`, in its order:
        what ``state.view(seat).legal_moves`` lists while no roll is due); return that move.

        For a chooser that names a position in that list (a learning environment's action, a
        bot's pick): the move is legal by construction, so it is made without a legality check.
        Raises ``IndexError`` when ``seat`` has no such move (``index`` is never counted from
        the end). With ``undo=False`` no undo record is kept (a game that is never taken back,
        as a learning environment's): :meth:`pop` cannot go back past this move.

        >>> state = State.new(make_config("classic", players=2), seed=1)
        >>> seat = state.to_move
        >>> move = state.legal_moves_of(seat)[3]
        >>> state.push_index(3, seat) == move == state.peek()
        True
        """
        moves = self.legal_moves_of(seat)
        if not 0 <= index < len(moves):
            raise IndexError(f"seat {seat} has {len(moves)} legal moves: no move {index}")
        move = moves[index]
        if not undo:
            self._stack.clear()  # the undo records before this move no longer apply
        self._make(move, undo)
        return move

    def _make(self, move: Move, undo: bool = True) -> None:
        """Make a move known to be legal (random playouts): push without the check; with
        ``undo=False`` keep no undo record (a playout that is never taken back)."""
        if undo:
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

    def penalty_allowed(self, team: int) -> IllegalMoveError | None:
        """Why a table-talk penalty on ``team`` cannot be imposed now, or ``None`` if it can."""
        return self.refusal(penalty_move(team))

    # --- legality, with reasons -----------------------------------------------------------------
    # The conditions common to every game live here; each game's own are its rules' predicates
    # (card_rules, dice_rules), which generate the legal moves and explain every other move.

    def _refusal(self, move: Move, seat: int | None) -> Refusal | None:
        if not isinstance(move, Move):
            return "not_a_move", {}
        if self._outcome is not None:
            return "game_over", {}
        kind = move.kind
        if kind is MoveKind.DRAW:
            return self._draw_refusal(move, seat)
        if kind is MoveKind.PENALTY:
            return self._penalty_refusal(move)
        if seat is not None and seat != self._to_move:
            return "not_your_turn", {"seat": self._to_move + 1}
        phase = self._phase
        if kind is MoveKind.ROLL:
            return None if phase is Phase.ROLL and move.dice is not None else ("no_roll_due", {})
        if phase is Phase.ROLL:
            return "roll_first", {}
        if move in self.legal_moves:
            return None
        if phase is Phase.FORFEIT:
            if kind is not MoveKind.FORFEIT:
                return "forfeit_due", {}
            return "card_not_held", {"card": card_label(move.card)}
        if phase is Phase.PICK or phase is Phase.PICK_DEAD:
            return DraftRules.pick_refusal(self, move)
        return self._rules.refusal(self, move)

    def _draw_refusal(self, move: Move, seat: int | None) -> Refusal | None:
        """Option ``manual_draw``: a seat that has played takes its draw (RULES.md §2.5)."""
        cfg = self.config
        if not cfg.manual_draw:
            return "draw_automatic", {}
        if move.seat is None or not 0 <= move.seat < cfg.players:
            return "no_such_seat", {}
        if seat is not None and seat != move.seat:
            return "draw_for_yourself", {}
        if move.seat not in self._pending:
            return "no_draw_due", {}
        return None

    def _penalty_refusal(self, move: Move) -> Refusal | None:
        """Table talk (RULES.md §2.6): a team's members each forfeit a card."""
        cfg = self.config
        if cfg.game != "classic":
            return "penalty_not_in_game", {}
        if move.team is None or not 0 <= move.team < cfg.teams:
            return "no_such_team", {}
        if cfg.team_size < 2:
            return "penalty_no_team_mates", {}
        if self._phase is not Phase.PLAY:
            return "penalty_not_now", {}
        if not any(self._hands[s] for s in cfg.members(move.team)):
            return "penalty_no_cards", {"team": TEAM_LETTERS[move.team]}
        return None

    # --- applying moves -------------------------------------------------------------------------

    def _snapshot(self) -> tuple[Any, ...]:
        return (
            self._chips, self._occ, self._seqs, self._locked, self._hands, self._discards,
            self._deck, self._deck_pos, self._draft, self._known, self._to_move, self._phase,
            self._exchanges, self._passes, self._turns, self._pending, self._forfeit,
            self._roll, self._rng, self._outcome,
        )  # fmt: skip

    def _restore(self, snap: tuple[Any, ...]) -> None:
        (
            self._chips, self._occ, self._seqs, self._locked, self._hands, self._discards,
            self._deck, self._deck_pos, self._draft, self._known, self._to_move, self._phase,
            self._exchanges, self._passes, self._turns, self._pending, self._forfeit,
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
            self._rng = cached[1] if cached and cached[0] == self._rng else roll_dice(self._rng)[0]
            self._roll = move.dice
            self._phase = _ACT
            return
        elif kind is MoveKind.DEAD:
            self._play_card(me, move.card)
            self._exchanges += 1
            assert isinstance(self._rules, CardRules)
            self._rules.after_dead_card(self, me)
            return
        elif kind is MoveKind.DISCARD or kind is MoveKind.PASS:
            if move.card is not None:
                self._play_card(me, move.card)
            self._passes += 1
            self._rules.after_pass(self, me)
            # A pass does not end the game; a position that can never change again does.
            if self._outcome is None and not self._rules.can_ever_change(self):
                self._finish(Termination.STALEMATE, None)
            return
        elif kind is MoveKind.DRAW:
            self._take_draw(move.seat)  # type: ignore[arg-type]
            return
        elif kind is MoveKind.PICK:
            assert isinstance(self._rules, DraftRules)
            self._rules.pick(self, me, move.card)  # type: ignore[arg-type]
            return
        elif kind is MoveKind.PENALTY:
            self._impose_penalty(move.team)  # type: ignore[arg-type]
            return
        elif kind is MoveKind.FORFEIT:
            self._forfeit_card(me, move.card)  # type: ignore[arg-type]
            return
        if self._outcome is None:
            self._passes = 0
            self._end_action(me)

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
        self._exchanges = 0

    def _play_card(self, seat: int, card: Card | None) -> None:
        """Move a card from the seat's hand to its discard pile (nothing at Dice)."""
        if card is None:
            return
        self._hands = replaced(self._hands, seat, without(self._hands[seat], card))
        self._discards = replaced(self._discards, seat, (*self._discards[seat], card))
        if self.config.draft and card in self._known[seat]:
            self._known = replaced(self._known, seat, without(self._known[seat], card))

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
        if self._heart:
            self._rules.after_place(self, team, own)  # type: ignore[union-attr]

    def _new_sequences(self, team: int, space: Space, own: Bitboard) -> None:
        existing = self._seqs[team]
        candidates = new_windows(self._t.geo.through[space], own, existing)
        if candidates:
            chosen = choose_windows(self._t.geo, candidates, own, existing, self._opponents(team))
            self._record(team, existing + chosen)

    def _opponents(self, team: int) -> Bitboard:
        return self._occ & ~self._chips[team]

    def _record(self, team: int, seqs: tuple[Bitboard, ...]) -> None:
        self._seqs = replaced(self._seqs, team, seqs)
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
        self._chips = replaced(self._chips, owner, self._chips[owner] & ~bit)
        self._occ &= ~bit
        if self._locked & bit:  # only under `difficult`: the sequence is broken
            kept = tuple(w for w in self._seqs[owner] if not w & bit)
            self._record(owner, kept)
            self._rescan(owner)

    def _rescan(self, team: int) -> None:
        """After a sequence is broken (``difficult``), a run still five long counts again."""
        own = self._chips[team] | self._t.free
        existing = self._seqs[team]
        geo = self._t.geo
        candidates = new_windows(geo.windows, own, existing)
        if candidates:
            chosen = choose_windows(geo, candidates, own, existing, self._opponents(team))
            self._record(team, existing + chosen)

    def _end_action(self, seat: int) -> None:
        """After a card is played (or a Dice roll used): draw, then the next turn."""
        rules = self._rules
        if rules is _DICE_RULES:
            _DICE_RULES.after_roll_used(self, seat)
        else:
            rules.after_play(self, seat)  # type: ignore[union-attr]

    def _next_turn(self, seat: int) -> None:
        self._turns += 1
        if self._turns >= self.config.max_turns:
            self._finish(Termination.MAX_TURNS, None)
            return
        self._to_move = seat
        self._exchanges = 0
        self._phase = _ROLLING if self.config.game == "dice" else _PLAY

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
        self._hands = replaced(self._hands, seat, (*self._hands[seat], self._deck[self._deck_pos]))
        self._deck_pos += 1

    def _take_draw(self, seat: int) -> None:
        self._draw(seat)
        pending = self._pending  # one entry per play whose draw is open, in the plays' order
        taken = pending.index(seat)  # the seat's oldest open draw is the one it takes
        latest = len(pending) - 1 - pending[::-1].index(seat)  # the seat's latest play
        previous = (seat - 1) % self.config.players
        # Loss of card (RULES.md §2.5): this seat has now played and drawn, so each draw of the
        # seat before it that was opened before this seat's latest play lapses (in a 2-player
        # game the other seat may have played since: that draw stays open).
        self._pending = tuple(
            s for i, s in enumerate(pending) if i != taken and not (s == previous and i < latest)
        )

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
        return View.of(self, seat)

    @classmethod
    def sample_from_view(cls, view: View, seed: int) -> State:
        """A full state consistent with ``view``: the hidden cards dealt at random from ``seed``.

        Every card the viewer cannot see (other hands, the draw pile) is drawn from the cards
        not visible to it; cards publicly known to be in a hand (taken from the draft) stay
        there. The viewer's own knowledge is unchanged: ``sample.view(seat) == view``.
        What OpenSpiel calls ``ResampleFromInfostate``, for searches with hidden information.
        """
        cfg = view.config
        state = cls(cfg)
        r = rngmod.seed_state(seed)
        hands: list[tuple[Card, ...]] = []
        if cfg.spec.uses_cards:
            r, pool = rngmod.shuffled(r, view.unseen_pool)
            for seat, size in enumerate(view.hand_sizes):
                if seat == view.seat:
                    assert view.hand is not None
                    hands.append(view.hand)
                    continue
                known = view.known_hands[seat] if seat < len(view.known_hands) else ()
                missing = size - len(known)
                hands.append(known + tuple(pool[:missing]))
                pool = pool[missing:]
            if len(pool) != view.deck_size:
                raise ValueError(
                    "inconsistent view: hidden cards do not add up to hands and draw pile"
                )
            state._deck = tuple(pool)
        else:
            hands = [()] * cfg.players
        state._hands = tuple(hands)
        state._deck_pos = 0
        state._chips = view.chips
        state._occ = view.occupied
        state._seqs = view.sequences
        state._locked = view.locked
        state._discards = view.discards
        state._draft = view.draft
        state._known = view.known_hands
        state._to_move = view.to_move
        state._phase = view.phase
        state._exchanges = view.dead_cards_exchanged
        state._passes = view.passes
        state._turns = view.turns
        state._pending = view.pending_draws
        state._forfeit = view.forfeit
        state._roll = view.roll
        state._rng = r
        state._outcome = view.outcome
        state._moves = list(view.move_stack)
        state._stack = []
        state.setup = view.setup
        return state

    def resample(self, seat: int | None, seed: int) -> State:
        """Shorthand for ``State.sample_from_view(self.view(seat), seed)``."""
        return State.sample_from_view(self.view(seat), seed)

    # --- notation -------------------------------------------------------------------------------

    def position(self) -> str:
        """The position in text (see :mod:`.position`); :meth:`from_position` reads it back."""
        return write_position(self)

    @classmethod
    def from_position(cls, text: str) -> State:
        """The state a :meth:`position` text describes; :class:`InvalidPositionError` says
        what is wrong with a text that does not describe one."""
        return read_position(text, cls)

    def board_text(self) -> str:
        """The board for people: the label of each space, and team letters on chips, under the
        column letters and beside the row numbers that the move notation uses (``d3``)."""
        return board_text(self.config.spec.layout, self.chip_at, self._locked)


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
    A random playout is never taken back, so it keeps no undo records: the state returned has
    its whole :attr:`move_stack`, and :meth:`State.pop` cannot go back past its end.
    """
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    make, next_step = state._make, state.next_step
    rules_moves, uniform = state._rules.moves, rng.random
    legal: Sequence[Move]
    while True:
        step = next_step()
        kind = step.kind
        if kind is _MOVE_STEP:
            # As legal_moves and push(), without the copy of the list and the legality check:
            # the move is taken from the legal moves themselves.
            phase = state._phase
            legal = rules_moves(state) if phase is _PLAY or phase is _ACT else state.legal_moves
            make(legal[int(uniform() * len(legal))], False)
        elif kind is _ROLL_STEP:
            make(state.sample_chance(), False)
        elif kind is _DRAW_STEP:
            make(draw_move(step.seat), False)  # type: ignore[arg-type]
        else:
            state._stack.clear()  # undo records from before the playout no longer apply
            return state
