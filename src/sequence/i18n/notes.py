"""The review's and the hints' notes in a player's language.

A note (:class:`sequence.bots.explain.Note`) is a code, its English template (the catalogue's
msgid) and parameters, like an engine error: :func:`translate_note` renders the translation with
cards named as people name them (``J♠``, an animal in the player's language); moves, spaces and
team letters are notation and stay as they are. This module does not import the bots (the
layers beside each other do not): anything with ``template`` and ``params`` is a note.

>>> class Said:
...     template = "blocks team {team}, one chip from a sequence on {span}"
...     params = {"team": "B", "span": "d4-d7"}
>>> translate_note(Said(), "de")
'blockiert Team B, dem ein Chip zur Sequenz auf d4-d7 fehlt'
>>> class Kept:
...     template = "keeps a card that removes a chip for later: {card}"
...     params = {"card": "JS"}
>>> translate_note(Kept(), "fr")
'garde pour plus tard une carte qui retire un jeton : J♠'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from . import translator
from .terms import card_text_label

__all__ = ["Noted", "translate_note"]


class Noted(Protocol):
    """A note: an English template and the values of its ``{fields}``."""

    @property
    def template(self) -> str: ...

    @property
    def params(self) -> Mapping[str, Any]: ...


def translate_note(note: Noted, lang: str | None) -> str:
    """``note`` in ``lang`` (English where the catalogue has no translation)."""
    values = {
        name: card_text_label(str(value), lang) if name == "card" else value
        for name, value in note.params.items()
    }
    return translator(lang).gettext(note.template).format(**values)
