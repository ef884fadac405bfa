"""Who runs a table's bots and clocks among several server processes (:mod:`sequence.server.
cluster`), against the real Redis: one owner per table, a dead process's tables taken over by
a live one, a process that was late renewing its lease stops and gets back only what nobody
took, and notices reach the other processes but not their sender."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import AsyncIterator
from typing import Any

import pytest

from sequence.server.cluster.notices import RedisCluster

from .cluster import REDIS_URL, redis_available


class Heard:
    """What a cluster told its hub."""

    def __init__(self) -> None:
        self.notices: list[dict[str, Any]] = []
        self.taken: list[str] = []
        self.gone: list[str] = []
        self.headers: list[tuple[str, str, bool]] = []
        self.quiet_tables: set[str] = set()
        """Tables whose moves this process does not keep up with (their notices not decoded)."""

    def quiet(self, kind: str, code: str, end: bool) -> bool:
        self.headers.append((kind, code, end))
        return kind == "move" and code in self.quiet_tables

    def notice(self, notice: dict[str, Any]) -> None:
        self.notices.append(notice)

    def adopted(self, codes: list[str]) -> None:
        self.taken.extend(codes)

    def peer_gone(self, proc: str) -> None:
        self.gone.append(proc)

    def resync(self) -> None:
        raise AssertionError("the channel was never lost")


@contextlib.asynccontextmanager
async def two_processes() -> AsyncIterator[tuple[RedisCluster, Heard, RedisCluster, Heard]]:
    why = redis_available()
    if why:
        pytest.skip(why)
    prefix = f"seqtest-{secrets.token_hex(4)}"
    first, second = RedisCluster(REDIS_URL, prefix), RedisCluster(REDIS_URL, prefix)
    heard = Heard(), Heard()
    await first.start(heard[0])
    await second.start(heard[1])
    try:
        yield first, heard[0], second, heard[1]
    finally:
        keys = [k async for k in second.redis.scan_iter(match=f"{prefix}:*")]
        if keys:
            await second.redis.delete(*keys)
        for c in (first, second):
            with contextlib.suppress(Exception):
                await c.stop()


async def test_one_owner_and_a_dead_ones_tables_taken_over() -> None:
    async with two_processes() as (first, _, second, heard):
        await first.claim(["AAAAAA", "BBBBBB"])
        await second.claim(["AAAAAA", "CCCCCC"])
        assert first.owns("AAAAAA") and first.owns("BBBBBB") and not first.owns("CCCCCC")
        assert second.owns("CCCCCC") and not second.owns("AAAAAA")
        await second.tick()  # everybody alive: nothing taken
        assert heard.taken == [] and heard.gone == []
        # The first process dies: no more renewals, and its lease expires.
        for task in first._tasks:
            task.cancel()
        await first.redis.delete(f"{first.prefix}:proc:{first.proc}")
        await second.tick()
        assert sorted(heard.taken) == ["AAAAAA", "BBBBBB"] and heard.gone == [first.proc]
        assert second.owns("AAAAAA") and second.owns("BBBBBB")
        assert await second.redis.smembers(f"{second.prefix}:procs") == {second.proc.encode()}


async def test_a_late_process_stops_and_gets_back_only_what_nobody_took() -> None:
    async with two_processes() as (first, heard_first, second, heard):
        await first.claim(["AAAAAA", "BBBBBB"])
        for task in first._tasks:  # stalled: it did not renew in time
            task.cancel()
        await first.redis.delete(f"{first.prefix}:proc:{first.proc}")
        # The second takes over one table at a time, only the first so far.
        await second.redis.srem(f"{first.prefix}:owned:{first.proc}", "BBBBBB")
        await second.tick()
        assert heard.taken == ["AAAAAA"]
        first._renewed -= 10  # the stalled process wakes up
        await first.tick()
        assert not first.owns("AAAAAA")  # taken over meanwhile: not its any more
        assert first.owns("BBBBBB") and heard_first.taken == ["BBBBBB"]  # nobody took it


async def test_notices_reach_the_others_in_order() -> None:
    async with two_processes() as (first, heard_first, _, heard):
        for n in range(20):
            first.publish({"k": "move", "t": "AAAAAA", "n": n})
        for _ in range(100):
            if len(heard.notices) == 20:
                break
            await asyncio.sleep(0.05)
        # The "hi" of the second process's start reached the first, never itself.
        assert [n["n"] for n in heard.notices if n["k"] == "move"] == list(range(20))
        assert all(n["p"] == first.proc for n in heard.notices)
        assert [n["k"] for n in heard_first.notices] == ["hi"]


async def test_a_notice_is_judged_by_its_header_before_it_is_decoded() -> None:
    async with two_processes() as (first, _, _, heard):
        heard.quiet_tables.add("QUIETT")
        first.publish({"k": "move", "t": "QUIETT", "n": 1, "e": False})
        first.publish({"k": "move", "t": "QUIETT", "n": 2, "e": True})
        first.publish({"k": "move", "t": "AAAAAA", "n": 1})
        first.publish({"k": "hi"})
        for _ in range(100):
            if len(heard.headers) == 4:
                break
            await asyncio.sleep(0.05)
        assert heard.headers == [
            ("move", "QUIETT", False), ("move", "QUIETT", True), ("move", "AAAAAA", False),
            ("hi", "-", False),
        ]  # fmt: skip
        # The quiet table's moves never reached the hub; the others did, whole.
        assert [(n["k"], n.get("t")) for n in heard.notices] == [("move", "AAAAAA"), ("hi", None)]
        assert heard.notices[0] == {"k": "move", "t": "AAAAAA", "n": 1, "p": first.proc}


def test_notices_are_parsed_by_hiredis() -> None:
    """The ``cluster`` extra (and ``dev``) installs hiredis, so redis-py reads every notice of
    the channel with its C parser, not its own in Python (about a third less CPU per notice;
    docs/server.md's load benchmark). A venv from before the dependency: ``make setup``."""
    from redis.asyncio.connection import _AsyncHiredisParser

    cluster = RedisCluster(REDIS_URL, prefix=f"t{secrets.token_hex(4)}")
    connection = cluster.redis.connection_pool.make_connection()
    assert isinstance(connection._parser, _AsyncHiredisParser)
