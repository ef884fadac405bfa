"""The fault suite, PostgreSQL: two ``sequence serve`` processes whose every database connection
is ended mid-game (``pg_terminate_backend``, as a database restart or a failover does).

Only this test's own connections are ended: those to its fresh database whose
``application_name`` is the test's own (the shared server runs other engineers' tests). The
people's moves, the bot's and the turn clock's writes go on at once (each store call tries
once more on a new connection); nothing is lost or stored twice, the health checks answer
throughout, and no "could not store" error is logged.
"""

from __future__ import annotations

import secrets
import time

import psycopg
import pytest

from .cluster import ServeCluster, redis_available
from .conftest import PG_URL, Client, create_table, fresh_postgres, join, start
from .faults import HealthWatch, Moves, figure, sigterm_seconds

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
