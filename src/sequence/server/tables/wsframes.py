"""Frames too large for the server: the client is told why, whatever the frame's size.

The app reads a frame up to uvicorn's own limit (:data:`~.protocol.WS_MAX_SIZE`) and refuses one
over :data:`~.protocol.MAX_FRAME` with a ``too_large`` error message before it closes with 1009.
A frame over uvicorn's limit never reaches the app: the protocol layer (websockets) refuses it as
soon as its header arrives, without reading it, and closes with 1009. :class:`WebSocketProtocol`
is uvicorn's WebSocket protocol, which sends the same ``too_large`` error message (in the
connection's language) just before that close, so every client sending too much is told why in
the documented error shape. ``sequence serve`` runs uvicorn with it (``ws=WebSocketProtocol``).
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any, Final

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import PayloadTooBig
from websockets.frames import Frame, Opcode

from ...i18n import DEFAULT, N_, negotiate
from ..common.errors import RequestError
from . import protocol
from .table import Table

LANG_KEY: Final = "sequence.lang"
"""Where a connection keeps its language in the ASGI scope (see :func:`remember_language`), so
that the protocol layer, which has no other way to know it, answers in it."""

TABLE_KEY: Final = "sequence.table"
"""Where a connection keeps the table its ``hello`` joined (see :func:`remember_table`), so that
the protocol layer's error carries the table's version as every other error after ``hello``
does."""


def frame_too_large() -> RequestError:
    """The refusal of a frame over :data:`~.protocol.MAX_FRAME` bytes (the connection closes)."""
    return RequestError(
        "too_large",
        N_("a frame is at most {limit} bytes; the connection is closed"),
        limit=protocol.MAX_FRAME,
    )


def remember_language(scope: MutableMapping[str, Any], lang: str) -> None:
    """Keep a connection's language (``hello``'s or ``lang``'s) in its ASGI ``scope``."""
    scope[LANG_KEY] = lang


def remember_table(scope: MutableMapping[str, Any], table: Table) -> None:
    """Keep the table a connection joined (its ``hello`` was accepted) in its ASGI ``scope``."""
    scope[TABLE_KEY] = table


def scope_version(scope: MutableMapping[str, Any] | None) -> int | None:
    """The version of the table a connection joined; ``None`` before its ``hello`` (the error
    messages of a connection not yet at a table carry ``version: null``)."""
    table = scope.get(TABLE_KEY) if scope else None
    return table.version if isinstance(table, Table) else None


def scope_language(scope: MutableMapping[str, Any] | None) -> str:
    """The language a connection chose, else its handshake's ``Accept-Language``."""
    if not scope:
        return DEFAULT
    chosen = scope.get(LANG_KEY)
    if isinstance(chosen, str):
        return chosen
    for name, value in scope.get("headers") or ():
        if name.lower() == b"accept-language":
            return negotiate(value.decode("latin-1"))
    return negotiate(None)


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol (websockets' Sans-I/O one, uvicorn's default), telling a
    client whose frame is over ``ws_max_size`` why before the close (1009) that follows."""

    def handle_parser_exception(self) -> None:
        """The frame could not be read: for one too large, send the ``too_large`` error message
        first (with the version of the table the connection joined, as every error after ``hello``);
        then close as uvicorn does (the close frame websockets queued comes after it)."""
        if isinstance(self.conn.parser_exc, PayloadTooBig):
            error = frame_too_large()
            scope = getattr(self, "scope", None)
            payload = protocol.error_payload(
                error.code, error.text(scope_language(scope)), scope_version(scope)
            )
            frame = Frame(Opcode.TEXT, payload.text.encode())
            self.transport.write(frame.serialize(mask=False, extensions=self.conn.extensions))
        super().handle_parser_exception()
