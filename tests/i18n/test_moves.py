"""A move in words (:mod:`sequence.i18n.moves`): every kind of move of every game has a phrase in
every language, with no notation in it and, outside English, no English word."""

from __future__ import annotations

import doctest
import re

import pytest

import sequence.i18n.moves
from sequence.engine import Move, MoveKind
from sequence.engine.cards import CARD_COUNT, CARD_NAMES, KIDS_FIRST
from sequence.i18n import SUPPORTED, translator
from sequence.i18n.moves import card_words, move_words
from sequence.i18n.terms import ANIMALS

MOVES = {
    "QS@b5": "the Queen of Spades on b5",  # an ordinary card
    "TH@c3": "the Ten of Hearts on c3",
    "JD@d4": "a two-eyed Jack on d4",  # wild
    "JC@e2": "a two-eyed Jack on e2",
    "LION@e5": "the Lion on e5",  # Kids
    "UNICORN@f6": "the Unicorn on f6",  # Kids, wild
    "JSxc3": "removing the chip on c3 with a one-eyed Jack",
    "JHxg7": "removing the chip on g7 with a one-eyed Jack",
    "DRAGONxc3": "removing the chip on c3 with the Dragon",  # Kids
    "@h8": "a chip on h8",  # Dice: the number rolled, or anywhere on 11
    "xi2": "removing the chip on i2",  # Dice: a roll of 10
    "=c3": "replacing another team's chip on c3",  # Dice: the board full
    "dead:5H": "exchanging the Five of Hearts, a dead card",
    "discard:AC": "discarding the Ace of Clubs and passing",
    "pick:KD": "taking the King of Diamonds from the face-up cards",  # draft
    "forfeit:2S": "giving up the Two of Spades for table talk",
    "pass": "passing",
    "draw:2": "drawing a card",  # option manual_draw
    "penalty:B": "a table-talk penalty for team B",
    "roll:3+4": "a roll of 3 and 4",  # Dice
}
"""Each kind of move, and what it says in English."""

NOTATION = re.compile(
    r"[@=]|\b(?:10|[2-9TJQKA])[SHDC]\b|\bx[a-j]\d|\b(?:dead|discard|pick|forfeit|draw|penalty"
    r"|roll):|\b[A-Z]{3,}\b"
)
"""What notation looks like: ``@``, ``=``, a card (``QS``, ``LION``), ``xc3``, ``dead:``."""


def test_docstring_examples() -> None:
    assert doctest.testmod(sequence.i18n.moves).failed == 0


def test_every_kind_of_move_is_here() -> None:
    assert {Move.parse(text).kind for text in MOVES} == set(MoveKind)


@pytest.mark.parametrize(("text", "words"), MOVES.items())
def test_each_move_in_english(text: str, words: str) -> None:
    assert move_words(Move.parse(text), "en") == words


def _words(text: str) -> set[str]:
    """The words of a phrase (letters only, lower case): a space's or a team's letter and the
    digits left out."""
    return {w.lower() for w in re.findall(r"[^\W\d_]+", text) if len(w) > 1}


SHARED = {"fr": {"six", "table"}}
"""Words that are the language's own as much as English."""


def _same_in(lang: str) -> set[str]:
    """The English words the language's own glossary keeps as they are (German "Team" and
    "Chip", the French "Dragon" and "Lion"): those may appear in its phrases."""
    kept = ("team", "chips", *ANIMALS.values())
    same = {w.lower() for w in kept if translator(lang).gettext(w).lower() == w.lower()}
    return same | {w.removesuffix("s") for w in same} | SHARED.get(lang, set())


@pytest.mark.parametrize("lang", SUPPORTED)
@pytest.mark.parametrize("text", MOVES)
def test_each_move_in_words_in_every_language(lang: str, text: str) -> None:
    move = Move.parse(text)
    said = move_words(move, lang)
    assert said and "{" not in said and not NOTATION.search(said), said
    if move.space is not None:
        assert re.search(rf"\b{text[-2:]}\b", said), said  # the space, as the board names it
    if lang != "en":
        english = _words(MOVES[text])
        assert not (_words(said) & english) - _same_in(lang), (lang, said)


@pytest.mark.parametrize("lang", SUPPORTED)
def test_every_card_has_a_name_of_its_own(lang: str) -> None:
    names = [card_words(card, lang) for card in range(CARD_COUNT)]
    assert len(set(names)) == CARD_COUNT
    for card, said in enumerate(names):
        assert not NOTATION.search(said) and CARD_NAMES[card] not in said, said
        if lang != "en":
            english = _words(card_words(card, "en"))
            assert not (_words(said) & english) - _same_in(lang), (lang, said)
    if lang == "en":
        assert names[KIDS_FIRST] == "the Bear"
