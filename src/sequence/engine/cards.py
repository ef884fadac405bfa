"""Cards: one small int per kind of card, with a name table, for every game of the family.

A :data:`Card` is an int. Copies are not distinguished: the classic deck holds two of each
card, the Kids deck two of each animal, and the engine counts them.

>>> card_name(parse_card("10h"))
'TH'
>>> card_kind(parse_card("JD")) is CardKind.WILD
True
>>> card_name(parse_card("unicorn"))
'UNICORN'
"""

from __future__ import annotations

from enum import IntEnum
from typing import TypeAlias

from .errors import InvalidNotationError

Card: TypeAlias = int
"""A kind of card: 0-51 the standard deck, 52-72 the Kids deck."""

RANKS = "23456789TJQKA"
SUITS = "SHDC"
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


class CardKind(IntEnum):
    """What playing a card does."""

    ORDINARY = 0
    """Put a chip on one of the card's two board spaces."""
    WILD = 1
    """Put a chip on any empty space: a two-eyed Jack, a Unicorn."""
    REMOVER = 2
    """Remove an opponent's chip: a one-eyed Jack, a Dragon."""


def _standard(rank: str, suit: str) -> Card:
    return SUITS.index(suit) * 13 + RANKS.index(rank)


STANDARD_CARDS: tuple[Card, ...] = tuple(range(52))
KIDS_ANIMALS: tuple[str, ...] = (
    "BEAR", "CAT", "COW", "DOG", "DUCK", "ELEPHANT", "FOX", "FROG", "GIRAFFE", "HORSE",
    "LION", "MONKEY", "OWL", "PANDA", "PENGUIN", "PIG", "RABBIT", "TIGER", "ZEBRA",
)  # fmt: skip
KIDS_FIRST = 52
UNICORN: Card = KIDS_FIRST + len(KIDS_ANIMALS)
DRAGON: Card = UNICORN + 1
KIDS_CARDS: tuple[Card, ...] = tuple(range(KIDS_FIRST, DRAGON + 1))
CARD_COUNT = DRAGON + 1

CARD_NAMES: tuple[str, ...] = (
    tuple(r + s for s in SUITS for r in RANKS) + KIDS_ANIMALS + ("UNICORN", "DRAGON")
)
_BY_NAME = {name: card for card, name in enumerate(CARD_NAMES)}

TWO_EYED_JACKS = frozenset({_standard("J", "D"), _standard("J", "C")})
ONE_EYED_JACKS = frozenset({_standard("J", "S"), _standard("J", "H")})
JACKS = TWO_EYED_JACKS | ONE_EYED_JACKS

CARD_KINDS: tuple[CardKind, ...] = tuple(
    CardKind.WILD
    if c in TWO_EYED_JACKS or c == UNICORN
    else CardKind.REMOVER
    if c in ONE_EYED_JACKS or c == DRAGON
    else CardKind.ORDINARY
    for c in range(CARD_COUNT)
)


def card_kind(card: Card) -> CardKind:
    """What playing ``card`` does."""
    return CARD_KINDS[card]


def card_name(card: Card) -> str:
    """The notation of a card: ``5H``, ``TS``, ``JD``, ``LION``, ``UNICORN``."""
    return CARD_NAMES[card]


def card_symbol(card: Card) -> str:
    """A card for people: ``5♥``, ``10♠``, ``Lion``."""
    if card < 52:
        rank, suit = CARD_NAMES[card][0], CARD_NAMES[card][1]
        return ("10" if rank == "T" else rank) + SUIT_SYMBOLS[suit]
    return CARD_NAMES[card].capitalize()


def card_rank(card: Card) -> int:
    """Rank of a standard card for the cut: 0 for a two ... 12 for an Ace (Aces high)."""
    if card >= 52:
        raise ValueError(f"{card_name(card)} has no rank")
    return card % 13


_SUIT_ALIASES = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}


def parse_card(text: str) -> Card:
    """Read a card's notation; ``10H``, ``10♥`` and lower case are accepted too."""
    token = text.strip()
    if token and token[-1] in _SUIT_ALIASES:
        token = token[:-1] + _SUIT_ALIASES[token[-1]]
    token = token.upper()
    if token.startswith("10") and len(token) == 3:
        token = "T" + token[2]
    try:
        return _BY_NAME[token]
    except KeyError:
        raise InvalidNotationError("unknown_card", text=text) from None
