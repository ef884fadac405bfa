"""The attempt counters behind the sign-up and sign-in limits: the in-process one and the
Redis one (the real Redis at 127.0.0.1:6379) keep the same contract."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator

import pytest

from sequence.server.accounts.attempts import Counter, Limit, MemoryCounter, RedisCounter

REDIS = "redis://127.0.0.1:6379/0"


async def _redis() -> RedisCounter:
    try:
        import redis  # noqa: F401
    except ImportError:
        pytest.skip("the redis package is not installed")
    counter = RedisCounter.from_url(REDIS)
    counter.prefix = f"sequence:test:{secrets.token_hex(4)}:"  # never another run's counts
    try:
        await counter.redis.ping()
    except Exception as exc:
        pytest.skip(f"Redis at {REDIS} is not reachable: {exc}")
    return counter


@pytest.fixture(params=["memory", "redis"])
async def counter(request: pytest.FixtureRequest) -> AsyncIterator[Counter]:
    c: Counter = MemoryCounter() if request.param == "memory" else await _redis()
    yield c
    await c.close()


async def test_a_limit_allows_so_many_attempts_a_window_then_says_how_long_to_wait(
    counter: Counter,
) -> None:
    limit = Limit("t", 3, 0.5)
    assert await limit.wait(counter, "anna") == 0
    assert [await limit.hit(counter, "anna") for _ in range(3)] == [0, 0, 0]
    assert 0 < await limit.wait(counter, "anna") <= 0.5
    wait = await limit.hit(counter, "anna")
    assert 0 < wait <= 0.5
    assert await limit.hit(counter, "bob") == 0  # keys are counted apart
    await asyncio.sleep(0.6)  # a new window
    assert await limit.hit(counter, "anna") == 0


async def test_two_redis_counters_share_their_counts() -> None:
    """Two processes' counters on one Redis: attempts made through one count for the other."""
    one = await _redis()
    two = RedisCounter.from_url(REDIS)
    two.prefix = one.prefix
    limit = Limit("shared", 2, 30)
    try:
        assert await limit.hit(one, "x") == 0
        assert await limit.hit(two, "x") == 0
        assert await limit.hit(one, "x") > 0
        assert await limit.wait(two, "x") > 0
        # Redis holds no name in clear: the keys are digests.
        keys = [k.decode() for k in await one.redis.keys(one.prefix + "*")]
        assert keys and all(":x" not in k for k in keys)
    finally:
        await one.redis.delete(*await one.redis.keys(one.prefix + "*"))
        await one.close()
        await two.close()
