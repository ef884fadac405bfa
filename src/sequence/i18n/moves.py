"""A move in words, for people: the short phrase the hints and the reviews say.

The engine writes a move as notation (``QS@b5``, ``JHxc3``, ``dead:5H``): exact, and meant for
records and tools. A player reads :func:`move_words` instead, in their language: the card named
as people name it (:func:`card_words`), what the move does, and the space by its coordinates,
since the board shows them. Every kind of move of every game has its phrase: a card played
(an ordinary card, a two-eyed Jack, a Kids animal or the Unicorn), a chip removed (a one-eyed
Jack, the Dragon, a Dice roll of 10), a Dice chip placed or replaced, a dead card exchanged, a
card discarded, picked from the draft or given up, a pass, a draw, a penalty, a roll.

>>> from sequence.engine import Move
>>> move_words(Move.parse("QS@b5"), "en")
'the Queen of Spades on b5'
>>> move_words(Move.parse("JHxc3"), "en")
'removing the chip on c3 with a one-eyed Jack'
>>> move_words(Move.parse("QS@b5"), "ru")
'дама пик на b5'
>>> move_words(Move.parse("JHxc3"), "fr")
'retirer le jeton de c3 avec un valet borgne'

In English the phrase is a noun phrase ("the Queen of Spades on b5", "passing"); another
language may say an action with its infinitive (``retirer ...``). Either way the sentences
that hold it ("Hint: ...", "... was better", :mod:`.notes`) are written in each language so
that the phrase needs no agreement from them: in Russian "лучше было: ...", not a verb that
takes the phrase's gender.
"""

from __future__ import annotations

from sequence.engine import TEAM_LETTERS, Move, MoveKind, space_name
from sequence.engine.cards import (
    DRAGON,
    KIDS_FIRST,
    TWO_EYED_JACKS,
    Card,
    CardKind,
    card_kind,
    card_name,
)

from . import N_, translator
from .terms import ANIMALS

__all__ = ["RANK_WORDS", "SUIT_WORDS", "card_words", "move_words"]

RANK_WORDS: dict[str, str] = {
    "2": N_("the Two of {suit}"),
    "3": N_("the Three of {suit}"),
    "4": N_("the Four of {suit}"),
    "5": N_("the Five of {suit}"),
    "6": N_("the Six of {suit}"),
    "7": N_("the Seven of {suit}"),
    "8": N_("the Eight of {suit}"),
    "9": N_("the Nine of {suit}"),
    "T": N_("the Ten of {suit}"),
    "J": N_("the Jack of {suit}"),
    "Q": N_("the Queen of {suit}"),
    "K": N_("the King of {suit}"),
    "A": N_("the Ace of {suit}"),
}
"""A standard card by its rank (the notation's first letter), its suit a field: one message a
rank, so each language gives the rank its own article and word order (``la dame de pique``,
``Pik-Dame``)."""

SUIT_WORDS: dict[str, str] = {
    "S": N_("Spades"),
    "H": N_("Hearts"),
    "D": N_("Diamonds"),
    "C": N_("Clubs"),
}
"""A suit by its letter, as it reads in :data:`RANK_WORDS` (in Russian ``пик``: "дама пик")."""

KIDS_CARD = N_("the {animal}")
"""A Kids card (an animal, the Unicorn, the Dragon), its name from :data:`.terms.ANIMALS`."""

_PLACE_CARD = N_("{card} on {space}")
_PLACE_TWO_EYED = N_("a two-eyed Jack on {space}")
_PLACE_DICE = N_("a chip on {space}")
_REMOVE_ONE_EYED = N_("removing the chip on {space} with a one-eyed Jack")
_REMOVE_DRAGON = N_("removing the chip on {space} with the Dragon")
_REMOVE_DICE = N_("removing the chip on {space}")
_REPLACE = N_("replacing another team's chip on {space}")
_DEAD = N_("exchanging {card}, a dead card")
_DISCARD = N_("discarding {card} and passing")
_PICK = N_("taking {card} from the face-up cards")
_FORFEIT = N_("giving up {card} for table talk")
_PENALTY = N_("a table-talk penalty for team {team}")
_PASS = N_("passing")
_DRAW = N_("drawing a card")
_ROLL = N_("a roll of {a} and {b}")
_WITH_CARD = {
    MoveKind.DEAD: _DEAD,
    MoveKind.DISCARD: _DISCARD,
    MoveKind.PICK: _PICK,
    MoveKind.FORFEIT: _FORFEIT,
}


def card_words(card: Card, lang: str | None) -> str:
    """A card named in words, with the article its language puts before it: ``the Queen of
    Spades``, ``дама пик``, ``Herz-Fünf``, ``la carte Lion``."""
    _ = translator(lang).gettext
    name = card_name(card)
    if card >= KIDS_FIRST:
        return _(KIDS_CARD).format(animal=_(ANIMALS[name]))
    return _(RANK_WORDS[name[0]]).format(suit=_(SUIT_WORDS[name[1]]))


def move_words(move: Move, lang: str | None) -> str:
    """``move`` as a short noun phrase in ``lang``: ``the Queen of Spades on b5``, ``removing
    the chip on c3 with a one-eyed Jack``, ``a chip on d4`` (Dice), ``passing``."""
    _ = translator(lang).gettext
    kind, card = move.kind, move.card
    space = "" if move.space is None else space_name(move.space)
    said = "" if card is None else card_words(card, lang)
    if kind is MoveKind.PLACE:
        if card is None:
            return _(_PLACE_DICE).format(space=space)
        if card in TWO_EYED_JACKS:
            return _(_PLACE_TWO_EYED).format(space=space)
        return _(_PLACE_CARD).format(card=said, space=space)
    if kind is MoveKind.REMOVE:
        if card is None:
            return _(_REMOVE_DICE).format(space=space)
        if card == DRAGON:
            return _(_REMOVE_DRAGON).format(space=space)
        assert card_kind(card) is CardKind.REMOVER, move  # the engine removes with no other card
        return _(_REMOVE_ONE_EYED).format(space=space)
    if kind is MoveKind.REPLACE:
        return _(_REPLACE).format(space=space)
    if kind in _WITH_CARD:
        return _(_WITH_CARD[kind]).format(card=said)
    if kind is MoveKind.PENALTY:
        assert move.team is not None
        return _(_PENALTY).format(team=TEAM_LETTERS[move.team])
    if kind is MoveKind.ROLL:
        assert move.dice is not None
        return _(_ROLL).format(a=move.dice[0], b=move.dice[1])
    if kind is MoveKind.DRAW:
        return _(_DRAW)
    return _(_PASS)
