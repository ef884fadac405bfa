"""A table's queries: its settings, seats, events and moves as the database holds them.

Every method of :class:`TableStore` but the moves and clocks committed in groups (which it has
from :class:`~..storage.store.Store`) is synchronous and runs on the store's one database thread
(``await store.run(store.method, ...)``, as :mod:`.registry` does). A change of seats is a
conditional write (:meth:`TableStore.take_seats`, :meth:`TableStore.change_seat`,
:meth:`TableStore.begin`): the database decides between two server processes changing a table at
once.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import selectinload

from ..storage.db import EventRow, MoveRow, SeatRow, TableRow, now
from ..storage.store import Store


class _Changed(Exception):
    """A seat or a table was not as the change expected it: its transaction is undone."""


class _Taken(Exception):
    """A seat asked for was no longer empty: the transaction taking seats is undone."""


@dataclass
class SeatData:
    """A seat as stored."""

    seat: int
    name: str | None = None
    token_hash: str | None = None
    bot: str | None = None
    stand_in: bool = False
    reserve: float = 0.0
    timeouts: int = 0
    account_id: int | None = None
    """The account whose player sits here (:mod:`.accounts`); ``None``: a guest or a bot."""


@dataclass
class TableData:
    """A table as stored, with its moves in order."""

    id: int
    code: str
    config: dict[str, Any]
    seed: int
    public: bool
    status: str
    host_hash: str
    result: str | None
    rematch_code: str | None
    seats: list[SeatData]
    moves: list[str]
    finished_at: str | None = None
    time_control: str = "off"
    turn_seconds: float | None = None
    reserve_seconds: float | None = None
    bot_level: str | None = None
    clock_seat: int | None = None
    clock_left: float | None = None
    clock_deadline: float | None = None
    """When the running turn ends (a Unix time by the server's clock)."""
    on_timeout: str | None = None
    """A correspondence table's choice when a seat's days run out: ``bot`` or ``lost``."""
    move_ids: list[tuple[int, int | None, str]] = field(default_factory=list)
    """(ply, seat, move id) of every move a client gave an id."""
    events: list[EventData] = field(default_factory=list)
    rated: bool = False


@dataclass
class EventData:
    """A table event as stored (see :class:`sequence.server.tables.table.Event`)."""

    ply: int
    kind: str
    seat: int | None = None
    by_seat: int | None = None
    detail: str | None = None


@dataclass
class SeatChange:
    """A change of one seat (or a resignation's end of the game), written only if the database
    still holds the seat as :attr:`before` and the table in :attr:`status`: the conditional
    write that lets exactly one of two server processes apply a change (see
    :meth:`Store.change_seat`)."""

    before: SeatData
    """The seat as the change was judged on."""
    after: SeatData
    """The seat as it becomes (the same as :attr:`before`: the seat does not change)."""
    status: str
    """The table's status the change was judged on."""
    event: EventData | None = None
    """The event recorded with it, in the same transaction."""
    result: str | None = None
    """Not ``None``: the game ends with this result (a resignation)."""


def _data(row: TableRow, with_moves: bool = True) -> TableData:
    return TableData(
        id=row.id,
        code=row.code,
        config=json.loads(row.config),
        seed=row.seed,
        public=row.public,
        status=row.status,
        host_hash=row.host_hash,
        result=row.result,
        rematch_code=row.rematch_code,
        seats=[
            SeatData(
                s.seat,
                s.name,
                s.token_hash,
                s.bot,
                s.stand_in,
                s.reserve,
                s.timeouts,
                s.account_id,
            )
            for s in row.seats
        ],
        moves=[m.move for m in row.moves] if with_moves else [],
        move_ids=[(m.ply, m.seat, m.move_id) for m in row.moves if m.move_id] if with_moves else [],
        events=[EventData(e.ply, e.kind, e.seat, e.by_seat, e.detail) for e in row.events]
        if with_moves
        else [],
        finished_at=row.finished_at.isoformat() if row.finished_at else None,
        time_control=row.time_control,
        turn_seconds=row.turn_seconds,
        reserve_seconds=row.reserve_seconds,
        bot_level=row.bot_level,
        clock_seat=row.clock_seat,
        clock_left=row.clock_left,
        clock_deadline=row.clock_deadline,
        on_timeout=row.on_timeout,
        rated=row.rated,
    )


def _event_row(table_id: int, event: EventData) -> EventRow:
    return EventRow(
        table_id=table_id,
        ply=event.ply,
        kind=event.kind,
        seat=event.seat,
        by_seat=event.by_seat,
        detail=event.detail,
    )


class TableStore(Store):
    """Tables, seats, events and moves in the database at ``url`` (migrated on opening)."""

    def create_table(self, data: TableData) -> int:
        """Insert a table and its seats; return its id."""
        with self.sessions.begin() as session:
            row = TableRow(
                code=data.code,
                config=json.dumps(data.config),
                seed=data.seed,
                public=data.public,
                status=data.status,
                host_hash=data.host_hash,
                time_control=data.time_control,
                turn_seconds=data.turn_seconds,
                reserve_seconds=data.reserve_seconds,
                bot_level=data.bot_level,
                on_timeout=data.on_timeout,
                rated=data.rated,
                seats=[
                    SeatRow(
                        seat=s.seat,
                        name=s.name,
                        token_hash=s.token_hash,
                        bot=s.bot,
                        stand_in=s.stand_in,
                        reserve=s.reserve,
                        timeouts=s.timeouts,
                        account_id=s.account_id,
                    )
                    for s in data.seats
                ],
            )
            session.add(row)
            session.flush()
            return row.id

    def save_seat(self, table_id: int, seat: SeatData) -> None:
        """Store one seat's occupant."""
        with self.sessions.begin() as session:
            row = session.scalars(
                select(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat.seat)
            ).one()
            row.name, row.token_hash, row.bot, row.stand_in = (
                seat.name,
                seat.token_hash,
                seat.bot,
                seat.stand_in,
            )
            row.reserve, row.timeouts = seat.reserve, seat.timeouts
            row.account_id = seat.account_id

    def save_timeouts(self, table_id: int, seat: int, timeouts: int) -> None:
        """Store one seat's run of timeouts."""
        with self.sessions.begin() as session:
            session.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                .values(timeouts=timeouts)
            )

    def add_event(self, table_id: int, event: EventData) -> None:
        """Record a table event."""
        with self.sessions.begin() as session:
            session.add(_event_row(table_id, event))

    def finish(self, table_id: int, result: str) -> None:
        """Mark a table finished with ``result`` whatever it holds (for tools and tests: the
        server ends a game by a move, or by a resignation through :meth:`change_seat`)."""
        with self.sessions.begin() as session:
            row = session.get_one(TableRow, table_id)
            row.status, row.result, row.finished_at = "finished", result, now()

    def change_seat(self, table_id: int, change: SeatChange) -> bool:
        """Apply ``change`` (its seat, its event, the end of the game) in one transaction if the
        table is still in ``change.status`` and the seat still as ``change.before`` (who sits
        there: name, token, account, bot, stand-in); ``False``, nothing stored, if not: another
        server process changed them first.

        The table's row is locked first (``SELECT ... FOR UPDATE`` on PostgreSQL; SQLite has
        one writer), so every such change, a move's end of the game and a start wait for each
        other: two processes applying the same request at once apply it once."""
        before, after = change.before, change.after
        try:
            with self.sessions.begin() as session:
                row = session.scalars(
                    select(TableRow).where(TableRow.id == table_id).with_for_update()
                ).one()
                if row.status != change.status:
                    raise _Changed
                seat = session.execute(
                    update(SeatRow)
                    .where(
                        SeatRow.table_id == table_id,
                        SeatRow.seat == before.seat,
                        SeatRow.name.is_not_distinct_from(before.name),
                        SeatRow.token_hash.is_not_distinct_from(before.token_hash),
                        SeatRow.account_id.is_not_distinct_from(before.account_id),
                        SeatRow.bot.is_not_distinct_from(before.bot),
                        SeatRow.stand_in == before.stand_in,
                    )
                    .values(
                        name=after.name,
                        token_hash=after.token_hash,
                        account_id=after.account_id,
                        bot=after.bot,
                        stand_in=after.stand_in,
                        timeouts=after.timeouts,
                        reserve=after.reserve,
                    )
                )
                if getattr(seat, "rowcount", 0) != 1:
                    raise _Changed  # leaving the block rolls back
                if change.result is not None:
                    row.status, row.result, row.finished_at = "finished", change.result, now()
                if change.event is not None:
                    session.add(_event_row(table_id, change.event))
        except _Changed:
            return False
        return True

    def set_status(self, table_id: int, status: str) -> None:
        """Mark a table started (``playing``: a rematch, dealt at once)."""
        with self.sessions.begin() as session:
            row = session.get_one(TableRow, table_id)
            row.status = status
            if status == "playing" and row.started_at is None:
                row.started_at = now()

    def load_active(self) -> list[TableData]:
        """Every table in the lobby or being played, with its moves: what a restart resumes."""
        with self.sessions() as session:
            rows = session.scalars(
                select(TableRow)
                .where(TableRow.status.in_(("lobby", "playing")))
                .options(
                    selectinload(TableRow.seats),
                    selectinload(TableRow.moves),
                    selectinload(TableRow.events),
                )
            ).all()
            return [_data(r) for r in rows]

    def load(self, code: str) -> TableData | None:
        """One table by its code, or ``None``."""
        with self.sessions() as session:
            row = session.scalars(
                select(TableRow)
                .where(TableRow.code == code)
                .options(
                    selectinload(TableRow.seats),
                    selectinload(TableRow.moves),
                    selectinload(TableRow.events),
                )
            ).one_or_none()
            return None if row is None else _data(row)

    def code_taken(self, code: str) -> bool:
        """Whether a table already has ``code``."""
        with self.sessions() as session:
            return (
                session.scalars(select(TableRow.id).where(TableRow.code == code)).first()
                is not None
            )

    def load_since(self, table_id: int, ply: int) -> TableData:
        """A table as stored now, with only the moves after ``ply``: what a server process
        whose copy of the table stands at ``ply`` lacks (another process changed it)."""
        with self.sessions() as session:
            row = session.scalars(
                select(TableRow)
                .where(TableRow.id == table_id)
                .options(selectinload(TableRow.seats), selectinload(TableRow.events))
            ).one()
            data = _data(row, with_moves=False)
            data.events = [
                EventData(e.ply, e.kind, e.seat, e.by_seat, e.detail) for e in row.events
            ]
            later = session.scalars(
                select(MoveRow)
                .where(MoveRow.table_id == table_id, MoveRow.ply > ply)
                .order_by(MoveRow.ply)
            ).all()
            data.moves = [m.move for m in later]
            data.move_ids = [(m.ply, m.seat, m.move_id) for m in later if m.move_id]
            return data

    def take_seats(self, table_id: int, seats: Sequence[SeatData]) -> bool:
        """Give empty seats of a table in the lobby to their players (one person's, or those of
        a pass-and-play device), all or none: ``False`` (nothing stored) if one of them is no
        longer empty or the game started. The database decides between two server processes
        seating two people at once."""
        try:
            with self.sessions.begin() as session:
                for seat in seats:
                    taken = session.execute(
                        update(SeatRow)
                        .where(
                            SeatRow.table_id == table_id,
                            SeatRow.seat == seat.seat,
                            SeatRow.token_hash.is_(None),
                            SeatRow.bot.is_(None),
                            select(TableRow.id)
                            .where(TableRow.id == table_id, TableRow.status == "lobby")
                            .exists(),
                        )
                        .values(
                            name=seat.name, token_hash=seat.token_hash, account_id=seat.account_id
                        )
                    )
                    if getattr(taken, "rowcount", 0) != 1:
                        raise _Taken  # leaving the block rolls back the seats taken before
        except _Taken:
            return False
        return True

    def begin(self, table_id: int) -> bool:
        """Mark a table in the lobby started; ``False`` if it is not in the lobby any more
        (another server process started it first)."""
        with self.sessions.begin() as session:
            done = session.execute(
                update(TableRow)
                .where(TableRow.id == table_id, TableRow.status == "lobby")
                .values(status="playing", started_at=now())
            )
            return bool(getattr(done, "rowcount", 0) == 1)

    def set_rematch(self, table_id: int, code: str) -> str:
        """Record ``code`` as a finished table's rematch unless one is recorded already;
        return the rematch's code (the one recorded first)."""
        with self.sessions.begin() as session:
            session.execute(
                update(TableRow)
                .where(TableRow.id == table_id, TableRow.rematch_code.is_(None))
                .values(rematch_code=code)
            )
            return str(session.get_one(TableRow, table_id).rematch_code)

    def drop_table(self, table_id: int) -> None:
        """Delete a table that was never shown to anybody (a rematch another process made
        first), its seats with it."""
        with self.sessions.begin() as session:
            row = session.get(TableRow, table_id)
            if row is not None:
                session.delete(row)

    def finished(self, limit: int) -> list[TableData]:
        """The latest finished public games, newest first (without their moves).

        A private table stays out of every list, finished or not: its code is its invitation.
        """
        with self.sessions() as session:
            rows = session.scalars(
                select(TableRow)
                .where(TableRow.status == "finished", TableRow.public.is_(True))
                .order_by(TableRow.finished_at.desc(), TableRow.id.desc())
                .limit(limit)
                .options(selectinload(TableRow.seats))
            ).all()
            return [_data(r, with_moves=False) for r in rows]
