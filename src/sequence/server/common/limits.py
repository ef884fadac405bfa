"""Limits on what one client may send: how deep its JSON nests, how often it makes tables.

Both front doors use them: the HTTP API (request bodies; creating and joining tables) and the
WebSocket (each frame). A client over a limit is refused with a clear error and nothing changes.
With several server processes the rates per client are counted in their shared Redis
(:class:`ClientLimiter`), so a client gets each limit once, not once per process.
"""

from __future__ import annotations

import hashlib
import logging
import math
import time
from typing import TYPE_CHECKING, Any, Final

from ...i18n import N_
from .errors import RequestError

if TYPE_CHECKING:
    from redis.asyncio import Redis

log = logging.getLogger("sequence.server")

MAX_DEPTH: Final = 32
"""How deep arrays and objects may nest in a request body or a WebSocket message."""


def too_deep() -> RequestError:
    return RequestError(
        "bad_json",
        N_("the JSON nests deeper than {limit} levels; nothing was done"),
        400,
        limit=MAX_DEPTH,
    )


def not_json(constant: str) -> Any:
    """``json.loads``'s ``parse_constant``: the refusal of ``NaN`` and ``Infinity``."""
    raise ValueError(constant)  # NaN, Infinity: Python reads them, JSON has no such numbers


def json_depth(text: str | bytes) -> int:
    """How deep the arrays and objects of JSON ``text`` nest (brackets inside strings do not
    count), found without parsing, so that a deeply nested document never reaches a parser
    that recurses."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
        elif ch in "]}":
            depth -= 1
    return deepest


TAKE_SCRIPT: Final = """-- i18n: ignore (a Lua script)
local rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local held = redis.call('HMGET', KEYS[1], 'tokens', 'stamp')
local tokens = tonumber(held[1]) or burst
local stamp = tonumber(held[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - stamp) * rate)
local wait = 0
if tokens < 1 then wait = (1 - tokens) / rate else tokens = tokens - 1 end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'stamp', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
return tostring(wait)
"""
"""One request taken from a client's bucket in Redis, atomically (a script runs alone): the
bucket's tokens grow by ``rate`` a second (Redis's own clock, the same for every process) up
to ``burst``; the answer is 0 or the seconds to wait. The key expires once the bucket would be
full again, so Redis forgets clients who stopped."""


class ClientLimiter:
    """A token bucket per client (its address): ``burst`` requests at once, then ``rate`` a
    second, counted under ``name``.

    In this process by default; after :meth:`share`, in Redis, where every server process
    behind the same Redis takes from the same bucket (:data:`TAKE_SCRIPT`), so a client gets
    the limit once however many processes serve it. While Redis cannot be reached the process
    counts on its own (a client may then get the limit from each process) and says so in the
    log, once when it starts and once when Redis is back: a request is never refused, nor
    held up, because Redis is away. Clients whose bucket is full again are forgotten, so
    memory stays bounded."""

    FORGET_AFTER: Final = 10_000
    """Sweep the full buckets out once this many clients are remembered."""

    def __init__(self, rate: float, burst: float, name: str = "requests") -> None:
        self.rate, self.burst, self.name = rate, burst, name
        self._buckets: dict[str, tuple[float, float]] = {}
        self._redis: Redis | None = None
        self._prefix = ""
        self.shared_down = False
        """Whether Redis failed the last request (counted in this process meanwhile)."""

    def share(self, redis: Redis, prefix: str) -> None:
        """Count in ``redis`` from now on, under keys starting with ``prefix`` (the
        client's address is kept as a digest only)."""
        self._redis, self._prefix = redis, prefix

    def _tokens(self, client: str, now: float) -> float:
        tokens, stamp = self._buckets.get(client, (self.burst, now))
        return min(self.burst, tokens + (now - stamp) * self.rate)

    def take_here(self, client: str) -> float:
        """Take one request for ``client`` from this process's bucket: 0 if allowed, else the
        seconds to wait (> 0)."""
        now = time.monotonic()
        tokens = self._tokens(client, now)
        if tokens < 1:
            self._buckets[client] = (tokens, now)
            return max(1e-3, (1 - tokens) / self.rate)
        self._buckets[client] = (tokens - 1, now)
        if len(self._buckets) > self.FORGET_AFTER:
            self._buckets = {
                c: b for c, b in self._buckets.items() if self._tokens(c, now) < self.burst
            }
        return 0.0

    async def take(self, client: str) -> float:
        """Take one request for ``client``: 0 if allowed, else the seconds to wait (> 0); in
        Redis once shared (this process's bucket while Redis is away)."""
        if self._redis is None:
            return self.take_here(client)
        digest = hashlib.sha256(client.encode()).hexdigest()[:32]
        try:
            answer = await self._redis.eval(
                TAKE_SCRIPT, 1, f"{self._prefix}{self.name}:{digest}", self.rate, self.burst
            )
        except Exception as exc:  # any failure of Redis: never a refused request
            if not self.shared_down:
                self.shared_down = True
                log.warning(  # i18n: ignore
                    "rate limit %s counted in this process only: Redis is unreachable (%s)",
                    self.name,
                    exc,
                )
            return self.take_here(client)
        if self.shared_down:
            self.shared_down = False
            log.warning("rate limit %s counted in Redis again", self.name)  # i18n: ignore
        wait = float(answer)
        return max(1e-3, wait) if wait > 0 else 0.0

    def retry_after(self, wait: float) -> str:
        """A ``Retry-After`` header's whole seconds for a wait."""
        return str(max(1, math.ceil(wait)))
