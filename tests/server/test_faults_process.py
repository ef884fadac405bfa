"""The fault suite, a process killed: of three ``sequence serve`` processes, the one running a
table's bot (its owner) is killed with ``kill -9`` mid-game, between two people's moves.

The people, on the two other processes, go on at once; the bot moves again once a survivor
took the table over (the dead process's lease expires after 5 s); nothing is lost or stored
twice, and the survivors answer their health checks throughout and end on SIGTERM within
seconds.
"""

from __future__ import annotations

import time

import pytest

from .cluster import ServeCluster, redis_available
from .conftest import Client, create_table, fresh_postgres, join, start
from .faults import HealthWatch, Moves, figure, sigterm_seconds

pytestmark = pytest.mark.postgres


def test_the_owner_is_killed_mid_game() -> None:
    why = redis_available()
    if why:
        pytest.skip(why)
    extra = ("--bot-threads", "--bot-delay", "0.05")
    with fresh_postgres() as db, ServeCluster(db, processes=3, extra=extra) as cluster:
        owner, b, c = cluster.servers
        t = create_table(
            owner, game="kids", players=3, bots=[None, None, "random"], name="Ann", seat=0
        )
        code = t["code"]
        bob = join(c, code, "Bob", 1)
        start(owner, code, t["host_token"])
        assert cluster.owner(code) is owner
        # Ann, seated when the owner made the table, plays through the second process.
        players = {0: Client(b, code, t["seat_token"]), 1: Client(c, code, bob["seat_token"])}
        moves = Moves()
        for _ in range(3):
            moves.turn(players)
        with HealthWatch([b, c]) as health:
            owner.kill()
            killed = time.monotonic()
            seats = [moves.turn(players) for _ in range(4)]  # through a bot's turn or two
            goes_on = time.monotonic() - killed
        assert cluster.owner(code) in (b, c)
        assert not health.failures, health.failures[:5]
        stored = b.stored(code)
        lost, twice = moves.check(stored.move_ids)
        assert (lost, twice) == (0, 0)
        assert len({ply for ply, _, _ in stored.move_ids}) == len(stored.move_ids)
        stops = [sigterm_seconds(s) for s in (b, c)]
    assert max(stops) < 5, stops
    figure(
        "the owner killed (kill -9)",
        four_moves_after_s=goes_on,
        seats=str(seats),
        moves_lost=lost,
        applied_twice=twice,
        slowest_health_s=health.slowest,
        sigterm_s=max(stops),
    )
