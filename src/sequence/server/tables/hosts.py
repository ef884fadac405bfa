"""Host changes: once the host has been away long enough, the host's rights pass to a player
who is here, and back when the host returns.

The host's rights (start, seat bots, the penalty) belong to whoever holds the host token while a
connection holds it. Once no connection has held it for :attr:`.core.HubCore.away_seconds` (the
time a seat must be away before it may be handed to a bot: one rule, :func:`.table.away_wait`),
they pass to the first seated person who is connected, who keeps them while connected, and
likewise on from them (docs/server.md, "Nobody is indispensable"). A host back in time keeps
everything. Each change is a ``host`` event, decided by the table's owner only (one decision,
one event, whichever process the players are on), which sets itself a timer for the moment the
wait is over, so the rights pass without any further event.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING

from .table import Event, Table, away_wait

if TYPE_CHECKING:
    from .core import HubCore


class HostChanges:
    """Passes the host's rights on, and back."""

    def __init__(self, core: HubCore) -> None:
        self.core = core
        self._timers: dict[str, asyncio.TimerHandle] = {}
        """The tables whose rights may pass once a wait is over, by code: when to look again."""

    def rehost_soon(self, table: Table) -> None:
        """Pass the host's rights on (or back) once the table's lock is free (the table's
        owner does it: one decision, one event, whichever process the players are on)."""
        if self.core.cluster.owns(table.code):
            self.core.soon(self.rehost(table))

    @staticmethod
    def host_seat_for(table: Table, away_seconds: float, now: float) -> tuple[int | None, float]:
        """Who should hold the host's rights at ``now`` (``time.monotonic``), and the seconds
        until that may change without anybody coming or going (0: it will not).

        Nobody but the host while a connection holds the host token (once the game is over,
        whoever held them). Else whoever holds them keeps them while connected, and until they
        have been away ``away_seconds``; then the first seated person who is connected gets
        them (if nobody is, they stay where they are)."""
        if table.status == "finished":
            return table.host_seat, 0.0  # nothing left to host: no more changes to record
        if table.host_connections > 0:
            return None, 0.0
        current = table.host_seat
        if current is None:
            left_at = table.host_left_at
        else:
            s = table.seats[current]
            if s.kind == "human" and s.connections > 0:
                return current, 0.0
            left_at = s.left_at
        wait = away_wait(left_at, away_seconds, now)
        if wait > 0:  # not away long enough: they may be back in time
            return current, wait
        # Nobody to pass them to: they stay where they are (no change to record).
        here = (s.seat for s in table.seats if s.kind == "human" and s.connections > 0)
        return next(here, current), 0.0

    def _look_again(self, table: Table, wait: float) -> None:
        """Rehost ``table`` in ``wait`` seconds (0: no need; any earlier timer is dropped)."""
        timer = self._timers.pop(table.code, None)
        if timer is not None:
            timer.cancel()
        if wait > 0:
            loop = asyncio.get_running_loop()
            self._timers[table.code] = loop.call_later(wait + 0.01, self._due, table)

    def stop(self) -> None:
        """Drop every timer (the server stops)."""
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()

    def _due(self, table: Table) -> None:
        self._timers.pop(table.code, None)
        self.rehost_soon(table)

    async def rehost(self, table: Table) -> None:
        """Give the host's rights to :meth:`host_seat_for` if they changed (a ``host`` event:
        ``seat`` the player who holds them, ``None`` the host again), or look again when the
        wait it names is over."""
        async with table.lock:
            seat, wait = self.host_seat_for(table, self.core.away_seconds, time.monotonic())
            self._look_again(table, wait)
            if seat == table.host_seat:
                return
            if table.behind:  # the event records the ply it happened at
                await self.core.registry.catch_up(table)
                seat, wait = self.host_seat_for(table, self.core.away_seconds, time.monotonic())
                self._look_again(table, wait)
                if seat == table.host_seat:
                    return
            table.host_seat = seat
            await self.core.record(table, Event(table.version, "host", seat))
            table.touch()
            self.core.broadcast(table)
            self.core.cluster.publish({"k": "table", "t": table.code})
