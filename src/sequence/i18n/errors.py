"""Engine errors in the player's language, rendered from their code and parameters.

Every error the engine (and the bots layer) raises for a player's mistake is a
:class:`~sequence.engine.SequenceError` with a ``code`` and its ``params``; the class's table
(:data:`sequence.engine.errors.MESSAGES`, :data:`sequence.bots.errors.BOT_MESSAGES`) gives
the English template, which is the catalogue's msgid. :func:`translate_error` renders the
translation with the parameters put in the player's words (cards as people name them, game
titles and move kinds translated, a nested error rendered in the same language). Nothing is
read back from English text.

An illegal move shows as ``"<move>: <reason>"``: the reason is translated and the move's
notation kept.

>>> from sequence.engine import IllegalMoveError
>>> translate_error(IllegalMoveError("space_taken", move="5H@c3", space="c3"), "de")
'5H@c3: c3 ist schon besetzt'
>>> translate_error("something the engine never says", "ru")
'something the engine never says'
"""

from __future__ import annotations

from typing import Any

from sequence.engine.errors import IllegalMoveError, SequenceError

from . import N_, translator
from .terms import card_text_label, move_kind_words

__all__ = ["render_reason", "translate_error"]

_WITH_MOVE = N_("{move}: {reason}")
_THAT_CARD = N_("that card")
_OR = N_("or")


def translate_error(exc: BaseException | str, lang: str | None) -> str:
    """An error's message in ``lang``.

    A :class:`~sequence.engine.SequenceError` is rendered from its code; anything else (text, an
    operating system's error) is returned as it is, in English.
    """
    if not isinstance(exc, SequenceError):
        return str(exc)
    reason = render_reason(exc, lang)
    if isinstance(exc, IllegalMoveError) and exc.move is not None:
        return translator(lang).gettext(_WITH_MOVE).format(move=exc.move, reason=reason)
    return reason


def render_reason(exc: SequenceError, lang: str | None) -> str:
    """The message of ``exc`` in ``lang`` without an illegal move's notation in front."""
    template = exc.messages.get(exc.code)
    if template is None:  # rebuilt in another process with a code this table lacks
        return exc.reason
    values = {name: _localized(name, value, lang) for name, value in exc.params.items()}
    return translator(lang).gettext(template).format(**values)


def _localized(name: str, value: Any, lang: str | None) -> Any:
    """One parameter in ``lang``'s words (by its name, or its type)."""
    gettext = translator(lang).gettext
    if isinstance(value, SequenceError):  # a nested error: a record's illegal move, say
        return render_reason(value, lang)
    if isinstance(value, (list, tuple)):  # alternatives: "2 or 3"
        words = [str(_localized(name, v, lang)) for v in value]
        head = ", ".join(words[:-1])
        return f" {gettext(_OR)} ".join(filter(None, (head, *words[-1:])))
    if name == "card":
        if value is None or value == "that card":  # a move that names no card
            return gettext(_THAT_CARD)
        return card_text_label(str(value), lang)
    if name == "title":
        return gettext(str(value))  # the engine's GameSpec.title is the msgid (terms.GAME_TITLES)
    if name == "kind":
        return move_kind_words(str(value), lang)
    return value
