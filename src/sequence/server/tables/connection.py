"""One WebSocket client: a queue of payloads out, raw messages in, and a rate limit.

A :class:`Connection` can send nothing but :class:`~.protocol.Payload` objects, which only
:mod:`.protocol` builds, so no message skips the per-seat filter. It holds who the client is
(its :class:`~.access.Rights`) and its language; which table it watches is the hub's business.
"""

from __future__ import annotations

import asyncio
import contextlib
import time

from fastapi import WebSocket

from ...i18n import DEFAULT
from .access import SPECTATOR, Rights
from .protocol import Payload, state_payload
from .table import Table
from .wsframes import remember_language, remember_table


class ConnectionClosed(Exception):
    """The client went away."""


class Connection:
    """One WebSocket client. It can send only :class:`Payload` objects, through a queue."""

    QUEUE_LIMIT = 256

    def __init__(self, websocket: WebSocket, rate: float, burst: float) -> None:
        self.__ws = websocket
        self.headers = websocket.headers
        self.rights: Rights = SPECTATOR
        self.held: tuple[int, ...] = ()
        """Other seats this client's device holds (pass-and-play): present, never shown."""
        self._lang: str = DEFAULT
        self._table: Table | None = None
        self._queue: asyncio.Queue[Payload | None] = asyncio.Queue()
        self._rate, self._burst = rate, burst
        self._tokens = burst
        self._stamp = time.monotonic()
        self._writer = asyncio.get_running_loop().create_task(self._write())
        self.closed = False
        self.paced: dict[str, float] = {}
        """When this client last sent each paced kind of message (reactions, chat)."""
        self.shown: int | None = None
        """The version of the last game state this client was sent (``None``: none yet): the
        next change goes to it as a delta from there (:meth:`show`)."""

    @property
    def lang(self) -> str:
        """The language of this client's error messages."""
        return self._lang

    @lang.setter
    def lang(self, lang: str) -> None:
        self._lang = lang
        # The protocol layer answers a frame too large for it in this language too.
        remember_language(self.__ws.scope, lang)

    @property
    def version(self) -> int | None:
        """The version of the table this client joined; ``None`` before its ``hello`` was
        accepted. Every error message it gets carries it (``version`` in the protocol)."""
        return None if self._table is None else self._table.version

    def joined(self, table: Table) -> None:
        """The client's ``hello`` was accepted at ``table``: its errors carry that table's
        version from now on, the protocol layer's too."""
        self._table = table
        remember_table(self.__ws.scope, table)

    @property
    def seat(self) -> int | None:
        """The seat this client plays (``None``: a spectator)."""
        return self.rights.seat

    @property
    def present(self) -> tuple[int, ...]:
        """The seats whose player this client makes present: its own and those it holds."""
        return self.held if self.seat is None else (self.seat, *self.held)

    @property
    def host(self) -> bool:
        """Whether this client holds the host's token."""
        return self.rights.host

    def send(self, payload: Payload) -> None:
        """Queue a payload for this client (a client that falls far behind is dropped)."""
        if not isinstance(payload, Payload):
            raise TypeError("a connection sends only protocol payloads")
        if self.closed:
            return
        if self._queue.qsize() >= self.QUEUE_LIMIT:
            self.close()
            return
        self._queue.put_nowait(payload)

    def show(self, table: Table, host: bool, whole: bool = False) -> None:
        """Send this client ``table`` as its seat may see it: what changed since the last state
        it was sent (a ``delta``), or the whole state when it has none yet or ``whole`` (it
        said hello, or asked with ``sync``). ``host``: whether it holds the host's rights."""
        since = None if whole else self.shown
        self.send(state_payload(table, self.seat, host, since))
        self.shown = None if table.state is None else table.version

    def allow(self) -> bool:
        """Token bucket: may this client send another message now?"""
        t = time.monotonic()
        self._tokens = min(self._burst, self._tokens + (t - self._stamp) * self._rate)
        self._stamp = t
        if self._tokens >= 1:
            self._tokens -= 1
            return True
        return False

    async def receive(self) -> str | bytes:
        """The next message's raw text (bytes for a binary frame)."""
        message = await self.__ws.receive()
        if message["type"] == "websocket.disconnect":
            raise ConnectionClosed
        if message.get("text") is not None:
            return str(message["text"])
        return bytes(message.get("bytes") or b"")

    async def _write(self) -> None:
        with contextlib.suppress(Exception):
            while True:
                payload = await self._queue.get()
                if payload is None:
                    break
                await self.__ws.send_text(payload.text)
        self.closed = True

    def close(self) -> None:
        self.closed = True
        self._queue.put_nowait(None)

    async def finish(self) -> None:
        """Flush what is queued and stop writing."""
        self._queue.put_nowait(None)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._writer, 5)
