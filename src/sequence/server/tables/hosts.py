"""Host changes: while nobody holds the host token, the host's rights pass to a player who is here.

The host's rights (start, seat bots, the penalty) belong to whoever holds the host token while a
connection holds it; else to the first seated person who is connected, who keeps them while
connected (docs/server.md, "Nobody is indispensable"). Each change is a ``host`` event, decided
by the table's owner only (one decision, one event, whichever process the players are on).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .table import Event, Table

if TYPE_CHECKING:
    from .core import HubCore


class HostChanges:
    """Passes the host's rights on, and back."""

    def __init__(self, core: HubCore) -> None:
        self.core = core

    def rehost_soon(self, table: Table) -> None:
        """Pass the host's rights on (or back) once the table's lock is free (the table's
        owner does it: one decision, one event, whichever process the players are on)."""
        if self.core.cluster.owns(table.code):
            self.core.soon(self.rehost(table))

    @staticmethod
    def host_seat_for(table: Table) -> int | None:
        """Who should hold the host's rights: nobody but the host while a connection holds the
        host token (once the game is over, whoever held them); else the seat holding them now
        while its player is connected, or the first seated person who is (if nobody is, they
        stay where they are)."""
        if table.status == "finished":
            return table.host_seat  # nothing left to host: no more changes to record
        if table.host_connections > 0:
            return None
        current = table.host_seat
        if current is not None:
            s = table.seats[current]
            if s.kind == "human" and s.connections > 0:
                return current
        # Nobody to pass them to: they stay where they are (no change to record).
        here = (s.seat for s in table.seats if s.kind == "human" and s.connections > 0)
        return next(here, current)

    async def rehost(self, table: Table) -> None:
        """Give the host's rights to :meth:`host_seat_for` if they changed (a ``host`` event:
        ``seat`` the player who holds them, ``None`` the host again)."""
        async with table.lock:
            seat = self.host_seat_for(table)
            if seat == table.host_seat:
                return
            if table.behind:  # the event records the ply it happened at
                await self.core.registry.catch_up(table)
                seat = self.host_seat_for(table)
                if seat == table.host_seat:
                    return
            table.host_seat = seat
            await self.core.record(table, Event(table.version, "host", seat))
            table.touch()
            self.core.broadcast(table)
            self.core.cluster.publish({"k": "table", "t": table.code})
