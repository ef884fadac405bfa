"""Hints at casual tables: the move the strongest bot likes from the asking seat's own view, and
why, in the reader's language.

A seated player asks with a ``hint`` message on the WebSocket (the connection's seat token says
whose seat). The hint is :meth:`sequence.bots.review.Reviewer.hint` of that seat's
:class:`~sequence.engine.View` and nothing else: the view is taken here, under the table's
lock, and only the view goes to the bots' worker pool (:attr:`.scheduler.Scheduler.executor`,
where the bots think), so no other hand and no draw pile can shape the answer. A rated table has
no hints (every person there plays on their own); a spectator gets none; and each seat may ask
:data:`HINT_BURST` at once, then one every :data:`HINT_INTERVAL` seconds, one at a time, since
each hint costs a search (tens to hundreds of milliseconds of a worker).
"""

from __future__ import annotations

import asyncio
from typing import Final

from ...bots.review import Hint, Reviewer
from ...engine import View
from ...i18n import N_
from ..common.errors import RequestError
from ..common.limits import ClientLimiter
from . import protocol
from .connection import Connection
from .core import HubCore
from .table import Table

HINT_INTERVAL: Final = 10.0
"""Seconds a seat waits for its next hint once :data:`HINT_BURST` are spent."""
HINT_BURST: Final = 3
"""Hints a seat may ask for at once."""


def find_hint(view: View) -> Hint:
    """The hint for ``view`` (run in a worker thread or process, as a bot's move is)."""
    return Reviewer().hint(view)


class Coach:
    """Answers a seated player's ``hint`` at a casual table (see the module's docstring)."""

    def __init__(self, core: HubCore) -> None:
        self.core = core
        self._limits = ClientLimiter(1 / HINT_INTERVAL, HINT_BURST)
        self._asking: set[tuple[str, int]] = set()

    @staticmethod
    def _judge(table: Table, conn: Connection, version: int) -> tuple[int, View]:
        """The seat asking and its view, or why it gets no hint (nothing changes)."""
        seat = conn.seat
        if seat is None:
            raise RequestError("not_seated", N_("hints are for the players, not spectators"))
        if table.rated:
            raise RequestError(
                "hints_off", N_("there are no hints at a rated table: everyone plays alone")
            )
        state = table.state
        if state is None or table.status == "lobby":
            raise RequestError("not_started", N_("the game has not started yet"))
        if table.status == "finished" or state.is_over():
            raise RequestError("game_over", N_("the game is over"))
        if version != table.version:
            raise RequestError(
                "stale",
                N_("that position is gone (now at version {version}); ask again"),
                version=table.version,
            )
        view = state.view(seat)
        if state.is_chance() and state.to_move == seat:
            raise RequestError("bad_message", N_("roll the dice first: a hint is for a move"))
        if not view.legal_moves:
            raise RequestError("bad_message", N_("a hint is for your own turn"))
        return seat, view

    async def hint(self, table: Table, conn: Connection, version: int) -> None:
        """Judge ``conn``'s request for a hint in the position at ``version`` (refusals raise at
        once), then find it in the worker pool and send it when it is found; the connection's
        other messages are served meanwhile."""
        async with table.lock:
            await self.core.sync(table)
            seat, view = self._judge(table, conn, version)
        key = (table.code, seat)
        if key in self._asking:
            raise RequestError("rate_limited", N_("a hint is on its way: wait for it"))
        if self._limits.take(f"{table.code}:{seat}"):
            raise RequestError(
                "rate_limited",
                N_("{n} hints at once, then one every {seconds} seconds: wait a little"),
                n=HINT_BURST,
                seconds=int(HINT_INTERVAL),
            )
        self._asking.add(key)
        self.core.soon(self._answer(key, conn, view, version))

    async def _answer(
        self, key: tuple[str, int], conn: Connection, view: View, version: int
    ) -> None:
        try:
            loop = asyncio.get_running_loop()
            found = await loop.run_in_executor(self.core.scheduler.executor, find_hint, view)
        finally:
            self._asking.discard(key)
        assert view.seat is not None
        if not conn.closed:
            conn.send(protocol.hint_payload(version, view.seat, found, conn.lang))
