"""The review's and the hints' notes are translated in every language, cards and moves said in
words."""

from __future__ import annotations

import doctest

import pytest

import sequence.i18n.notes
from sequence.bots.explain import NOTE_MESSAGES, Note
from sequence.engine import Move, parse_card
from sequence.i18n import SUPPORTED
from sequence.i18n.check import placeholders
from sequence.i18n.moves import card_words, move_words
from sequence.i18n.notes import translate_note

SAMPLE = {"span": "d4-d7", "team": "B", "better": "4H@f5", "card": "JS", "space": "c3"}


def test_docstring_examples() -> None:
    assert doctest.testmod(sequence.i18n.notes).failed == 0


@pytest.mark.parametrize("lang", SUPPORTED)
def test_every_note_renders_in_every_language(lang: str) -> None:
    for code, template in NOTE_MESSAGES.items():
        note = Note(code, **{k: SAMPLE[k] for k in placeholders(template)})
        text = translate_note(note, lang)
        assert "{" not in text and "@" not in text and "JS" not in text, (lang, text)
        plain = {k: v for k, v in note.params.items() if k not in ("card", "better")}
        assert all(v in text for v in plain.values())
        if "card" in note.params:  # the card as people name it, not its notation
            assert card_words(parse_card("JS"), lang) in text
        if "better" in note.params:  # the better move in words
            assert move_words(Move.parse("4H@f5"), lang) in text
        if lang != "en":
            assert text != translate_note(note, "en"), (lang, code)


def test_a_kids_card_is_named_in_the_language() -> None:
    note = Note("keeps_wild", card="UNICORN")
    assert translate_note(note, "ru").endswith("Единорог")
    assert translate_note(note, "en").endswith("the Unicorn")
