"""Redis outages as they really come (issue 30): the cluster's Redis killed (``kill -9``) and
started again, empty, after 0.2, 2, 10 and 60 seconds, under two ``sequence serve`` processes
on one PostgreSQL database, mid-game.

Real parts, started by the repository's own files: a ``redis-server`` of the test's own
(``own_redis``), a fresh PostgreSQL database, ``sequence serve`` subprocesses. Throughout the
outage both processes answer ``/api/meta`` at once (before the fix, an outage of half a second
or more left the notices listener spinning without yielding: every request and SIGTERM hung);
a move made meanwhile is stored and shown where it was made; once Redis is back the other
process shows it within seconds (the time is printed); the game goes on through both, nothing
lost or stored twice; SIGTERM stops each process within seconds.
"""

from __future__ import annotations

import time

import httpx
import pytest

from .cluster import ServeCluster
from .conftest import Client, create_table, fresh_postgres, join, start
from .test_cluster import BOTS, own_redis, stored_plies_are_the_game

pytestmark = pytest.mark.postgres

ANSWER_WITHIN = 2.0
"""Seconds a process may take to answer a health check while Redis is away."""
BACK_WITHIN = 20.0
"""Seconds, once Redis is back, within which the other process shows a move made meanwhile."""
STOP_WITHIN = 10.0
"""Seconds SIGTERM may take to stop a process (systemd's default is 90: far below it)."""


def answers(url: str) -> float:
    """Seconds ``/api/meta`` and ``/healthz`` took to answer (fails past
    :data:`ANSWER_WITHIN`)."""
    began = time.monotonic()
    with httpx.Client(base_url=url, timeout=ANSWER_WITHIN) as http:
        assert http.get("/api/meta").status_code == 200
        assert http.get("/healthz").json() == {"status": "ok"}
    return time.monotonic() - began


def readiness(url: str) -> dict[str, object]:
    with httpx.Client(base_url=url, timeout=ANSWER_WITHIN) as http:
        answer = http.get("/readyz")
        assert answer.status_code == 200  # the database answers: it serves what it can
        return answer.json()  # type: ignore[no-any-return]


@pytest.mark.parametrize("outage", [0.2, 2.0, 10.0, 60.0])
def test_redis_killed_and_back_after(outage: float) -> None:
    with (
        own_redis() as (url, up),
        fresh_postgres() as db,
        ServeCluster(db, url, processes=2, extra=BOTS) as cluster,
    ):
        a, b = cluster.servers
        t = create_table(a, game="classic", players=2, name="Ann", seat=0)
        code = t["code"]
        bob = join(b, code, "Bob", 1)
        start(a, code, t["host_token"])
        players = {0: Client(a, code, t["seat_token"]), 1: Client(b, code, bob["seat_token"])}
        watchers = {a: Client(a, code), b: Client(b, code)}

        def move(v: int) -> Client:
            st = watchers[a].wait(lambda s: s["version"] == v and s["view"] is not None)
            seat = st["view"]["to_move"]
            mine = players[seat].wait(lambda s: s["version"] == v and s["view"] is not None)
            players[seat].send(
                {"type": "move", "move": mine["view"]["legal_moves"][0], "version": v}
            )
            return players[seat]

        for v in range(2):
            move(v)
        for w in watchers.values():
            w.wait(lambda s: s["version"] == 2)
        up(False)
        down_since = time.monotonic()
        mover = move(2)
        where = a if mover is players[0] else b
        elsewhere = b if where is a else a
        watchers[where].wait(lambda s: s["version"] == 3)  # stored and shown where it was made
        slowest = 0.0
        said_down = False
        while time.monotonic() - down_since < outage:
            slowest = max(slowest, answers(a.url), answers(b.url))
            ready = readiness(a.url)
            said_down |= ready == {"status": "degraded", "database": "up", "redis": "down"}
            time.sleep(min(0.5, outage / 4))
        assert said_down or outage < 1, "the readiness check never said Redis was away"
        up(True)  # an empty Redis: no lease, no owner, nobody subscribed
        back = time.monotonic()
        watchers[elsewhere].wait(lambda s: s["version"] == 3, timeout=BACK_WITHIN)
        recovered = time.monotonic() - back
        for v in range(3, 6):  # and the game goes on through both
            move(v)
        for w in watchers.values():
            w.wait(lambda s: s["version"] == 6)
        stored_plies_are_the_game(cluster, code, 6)  # nothing lost, nothing stored twice
        for server in cluster.servers:
            assert readiness(server.url) == {"status": "ok", "database": "up", "redis": "up"}
        print(
            f"Redis down {outage:g} s: health answered in at most {slowest:.2f} s;"
            f" the other process showed the move {recovered:.2f} s after Redis was back"
        )
        for server in cluster.servers:
            began = time.monotonic()
            server.stop()
            assert server.process.poll() is not None
            assert time.monotonic() - began < STOP_WITHIN, "SIGTERM took too long"
