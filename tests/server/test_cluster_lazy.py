"""A server process keeps a table up to date only while it needs it (issue 20's CPU per move):
two hubs in this test's event loop, each with its own store on one fresh PostgreSQL database and
its own :class:`~sequence.server.cluster.notices.RedisCluster` on the real Redis, as two ``sequence
serve`` processes would be. A process with no connection at a table and not running it does not
apply the table's moves, yet a spectator who connects there later sees the current position and
then every move; a private table the other process never loaded is taken over from the database
when its owner dies, and its game goes on to the end."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import secrets
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from sequence.engine import GameRecord, config_from_dict
from sequence.server.cluster.notices import RedisCluster
from sequence.server.tables import registry
from sequence.server.tables.connection import Connection
from sequence.server.tables.hub import Hub
from sequence.server.tables.store import TableStore
from sequence.server.tables.table import Table

from .cluster import REDIS_URL, redis_available
from .conftest import apply_delta, fresh_postgres, gone_for

pytestmark = pytest.mark.postgres


class FakeSocket:
    """What a :class:`Connection` writes to: the texts it sent."""

    def __init__(self) -> None:
        self.headers: dict[str, str] = {}
        self.sent: list[dict[str, Any]] = []

    async def send_text(self, text: str) -> None:
        msg = json.loads(text)
        if msg["type"] == "delta":  # the whole state it makes, as a client holds it
            held = next((m for m in reversed(self.sent) if m["type"] == "state"), None)
            msg = apply_delta(held, msg)
            assert msg is not None, "a delta that does not follow the last state"
        self.sent.append(msg)

    def states(self) -> list[dict[str, Any]]:
        return [m for m in self.sent if m["type"] == "state"]


@contextlib.asynccontextmanager
async def two_hubs() -> AsyncIterator[tuple[Hub, Hub]]:
    why = redis_available()
    if why:
        pytest.skip(why)
    prefix = f"seqtest-{secrets.token_hex(4)}"
    with fresh_postgres() as db, ThreadPoolExecutor(2) as pool:
        hubs = [
            Hub(TableStore(db), pool, bot_delay=0.02, cluster=RedisCluster(REDIS_URL, prefix))
            for _ in range(2)
        ]
        for hub in hubs:
            await hub.resume()
        try:
            yield hubs[0], hubs[1]
        finally:
            for hub in hubs:
                with contextlib.suppress(Exception):
                    await hub.shutdown()
            cluster = hubs[1].cluster
            assert isinstance(cluster, RedisCluster)
            redis = RedisCluster(REDIS_URL, prefix).redis
            keys = [k async for k in redis.scan_iter(match=f"{prefix}:*")]
            if keys:
                await redis.delete(*keys)
            await redis.aclose()


async def until(check: Callable[[], bool], timeout: float = 30) -> None:
    async with asyncio.timeout(timeout):
        while not check():
            await asyncio.sleep(0.02)


async def bot_game(hub: Hub, public: bool) -> Table:
    """A classic game for two bots made and started through ``hub`` (its owner)."""
    config = config_from_dict({"game": "classic", "players": 2})
    table, host, _, _, _ = await hub.create(config, ["random", "random"], public, None, None)
    await hub.start(table, host)
    return table


def replays(hub: Hub, table: Table) -> int:
    """The number of moves stored for ``table``, checked to replay as one game."""
    data = hub.registry.store.load(table.code)
    assert data is not None
    record = GameRecord.from_dict({"config": data.config, "seed": data.seed, "moves": data.moves})
    return len(record.replay().move_stack)


async def test_moves_at_a_table_nobody_here_watches_are_not_applied_until_someone_comes() -> None:
    async with two_hubs() as (a, b):
        table = await bot_game(a, public=True)
        code = table.code
        # A public table: the other process loads it for its open-tables list, and hears that
        # it started; then it stops following the moves (nobody is connected to it there).
        await until(lambda: code in b.registry.tables and b.registry.tables[code].behind)
        copy = b.registry.tables[code]
        stood = copy.version
        await until(lambda: table.version >= stood + 10)
        assert copy.version == stood and copy.behind  # not one of those moves applied here
        listed = [t for t in b.registry.open_tables() if t["code"] == code]
        assert listed and listed[0]["status"] == "playing"
        # A spectator connects to the other process: the position is the current one.
        before = table.version
        socket = FakeSocket()
        conn = Connection(socket, rate=100, burst=100)  # type: ignore[arg-type]
        got = await b.get(code)
        assert got is copy and not copy.behind and copy.version >= before
        b.attach(got, conn, None, None)
        attached_at = copy.version
        await until(lambda: bool(socket.states()))
        first = socket.states()[0]
        assert first["version"] == attached_at >= before
        # From now on it is live there: every move reaches the spectator, to the end.
        await until(lambda: table.status == "finished", timeout=120)
        await until(lambda: socket.states()[-1]["version"] == table.version)
        versions = [m["version"] for m in socket.states()]
        assert versions == sorted(versions)
        assert set(range(first["version"], table.version + 1)) <= set(versions)
        assert socket.states()[-1]["view"]["outcome"] is not None
        b.detach(got, conn)
        conn.close()
        assert replays(a, table) == table.version


async def test_the_owner_dies_and_a_process_that_never_loaded_the_table_takes_it_over() -> None:
    async with two_hubs() as (a, b):
        table = await bot_game(a, public=False)
        code = table.code
        await until(lambda: table.version >= 5)
        # A private table with nobody on the other process: it never loaded it.
        assert code not in b.registry.tables
        # The owner dies (as a kill -9: no more renewals, no hand-over; its bots stop).
        dead = a.cluster
        assert isinstance(dead, RedisCluster)
        for task in dead._tasks:
            task.cancel()
        dead.owned.clear()
        killed_at = table.version
        await dead.redis.delete(f"{dead.prefix}:proc:{dead.proc}")
        # The survivor takes it over at its next beat, loads it from the database, and its
        # bots play the game to the end.
        await until(lambda: b.cluster.owns(code), timeout=15)
        await until(lambda: code in b.registry.tables)
        taken = b.registry.tables[code]
        await until(lambda: taken.status == "finished", timeout=120)
        assert taken.version > killed_at
        assert replays(b, taken) == taken.version
        assert table.version <= killed_at + 1  # the dead one made no more than its last move


async def test_the_owner_of_a_table_without_bots_or_clock_catches_up_only_at_the_end() -> None:
    async with two_hubs() as (a, b):
        config = config_from_dict({"game": "classic", "players": 2})
        table, host, ann, _, more = await a.create(
            config, None, False, "Ann", 0, local=[(1, "Bob")]
        )
        await a.start(table, host)
        code = table.code
        assert a.cluster.owns(code)
        # Both players are on the other process: the owner has no connection at the table.
        here = await b.get(code)
        conns = {}
        for seat, token in ((0, ann), (1, more[0][1])):
            conns[seat] = Connection(FakeSocket(), rate=1000, burst=1000)  # type: ignore[arg-type]
            b.attach(here, conns[seat], token, None)
        rng = random.Random(7)
        stood = -1
        while here.status == "playing":
            state = here.state
            assert state is not None
            seat = state.next_step().seat
            assert seat is not None
            move = rng.choice(state.legal_moves_of(seat))
            await b.play(here, conns[seat], str(move), here.version)
            if here.version in (3, 20):
                await asyncio.sleep(0.3)  # the notices have arrived
                copy = a.registry.tables[code]
                assert copy.behind  # nothing to run: the moves are not applied there
                stood = copy.version if stood < 0 else stood
                assert copy.version == stood < 3  # (one may be, while the lock was held)
        # The game's last move: the owner catches up, sees the end and lets the table go.
        await until(lambda: not a.cluster.owns(code))
        copy = a.registry.tables[code]
        assert copy.status == "finished" and copy.version == here.version and not copy.behind
        assert copy.result == here.result
        for conn in conns.values():
            b.detach(here, conn)
            conn.close()


async def test_a_game_its_players_left_leaves_every_process_list_and_comes_back_with_them() -> None:
    async with two_hubs() as (a, b):
        config = config_from_dict({"game": "classic", "players": 2})
        table, host, ann, _, _ = await a.create(config, [None, "random"], True, "Ann", 0)
        await a.start(table, host)
        code = table.code
        await until(lambda: code in b.registry.tables)
        copy = b.registry.tables[code]
        await until(lambda: copy.status == "playing")

        def listed(hub: Hub) -> bool:
            return any(t["code"] == code for t in hub.registry.open_tables())

        # Ann at her seat on the first process: the other counts her (her "here" notice).
        conn = Connection(FakeSocket(), rate=1000, burst=1000)  # type: ignore[arg-type]
        a.attach(table, conn, ann, host)
        await until(lambda: copy.seats[0].connections == 1 and copy.host_connections == 1)
        for t in (table, copy):
            gone_for(t, registry.PLAY_IDLE + 1)  # an old visit does not count while she is here
        assert listed(a) and listed(b)
        # She leaves: both processes see it, and list the game ten minutes more.
        a.detach(table, conn)
        conn.close()
        await until(lambda: copy.seats[0].connections == 0 and copy.host_connections == 0)
        assert listed(a) and listed(b)
        for t in (table, copy):
            gone_for(t, registry.PLAY_IDLE + 1)
        assert not listed(a) and not listed(b)
        assert table.status == copy.status == "playing"  # only not listed
        # She comes back, to the second process this time: listed again by both.
        here = await b.get(code)
        conn = Connection(FakeSocket(), rate=1000, burst=1000)  # type: ignore[arg-type]
        b.attach(here, conn, ann, None)
        await until(lambda: table.seats[0].connections == 1)
        assert listed(a) and listed(b)
        b.detach(here, conn)
        conn.close()
