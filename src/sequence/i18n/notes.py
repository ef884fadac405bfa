"""The review's and the hints' notes in a player's language.

A note (:class:`sequence.bots.explain.Note`) is a code, its English template (the catalogue's
msgid) and parameters, like an engine error: :func:`translate_note` renders the translation in
words, as people say it: a card (``{card}``) by its name (:func:`.moves.card_words`), a move
(``{better}``, ``{move}``) as :func:`.moves.move_words` says it. Spaces and lines (``c3``,
``d4-d7``) and team letters stay as they are: the board and the table show them. This module
does not import the bots (the layers beside each other do not): anything with ``template``
and ``params`` is a note.

>>> class Said:
...     template = "blocks team {team}, one chip from a sequence on {span}"
...     params = {"team": "B", "span": "d4-d7"}
>>> translate_note(Said(), "de")
'blockiert Team B, dem ein Chip zur Sequenz auf d4-d7 fehlt'
>>> class Kept:
...     template = "keeps a card that removes a chip for later: {card}"
...     params = {"card": "JS"}
>>> translate_note(Kept(), "fr")
'garde pour plus tard une carte qui retire un jeton : le valet de pique'
>>> class Better:
...     template = "{better} was better"
...     params = {"better": "JHxb5"}
>>> translate_note(Better(), "en")
'removing the chip on b5 with a one-eyed Jack was better'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from sequence.engine import InvalidNotationError, Move, parse_card

from . import translator
from .moves import card_words, move_words

__all__ = ["Noted", "translate_note"]


class Noted(Protocol):
    """A note: an English template and the values of its ``{fields}``."""

    @property
    def template(self) -> str: ...

    @property
    def params(self) -> Mapping[str, Any]: ...


def translate_note(note: Noted, lang: str | None) -> str:
    """``note`` in ``lang`` (English where the catalogue has no translation)."""
    values = {name: _said(name, value, lang) for name, value in note.params.items()}
    return translator(lang).gettext(note.template).format(**values)


def _said(name: str, value: Any, lang: str | None) -> Any:
    """A note's field in words: its card or move (given as notation) named for people."""
    try:
        if name == "card":
            return card_words(parse_card(str(value)), lang)
        if name in MOVE_FIELDS:
            return move_words(Move.parse(str(value)), lang)
    except InvalidNotationError:
        pass  # not notation after all: shown as it is
    return value


MOVE_FIELDS = frozenset({"better", "move"})
"""The fields of a note that hold a move's notation."""
