"""The WebSocket ``/ws/{code}``: one client's session at a table, from its hello to its last
message, each message carried out by the hub (:class:`.hub.Hub`).

A frame is read, limited (size, rate, depth), parsed into its message's model
(:mod:`.messages`), and dispatched (:func:`_dispatch`); every refusal is an ``error`` message
in the connection's language, and the session goes on."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from typing import Any, Final

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect

from ...i18n import N_, SUPPORTED, normalise
from ..common.errors import RequestError, request_language
from ..common.limits import MAX_DEPTH, json_depth, not_json, too_deep
from . import messages, protocol
from .connection import Connection, ConnectionClosed
from .hub import Hub
from .protocol import MAX_FRAME, MAX_MESSAGE
from .table import Table
from .wsframes import frame_too_large

log = logging.getLogger("sequence.server")


def _language(value: Any) -> str:
    """A language a client asked for by code (``hello`` or ``lang`` message)."""
    code = normalise(value) if isinstance(value, str) else None
    if code is None:
        raise RequestError(
            "bad_message",
            N_("unknown language {lang}; choose one of {languages}"),
            lang=repr(value)[:20],
            languages=", ".join(SUPPORTED),
        )
    return code


def websocket_router(hub: Callable[[], Hub], rate: float, burst: float) -> APIRouter:
    """The WebSocket route; ``rate``/``burst``: messages a second (and at once) a connection
    may send."""
    router = APIRouter()

    @router.websocket("/ws/{code}")
    async def ws(websocket: WebSocket, code: str) -> None:
        await websocket.accept()
        conn = Connection(websocket, rate, burst)
        close = (CLOSE_NORMAL, "")
        try:
            close = await serve_connection(hub(), conn, code)
        except (ConnectionClosed, WebSocketDisconnect):
            pass
        except FrameTooLarge:
            error = frame_too_large()  # the table's version after hello, as every error
            conn.send(protocol.error_payload(error.code, error.text(conn.lang), conn.version))
            close = (CLOSE_TOO_BIG, "message too big")  # i18n: ignore
        except Exception:
            # A bug, not the client's doing: it is logged, and the client is told and closed
            # with 1011 rather than left with a connection that ends for no reason.
            log.exception("WebSocket session at %s failed", code[:20])
            error = RequestError("unavailable", N_("the server failed; reconnect"))
            conn.send(protocol.error_payload(error.code, error.text(conn.lang), conn.version))
            close = (CLOSE_ERROR, "server error")  # i18n: ignore
        finally:
            await conn.finish()
            with contextlib.suppress(Exception):
                await websocket.close(*close)

    return router


class FrameTooLarge(Exception):
    """A frame over :data:`~.protocol.MAX_FRAME` bytes: the client is told, then the connection
    ends with 1009."""


async def read_frame(conn: Connection) -> str | bytes:
    """The next frame, or :class:`FrameTooLarge` for one over :data:`~.protocol.MAX_FRAME`.

    uvicorn's own limit (:data:`~.protocol.WS_MAX_SIZE`) is far above it, so that a client
    sending too much is told why rather than cut off without a word."""
    raw = await conn.receive()
    if len(raw) > MAX_FRAME:
        raise FrameTooLarge
    return raw


def parse_frame(raw: str | bytes) -> messages.ClientMessage:
    """A frame as its message's model (:func:`.messages.parse_message`), or the reason it is
    refused: too long, binary, nested too deeply, not JSON, or not a message that fits."""
    if len(raw) > MAX_MESSAGE:
        raise RequestError(
            "too_large",
            N_("messages are at most {limit} bytes; nothing was done"),
            limit=MAX_MESSAGE,
        )
    if isinstance(raw, bytes):
        raise RequestError("bad_message", N_("send JSON text frames, not binary"))
    if json_depth(raw) > MAX_DEPTH:
        raise too_deep()
    try:
        data = json.loads(raw, parse_constant=not_json)
    except (ValueError, RecursionError):
        raise RequestError("bad_json", N_("the message is not JSON; nothing was done")) from None
    return messages.parse_message(data)


CLOSE_NORMAL: Final = 1000
CLOSE_POLICY: Final = 1008
"""The client did not say hello in time."""
CLOSE_TOO_BIG: Final = 1009
"""A frame over :data:`~.protocol.MAX_FRAME` bytes (the ``too_large`` error came first)."""
CLOSE_ERROR: Final = 1011
"""The server failed (logged); the client was told with an ``unavailable`` error first."""
CLOSE_UNKNOWN_TABLE: Final = 4404
"""There is no such table (the ``unknown_table`` error came first)."""
HELLO_TIMEOUT: Final = 30.0


async def serve_connection(hub: Hub, conn: Connection, code: str) -> tuple[int, str]:
    """One client's session: the hello, then requests until it leaves; return the close code
    and reason for the server's side of the closing handshake.

    Error replies are in the connection's language: the browser's ``Accept-Language`` at the
    handshake, then whatever ``hello`` or a ``lang`` message names.
    """
    conn.lang = request_language(conn.headers)
    try:
        table = await hub.get(code)
    except RequestError as exc:
        conn.send(protocol.error_payload(exc.code, exc.text(conn.lang)))
        return CLOSE_UNKNOWN_TABLE, "unknown table"  # i18n: ignore
    attached = False
    while not attached:
        try:
            raw = await asyncio.wait_for(read_frame(conn), HELLO_TIMEOUT)
        except TimeoutError:
            return CLOSE_POLICY, "no hello"  # i18n: ignore
        try:
            if not conn.allow():
                raise RequestError(
                    "rate_limited", N_("too many messages: slow down; nothing was done")
                )
            msg = parse_frame(raw)
            if isinstance(msg, messages.Hello | messages.Lang) and msg.lang is not None:
                conn.lang = _language(msg.lang)
            if not isinstance(msg, messages.Hello):
                raise RequestError(
                    "bad_message", N_('say "hello" first (with your seat token, if any)')
                )
            # The table again: an idle lobby may have left memory while this client took its
            # time, and the connection must join the one every request shares.
            table = await hub.get(code)
            try:
                hub.attach(table, conn, msg.token, msg.host, msg.local)
            except RequestError as exc:
                if exc.code != "bad_token":
                    raise
                # Taken through another process a moment ago? Read the table, then judge.
                await hub.refresh(table)
                hub.attach(table, conn, msg.token, msg.host, msg.local)
            conn.joined(table)
            attached = True
        except RequestError as exc:
            conn.send(protocol.error_payload(exc.code, exc.text(conn.lang)))
    try:
        await _serve_requests(hub, conn, table)
    finally:
        hub.detach(table, conn)
    return CLOSE_NORMAL, ""


async def _serve_requests(hub: Hub, conn: Connection, table: Table) -> None:
    """A seated (or watching) client's requests, until it leaves."""
    while not conn.closed:
        raw = await read_frame(conn)
        msg: messages.ClientMessage | None = None
        try:
            if not conn.allow():
                raise RequestError(
                    "rate_limited", N_("too many messages: slow down; nothing was done")
                )
            msg = parse_frame(raw)
            await _dispatch(hub, conn, table, msg)
        except RequestError as exc:
            mid = msg.id if isinstance(msg, messages.Move | messages.Roll) else None
            conn.send(protocol.error_payload(exc.code, exc.text(conn.lang), conn.version, mid))


async def _dispatch(hub: Hub, conn: Connection, table: Table, msg: messages.ClientMessage) -> None:
    """Carry out one message of a client at ``table``."""
    if isinstance(msg, messages.Hello | messages.Lang) and msg.lang is not None:
        conn.lang = _language(msg.lang)
    if isinstance(msg, messages.Move):
        await hub.play(table, conn, msg.move, msg.version, msg.id)
    elif isinstance(msg, messages.Roll):
        await hub.roll(table, conn, msg.version, msg.id)
    elif isinstance(msg, messages.Resign):
        await hub.resign(table, conn)
    elif isinstance(msg, messages.Penalty):
        await hub.penalty(table, conn, msg.team, msg.version)
    elif isinstance(msg, messages.Back):
        await hub.take_back(table, conn)
    elif isinstance(msg, messages.Sync | messages.Hello):
        conn.show(table, conn.rights.hosts(table), whole=True)
    elif isinstance(msg, messages.React):
        hub.react(table, conn, msg.reaction)
    elif isinstance(msg, messages.Chat):
        hub.chat(table, conn, msg.text)
    elif isinstance(msg, messages.Hint):
        await hub.hint(table, conn, msg.version)
    elif isinstance(msg, messages.Ping):
        conn.send(protocol.pong_payload())
    # Lang: done above, nothing is sent back
