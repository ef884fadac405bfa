"""The hub: routes each request on a table to the job that decides it, then tells everyone.

The engine runs here and only here. A request (HTTP or WebSocket, see :mod:`..web`) names a
table; under the table's lock the job that does it asks access rights (:mod:`.access`) whether
the sender may do it and the engine whether the move is legal, has the registry
(:mod:`.registry`) store the change, and only then sends every connection at the table its own
:func:`~.protocol.state_payload` and wakes the scheduler (:mod:`.scheduler`), which takes the
bots' steps. One job a file, all standing on the shared core (:mod:`.core`):

- :mod:`.seating` -- the lobby and its seats: a table made, seats taken, bots seated, the
  start, the rematch;
- :mod:`.claims` -- seats the account service changes (a guest's seat claimed by an account);
- :mod:`.moves` -- a player's move, a roll, the penalty, every bot's step;
- :mod:`.standins` -- bots keeping the seats of players who are gone, and resignations;
- :mod:`.presence` -- connections joining and leaving, counted across the processes;
- :mod:`.hosts` -- the host's rights passing on while the host is away;
- :mod:`.talk` -- reactions and chat;
- :mod:`.coaching` -- hints at casual tables, from the asking seat's view;
- :mod:`.notices` -- what the other server processes changed, and catching up.

With several server processes (:mod:`..cluster`), every change a job stores is also published
as a notice; the hub of each other process applies it to its own copy of the table (or reads
the table back from the database) and tells its own connections. The database decides between
two processes changing a table at once (a move's ply and id, the start, and every change of a
seat: a conditional write of the seat as it was judged on, with its event), and the loser
catches up from it and refuses the request with the reason. Who is connected is counted across
the processes; the bots, the clock and the passing of the host's rights run only in the table's
owner.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Executor

from ..cluster.notices import Cluster, Solo
from .claims import SeatClaims
from .coaching import Coach, Reviews
from .core import HubCore
from .moves import MovePlayer
from .notices import NoticeReader
from .presence import Presence
from .registry import TableRegistry
from .scheduler import Scheduler
from .seating import Seating
from .standins import StandIns
from .store import TableStore
from .table import AWAY_SECONDS, Table
from .talk import TableTalk


class Hub:
    """Every request on a table, from the lobby to the last move: each answered by its job."""

    def __init__(
        self,
        store: TableStore,
        executor: Executor,
        bot_delay: float = 0.5,
        away_seconds: float = AWAY_SECONDS,
        cluster: Cluster | None = None,
    ) -> None:
        self.cluster = cluster or Solo()
        """The other server processes serving the same tables (:class:`~..cluster.notices.Solo`:
        none)."""
        self.registry = TableRegistry(store)
        # The scheduler's steps are the jobs' made below: a bot's move, a clock run out.
        self.scheduler = Scheduler(
            executor,
            lambda table, move, seat: self.moves.apply(table, move, seat),
            bot_delay,
            timed_out=lambda table: self.stand_ins.timed_out(table),
            save_clock=self.registry.save_clock,
            owns=lambda table: self.cluster.owns(table.code),
        )
        self.core = HubCore(self.registry, self.scheduler, self.cluster, away_seconds)
        self.seating = Seating(self.core)
        self.claims = SeatClaims(self.core)
        self.moves = MovePlayer(self.core)
        self.stand_ins = StandIns(self.core)
        self.presence = Presence(self.core, self.stand_ins)
        self.talk = TableTalk(self.core)
        self.coach = Coach(self.core)
        self.reviews = Reviews(self.core)
        self.notices = NoticeReader(self.core, self.presence, self.talk)
        # The requests (the routes' and the WebSocket's), each answered by the job that does it.
        self.get = self.core.get
        self.create = self.seating.create
        self.join = self.seating.join
        self.set_bot = self.seating.set_bot
        self.start = self.seating.start
        self.rematch = self.seating.rematch
        self.claim = self.claims.claim
        self.seats_stored = self.claims.seats_stored
        self.attach = self.presence.attach
        self.detach = self.presence.detach
        self.play = self.moves.play
        self.roll = self.moves.roll
        self.penalty = self.moves.penalty
        self.take_back = self.stand_ins.take_back
        self.resign = self.stand_ins.resign
        self.react = self.talk.react
        self.chat = self.talk.chat
        self.hint = self.coach.hint

    @property
    def watchers(self) -> list[Callable[[Table], None]]:
        """Called with a table whenever its change is shown: notifications
        (:mod:`..notify.notifier`)."""
        return self.core.watchers

    @property
    def on_finish(self) -> Callable[[Table], None] | None:
        """Called once a game has ended (its result stored here): the ratings
        (:mod:`..ratings.ranked`)."""
        return self.core.on_finish

    @on_finish.setter
    def on_finish(self, hook: Callable[[Table], None] | None) -> None:
        self.core.on_finish = hook

    async def resume(self) -> int:
        """Load every table in the lobby or in play, take over those no live process runs,
        and let their bots go on; return how many."""
        # Listen first: a change made while the tables load is then either in what the
        # database gives or in a notice (the tables are caught up when in doubt).
        await self.cluster.start(self.notices)
        tables = await self.registry.resume()
        await self.cluster.claim([t.code for t in tables])
        for table in tables:
            self.core.recount(table)  # who is connected to the other processes (their "here")
            self.scheduler.wake(table)
        return len(tables)

    async def refresh(self, table: Table) -> None:
        """With other processes, bring ``table`` up to the database now, before a request that
        the hub does not judge itself reads it (takes the table's lock): a seat taken or claimed
        through another process a moment ago, whose notice has not arrived yet, is then known
        here."""
        if self.cluster.shared:
            async with table.lock:
                await self.core.sync(table)

    async def load_new(self, code: str) -> Table:
        """A table stored by another part of this process (quick play's matching), read from
        the database and run here as :meth:`.seating.Seating.create`'s are: this process claims
        it (one process runs its bots and clock) and tells the others, whose players may sit at
        it."""
        table = await self.registry.get(code)
        await self.core.created(table)
        return table

    async def shutdown(self) -> None:
        """Stop the bots and clocks (storing what each clock has left), hand this process's
        tables to the others, and close every connection."""
        await self.scheduler.stop(list(self.registry.tables.values()))
        self.core.hosts.stop()
        for room in self.core.rooms.values():
            for conn in list(room):
                conn.close()
        await self.cluster.stop()
