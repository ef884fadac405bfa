"""Counting attempts to sign up and sign in, so that guessing passwords is slow everywhere.

A :class:`Counter` counts events per key in fixed windows of time; :class:`MemoryCounter`
keeps them in this process, :class:`RedisCounter` in Redis (``redis.asyncio``), where every
server process behind the same Redis shares them. :class:`AttemptLimits` says which keys are
counted for each request (the client's address, the account name) and how many attempts a
window allows; over the limit, the request is refused before any password is looked at.

>>> import asyncio
>>> limit = Limit("signin-name", 2, 60.0)
>>> counter = MemoryCounter()
>>> async def three() -> list[float]:
...     return [await limit.hit(counter, "anna") for _ in range(3)]
>>> waits = asyncio.run(three())
>>> waits[:2], waits[2] > 0
([0.0, 0.0], True)
"""

from __future__ import annotations

import hashlib
import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Protocol

if TYPE_CHECKING:
    from redis.asyncio import Redis

log = logging.getLogger("sequence.server")


class Counter(Protocol):
    """Events per key in fixed windows: what a rate limit needs, whatever keeps the counts."""

    async def add(self, key: str, window: float) -> tuple[int, float]:
        """Count one event for ``key``; return the events in its current window (this one
        included) and the seconds until the window ends."""
        ...

    async def get(self, key: str, window: float) -> tuple[int, float]:
        """The events counted for ``key`` in its current window, and the seconds it has left."""
        ...

    async def close(self) -> None:
        """Release what the counter holds (a connection)."""
        ...


class MemoryCounter:
    """Counts in this process only (one server process; tests). Windows that ended are
    forgotten once :data:`SWEEP_AT` keys are held, so memory stays bounded."""

    SWEEP_AT: Final = 10_000

    def __init__(self) -> None:
        self._windows: dict[str, tuple[float, int]] = {}
        """key -> (when its window ends, events in it)."""

    def _current(self, key: str, window: float, now: float) -> tuple[float, int]:
        end, count = self._windows.get(key, (0.0, 0))
        return (now + window, 0) if end <= now else (end, count)

    async def add(self, key: str, window: float) -> tuple[int, float]:
        now = time.monotonic()
        end, count = self._current(key, window, now)
        self._windows[key] = (end, count + 1)
        if len(self._windows) > self.SWEEP_AT:
            self._windows = {k: v for k, v in self._windows.items() if v[0] > now}
        return count + 1, end - now

    async def get(self, key: str, window: float) -> tuple[int, float]:
        now = time.monotonic()
        end, count = self._current(key, window, now)
        return count, end - now

    async def close(self) -> None:
        self._windows.clear()


class RedisCounter:
    """Counts in Redis (``INCR`` and ``PEXPIRE`` in one transaction): every server process
    using the same Redis sees the same counts, and Redis forgets a window when it ends.

    While Redis cannot be reached it counts in this process (:attr:`fallback`; a client may
    then get a limit from each process) and says so in the log, once when it starts and once
    when Redis is back: no sign-in is refused, nor fails, because Redis is away."""

    def __init__(
        self, redis: Redis, prefix: str = "sequence:attempts:", *, owned: bool = False
    ) -> None:
        self.redis = redis
        self.prefix = prefix
        self.owned = owned
        """Whether :meth:`close` closes ``redis`` (made by :meth:`from_url`); a client given
        here is its giver's to close (the app shares the cluster's)."""
        self.fallback = MemoryCounter()
        """The counts kept while Redis is away."""
        self.down = False
        """Whether Redis failed the last count."""

    def _lost(self, exc: Exception) -> None:
        if not self.down:
            self.down = True
            log.warning(  # i18n: ignore
                "sign-in attempts counted in this process only: Redis is unreachable (%s)", exc
            )

    def _back(self) -> None:
        if self.down:
            self.down = False
            log.warning("sign-in attempts counted in Redis again")  # i18n: ignore

    @classmethod
    def from_url(cls, url: str, prefix: str = "sequence:attempts:") -> RedisCounter:
        """A counter on the Redis at ``url`` (``redis://host:port/db``), its keys starting
        with ``prefix``."""
        from redis.asyncio import Redis

        return cls(Redis.from_url(url), prefix, owned=True)

    async def add(self, key: str, window: float) -> tuple[int, float]:
        name = self.prefix + key
        try:
            async with self.redis.pipeline(transaction=True) as pipe:
                pipe.incr(name)
                # NX: only a new key gets an expiry, so a window is never stretched.
                pipe.pexpire(name, max(1, int(window * 1000)), nx=True)
                pipe.pttl(name)
                count, _, ttl = await pipe.execute()
        except Exception as exc:  # any failure of Redis: never a failed sign-in
            self._lost(exc)
            return await self.fallback.add(key, window)
        self._back()
        return int(count), max(0.0, int(ttl) / 1000)

    async def get(self, key: str, window: float) -> tuple[int, float]:
        name = self.prefix + key
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.get(name)
                pipe.pttl(name)
                count, ttl = await pipe.execute()
        except Exception as exc:
            self._lost(exc)
            return await self.fallback.get(key, window)
        self._back()
        return (int(count) if count else 0), max(0.0, int(ttl) / 1000)

    async def close(self) -> None:
        if self.owned:
            await self.redis.aclose()


@dataclass(frozen=True)
class Limit:
    """At most ``attempts`` events per key in ``window`` seconds, counted under ``name``."""

    name: str
    attempts: int
    window: float

    def _key(self, key: str) -> str:
        # Keys name people (an address, an account name): Redis holds only their digest.
        return f"{self.name}:{hashlib.sha256(key.encode()).hexdigest()[:32]}"

    async def hit(self, counter: Counter, key: str) -> float:
        """Count an attempt; 0 if it is within the limit, else the seconds to wait."""
        count, left = await counter.add(self._key(key), self.window)
        return 0.0 if count <= self.attempts else max(left, 0.001)

    async def wait(self, counter: Counter, key: str) -> float:
        """0 if another attempt is allowed now (nothing counted), else the seconds to wait."""
        count, left = await counter.get(self._key(key), self.window)
        return 0.0 if count < self.attempts else max(left, 0.001)


@dataclass(frozen=True)
class AttemptLimits:
    """How many sign-ups and sign-ins are allowed. Every sign-up and sign-in counts against the
    client's address; failed sign-ins also count against the name tried, from any address, so
    one account cannot be guessed at from many addresses."""

    signup_client: Limit = Limit("signup-client", 5, 3600.0)
    signin_client: Limit = Limit("signin-client", 30, 600.0)
    signin_name: Limit = Limit("signin-name", 10, 600.0)
