"""Refused requests: the one exception every part of the server raises to say no.

A :class:`RequestError` carries a stable ``code`` (one of :data:`protocol.ERROR_CODES`), an HTTP
status and a message a player reads in their own language. Whatever raised it, nothing changed.
"""

from __future__ import annotations

from typing import Any

from ..i18n import N_, translator
from ..i18n.errors import translate_error


class RequestError(Exception):
    """A refused request: ``code`` is one of :data:`protocol.ERROR_CODES`; nothing changed.

    ``message`` is an English catalogue msgid (marked with ``N_``) with ``{named}`` fields
    filled from ``params``; :meth:`text` gives it in a player's language. A refusal of the
    engine's passes the engine's error (or its English message) as ``engine``, translated by
    :func:`sequence.i18n.errors.translate_error`. ``str(exc)`` is the English text (for logs).
    """

    def __init__(
        self,
        code: str,
        message: str,
        status: int = 400,
        /,
        *,
        engine: BaseException | str | None = None,
        **params: Any,
    ) -> None:
        self.code = code
        self.msgid = message
        self.params = params
        self.engine = engine
        self.message = message.format(**params) if params else message
        self.status = status
        super().__init__(self.message)

    def text(self, lang: str | None) -> str:
        """The message in ``lang`` (English where the catalogue has no translation)."""
        if self.engine is not None:
            return translate_error(self.engine, lang)
        translated = translator(lang).gettext(self.msgid)
        return translated.format(**self.params) if self.params else translated


def engine_refusal(code: str, exc: BaseException, status: int = 400) -> RequestError:
    """The engine said no (an illegal move, bad notation, a bad config): its reason, as is."""
    return RequestError(code, str(exc), status, engine=exc)


def no_seat(seat: object, players: int) -> RequestError:
    """A seat number the table does not have. Seats are numbered from 0 as everywhere in the API
    (paths, bodies, answers, messages); the range says so to a client that counted from 1."""
    return RequestError(
        "bad_message",
        N_("there is no seat {seat} at this table: its seats are 0 to {last}"),
        seat=seat,
        last=players - 1,
    )
