"""Presence: who is connected to each table, in this process and the others.

A connection joins a table with its tokens (:meth:`Presence.attach`) and leaves it
(:meth:`Presence.detach`); each time, this process counts its connections again and tells the
other processes, whose counts (:attr:`.core.HubCore.remote`) add to its own. A seat whose player
has no connection anywhere is *away*; a player coming back to a seat a bot stood in for takes it
back; and who holds the host's rights may change (:mod:`.hosts`).
"""

from __future__ import annotations

from collections.abc import Sequence

from . import access
from .access import Rights
from .connection import Connection
from .core import HubCore
from .standins import StandIns
from .table import Table


class Presence:
    """Connections joining and leaving tables, counted across the processes."""

    def __init__(self, core: HubCore, stand_ins: StandIns) -> None:
        self.core = core
        self.stand_ins = stand_ins

    def attach(
        self,
        table: Table,
        conn: Connection,
        token: str | None,
        host_token: str | None,
        local: Sequence[str] = (),
    ) -> None:
        """Seat a connection by its token (a spectator without one) and send it the state.

        ``local`` holds the tokens of the other seats the client's device holds (pass-and-play):
        those seats count as present (not away) while it is connected, but it sees and acts
        only for its token's seat."""
        rights = Rights.of(table, token, host_token)
        held = access.held_seats(table, local, rights.seat)
        conn.rights, conn.held = rights, held
        self.core.rooms.setdefault(table.code, set()).add(conn)
        self.present(table)
        if conn.seat is not None:
            s = table.seats[conn.seat]
            if s.stand_in and table.status == "playing":  # the player is back: the bot leaves
                before = s.data()
                self.stand_ins.seat_back(table, s)
                self.core.soon(self.stand_ins.save_back(table, before))
        table.touch()
        self.core.scheduler.wake(table)
        self.core.broadcast(table)
        self.core.hosts.rehost_soon(table)

    def detach(self, table: Table, conn: Connection) -> None:
        """The connection left the table."""
        room = self.core.rooms.get(table.code)
        if room is None or conn not in room:
            return
        room.discard(conn)
        if not room:
            del self.core.rooms[table.code]
        self.present(table)
        table.touch()
        self.core.broadcast(table)
        self.core.hosts.rehost_soon(table)

    def present(self, table: Table) -> None:
        """This process's connections to ``table`` changed: count them again, and tell the
        other processes."""
        seats, spectators, hosts = self.core.recount(table)
        self.core.cluster.publish(
            {"k": "here", "t": table.code, "c": seats, "v": spectators, "o": hosts}
        )

    def hello(self) -> None:
        """A process started: tell it who is connected here."""
        for table_code in list(self.core.rooms):
            table = self.core.registry.tables.get(table_code)
            if table is not None:
                self.present(table)

    def heard(self, code: str, proc: str, counts: list[int], watching: int, holding: int) -> None:
        """Process ``proc`` has ``counts`` connections at each seat of table ``code``,
        ``watching`` spectators and ``holding`` connections with the host token (its ``here``
        notice): count them with this process's."""
        if any(counts) or watching or holding:
            self.core.remote.setdefault(code, {})[proc] = (counts, watching, holding)
        else:
            self.core.remote.get(code, {}).pop(proc, None)
            if not self.core.remote.get(code, True):
                del self.core.remote[code]
        table = self.core.registry.tables.get(code)
        if table is not None:
            self._counted(table)

    def peer_gone(self, proc: str) -> None:
        """Process ``proc`` died: its connections are gone."""
        for code in [c for c, procs in self.core.remote.items() if proc in procs]:
            del self.core.remote[code][proc]
            if not self.core.remote[code]:
                del self.core.remote[code]
            table = self.core.registry.tables.get(code)
            if table is not None:
                self._counted(table)

    def _counted(self, table: Table) -> None:
        """Another process's connections to ``table`` changed: count again, show who is here,
        and pass the host's rights on if they must."""
        self.core.recount(table)
        table.touch()
        self.core.broadcast(table)
        self.core.hosts.rehost_soon(table)
