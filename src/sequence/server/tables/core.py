"""What every job of the hub shares: the tables, who is connected, and the steps after a change.

The hub (:mod:`.hub`) answers each request on a table through the job that does it; each job
stands on :class:`HubCore`: the tables in memory (:mod:`.registry`), the scheduler of bots and
clocks (:mod:`.scheduler`), the other server processes (:mod:`..cluster.notices`), the
connections at each table in this process and the counts of those in the others, and the steps
that follow every change: a change of a seat judged and stored only if the database still holds
the table as it was judged on (:meth:`HubCore.change_seat`), an event recorded, a table caught
up from the database (:meth:`HubCore.sync`), then everyone at the table shown its own view
(:meth:`HubCore.broadcast`), the scheduler woken and the other processes told.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Coroutine
from typing import Any

from ...i18n import N_
from ..cluster.notices import Cluster
from ..common.errors import RequestError
from .connection import Connection
from .hosts import HostChanges
from .registry import TableRegistry
from .scheduler import Scheduler
from .store import SeatChange
from .table import AWAY_SECONDS, Event, Table

log = logging.getLogger("sequence.server")

CHANGE_TRIES = 3
"""Times a change of a seat is judged again when another process changed the table first."""


class HubCore:
    """The state and the steps every job of the hub shares (see the module's docstring)."""

    def __init__(
        self,
        registry: TableRegistry,
        scheduler: Scheduler,
        cluster: Cluster,
        away_seconds: float = AWAY_SECONDS,
    ) -> None:
        self.registry = registry
        """Every table in memory, by code, and the store behind them."""
        self.scheduler = scheduler
        """Bots' steps and turn clocks, woken after every change."""
        self.cluster = cluster
        """The other server processes serving the same tables (:class:`~..cluster.notices.Solo`:
        none)."""
        self.rooms: dict[str, set[Connection]] = {}
        """The connections at each table, by code (this process's)."""
        self.remote: dict[str, dict[str, tuple[list[int], int, int]]] = {}
        """The connections to each table in the other processes, by code and process: per seat,
        spectators, and those holding the host token."""
        self.on_finish: Callable[[Table], None] | None = None
        """Called once a game has ended (its result stored here): the ratings
        (:mod:`..ratings.ranked`)."""
        self.watchers: list[Callable[[Table], None]] = []
        """Called with a table whenever its change is shown (:meth:`broadcast`): notifications."""
        self.away_seconds = away_seconds
        """Seconds a person must be gone before another player may hand their seat to a bot,
        and before the host's rights they hold pass on (:func:`.table.away_wait`)."""
        self.hosts = HostChanges(self)
        """Who holds the host's rights: any change of who is connected may pass them on."""
        self._tasks: set[asyncio.Task[None]] = set()

    async def get(self, code: str) -> Table:
        """A table by its code (``unknown_table`` if there is none), up to the database if this
        process had stopped keeping it up to date (:meth:`.notices.NoticeReader.quiet`)."""
        known = code.strip().upper() in self.registry.tables
        table = await self.registry.get(code)
        if not known and table.status != "finished" and self.cluster.shared:
            # Read back from the database: if no live process runs it, this one does.
            await self.cluster.claim([table.code])
            self.recount(table)
            self.scheduler.wake(table)
        elif table.behind:
            async with table.lock:
                if table.behind and await self.registry.catch_up(table):
                    self.after_catch_up(table, moved_only=True)
        return table

    def recount(self, table: Table) -> tuple[list[int], int, int]:
        """Set the table's connection counts (each seat's, the spectators', the host token's)
        from this process's connections and the other processes' last notices; return this
        process's. A seat whose last connection went away is away from now on."""
        seats = [0] * len(table.seats)
        spectators = hosts = 0
        for conn in self.rooms.get(table.code, ()):
            hosts += conn.rights.host
            if not conn.present:  # a pass-and-play device between turns still holds its seats
                spectators += 1
            for seat in conn.present:
                seats[seat] += 1
        mine = (list(seats), spectators, hosts)
        for counts, watching, holding in self.remote.get(table.code, {}).values():
            for i, n in enumerate(counts[: len(seats)]):
                seats[i] += n
            spectators += watching
            hosts += holding
        now = time.monotonic()
        if table.host_connections > 0 and hosts == 0:
            table.host_left_at = now
        for s, n in zip(table.seats, seats, strict=True):
            if s.connections > 0 and n == 0:
                s.left_at = now
            s.connections = n
        table.spectators, table.host_connections = spectators, hosts
        return mine

    def broadcast(self, table: Table) -> None:
        """Send every connection at the table its own view of it, as a delta from what it was
        last sent (:meth:`.Connection.show`), and tell :attr:`watchers`."""
        for watch in self.watchers:
            watch(table)
        for conn in list(self.rooms.get(table.code, ())):
            conn.show(table, conn.rights.hosts(table))

    async def record(self, table: Table, event: Event) -> None:
        """Store ``event`` in the table's log (a failure is logged: the change itself stands)."""
        try:
            await self.registry.add_event(table, event)
        except Exception:
            log.exception("could not record %s at %s", event, table.code)
            table.events.append(event)

    async def change_seat(self, table: Table, judge: Callable[[], SeatChange]) -> SeatChange:
        """Judge a change of a seat (``judge`` raises the refusal, or says what changes) on the
        table as this process holds it, and store it only if the database still holds the table
        so (:meth:`.store.TableStore.change_seat`: one transaction, the event with it). If
        another process changed it first, catch up and judge again: a request two processes
        receive at once is applied once, and the other is refused as it would be had it come
        second. Then make the change here. Call with the table's lock held; return the
        change."""
        for _ in range(CHANGE_TRIES):
            change = judge()
            if await self.registry.change_seat(table, change):
                s, after = table.seats[change.after.seat], change.after
                s.name, s.token_hash, s.account_id = after.name, after.token_hash, after.account_id
                s.bot, s.stand_in, s.timeouts = after.bot, after.stand_in, after.timeouts
                if change.result is not None:
                    table.status, table.result = "finished", change.result
                table.touch()
                return change
            await self.sync(table, force=True)
        raise RequestError(
            "stale",
            N_("the table changed while this was decided; nothing was done: try again"),
            409,
        )

    def soon(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` on its own (kept referenced until it ends; a failure is logged)."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("table work failed", exc_info=task.exception())

    def finished(self, table: Table) -> None:
        """The game at ``table`` ended and its result is stored: tell :attr:`on_finish`."""
        if self.on_finish is not None:
            try:
                self.on_finish(table)
            except Exception:  # the game is over whatever its consequences do
                log.exception("after the end of %s", table.code)

    async def created(self, table: Table) -> None:
        """A table made here: this process runs it, and the others learn of it (they load a
        public one, for their open-tables list; a private one when it is asked for)."""
        await self.cluster.claim([table.code])
        self.cluster.publish({"k": "new", "t": table.code, "pub": table.public})
        self.scheduler.wake(table)

    async def release(self, table: Table) -> None:
        """The game is over: nobody runs the table any more."""
        if self.cluster.owns(table.code):
            await self.cluster.release(table.code)

    def changed(self, table: Table, reset: int | None = None) -> None:
        """A change stored here (seats, status, events; not a move): wake the scheduler, show
        it, and tell the other processes (``reset``: the clock of that seat's turn starts
        afresh, as :meth:`.standins.StandIns.seat_back` and a resignation do)."""
        if table.status == "finished":  # a resignation ended it
            self.soon(self.release(table))
        self.scheduler.wake(table)
        self.broadcast(table)
        self.cluster.publish({"k": "table", "t": table.code, "reset": reset})

    async def sync(self, table: Table, force: bool = False) -> None:
        """With other processes, bring ``table`` up to the database before a request is judged
        on it (only when ``force``: on one process, the database always agrees). Call with the
        table's lock held."""
        if not (self.cluster.shared or force):
            return
        if await self.registry.catch_up(table):
            self.after_catch_up(table)

    def after_catch_up(self, table: Table, moved_only: bool = False) -> None:
        """Show a table this process brought up to another's change, and go on from it (a
        change of seats or events may pass the host's rights on; a move alone does not)."""
        table.active = time.monotonic()
        if table.status == "finished":
            self.soon(self.release(table))
        self.scheduler.wake(table)
        self.broadcast(table)
        if not moved_only:
            self.hosts.rehost_soon(table)
