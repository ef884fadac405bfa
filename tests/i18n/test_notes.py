"""The review's and the hints' notes are translated in every language, cards named for people."""

from __future__ import annotations

import doctest

import pytest

import sequence.i18n.notes
from sequence.bots.explain import NOTE_MESSAGES, Note
from sequence.i18n import SUPPORTED
from sequence.i18n.check import placeholders
from sequence.i18n.notes import translate_note

SAMPLE = {"span": "d4-d7", "team": "B", "better": "4H@f5", "card": "JS", "space": "c3"}


def test_docstring_examples() -> None:
    assert doctest.testmod(sequence.i18n.notes).failed == 0


@pytest.mark.parametrize("lang", SUPPORTED)
def test_every_note_renders_in_every_language(lang: str) -> None:
    for code, template in NOTE_MESSAGES.items():
        note = Note(code, **{k: SAMPLE[k] for k in placeholders(template)})
        text = translate_note(note, lang)
        assert "{" not in text and all(v in text for k, v in note.params.items() if k != "card")
        if "card" in note.params:
            assert "J♠" in text  # the card as people name it, not its notation
        if lang != "en":
            assert text != str(note).replace("JS", "J♠"), (lang, code)


def test_a_kids_card_is_named_in_the_language() -> None:
    note = Note("keeps_wild", card="UNICORN")
    assert translate_note(note, "ru").endswith("Единорог")
