"""The database behind the server: one thread does every query; moves and clocks are committed
in groups.

All SQL runs on a single worker thread, so the event loop never waits on the database and
SQLite sees one writer: every room's queries run there through :meth:`Store.run` (a table's in
:mod:`..tables.store`, an account's in :mod:`..accounts.store`). :meth:`Store.append_move`
resolves only once its move is committed: moves that arrive together share one transaction
(group commit), and a move is never shown to anybody before it is stored, so a killed server
resumes exactly where the players saw it. Turn clocks are stored the same way
(:meth:`Store.save_clock`): every table's clock changes at every turn, so the clocks that change
together share one transaction too.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import bindparam, insert, select, text, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from .db import MoveRow, SeatRow, TableRow, make_engine, migrate, now

log = logging.getLogger("sequence.server")
T = TypeVar("T")


CLOCK_WRITE_DELAY = 0.5
"""Seconds a turn clock waits to be stored, so that the clocks of many tables share a write;
what a restart may lose of a clock (a restart restarts the running turn anyway)."""


# The statements of every move's transaction, built once: building a statement again for each
# commit (its clauses, then the look-up of its compiled form in SQLAlchemy's cache) cost about as
# much of the server's CPU as sending it, on PostgreSQL 0.3 to 0.7 ms a commit.
_LOCK_LIVE = (
    select(TableRow.id)
    .where(TableRow.id.in_(bindparam("ids", expanding=True)), TableRow.status == "playing")
    .order_by(TableRow.id)
    .with_for_update()
)
"""Lock the rows of tables ``ids`` (in order: no deadlock between processes), those in play."""
_INSERT_MOVES = insert(MoveRow)
_FINISH = (
    update(TableRow)
    .where(TableRow.id == bindparam("tid"))
    .values(
        status="finished", result=bindparam("game_result"), finished_at=bindparam("finished_at")
    )
)


_COMMIT_MOVES_POSTGRES = text(
    "WITH m AS (SELECT * FROM json_to_recordset(CAST(:rows AS json))"
    " AS m(table_id integer, ply integer, move varchar, seat integer, move_id varchar)),"
    " live AS (SELECT id FROM game_tables"
    " WHERE id IN (SELECT table_id FROM m) AND status = 'playing' ORDER BY id FOR UPDATE)"
    " INSERT INTO moves (table_id, ply, move, seat, move_id, created_at)"
    " SELECT table_id, ply, move, seat, move_id, :at FROM m"
    " WHERE (SELECT count(*) FROM live) = (SELECT count(DISTINCT table_id) FROM m)"
)
"""A batch of moves none of which ends its game, on PostgreSQL, as one statement and so one
round trip (it is its own transaction): lock the tables' rows in order, as :data:`_LOCK_LIVE`
does, and insert the moves only if every table is still in play. A row another process changed
meanwhile is judged again on its new version once its lock is free (READ COMMITTED's re-check of
``FOR UPDATE``), so a resignation stored first is seen. The moves travel as one JSON text:
psycopg turns a JSON string into a parameter faster than five arrays."""


class _NotInPlay(Exception):
    """A table of a batch of moves is no longer in play (another server process stored a
    resignation that ended it): the batch's transaction is undone."""


class MoveConflict(Exception):
    """The database already holds a move at this ply, or this move id of this seat, or the game
    is over (a resignation): another server process (sharing the database) stored it first.
    Nothing was stored."""


@dataclass(frozen=True)
class ClockData:
    """A table's turn clock as stored: what a restart goes on from."""

    seat: int | None
    """The seat whose turn is running (``None``: no turn is timed)."""
    left: float | None
    """What that turn had left, in seconds, when it was stored."""
    seats: tuple[tuple[int, float, int], ...]
    """Each seat's ``(seat, reserve, timeouts)``."""
    deadline: float | None = None
    """When that turn ends, as a Unix time by the server's clock (a correspondence table goes
    on from it after a restart)."""


@dataclass
class _Pending:
    table_id: int
    ply: int
    move: str
    seat: int | None
    result: str | None
    finished: bool
    future: asyncio.Future[None]
    move_id: str | None = None

    def row(self) -> dict[str, Any]:
        """The move's row in ``moves`` (its time aside)."""
        return {
            "table_id": self.table_id,
            "ply": self.ply,
            "move": self.move,
            "seat": self.seat,
            "move_id": self.move_id,
        }


class Store:
    """The database at ``url`` (migrated on opening), its thread, and the moves and clocks
    committed in groups (a table's other queries: :class:`~..tables.store.TableStore`)."""

    def __init__(self, url: str) -> None:
        self.engine = make_engine(url)
        migrate(self.engine)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        # PostgreSQL stores moves that end no game in one statement, which needs no BEGIN and
        # COMMIT of its own (autocommit is set on the client's side: no round trip).
        self._one_statement = (
            self.engine.execution_options(isolation_level="AUTOCOMMIT")
            if self.engine.dialect.name == "postgresql"
            else None
        )
        self._moves_connection: Connection | None = None
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sequence-db")
        self._pending: list[_Pending] = []
        self._flushing = False
        self._clocks: dict[int, tuple[ClockData, list[asyncio.Future[None]]]] = {}
        self._clocks_flushing = False

    @property
    def sessions(self) -> sessionmaker[Session]:
        """New ORM sessions on this database, for the queries of every room (a table's in
        :mod:`..tables.store`, an account's in :mod:`..accounts.store`), which run on this
        store's thread through :meth:`run`."""
        return self._sessions

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` on the database thread; once more if the database had ended the
        connection (a restart, ``pg_terminate_backend``, a proxy's idle timeout): SQLAlchemy
        then drops every pooled connection, and the second try opens a new one. A statement
        sent on a dead connection did nothing; a commit cut off half-way is caught by the
        constraints (a move's ply, a table's code) as any other race is."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool, fn, *args)
        except DBAPIError as exc:
            if not exc.connection_invalidated:
                raise
            log.warning("the database ended a connection (%s); trying again", exc.orig)
            return await loop.run_in_executor(self._pool, fn, *args)

    def close(self) -> None:
        """Finish queued work and release the database."""
        self._pool.shutdown(wait=True)
        if self._moves_connection is not None:
            self._moves_connection.close()
        self.engine.dispose()

    # --- clocks, committed in groups ----------------------------------------------------------

    def _write_clocks(self, clocks: dict[int, ClockData]) -> None:
        """Store the clocks of several tables in one transaction (two statements, each run
        once for every table or seat)."""
        with self.engine.begin() as conn:
            conn.execute(
                update(TableRow)
                .where(TableRow.id == bindparam("tid"))
                .values(
                    clock_seat=bindparam("turn_seat"),
                    clock_left=bindparam("turn_left"),
                    clock_deadline=bindparam("turn_deadline"),
                ),
                [
                    {
                        "tid": tid,
                        "turn_seat": c.seat,
                        "turn_left": c.left,
                        "turn_deadline": c.deadline,
                    }
                    for tid, c in clocks.items()
                ],
            )
            conn.execute(
                update(SeatRow)
                .where(SeatRow.table_id == bindparam("tid"), SeatRow.seat == bindparam("n"))
                .values(reserve=bindparam("seat_reserve"), timeouts=bindparam("seat_timeouts"))
                .execution_options(synchronize_session=False),
                [
                    {"tid": tid, "n": n, "seat_reserve": r, "seat_timeouts": t}
                    for tid, c in clocks.items()
                    for n, r, t in c.seats
                ],
            )

    def _commit_moves(self, batch: list[_Pending]) -> None:
        if self._one_statement is not None and not any(p.finished for p in batch):
            self._commit_moves_in_one_statement(self._one_statement, batch)
            return
        # Core statements, not ORM objects: this runs for every move, and the rows are only
        # written, never read back.
        with self.engine.begin() as conn:
            # Lock the tables' rows (in order: no deadlock between processes) and check that
            # each game is still on: a resignation stored by another process ends it.
            ids = sorted({p.table_id for p in batch})
            live = conn.scalars(_LOCK_LIVE, {"ids": ids}).all()
            if len(live) != len(ids):
                raise _NotInPlay
            conn.execute(_INSERT_MOVES, [p.row() for p in batch])
            finished = [p for p in batch if p.finished]
            if finished:
                at = now()
                conn.execute(
                    _FINISH,
                    [
                        {"tid": p.table_id, "game_result": p.result, "finished_at": at}
                        for p in finished
                    ],
                )

    def _commit_moves_in_one_statement(self, engine: Engine, batch: list[_Pending]) -> None:
        # One connection kept for it: checking one out of the pool and back for every commit
        # (setting autocommit, resetting it, a rollback) cost a third of the commit's CPU.
        if self._moves_connection is None:
            self._moves_connection = engine.connect()
        rows = json.dumps([p.row() for p in batch])
        try:
            stored = self._moves_connection.execute(
                _COMMIT_MOVES_POSTGRES, {"rows": rows, "at": now()}
            ).rowcount
            self._moves_connection.commit()  # SQLAlchemy's own bookkeeping: autocommit sent it
        except BaseException:
            # Whatever went wrong (a conflict, a connection ended), start afresh next time.
            self._moves_connection.close()
            self._moves_connection = None
            raise
        if stored != len(batch):  # nothing was stored: a table of the batch is not in play
            raise _NotInPlay

    # --- moves, committed in groups --------------------------------------------------------------

    async def append_move(
        self,
        table_id: int,
        ply: int,
        move: str,
        seat: int | None,
        result: str | None,
        finished: bool,
        move_id: str | None = None,
    ) -> None:
        """Store move number ``ply`` (with the id its client gave it); return once it is
        committed (raise if it could not be: :class:`MoveConflict` when another server process
        stored that ply, or that move id, first, or ended the game)."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append(_Pending(table_id, ply, move, seat, result, finished, future, move_id))
        if not self._flushing:
            self._flushing = True
            asyncio.get_running_loop().create_task(self._flush())
        await future

    async def save_clock(self, table_id: int, clock: ClockData) -> None:
        """Store a table's running clock and every seat's reserve and timeouts; return once it is
        committed, at most :data:`CLOCK_WRITE_DELAY` seconds later plus the write. Clocks saved
        meanwhile share the transaction, and a table's later clock replaces an earlier one not
        yet written (it is newer)."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        earlier = self._clocks.get(table_id)
        self._clocks[table_id] = (clock, (earlier[1] if earlier else []) + [future])
        if not self._clocks_flushing:
            self._clocks_flushing = True
            asyncio.get_running_loop().create_task(self._flush_clocks())
        await future

    async def _flush_clocks(self) -> None:
        try:
            # A moment's wait gathers the clocks of every table whose turn changes meanwhile
            # (most of them, when many tables are played) into one transaction.
            await asyncio.sleep(CLOCK_WRITE_DELAY)
            while self._clocks:
                batch, self._clocks = self._clocks, {}
                try:
                    await self.run(self._write_clocks, {tid: c for tid, (c, _) in batch.items()})
                except Exception as exc:
                    for _, futures in batch.values():
                        for f in futures:
                            if not f.done():
                                f.set_exception(exc)
                else:
                    for _, futures in batch.values():
                        for f in futures:
                            if not f.done():
                                f.set_result(None)
        finally:
            self._clocks_flushing = False

    async def _flush(self) -> None:
        try:
            while self._pending:
                batch, self._pending = self._pending, []
                try:
                    await self.run(self._commit_moves, batch)
                except Exception as exc:  # one bad row must not lose the others' moves
                    for p in batch:
                        try:
                            await self.run(self._commit_moves, [p])
                        except (IntegrityError, _NotInPlay):
                            if not p.future.done():
                                p.future.set_exception(MoveConflict(p.table_id, p.ply))
                        except Exception:
                            if not p.future.done():
                                p.future.set_exception(exc)
                        else:
                            if not p.future.done():
                                p.future.set_result(None)
                    continue
                for p in batch:
                    if not p.future.done():
                        p.future.set_result(None)
        finally:
            self._flushing = False
