"""The table registry: every table in memory, by code, loaded from and saved to the store.

A table in the lobby or in play is always in memory (a restart rebuilds each from its move log);
a finished one is read back from the database when asked for and kept a while for rematches and
replays. Every write of a table's settings, seats and moves goes through here to
:class:`~.store.TableStore`. The registry also answers the public list of tables.
"""

from __future__ import annotations

import logging
import secrets
import time
from typing import Any

from ...engine import Config, Move, State, config_from_dict
from ...i18n import N_
from ..common.clock import clock
from ..common.errors import RequestError
from ..storage.store import ClockData
from .store import EventData, SeatChange, SeatData, TableData, TableStore
from .table import Event, Seat, Table, TimeControl, Turn

log = logging.getLogger("sequence.server")

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
FINISHED_KEPT = 256
"""Finished tables kept in memory (for rematches and replays); the least recently used go first."""
FINISHED_GRACE = 60.0
"""Seconds a finished table stays in memory after its last use, whatever :data:`FINISHED_KEPT`."""
LOBBY_IDLE = 30 * 60.0
"""Seconds a lobby with nobody connected stays in the public list, and in memory, after its
last change (the database keeps it: its link still works and brings it back)."""
PLAY_IDLE = 10 * 60.0
"""Seconds a game in play stays in the public list once none of its people (its seated players,
its host) is connected: a game they left, bots and all, is no longer offered to watch. It plays
on, and is listed again as soon as one of them comes back (:meth:`.table.Table.attended`)."""
LISTED = 100
"""At most this many lobbies, and this many games in play, in the public list (newest first)."""


def table_from(data: TableData) -> Table:
    """A live table from its stored form: a game's state is its seed plus a push per move."""
    config = config_from_dict(data.config)
    table = Table(
        id=data.id,
        code=data.code,
        config=config,
        seed=data.seed,
        public=data.public,
        status=data.status,
        host_hash=data.host_hash,
        seats=[
            Seat(s.seat, s.name, s.token_hash, s.bot, s.stand_in, reserve=s.reserve,
                 timeouts=s.timeouts, account_id=s.account_id)
            for s in data.seats
        ],
        result=data.result,
        rematch_code=data.rematch_code,
        bot_level=data.bot_level,
        on_timeout=data.on_timeout,
        rated=data.rated,
        events=[Event(e.ply, e.kind, e.seat, e.by_seat, e.detail) for e in data.events],
        move_ids={(seat, mid): ply for ply, seat, mid in data.move_ids if seat is not None},
    )  # fmt: skip
    hosts = [e for e in table.events if e.kind == "host"]
    if hosts:  # whoever held the host's rights still does, until the connections say otherwise
        table.host_seat = hosts[-1].seat
    if data.turn_seconds is not None:
        table.clock = TimeControl(data.time_control, data.turn_seconds, data.reserve_seconds or 0)
        table.turn = stored_turn(table.clock, data)
    if data.status in ("playing", "finished"):
        state = State.new(config, data.seed)
        for text in data.moves:
            state.push(Move.parse(text))
        table.state = state
    return table


def stored_turn(control: TimeControl, data: TableData) -> Turn | None:
    """The running turn as stored. A live clock goes on from what was left when it was last
    stored (a turn's start or the server's last stop), not from a full turn, and the time the
    server was down does not count; a correspondence turn (days) ends at its stored deadline,
    whatever happened meanwhile."""
    if data.clock_seat is None or data.clock_left is None:
        return None
    if control.correspondence and data.clock_deadline is not None:
        return Turn(data.clock_seat, max(0.0, data.clock_deadline - clock().time()))
    return Turn(data.clock_seat, data.clock_left)


class TableRegistry:
    """Every table in memory, by code, and their storage."""

    def __init__(self, store: TableStore) -> None:
        self.store = store
        self.tables: dict[str, Table] = {}
        self._swept = time.monotonic()

    # --- reading ------------------------------------------------------------------------------

    async def resume(self) -> list[Table]:
        """Load every table in the lobby or in play (a table that does not replay is left out
        and logged); return them."""
        loaded = []
        for data in await self.store.run(self.store.load_active):
            try:
                table = table_from(data)
            except Exception:
                log.exception("table %s does not replay; left out", data.code)
                continue
            self.tables[table.code] = table
            loaded.append(table)
        return loaded

    async def get(self, code: str) -> Table:
        """A table by its code: live, or a finished one read from the database."""
        code = code.strip().upper()
        table = self.tables.get(code)
        if table is not None:
            if table.status == "finished":
                table.active = time.monotonic()  # recently used: kept in memory longer
            return table
        # A code no table can have (a NUL byte, which PostgreSQL refuses in text) is unknown,
        # not asked of the database.
        known = 0 < len(code) <= 16 and code.isprintable()
        data = await self.store.run(self.store.load, code) if known else None
        if data is None:
            raise RequestError("unknown_table", N_("there is no table {code}"), 404, code=code)
        # Another request may have loaded it meanwhile: every request must share one table
        # object (its lock, its connections), finished or not, or two rematches could start.
        table = self.tables.get(code)
        if table is None:
            table = table_from(data)
            self.tables[table.code] = table
            self._forget_finished()
        return table

    def _forget_finished(self) -> None:
        """Drop the least recently used finished tables beyond :data:`FINISHED_KEPT` (never one
        someone is connected to or that is being changed); the database still has them."""
        # Never one used just now: a browser may be about to say hello to it.
        recent = time.monotonic() - FINISHED_GRACE
        idle = [
            t
            for t in self.tables.values()
            if t.status == "finished"
            and not t.connected
            and not t.lock.locked()
            and t.active < recent
        ]
        excess = len(idle) - FINISHED_KEPT
        if excess > 0:
            for t in sorted(idle, key=lambda t: t.active)[:excess]:
                del self.tables[t.code]

    def forget_idle_lobbies(self) -> None:
        """Drop from memory the lobbies nobody has been connected to for :data:`LOBBY_IDLE`
        seconds (never one being changed); at most one look over every table a minute."""
        now = time.monotonic()
        if now - self._swept < min(60.0, LOBBY_IDLE):
            return
        self._swept = now
        for t in list(self.tables.values()):
            if (
                t.status == "lobby"
                and not t.connected
                and not t.lock.locked()
                and now - t.active >= LOBBY_IDLE
            ):
                del self.tables[t.code]

    def open_tables(self) -> list[dict[str, Any]]:
        """Public tables: lobbies to join and games in play to watch, the most recent first.

        A lobby nobody is connected to drops out after :data:`LOBBY_IDLE` seconds, a game in
        play that none of its people has been connected to for :data:`PLAY_IDLE` seconds drops
        out (it stays in memory, and comes back when one of them does), and each kind is cut at
        :data:`LISTED`, so a flood of new lobbies cannot hide the games in play.
        """
        self.forget_idle_lobbies()
        now = time.monotonic()
        lobbies: list[Table] = []
        playing: list[Table] = []
        for t in self.tables.values():
            if not t.public:
                continue
            if t.status == "playing" and now - t.attended(now) < PLAY_IDLE:
                playing.append(t)
            elif t.status == "lobby" and (t.connected or now - t.active < LOBBY_IDLE):
                lobbies.append(t)
        out = []
        for group in (lobbies, playing):
            group.sort(key=lambda t: -t.active)
            for t in group[:LISTED]:
                out.append(
                    {
                        "code": t.code,
                        "config": t.config.to_dict(),
                        "status": t.status,
                        "free": [s.seat for s in t.seats if s.kind == "empty"],
                        "players": [s.name for s in t.seats],
                        "bots": [
                            s.bot if s.kind == "bot" and not s.stand_in else None for s in t.seats
                        ],
                        "spectators": t.spectators,
                    }
                )
        return out

    async def catch_up(self, table: Table) -> bool:
        """Bring ``table`` up to what the database holds (another server process changed it):
        its seats, status, events and every move after its version. Return whether anything
        changed. The clock (the turn and the reserves) stays this process's: it is kept by
        each process from the moves it sees, and stored by the table's owner; but a copy that
        was :attr:`~.table.Table.behind` saw no moves, so it takes the clock as stored."""
        stale_clock = table.behind
        data = await self.store.run(self.store.load_since, table.id, table.version)
        table.behind = False  # whatever was missed before this read is in it
        changed = False
        if stale_clock and table.clock is not None:
            for s, d in zip(table.seats, data.seats, strict=True):
                s.reserve = d.reserve
            table.turn = stored_turn(table.clock, data)
            changed = True
        for s, d in zip(table.seats, data.seats, strict=True):
            now = (d.name, d.token_hash, d.bot, d.stand_in, d.timeouts, d.account_id)
            if (s.name, s.token_hash, s.bot, s.stand_in, s.timeouts, s.account_id) != now:
                s.name, s.token_hash, s.bot, s.stand_in, s.timeouts, s.account_id = now
                changed = True
        if data.status != "lobby" and table.state is None:
            table.state = State.new(table.config, table.seed)
            changed = True
        if data.moves:
            assert table.state is not None
            for text in data.moves:
                table.state.push(Move.parse(text))
            for ply, seat, mid in data.move_ids:
                if seat is not None:
                    table.move_ids[(seat, mid)] = ply
            changed = True
        facts = (data.status, data.result, data.rematch_code)
        if (table.status, table.result, table.rematch_code) != facts:
            table.status, table.result, table.rematch_code = facts
            changed = True
        if len(data.events) != len(table.events):
            table.events = [Event(e.ply, e.kind, e.seat, e.by_seat, e.detail) for e in data.events]
            hosts = [e for e in table.events if e.kind == "host"]
            table.host_seat = hosts[-1].seat if hosts else None
            changed = True
        if changed:
            table.touch()
        return changed

    async def finished(self, limit: int) -> list[TableData]:
        """The latest finished public games, newest first (from the database)."""
        return await self.store.run(self.store.finished, limit)

    # --- writing ------------------------------------------------------------------------------

    async def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self.tables and not await self.store.run(self.store.code_taken, code):
                return code

    async def create(
        self,
        config: Config,
        seats: list[SeatData],
        public: bool,
        host_hash: str,
        status: str,
        clock: TimeControl | None = None,
        bot_level: str | None = None,
        rated: bool = False,
        on_timeout: str | None = None,
    ) -> Table:
        """Store a new table (a fresh code and seed) and keep it; a ``playing`` one is dealt.

        With a ``clock``, every seat starts with its full reserve; ``on_timeout`` is a
        correspondence table's choice when a seat's days run out (``bot`` or ``lost``)."""
        for seat in seats:
            seat.reserve, seat.timeouts = (clock.reserve if clock else 0.0), 0
        data = TableData(
            id=0,
            code=await self._new_code(),
            config=config.to_dict(),
            seed=secrets.randbits(62),
            public=public,
            status=status,
            host_hash=host_hash,
            result=None,
            rematch_code=None,
            seats=seats,
            moves=[],
            time_control="off" if clock is None else clock.name,
            turn_seconds=None if clock is None else clock.turn,
            reserve_seconds=None if clock is None else clock.reserve,
            bot_level=bot_level,
            on_timeout=on_timeout,
            rated=rated,
        )
        self.forget_idle_lobbies()  # a flood of new lobbies pushes the idle ones out of memory
        data.id = await self.store.run(self.store.create_table, data)
        if status == "playing":
            await self.store.run(self.store.set_status, data.id, "playing")
        table = table_from(data)
        self.tables[table.code] = table
        return table

    async def save_timeouts(self, table: Table, seat: Seat) -> None:
        """Store ``seat``'s run of timeouts (nothing else of the seat: who sits there changes
        only through :meth:`change_seat` and :meth:`take_seats`)."""
        await self.store.run(self.store.save_timeouts, table.id, seat.seat, seat.timeouts)

    async def save_clock(self, table: Table) -> None:
        """Store the running clock (the turn's seat and what it has left now) and the seats'
        reserves and timeouts."""
        turn = table.turn
        await self.store.save_clock(
            table.id,
            ClockData(
                None if turn is None else turn.seat,
                None if turn is None else turn.remaining(),
                tuple((s.seat, s.reserve, s.timeouts) for s in table.seats),
                None if turn is None else turn.deadline(),
            ),
        )

    async def take_seats(self, table: Table, seats: list[SeatData]) -> bool:
        """Store each of ``seats``' players in that seat if every one is still empty in the
        database (another server process may have seated someone there first), or none;
        return whether they were."""
        return await self.store.run(self.store.take_seats, table.id, seats)

    async def begin(self, table: Table) -> bool:
        """Store that ``table`` started, unless it had (the table itself is the caller's)."""
        return await self.store.run(self.store.begin, table.id)

    async def set_rematch(self, table: Table, new: Table) -> str:
        """Record ``new`` as ``table``'s rematch; if another rematch was recorded first (by
        another server process), drop ``new`` and return that one's code."""
        code = await self.store.run(self.store.set_rematch, table.id, new.code)
        if code != new.code:
            self.tables.pop(new.code, None)
            await self.store.run(self.store.drop_table, new.id)
        return code

    async def add_event(self, table: Table, event: Event) -> None:
        """Record ``event`` (stored first, then kept on the table)."""
        data = EventData(event.ply, event.kind, event.seat, event.by_seat, event.detail)
        await self.store.run(self.store.add_event, table.id, data)
        table.events.append(event)

    async def change_seat(self, table: Table, change: SeatChange) -> bool:
        """Store ``change`` (a seat, its event, a resignation's end of the game) if the database
        still holds the table as it was judged on (:meth:`.TableStore.change_seat`), the event then
        kept on the table; return whether it was stored."""
        if not await self.store.run(self.store.change_seat, table.id, change):
            return False
        if change.event is not None:
            e = change.event
            table.events.append(Event(e.ply, e.kind, e.seat, e.by_seat, e.detail))
        return True

    async def append_move(
        self, table: Table, state: State, seat: int | None, move_id: str | None = None
    ) -> None:
        """Store the last move of ``state`` (the table's next), made by ``seat`` (with the id its
        client gave it), with the result if it ended the game; return once it is committed
        (raise if it could not be)."""
        moves = state.move_stack
        outcome = state.outcome
        await self.store.append_move(
            table.id,
            len(moves),
            str(moves[-1]),
            seat,
            None if outcome is None else outcome.result(),
            outcome is not None,
            move_id,
        )
