"""The database decides between server processes: a ply, or a seat's move id, is stored once
(migration 0004 adds the move id's unique index to a database made before it), and the loser
gets :class:`~sequence.server.storage.store.MoveConflict` with nothing stored; a change of a seat is
stored only if the seat and the table are still as it was judged on."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import create_engine, event, select, text

from sequence.engine import make_config
from sequence.server.storage.db import TableRow
from sequence.server.storage.store import ClockData, MoveConflict
from sequence.server.tables.store import EventData, SeatChange, SeatData, TableData, TableStore

from .conftest import fresh_postgres, old_database


def move_with_id_database(url: str) -> None:
    """A database of revision 0003 holding a table whose first move has a client's id."""
    engine = old_database(url, "0003", make_config("kids", players=2))
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO moves (table_id, ply, move, seat, move_id, created_at)"
                " VALUES (1, 1, 'x', 0, 'id-1', '2025-01-01')"
            )
        )
    engine.dispose()


async def test_an_upgraded_database_stores_a_ply_and_a_move_id_once(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    move_with_id_database(url)
    store = TableStore(url)  # migrates to the newest revision
    try:
        with pytest.raises(MoveConflict):  # ply 1 is stored
            await store.append_move(1, 1, "y", 1, None, False, "id-2")
        with pytest.raises(MoveConflict):  # seat 0's id-1 is stored
            await store.append_move(1, 2, "y", 0, None, False, "id-1")
        await store.append_move(1, 2, "y", 1, None, False, "id-1")  # another seat's id-1
        await store.append_move(1, 3, "z", None, None, False, None)  # no id: bots, rolls
        await store.append_move(1, 4, "w", None, None, False, None)
        data = store.load("OLDONE")
        assert data is not None and data.moves == ["x", "y", "z", "w"]
        assert data.move_ids == [(1, 0, "id-1"), (2, 1, "id-1")]
    finally:
        store.close()


def test_a_seat_and_the_start_go_to_one_process(tmp_path: Path) -> None:
    store = TableStore(f"sqlite:///{tmp_path / 'new.db'}")
    try:
        table_id = store.create_table(
            TableData(
                id=0, code="NEWONE", config=make_config("kids", players=2).to_dict(), seed=1,
                public=True, status="lobby", host_hash="h", result=None, rematch_code=None,
                seats=[SeatData(0), SeatData(1)], moves=[],
            )
        )  # fmt: skip
        assert store.take_seats(table_id, [SeatData(0, "Ann", "hash-a")])
        assert not store.take_seats(table_id, [SeatData(0, "Bob", "hash-b")])  # taken meanwhile
        # A pass-and-play device's seats: all or none (seat 1 is not kept when 0 is taken).
        both = [SeatData(1, "Cy", "hash-c"), SeatData(0, "Di", "hash-d")]
        assert not store.take_seats(table_id, both)
        assert store.begin(table_id)
        assert not store.begin(table_id)  # started meanwhile
        assert not store.take_seats(table_id, [SeatData(1, "Bob", "hash-b")])  # not in the lobby
        data = store.load("NEWONE")
        assert data is not None and [s.name for s in data.seats] == ["Ann", None]
        assert data.status == "playing"
    finally:
        store.close()


async def test_a_change_of_a_seat_is_stored_only_over_what_it_was_judged_on(
    tmp_path: Path,
) -> None:
    store = TableStore(f"sqlite:///{tmp_path / 'seats.db'}")
    try:
        seats = [SeatData(0, "Ann", "hash-a"), SeatData(1, "Bob", "hash-b")]
        table_id = store.create_table(
            TableData(
                id=0, code="SEATED", config=make_config("kids", players=2).to_dict(), seed=1,
                public=True, status="playing", host_hash="h", result=None, rematch_code=None,
                seats=seats, moves=[],
            )
        )  # fmt: skip
        bob = seats[1]
        to_bot = SeatChange(
            bob, replace(bob, bot="random", stand_in=True), "playing", EventData(0, "bot", 1)
        )
        assert store.change_seat(table_id, to_bot)
        assert not store.change_seat(table_id, to_bot)  # the same change again: the seat moved on
        # A resignation judged on the seat before the bot came: nothing stored, no event.
        resign = SeatChange(bob, bob, "playing", EventData(0, "resign", 1, 1, "lost"), "A wins")
        assert not store.change_seat(table_id, resign)
        judged_in_lobby = SeatChange(seats[0], replace(seats[0], bot="random"), "lobby")
        assert not store.change_seat(table_id, judged_in_lobby)  # the game started meanwhile
        ann = seats[0]
        resign = SeatChange(ann, ann, "playing", EventData(0, "resign", 0, 0, "lost"), "B wins")
        assert store.change_seat(table_id, resign)
        assert not store.change_seat(table_id, resign)  # the game is over
        data = store.load("SEATED")
        assert data is not None and (data.status, data.result) == ("finished", "B wins")
        assert [(s.bot, s.stand_in) for s in data.seats] == [(None, False), ("random", True)]
        assert [(e.kind, e.seat) for e in data.events] == [("bot", 1), ("resign", 0)]
        with pytest.raises(MoveConflict):  # a move after the resignation: the game is over
            await store.append_move(table_id, 1, "x", 1, None, False, "late")
        data = store.load("SEATED")
        assert data is not None and data.moves == []
    finally:
        store.close()


async def test_clocks_saved_together_share_one_transaction_and_the_latest_wins(
    tmp_path: Path,
) -> None:
    store = TableStore(f"sqlite:///{tmp_path / 'clocks.db'}")
    try:
        ids = [
            store.create_table(
                TableData(
                    id=0, code=f"CLOCK{n}", config=make_config("kids", players=2).to_dict(),
                    seed=n, public=True, status="playing", host_hash="h", result=None,
                    rematch_code=None, seats=[SeatData(0), SeatData(1)], moves=[],
                )
            )
            for n in range(3)
        ]  # fmt: skip
        commits: list[int] = []
        real_write = store._write_clocks

        def counted(clocks: dict[int, ClockData]) -> None:
            commits.append(len(clocks))
            real_write(clocks)

        store._write_clocks = counted  # type: ignore[method-assign]
        first = ClockData(0, 30.0, ((0, 10.0, 0), (1, 10.0, 0)))
        latest = {tid: ClockData(1, 20.0 + tid, ((0, 4.5, 1), (1, 10.0, 0))) for tid in ids}
        await asyncio.gather(
            store.save_clock(ids[0], first),
            *(store.save_clock(tid, clock) for tid, clock in latest.items()),
        )
        assert sum(commits) <= len(ids) and len(commits) <= 2  # grouped, the stale one dropped
        for n, tid in enumerate(ids):
            data = store.load(f"CLOCK{n}")
            assert data is not None
            assert (data.clock_seat, data.clock_left) == (1, 20.0 + tid)
            assert [(s.reserve, s.timeouts) for s in data.seats] == [(4.5, 1), (10.0, 0)]
    finally:
        store.close()


async def test_a_move_that_ends_the_game_stores_the_commits_time(tmp_path: Path) -> None:
    """The last move's transaction marks the table finished with its result, at the time of
    that commit (the statement is built once, its time is not)."""
    url = f"sqlite:///{tmp_path / 'old.db'}"
    move_with_id_database(url)
    store = TableStore(url)
    try:
        before = datetime.now(UTC).replace(tzinfo=None)
        await store.append_move(1, 2, "y", 1, "1-0", True, "id-2")
        with store.engine.connect() as conn:
            status, result, finished = conn.execute(
                select(TableRow.status, TableRow.result, TableRow.finished_at).where(
                    TableRow.id == 1
                )
            ).one()
        assert (status, result) == ("finished", "1-0")
        assert finished is not None and finished.replace(tzinfo=None) >= before
        with pytest.raises(MoveConflict):  # the game is over: nothing more is stored
            await store.append_move(1, 3, "z", 0, None, False, "id-3")
    finally:
        store.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A new database of each kind the server stores games in."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'moves.db'}"
    else:
        with fresh_postgres() as url:
            yield url


def playing_table(store: TableStore, code: str) -> int:
    return store.create_table(
        TableData(
            id=0, code=code, config=make_config("kids", players=2).to_dict(), seed=1,
            public=True, status="playing", host_hash="h", result=None, rematch_code=None,
            seats=[SeatData(0, "Ann", "hash-a"), SeatData(1, "Bob", "hash-b")], moves=[],
        )
    )  # fmt: skip


async def test_moves_that_arrive_together_are_stored_in_one_round_trip_or_refused_alone(
    database: str,
) -> None:
    """Moves of several tables sent at once share one commit: on PostgreSQL a single
    statement (its own transaction), on SQLite a transaction. A ply or a seat's move id already
    stored is refused with :class:`MoveConflict` and the batch's other moves are still stored."""
    store = TableStore(database)
    statements: list[str] = []

    def sent(*args: object) -> None:
        statements.append(str(args[2]))

    try:
        one, two = playing_table(store, "TABLE1"), playing_table(store, "TABLE2")
        event.listen(store.engine, "before_cursor_execute", sent)
        await asyncio.gather(
            store.append_move(one, 1, "a", 0, None, False, "m1"),
            store.append_move(two, 1, "b", 0, None, False, "m1"),  # another table's m1
            store.append_move(one, 2, "c", None, None, False, None),  # the server's: no id
        )
        if store.engine.dialect.name == "postgresql":
            assert len(statements) == 1, statements  # no BEGIN, no COMMIT: one round trip
        statements.clear()
        results = await asyncio.gather(
            store.append_move(one, 2, "x", 1, None, False, "m2"),  # ply 2 is stored
            store.append_move(two, 2, "d", 1, None, False, "m2"),
            store.append_move(one, 3, "y", 0, None, False, "m1"),  # seat 0's m1 is stored
            return_exceptions=True,
        )
        assert isinstance(results[0], MoveConflict) and isinstance(results[2], MoveConflict)
        assert results[1] is None
        first, second = store.load("TABLE1"), store.load("TABLE2")
        assert first is not None and first.moves == ["a", "c"]
        assert first.move_ids == [(1, 0, "m1")]
        assert second is not None and second.moves == ["b", "d"]
    finally:
        event.remove(store.engine, "before_cursor_execute", sent)
        store.close()


async def test_a_move_is_refused_once_the_game_it_waited_on_is_ended_elsewhere(
    database: str,
) -> None:
    """Another server process ends the game (a resignation) while holding the table's row: the
    move waiting for that row is judged on what was committed and refused, nothing stored; had
    that process undone its change, the move is stored."""
    store = TableStore(database)
    try:
        ended, kept = playing_table(store, "ENDED1"), playing_table(store, "KEPT11")
        if store.engine.dialect.name == "sqlite":
            # One writer at a time: SQLite makes the move wait for the file, not the row.
            with store.engine.begin() as conn:
                conn.execute(text(f"UPDATE game_tables SET status = 'finished' WHERE id = {ended}"))
            with pytest.raises(MoveConflict):
                await store.append_move(ended, 1, "a", 0, None, False, "m1")
            await store.append_move(kept, 1, "a", 0, None, False, "m1")
        else:
            for table_id, outcome in ((ended, "commit"), (kept, "rollback")):
                other = create_engine(database, isolation_level="READ COMMITTED")
                with other.connect() as conn:
                    conn.execute(
                        text(f"UPDATE game_tables SET status = 'finished' WHERE id = {table_id}")
                    )
                    move = asyncio.ensure_future(
                        store.append_move(table_id, 1, "a", 0, None, False, "m1")
                    )
                    await asyncio.sleep(0.3)
                    assert not move.done()  # waiting for the row
                    getattr(conn, outcome)()
                other.dispose()
                if outcome == "commit":
                    with pytest.raises(MoveConflict):
                        await move
                else:
                    await move
        data_ended, data_kept = store.load("ENDED1"), store.load("KEPT11")
        assert data_ended is not None and data_ended.moves == []
        assert data_kept is not None and data_kept.moves == ["a"]
    finally:
        store.close()
