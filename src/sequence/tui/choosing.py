"""The player's choice at the terminal, without the screen: the chosen card, the cursor, and the
move that a key, a click or typed text stands for.

It decides no rule: the spaces it offers are those of ``view.legal_moves``, and a move it builds
from what the player chose goes to the engine, which says why when it refuses it.

>>> from sequence.engine import State, make_config
>>> view = State.new(make_config("classic", 2), seed=3).view(0)
>>> choice = Choice(view.config.spec.layout)
>>> choice.select(0, view, view.legal_moves)
>>> move = choice.move_at(choice.cursor, view, view.legal_moves)
>>> move in view.legal_moves and move.card == view.hand[0]
True
"""

from __future__ import annotations

from ..engine import Card, CardKind, Move, MoveKind, Phase, View, card_kind
from ..engine.board import BoardLayout
from ..i18n import N_
from .session import Marked


class Choice:
    """What the player has chosen so far: a card (by its place in the hand) and a space."""

    def __init__(self, layout: BoardLayout) -> None:
        self.layout = layout
        self.selected: int | None = None
        """The chosen card: its index in :meth:`choices`."""
        self.cursor = next(s for s in layout.spaces if not layout.free >> s & 1)
        """The space under the cursor (first: the first space that is not a free corner)."""

    @staticmethod
    def choices(view: View) -> tuple[Card, ...]:
        """The cards to choose from: the hand, or the face-up cards when one must be taken."""
        if view.hand is None:
            return ()
        if view.phase in (Phase.PICK, Phase.PICK_DEAD) and view.to_move == view.seat:
            return view.draft
        return view.hand

    def selected_card(self, view: View) -> Card | None:
        cards = self.choices(view)
        if self.selected is None or self.selected >= len(cards):
            return None
        return cards[self.selected]

    def move_cursor(self, dx: int, dy: int) -> None:
        """Arrows: the cursor moves round the board (off one edge, on at the other)."""
        row, col = divmod(self.cursor, 10)
        row = (row + dy) % self.layout.rows
        col = (col + dx) % self.layout.cols
        self.cursor = row * 10 + col

    def select(self, index: int, view: View, legal: tuple[Move, ...]) -> None:
        """Choose card ``index`` (again: put it back); the cursor goes to its first legal space.

        :class:`Marked` says why not (no cards in this game, no hand shown, no such card)."""
        cards = self.choices(view)
        if not view.config.spec.uses_cards:
            raise Marked(N_("Sequence Dice has no cards: roll the dice with R."))
        if view.hand is None or not cards:
            raise Marked(N_("No hand is shown now."))
        if index >= len(cards):
            raise Marked(N_("There is no card {n}."), n=index + 1)
        self.selected = None if self.selected == index else index
        card = self.selected_card(view)
        if card is not None:
            spaces = sorted(m.space for m in legal if m.card == card and m.space is not None)
            if spaces:
                self.cursor = spaces[0]

    def move_at(self, space: int, view: View, legal: tuple[Move, ...]) -> Move:
        """The move of the chosen card (or the Dice roll) on ``space``, to submit: a legal one
        when there is one, else the one the player means, for the engine to say why not.

        :class:`Marked` when there is nothing to play yet (the dice to roll, no card chosen)."""
        if view.phase is Phase.ROLL:
            raise Marked(N_("Roll the dice first: press R."))
        if not view.config.spec.uses_cards:
            found = [m for m in legal if m.space == space]
            return found[0] if found else Move(MoveKind.PLACE, None, space)
        card = self.selected_card(view)
        if card is None:
            raise Marked(N_("Choose a card first: press its number or click it."))
        found = [m for m in legal if m.card == card and m.space == space]
        if found:
            return found[0]
        kinds = {m.kind for m in legal if m.card == card and m.space is not None}
        if kinds:
            kind = next(iter(kinds))
        else:
            kind = MoveKind.REMOVE if card_kind(card) is CardKind.REMOVER else MoveKind.PLACE
        return Move(kind, card, space)

    def without_space(self, view: View, legal: tuple[Move, ...]) -> Move | None:
        """Enter: the move that needs no space (a pass when that is all there is; a discard, a
        forfeit or a pick of the chosen card), else ``None``: play on the cursor's space.

        :class:`CardNote` when the chosen card's only use is the dead-card exchange (key X)."""
        if legal and all(m.kind is MoveKind.PASS for m in legal):
            return legal[0]
        card = self.selected_card(view)
        if card is not None and view.config.spec.uses_cards:
            mine = [m for m in legal if m.card == card]
            if mine and all(m.space is None for m in mine):
                plain = [m for m in mine if m.kind is not MoveKind.DEAD]
                if plain:
                    return plain[0]
                raise CardNote(card)
        return None

    def dead(self, view: View) -> Move:
        """X: exchange the chosen card as dead (the engine says whether it is)."""
        card = self.selected_card(view)
        if card is None:
            raise Marked(N_("Choose the dead card first (its number), then press X."))
        return Move(MoveKind.DEAD, card)


class CardNote(Exception):
    """The chosen card cannot be used by this key: show what it can do."""

    def __init__(self, card: Card) -> None:
        super().__init__(card)
        self.card = card


__all__ = ["CardNote", "Choice"]
