"""The card games' rules: what a seat may play in classic Sequence and Sequence for Kids, and why
anything else is refused. The draft variant's face-up cards are :class:`DraftRules`.

Each condition of the rules is one predicate here (:func:`open_spaces`,
:meth:`CardRules.removable`, :func:`has_supply`, :meth:`CardRules.may_exchange_dead`), read
both by :meth:`CardRules.moves`, which generates the legal moves, and by
:meth:`CardRules.refusal`, which says why a move that is not among them is refused. So the two
cannot drift apart; ``tests/engine/test_properties.py`` checks it on random games.

>>> from sequence.engine import Move, State, make_config
>>> state = State.new(make_config("kids", players=2), seed=4)
>>> state.push_text("FOX@g4")
Traceback (most recent call last):
...
sequence.engine.errors.IllegalMoveError: FOX@g4: you do not hold FOX
>>> state.refusal(state.legal_moves[0]) is None, state.refusal(Move.parse("LION@a1")).code
(True, 'free_corner')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .board import TEAM_LETTERS, Bitboard, space_name
from .cards import CARD_KINDS, Card, CardKind, card_name
from .games import CLASSIC, GameSpec
from .moves import PASS, Move, MoveKind, card_move
from .tables import HEART, expand
from .tuples import replaced, without
from .turn import Phase, Termination

if TYPE_CHECKING:
    from .state import State

Refusal = tuple[str, dict[str, Any]]
"""Why a move is refused: an error code of :data:`~.errors.MESSAGES` and its parameters."""

_WILD = CardKind.WILD
_PLACE, _REMOVE = MoveKind.PLACE, MoveKind.REMOVE


def has_supply(st: State, team: int) -> bool:
    """The team has a chip left to place (RULES.md §2.1 Decision, §4 Decision)."""
    return st._chips[team].bit_count() < st._limits[team]


def open_spaces(st: State) -> Bitboard:
    """Where a chip may go: no chip on it, and not a free corner (none at Dice)."""
    return st._t.playable & ~st._occ


def card_label(card: Card | None) -> str:
    """A card as a refusal names it."""
    return "that card" if card is None else card_name(card)


class CardRules:
    """Classic Sequence and Sequence for Kids: play a card, place or remove a chip, draw.

    ``spec`` says how many dead cards a turn may exchange and what a seat that can play no
    card does (:attr:`GameSpec.dead_cards_per_turn`, :attr:`GameSpec.stuck_passes`).
    """

    def __init__(self, spec: GameSpec) -> None:
        self.dead_cards_per_turn = spec.dead_cards_per_turn
        self.stuck_passes = spec.stuck_passes

    # --- the predicates: each condition of the rules once ---------------------------------------

    @staticmethod
    def removable(st: State, team: int) -> Bitboard:
        """The chips a remover (one-eyed Jack, Dragon) of ``team`` may take off: another
        team's, and not in a completed sequence unless the ``difficult`` variant is on."""
        targets = st._occ & ~st._chips[team]
        if not st.config.difficult:
            targets &= ~st._locked
        return targets

    def may_exchange_dead(self, st: State) -> bool:
        """Another dead card may be exchanged this turn (RULES.md §2.4: one a turn in classic;
        §3: three in Kids)."""
        return st._exchanges < self.dead_cards_per_turn

    # --- generation -----------------------------------------------------------------------------

    def moves(self, st: State) -> list[Move]:
        """The actor's legal moves in the play phase (RULES.md §2.4, §2.9, §3)."""
        seat = st._to_move
        team = seat % st._teams
        t = st._t
        empty = open_spaces(st)
        can_place = has_supply(st, team)
        dead_ok: bool | None = None  # asked only when a card is dead: rare
        moves: list[Move] = []
        dead: list[Move] = []
        by_card = t.by_card
        targets: Bitboard | None = None
        for card in set(st._hands[seat]):
            ordinary = by_card[card]
            if ordinary is not None:  # its two spaces
                reach = ordinary[0] & empty  # its spaces still open
                if reach:
                    if can_place:
                        moves += ordinary[1][reach]
                else:
                    if dead_ok is None:
                        dead_ok = self.may_exchange_dead(st)
                    if dead_ok:
                        dead.append(ordinary[2])
            elif CARD_KINDS[card] is _WILD:
                if can_place:
                    expand(t.place[card], empty, moves)
            else:
                if targets is None:
                    targets = self.removable(st, team)
                expand(t.remove[card], targets, moves)
        if moves:
            return moves + dead if dead else moves
        hand = st._hands[seat]
        if not hand:
            return [PASS]
        if self.stuck_passes:
            # Kids (RULES.md §3): exchange a dead card while one may be; then the turn passes.
            return dead or [PASS]
        # Classic (RULES.md §2.9): exchange a dead card, or discard any card.
        discard = t.discard
        return dead + [discard[c] for c in dict.fromkeys(hand)]

    # --- refusals -------------------------------------------------------------------------------

    def refusal(self, st: State, move: Move) -> Refusal:
        """Why ``move``, which :meth:`moves` does not offer, is refused (play phase)."""
        kind = move.kind
        hand = st._hands[st._to_move]
        if kind is MoveKind.PASS:
            return ("kids_must_play" if self.stuck_passes else "must_play"), {}
        if kind in (MoveKind.PICK, MoveKind.FORFEIT):
            return ("no_pick_due" if kind is MoveKind.PICK else "no_forfeit_due"), {}
        if kind not in (MoveKind.DEAD, MoveKind.DISCARD, _PLACE, _REMOVE):
            return "move_not_in_game", {"kind": kind.name.lower(), "title": st.config.spec.title}
        card = move.card
        if card is None:
            return "card_missing", {}
        if card not in hand:
            return "card_not_held", {"card": card_label(card)}
        t = st._t
        if kind is MoveKind.DEAD:
            mask = t.card_mask.get(card)
            if mask is None:
                return "never_dead", {"card": card_name(card)}
            still_open = [space_name(s) for s in t.card_spaces[card] if open_spaces(st) >> s & 1]
            if len(still_open) == 1:
                return "not_dead", {"card": card_name(card), "space": still_open[0]}
            if still_open:
                return "not_dead_both", {
                    "card": card_name(card),
                    "space1": still_open[0],
                    "space2": still_open[1],
                }
            assert not self.may_exchange_dead(st)
            if self.dead_cards_per_turn == 1:
                return "one_dead_card", {}
            return "dead_card_limit", {"limit": self.dead_cards_per_turn}
        if kind is MoveKind.DISCARD:
            return ("kids_no_discard" if self.stuck_passes else "can_play"), {}
        space = move.space
        if space is None or not st.config.spec.layout.contains(space):
            return "off_board", {}
        ckind = CARD_KINDS[card]
        team = st._to_move % st._teams
        where = space_name(space)
        if kind is _PLACE:
            if ckind is CardKind.REMOVER:
                return "remover_places", {
                    "card": card_name(card),
                    "hint": f"{card_name(card)}x{where}",
                }
            if not open_spaces(st) >> space & 1:
                if t.free >> space & 1:
                    return "free_corner", {"space": where}
                return "space_taken", {"space": where}
            if ckind is CardKind.ORDINARY and not t.card_mask[card] >> space & 1:
                first, second = (space_name(s) for s in t.card_spaces[card])
                return "wrong_space", {
                    "card": card_name(card),
                    "space1": first,
                    "space2": second,
                    "space": where,
                }
            assert not has_supply(st, team)
            return "team_out_of_chips", {"team": TEAM_LETTERS[team]}
        if ckind is not CardKind.REMOVER:
            return "placer_removes", {"card": card_name(card)}
        owner = st.chip_at(space)
        if owner is None:
            return "no_chip", {"space": where}
        if owner == team:
            return "own_chip", {"space": where}
        assert not self.removable(st, team) >> space & 1
        return "chip_locked", {"space": where}

    # --- the turn -------------------------------------------------------------------------------

    def after_dead_card(self, st: State, seat: int) -> None:
        """A dead card was exchanged: its replacement is drawn and the turn goes on."""
        st._draw(seat)

    def after_play(self, st: State, seat: int) -> None:
        """A card was played: the seat draws (now, or later under ``manual_draw``); next turn."""
        if st.config.manual_draw:
            # Each play opens a draw, in the order of the plays; an older one of the same seat
            # stays open until it lapses (RULES.md §2.5, State._take_draw).
            st._pending = (*st._pending, seat)
        else:
            st._draw(seat)
        st._next_turn((seat + 1) % st._players)

    def after_pass(self, st: State, seat: int) -> None:
        """A seat passed (no card played, or a card discarded): in Kids a seat that holds
        cards keeps them and draws none (RULES.md §3); otherwise as after a play."""
        if self.stuck_passes and st._hands[seat]:
            st._next_turn((seat + 1) % st._players)
        else:
            self.after_play(st, seat)

    def after_place(self, st: State, team: int, own: Bitboard) -> None:
        """A chip was placed (after its sequences are recorded): nothing more in these games."""

    def can_ever_change(self, st: State) -> bool:
        """Some card, wherever it is now, could still place or remove a chip (RULES.md §2.9).

        Every card of the deck is always somewhere (hands, draw pile, discard piles), and the
        reshuffle brings each back: so a chip can go on any open space while some team has a
        chip left, and a chip no sequence protects can always be removed by another team.
        """
        if open_spaces(st) and any(has_supply(st, t) for t in range(st._teams)):
            return True
        return bool(st._occ if st.config.difficult else st._occ & ~st._locked)


class DraftRules(CardRules):
    """The course's draft variant of classic: cards are taken from five face up, and a side
    holding the four central spaces (the heart) wins at once."""

    def __init__(self) -> None:
        super().__init__(CLASSIC)

    @staticmethod
    def pick_moves(st: State) -> list[Move]:
        return [card_move(MoveKind.PICK, c) for c in dict.fromkeys(st._draft)]

    @staticmethod
    def pick_refusal(st: State, move: Move) -> Refusal:
        if move.kind is not MoveKind.PICK:
            return "pick_due", {}
        return "not_face_up", {"card": card_label(move.card)}

    def after_dead_card(self, st: State, seat: int) -> None:
        st._phase = Phase.PICK_DEAD

    def after_play(self, st: State, seat: int) -> None:
        st._phase = Phase.PICK

    def after_place(self, st: State, team: int, own: Bitboard) -> None:
        if own & HEART == HEART and st._outcome is None:
            st._finish(Termination.HEART, team)

    def pick(self, st: State, seat: int, card: Card) -> None:
        """The seat takes a face-up card, which the next card of the deck replaces.

        Once the deck is empty nothing replaces a pick: the face-up row shrinks and play goes
        on; the pick that empties the row ends the game (:meth:`row_empty_winner`).
        """
        st._hands = replaced(st._hands, seat, (*st._hands[seat], card))
        st._known = replaced(st._known, seat, (*st._known[seat], card))
        draft = without(st._draft, card)
        if st._deck_pos < len(st._deck):
            draft = (*draft, st._deck[st._deck_pos])
            st._deck_pos += 1
        st._draft = draft
        if not draft:
            st._finish(Termination.DRAFT_EMPTY, self.row_empty_winner(st))
            return
        if st._phase is Phase.PICK_DEAD:
            st._phase = Phase.PLAY
        else:
            st._next_turn((seat + 1) % st._players)

    @staticmethod
    def row_empty_winner(st: State) -> int | None:
        """The team with the most completed sequences when the face-up row runs out, ``None``
        (a draw) when the most are shared."""
        return DraftRules.most_sequences([len(s) for s in st._seqs])

    @staticmethod
    def most_sequences(counts: list[int]) -> int | None:
        """The team with the most of ``counts`` (completed sequences per team), ``None`` when
        the most are shared: the draft's ending, read by the state and the batched simulator."""
        best = max(counts)
        leaders = [team for team, n in enumerate(counts) if n == best]
        return leaders[0] if len(leaders) == 1 else None
