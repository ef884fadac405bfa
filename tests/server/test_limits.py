"""The rate limits per client held in Redis across processes, and in each process while Redis is
away (docs/server.md, "Limits")."""

from __future__ import annotations

import asyncio
import logging
import secrets

import pytest

from sequence.server.common.limits import ClientLimiter

from .cluster import REDIS_URL, redis_available
from .conftest import free_port


async def _takes(limiter: ClientLimiter, client: str, n: int) -> list[float]:
    return [await limiter.take(client) for _ in range(n)]


def test_two_limiters_on_one_redis_give_a_client_the_limit_once() -> None:
    why = redis_available()
    if why:
        pytest.skip(why)
    from redis.asyncio import Redis

    async def run() -> tuple[list[float], list[float], list[float]]:
        redis = Redis.from_url(REDIS_URL)
        prefix = f"limits-test-{secrets.token_hex(4)}:"
        try:
            # Two processes' limiters (one each): 5 at once, then one every 100 s.
            one, two = ClientLimiter(0.01, 5, "creates"), ClientLimiter(0.01, 5, "creates")
            one.share(redis, prefix)
            two.share(redis, prefix)
            waits = []
            for i in range(8):
                waits.append(await (one if i % 2 else two).take("203.0.113.9"))
            other = await _takes(one, "203.0.113.10", 1)  # another client: its own bucket
            keys = [k.decode() async for k in redis.scan_iter(f"{prefix}*")]
            ttls = [await redis.pttl(k) for k in keys]
            assert all(0 < t <= 501_000 for t in ttls), ttls  # forgotten once full again
            assert not any("203.0.113" in k for k in keys)  # addresses only as digests
            return waits, other, []
        finally:
            async for k in redis.scan_iter(f"{prefix}*"):
                await redis.delete(k)
            await redis.aclose()

    waits, other, _ = asyncio.run(run())
    assert waits[:5] == [0.0] * 5
    assert all(w > 90 for w in waits[5:]), waits  # refused, whichever limiter was asked
    assert other == [0.0]


def test_while_redis_is_away_each_process_counts_alone_and_says_so(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from redis.asyncio import Redis

    async def run() -> list[float]:
        redis = Redis.from_url(f"redis://127.0.0.1:{free_port()}/0")  # nothing listens there
        limiter = ClientLimiter(0.01, 3, "joins")
        limiter.share(redis, "x:")
        try:
            return await _takes(limiter, "203.0.113.9", 4)
        finally:
            await redis.aclose()

    with caplog.at_level(logging.WARNING, "sequence.server"):
        waits = asyncio.run(run())
    assert waits[:3] == [0.0] * 3 and waits[3] > 90  # the limit, in this process
    said = [r.getMessage() for r in caplog.records if "rate limit" in r.getMessage()]
    assert len(said) == 1 and "joins counted in this process only" in said[0], said


def test_sign_in_attempts_are_counted_here_while_redis_is_away(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from sequence.server.accounts.attempts import Limit, RedisCounter

    async def run() -> tuple[list[float], float]:
        counter = RedisCounter.from_url(f"redis://127.0.0.1:{free_port()}/0")  # nobody there
        limit = Limit("signin-name", 2, 600.0)
        try:
            hits = [await limit.hit(counter, "anna") for _ in range(3)]
            return hits, await limit.wait(counter, "anna")
        finally:
            await counter.close()

    with caplog.at_level(logging.WARNING, "sequence.server"):
        hits, wait = asyncio.run(run())
    assert hits[:2] == [0.0, 0.0] and hits[2] > 500 and wait > 500  # the limit, here
    said = [r.getMessage() for r in caplog.records if "sign-in attempts" in r.getMessage()]
    assert len(said) == 1 and "counted in this process only" in said[0], said


def test_the_counts_go_back_to_redis_when_it_is_back(caplog: pytest.LogCaptureFixture) -> None:
    from redis.asyncio import Redis

    from .faults import OwnRedis

    with OwnRedis() as own, caplog.at_level(logging.WARNING, "sequence.server"):

        async def take() -> float:
            redis = Redis.from_url(own.url)
            try:
                limiter.share(redis, "x:")
                return await limiter.take("203.0.113.9")
            finally:
                await redis.aclose()

        limiter = ClientLimiter(0.01, 10, "creates")
        assert asyncio.run(take()) == 0.0 and not limiter.shared_down
        own.kill()
        assert asyncio.run(take()) == 0.0 and limiter.shared_down  # counted here meanwhile
        own.start()  # empty: a fresh bucket
        assert asyncio.run(take()) == 0.0 and not limiter.shared_down
    said = [r.getMessage() for r in caplog.records if "rate limit creates" in r.getMessage()]
    assert said == [said[0], "rate limit creates counted in Redis again"], said
    assert "counted in this process only" in said[0]
