"""What one seat may know: its own hand and everything public, nothing else.

A :class:`View` is built by :meth:`State.view` and is the only thing bots and front ends are
given. It never holds another player's hand (beyond cards publicly taken from the draft), the
order of the draw pile, or the random source (which would foretell shuffles and dice).

:meth:`State.sample_from_view` deals the hidden cards at random, consistently with a view: what a
search with hidden information needs (OpenSpiel's ``ResampleFromInfostate``).

>>> from sequence.engine import State, make_config
>>> state = State.new(make_config("classic", players=2), seed=1)
>>> view = state.view(0)
>>> view.hand == state.hand_of(0), view.hand_sizes
(True, (7, 7))
>>> State.sample_from_view(view, seed=5).view(0) == view
True
"""

from __future__ import annotations

from collections import Counter
from functools import cache, cached_property
from typing import TYPE_CHECKING, Any, NamedTuple

from .board import TEAM_LETTERS, Bitboard, board_text, line_geometry, space_name, spaces_of
from .cards import CARD_COUNT, Card, card_name
from .games import SPECS, Config
from .moves import Move
from .turn import Outcome, Phase, Setup

if TYPE_CHECKING:
    from .state import State

_new_tuple = tuple.__new__
_ROLLING = Phase.ROLL  # an enum member read through its metaclass at every read; a global is not


class _ViewFields(NamedTuple):
    """A :class:`View`'s fields, in order: a view is a tuple, built by one ``tuple.__new__``
    (it is built for every move of every bot and every learning-environment step; filling a
    dataclass's 22-entry ``__dict__`` cost about twice as much)."""

    config: Config
    seat: int | None
    hand: tuple[Card, ...] | None
    """The viewer's own hand; ``None`` for a spectator."""
    hand_sizes: tuple[int, ...]
    known_hands: tuple[tuple[Card, ...], ...]
    """Cards publicly known to be in each hand (draft variant: taken face up, not yet played)."""
    discards: tuple[tuple[Card, ...], ...]
    deck_size: int
    draft: tuple[Card, ...]
    chips: tuple[Bitboard, ...]
    sequences: tuple[tuple[Bitboard, ...], ...]
    to_move: int
    phase: Phase
    dead_cards_exchanged: int
    """Dead cards exchanged in this turn so far."""
    passes: int
    turns: int
    pending_draws: tuple[int, ...]
    forfeit: tuple[tuple[int, ...], int, Phase] | None
    roll: tuple[int, int] | None
    outcome: Outcome | None
    move_stack: tuple[Move, ...]
    """The public history: every move so far (moves never reveal a hidden card)."""
    setup: Setup | None
    legal_moves: tuple[Move, ...]
    """What the viewer may do now (empty when it is not the viewer's turn to act)."""


class View(_ViewFields):
    """One seat's knowledge of a game (``seat is None``: a spectator's). Read-only: its fields
    are a tuple's, and no attribute can be set on it (the properties it computes once, such
    as :attr:`unseen_pool`, are kept in its ``__dict__``)."""

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"a View is read-only: {name!r} cannot be set")

    @classmethod
    def of(cls, state: State, seat: int | None) -> View:
        """The view of ``seat`` (``None`` for a spectator) -- the one filter for hidden cards."""
        n = state.config.players
        if seat is not None and not 0 <= seat < n:
            raise ValueError(f"no seat {seat} in a {n}-player game")
        legal: tuple[Move, ...] = ()
        if seat is not None and state._phase is not _ROLLING:
            legal = state.legal_moves_of(seat)
        return _new_tuple(
            cls,
            (  # in the fields' order (tests/engine/test_api.py checks each by its name)
                state.config,
                seat,
                None if seat is None else state._hands[seat],
                tuple(map(len, state._hands)),
                state._known,
                state._discards,
                len(state._deck) - state._deck_pos,  # state.deck_size, without the call
                state._draft,
                state._chips,
                state._seqs,
                state._to_move,
                state._phase,
                state._exchanges,
                state._passes,
                state._turns,
                state._pending,
                state._forfeit,
                state._roll,
                state._outcome,
                tuple(state._moves),
                state.setup,
                legal,
            ),
        )

    @cached_property
    def unseen_pool(self) -> tuple[Card, ...]:
        """Every card the viewer cannot see (other hands, draw pile), computed once per view."""
        return _unseen_pool(self)

    @property
    def dead_card_exchanged(self) -> bool:
        """A dead card has been exchanged this turn."""
        return self.dead_cards_exchanged > 0

    @property
    def team(self) -> int | None:
        return None if self.seat is None else self.seat % self.config.teams

    @property
    def occupied(self) -> Bitboard:
        out = 0
        for m in self.chips:
            out |= m
        return out

    def chip_at(self, space: int) -> int | None:
        for team, m in enumerate(self.chips):
            if m >> space & 1:
                return team
        return None

    def supply(self, team: int) -> int:
        return self.config.chips[team] - self.chips[team].bit_count()

    @cached_property
    def locked(self) -> Bitboard:
        """The chips in a completed sequence, of any team (free corners left out)."""
        locked = 0
        for team_seqs in self.sequences:
            for window in team_seqs:
                locked |= window
        return locked & ~self.config.spec.layout.free

    def board_text(self) -> str:
        """The board as :meth:`State.board_text` draws it, from what this view shows."""
        return board_text(self.config.spec.layout, self.chip_at, self.locked)

    def is_over(self) -> bool:
        return self.outcome is not None

    def team_of(self, seat: int) -> int:
        return seat % self.config.teams

    @property
    def forfeits_due(self) -> tuple[int, ...]:
        """Seats that still owe a card to a table-talk penalty, in the order they give it."""
        return self.forfeit[0] if self.forfeit else ()

    def sequence_spaces(self, team: int) -> tuple[tuple[int, ...], ...]:
        """A team's completed sequences, each as its spaces in line order."""
        geo = line_geometry(self.config.spec.layout, self.config.line_length)
        return tuple(geo.window_spaces[w] for w in self.sequences[team])

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form for clients: names in notation, seats and teams 0-based."""
        cfg = self.config
        layout = cfg.spec.layout
        chips: list[int | None] = [None] * len(layout.spaces)
        index = _space_index(cfg.game)
        for team, mask in enumerate(self.chips):
            for s in spaces_of(mask):
                chips[index[s]] = team
        o = self.outcome
        setup = self.setup
        return {
            "game": cfg.game,
            "config": cfg.to_dict(),
            "seat": self.seat,
            "team": self.team,
            "teams": [
                {
                    "letter": TEAM_LETTERS[t],
                    "colour": cfg.spec.colours[t],
                    "seats": list(cfg.members(t)),
                }
                for t in range(cfg.teams)
            ],
            "hand": None if self.hand is None else [card_name(c) for c in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "known_hands": [[card_name(c) for c in h] for h in self.known_hands],
            "discards": [[card_name(c) for c in d] for d in self.discards],
            "deck_size": self.deck_size,
            "draft": [card_name(c) for c in self.draft],
            # The board in columns, spaces in reading order (a1, b1, ... row by row): small to
            # build and to send. A space's name and place follow from its index.
            "board": {
                "rows": layout.rows,
                "cols": layout.cols,
                "labels": _labels(cfg.game),
                "chips": chips,
                "locked": [space_name(s) for s in spaces_of(self.locked)],
            },
            "sequences": [
                [[space_name(s) for s in spaces_of(w)] for w in seqs] for seqs in self.sequences
            ],
            "sequences_to_win": cfg.sequences_to_win,
            "supply": [self.supply(t) for t in range(cfg.teams)],
            "to_move": self.to_move,
            "phase": self.phase.name.lower(),
            "dead_cards_exchanged": self.dead_cards_exchanged,
            "turns": self.turns,
            "pending_draws": list(self.pending_draws),
            "forfeits_due": list(self.forfeits_due),
            "roll": list(self.roll) if self.roll else None,
            "outcome": None
            if o is None
            else {"termination": o.termination.value, "winner": o.winner, "result": o.result()},
            "moves": [str(m) for m in self.move_stack],
            "last_move": str(self.move_stack[-1]) if self.move_stack else None,
            "setup": None
            if setup is None
            else {
                "dealer": setup.dealer,
                "first": setup.first,
                "cuts": [[[seat, card_name(c)] for seat, c in rnd] for rnd in setup.cuts],
                "rolls": [[[seat, list(d)] for seat, d in rnd] for rnd in setup.rolls],
            },
            "legal_moves": [str(m) for m in self.legal_moves],
        }


@cache
def _space_index(game: str) -> dict[int, int]:
    return {s: i for i, s in enumerate(SPECS[game].layout.spaces)}


@cache
def _labels(game: str) -> list[str]:
    layout = SPECS[game].layout
    return [layout.label_name(s) for s in layout.spaces]


def unseen_cards(view: View) -> Counter[Card]:
    """The cards the viewer cannot place: in other hands (not publicly known) or the draw pile."""
    return Counter(view.unseen_pool)


@cache
def _deck_counts(game: str) -> tuple[int, ...]:
    counts = [0] * CARD_COUNT
    for card in SPECS[game].deck:
        counts[card] += 1
    return tuple(counts)


def _unseen_pool(view: View) -> tuple[Card, ...]:
    counts = list(_deck_counts(view.config.game))
    seen: list[tuple[Card, ...]] = [view.draft, *view.discards]
    if view.hand is not None:
        seen.append(view.hand)
    seen += [known for seat, known in enumerate(view.known_hands) if seat != view.seat]
    for cards in seen:
        for card in cards:
            counts[card] -= 1
    if min(counts) < 0:
        raise ValueError("inconsistent view: more copies of a card seen than the deck holds")
    return tuple(card for card, k in enumerate(counts) for _ in range(k))
