"""The fault suite, PostgreSQL: two ``sequence serve`` processes whose every database connection
is ended mid-game (``pg_terminate_backend``, as a database restart or a failover does).

Only this test's own connections are ended: those to its fresh database whose
``application_name`` is the test's own (the shared server runs other engineers' tests). The
people's moves, the bot's and the turn clock's writes go on at once (each store call tries
once more on a new connection); nothing is lost or stored twice, the health checks answer
throughout, and no "could not store" error is logged.

Then the database server itself goes for 2 and 15 seconds (a PostgreSQL of the test's own,
:class:`.faults.OwnPostgres`, stopped with ``pg_ctl stop -m immediate`` and started again): see
:func:`test_postgres_unreachable_for_a_while`.
"""

from __future__ import annotations

import secrets
import time
from typing import Any

import httpx
import psycopg
import pytest

from .cluster import ServeCluster, redis_available
from .conftest import (
    PG_URL,
    Client,
    answer,
    create_table,
    fresh_postgres,
    join,
    load_stored,
    start,
)
from .faults import HealthWatch, Moves, OwnPostgres, figure, sigterm_seconds, wait_for

STOP_WITHIN = 10.0
"""Seconds SIGTERM may take to stop a process while the database is away."""

pytestmark = pytest.mark.postgres


def end_connections(database: str, application: str) -> int:
    """End every connection to ``database`` named ``application``; return how many."""
    with psycopg.connect(PG_URL.replace("+psycopg", ""), autocommit=True) as admin:
        rows = admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = %s AND application_name = %s AND pid <> pg_backend_pid()",
            (database, application),
        ).fetchall()
    return len(rows)


def test_postgres_ends_every_connection_mid_game() -> None:
    why = redis_available()
    if why:
        pytest.skip(why)
    application = f"seqfault-{secrets.token_hex(4)}"
    with fresh_postgres() as db:
        database = db.rsplit("/", 1)[1]
        url = f"{db}?application_name={application}"
        extra = ("--bot-threads", "--bot-delay", "0.05", "--time-control", "casual=30,0")
        with ServeCluster(url, processes=2, extra=extra) as cluster:
            a, b = cluster.servers
            t = create_table(
                a, game="kids", players=3, bots=[None, None, "random"], name="Ann", seat=0,
                clock="casual", bot_level="random",
            )  # fmt: skip
            code = t["code"]
            bob = join(b, code, "Bob", 1)
            start(a, code, t["host_token"])
            players = {0: Client(a, code, t["seat_token"]), 1: Client(b, code, bob["seat_token"])}
            moves = Moves()
            ended = 0
            gaps: list[float] = []
            with HealthWatch([a, b]) as health:
                for _ in range(4):
                    moves.turn(players)
                    ended += end_connections(database, application)
                    began = time.monotonic()
                    moves.turn(players)  # the first statement after meets a dead connection
                    gaps.append(time.monotonic() - began)
                time.sleep(1)  # the clock's last write (gathered for a moment) is stored
            assert ended >= 4, "the processes' connections were not found by their name"
            assert not health.failures, health.failures[:5]
            stored = a.stored(code)
            lost, twice = moves.check(stored.move_ids)
            assert (lost, twice) == (0, 0)
            assert len({ply for ply, _, _ in stored.move_ids}) == len(stored.move_ids)
            logs = [s.log.read_text() for s in (a, b)]
            assert not any("could not store" in text for text in logs), logs
            assert any("the database ended a connection" in text for text in logs)
            stops = [sigterm_seconds(s) for s in (a, b)]
    figure(
        "PostgreSQL ends every connection (4 times)",
        connections_ended=ended,
        slowest_move_after_s=max(gaps),
        moves_lost=lost,
        applied_twice=twice,
        slowest_health_s=health.slowest,
        health_failures=len(health.failures),
        sigterm_s=max(stops),
    )


def _send_until_acked(client: Client, move: dict[str, Any], timeout: float) -> dict[str, Any]:
    """Send ``move`` (with its id) as the browser does until the server acknowledges it:
    again after each refusal (``unavailable`` while the database is away), as after a
    reconnect; return the acknowledgement."""
    deadline = time.monotonic() + timeout
    while True:
        client.send(move)
        got = answer(client, move["id"], timeout=max(0.1, deadline - time.monotonic()))
        if got["type"] == "ack":
            return got
        assert got["code"] == "unavailable", got  # refused, nothing changed: send it again
        assert time.monotonic() < deadline, f"{move['id']} not taken within {timeout} s"
        time.sleep(0.5)


def _ready(url: str) -> int:
    """The status code of ``/readyz`` (fails if it does not answer within 5 s)."""
    with httpx.Client(base_url=url, timeout=5) as http:
        return http.get("/readyz").status_code


@pytest.mark.parametrize("outage", [2.0, 15.0])
def test_postgres_unreachable_for_a_while(outage: float) -> None:
    """The database server itself goes (``pg_ctl stop -m immediate``: every connection breaks,
    the port is closed) mid-game for ``outage`` seconds and comes back. Meanwhile the processes
    answer their health checks and say they are not ready; a move sent meanwhile is refused
    (``unavailable``, nothing changed) or waits, and once the database is back the resent move
    is applied once; the game goes on through both processes; nothing is lost or stored
    twice; and SIGTERM stops each process within seconds, the database away again."""
    why = redis_available()
    if why:
        pytest.skip(why)
    with OwnPostgres() as pg:
        extra = ("--bot-threads", "--bot-delay", "0.3")  # the bots' game outlasts the test
        with ServeCluster(pg.url, processes=2, extra=extra) as cluster:
            a, b = cluster.servers
            t = create_table(a, game="classic", players=2, name="Ann", seat=0)
            code = t["code"]
            bob = join(b, code, "Bob", 1)
            start(a, code, t["host_token"])
            players = {0: Client(a, code, t["seat_token"]), 1: Client(b, code, bob["seat_token"])}
            # Bots play a game of their own meanwhile (run by a, watched through b): their
            # moves fail while the database is away, and go on once it is back.
            bots = create_table(a, game="classic", players=2, bots=["random", "random"])
            start(a, bots["code"], bots["host_token"])
            bot_watch = Client(b, bots["code"])
            moves = Moves()
            with HealthWatch([a, b]) as health:
                for _ in range(2):
                    moves.turn(players)
                bot_watch.wait(lambda s: s["version"] >= 2)
                seat, client = moves.next(players)
                st = client.state
                assert st is not None
                pg.stop()
                down = time.monotonic()
                move = {"type": "move", "move": st["view"]["legal_moves"][0],
                        "version": st["version"], "id": "during-outage"}  # fmt: skip
                client.send(move)
                during = answer(client, "during-outage", timeout=30)
                not_ready = False
                while time.monotonic() - down < outage:
                    not_ready |= _ready(a.url) == 503 and _ready(b.url) == 503
                    time.sleep(0.25)
                assert not_ready, "readiness never said the database was away"
                pg.start()
                back = time.monotonic()
                ready_again = wait_for(
                    "ready again", lambda: _ready(a.url) == 200 and _ready(b.url) == 200, 30
                )
                acked = during if during["type"] == "ack" else None
                if acked is None:
                    assert during["code"] == "unavailable", during
                    acked = _send_until_acked(client, move, timeout=60)
                moves.acked["during-outage"] = [acked]
                moves.version = acked["ply"]
                recovered = time.monotonic() - back
                other = players[1 - seat]
                other.wait(lambda s: s["version"] >= acked["ply"], timeout=30)
                shown = time.monotonic() - back
                for _ in range(3):  # the game goes on through both
                    moves.turn(players)
                bot_watch.drain()
                assert bot_watch.state is not None and bot_watch.state["view"]["outcome"] is None
                bots_at = bot_watch.state["version"]
                bot_watch.wait(lambda s: s["version"] > bots_at + 2, 30)  # the bots go on too
            assert not health.failures, health.failures[:5]
            stored = load_stored(pg.url, code)
            lost, twice = moves.check(stored.move_ids)
            assert (lost, twice) == (0, 0)
            assert len({ply for ply, _, _ in stored.move_ids}) == len(stored.move_ids)
            assert len(stored.moves) == moves.version == 6
            pg.stop()  # and away again: SIGTERM still stops each process within seconds
            stops = [sigterm_seconds(s, limit=STOP_WITHIN) for s in (a, b)]
            pg.start()
    figure(
        f"PostgreSQL unreachable {outage:g} s",
        move_during=during["type"] if during["type"] == "ack" else during["code"],
        move_applied_after_back_s=recovered,
        other_process_shows_it_s=shown,
        ready_again_s=ready_again,
        moves_lost=lost,
        applied_twice=twice,
        slowest_health_s=health.slowest,
        health_failures=len(health.failures),
        sigterm_while_down_s=max(stops),
    )
