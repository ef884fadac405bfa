"""Several server processes on one database: the notices between them, and which process runs
each table's bots and clocks.

``sequence serve`` alone is one process (:class:`Solo`): it owns every table and has nobody to
tell. With ``--redis`` (:class:`RedisCluster`) any number of processes serve the same tables:

- **Notices.** Each process keeps its own copy of the tables in memory; the database's move log
  stays the one truth. After a change is committed the process that made it publishes a short
  notice on one Redis pub/sub channel (a move with its ply, "this table's seats or status
  changed", who is connected here, a chat line); the others update their copy (a move whose ply
  follows theirs is pushed as it is, anything else is read back from the database) and show it
  to their own connections, each through its own view. A notice is never the only copy of
  anything but the presence and the talk, which are not stored anyway. Each notice starts
  with a header line (:func:`header`: the sender, the kind, the table) that a process reads
  before decoding the rest, so that a move at a table it does not keep up to date costs it
  almost nothing (:meth:`Listener.quiet`).
- **Owners.** Exactly one process runs a table's bots, clocks and the passing of the host's
  rights: the table's owner (``PREFIX:owner:CODE`` holds its process id). Each process renews
  its own lease (``PREFIX:proc:ID``, expiring after :data:`LEASE_MS`) every :data:`BEAT`
  seconds, so renewal costs one Redis call a second per process, not per table. A process whose
  lease expired (``kill -9``, a machine gone) is dead: the survivors take its tables over
  (:data:`ADOPT_SCRIPT`, atomic in Redis), load each from the database and go on with its bots
  and its clock (what was stored, not a new turn). A process that could not renew its own lease
  in time stops running bots and clocks at once (it may have been taken over).

Redis was chosen for the notices and leases because it does both with one small service: pub/sub
fans a notice out to every process in well under a millisecond, and a key with an expiry plus a
Lua script is a lease whose take-over is atomic. The client is the ``redis`` package's asyncio
API (the ``cluster`` extra), imported only when ``--redis`` is given.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import random
import secrets
import socket
import time
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from redis.asyncio import Redis

log = logging.getLogger("sequence.server")

LEASE_MS = 5000
"""A process that has not renewed its lease for this long is dead: its tables are taken over."""
BEAT = 1.0
RETRY_MIN = 0.25
"""Seconds before the first try to subscribe again after the notices channel is lost."""
NOT_SUBSCRIBED = "the notices channel is not subscribed"  # i18n: ignore (the log's words)
RETRY_MAX = 4.0
"""The longest wait between two tries (each failure doubles the wait up to this)."""
"""Seconds between a process's renewals of its lease (and its looks for dead processes)."""
ADOPT_AT_ONCE = 32
"""At most this many of a dead process's tables taken over at one look, so that the survivors
share them."""

CLAIM_SCRIPT = """-- i18n: ignore (a Lua script)
local owner_key = ARGV[1] .. ':owner:' .. ARGV[2]
local current = redis.call('GET', owner_key)
if current == ARGV[3] then return 1 end
if current and redis.call('EXISTS', ARGV[1] .. ':proc:' .. current) == 1 then return 0 end
redis.call('SET', owner_key, ARGV[3])
redis.call('SADD', ARGV[1] .. ':owned:' .. ARGV[3], ARGV[2])
if current then redis.call('SREM', ARGV[1] .. ':owned:' .. current, ARGV[2]) end
return 1
"""
"""Own table ARGV[2] unless a live process (ARGV[1]: the key prefix) owns it; 1 if ARGV[3]
(this process) owns it now."""

ADOPT_SCRIPT = """-- i18n: ignore (a Lua script)
local owned = ARGV[1] .. ':owned:' .. ARGV[2]
if redis.call('EXISTS', ARGV[1] .. ':proc:' .. ARGV[2]) == 1 then return {} end
local took = {}
for _, code in ipairs(redis.call('SRANDMEMBER', owned, tonumber(ARGV[4]))) do
  local owner_key = ARGV[1] .. ':owner:' .. code
  if redis.call('GET', owner_key) == ARGV[2] then
    redis.call('SET', owner_key, ARGV[3])
    redis.call('SADD', ARGV[1] .. ':owned:' .. ARGV[3], code)
    table.insert(took, code)
  end
  redis.call('SREM', owned, code)
end
if redis.call('SCARD', owned) == 0 then redis.call('SREM', ARGV[1] .. ':procs', ARGV[2]) end
return took
"""
"""Process ARGV[3] takes over at most ARGV[4] tables of the dead process ARGV[2] (nothing if
it is alive after all); the dead one leaves the list of processes once it owns nothing."""

RELEASE_SCRIPT = """-- i18n: ignore (a Lua script)
local owner_key = ARGV[1] .. ':owner:' .. ARGV[2]
if redis.call('GET', owner_key) == ARGV[3] then redis.call('DEL', owner_key) end
redis.call('SREM', ARGV[1] .. ':owned:' .. ARGV[3], ARGV[2])
return 1
"""
"""Process ARGV[3] no longer owns table ARGV[2] (the game is over)."""


def header(proc: str, notice: dict[str, Any]) -> str:
    """The first line of ``notice`` as published by process ``proc``: ``PROC KIND CODE END``,
    ``CODE`` ``-`` for none and ``END`` 1 for a move that ended the game (else 0); the JSON
    follows on the next line."""
    code = notice.get("t")
    end = 1 if notice.get("k") == "move" and notice.get("e") else 0
    return f"{proc} {notice.get('k')} {code if isinstance(code, str) else '-'} {end}"


def read_header(data: bytes | str) -> tuple[list[str], bytes | str] | None:
    """A published notice split into its header's fields (sender, kind, table, end) and its
    JSON text, undecoded; ``None`` if it has no header of four fields."""
    newline = b"\n" if isinstance(data, bytes) else "\n"
    first, sep, rest = data.partition(newline)  # type: ignore[arg-type]
    if not sep:
        return None
    fields = (first.decode() if isinstance(first, bytes) else first).split(" ")
    return (fields, rest) if len(fields) == 4 else None


class Listener(Protocol):
    """What a cluster tells the hub."""

    def quiet(self, kind: str, code: str, end: bool) -> bool:
        """A notice of ``kind`` about table ``code`` arrived (``end``: a move that ended the
        game); ``True`` if these were enough to deal with it, so it is not even decoded."""

    def notice(self, notice: dict[str, Any]) -> None:
        """Another process published ``notice`` (its ``p`` is that process's id)."""

    def adopted(self, codes: list[str]) -> None:
        """This process now owns these tables (their owner died)."""

    def peer_gone(self, proc: str) -> None:
        """Process ``proc`` is dead: its connections are gone."""

    def resync(self) -> None:
        """Notices may have been missed (Redis was unreachable): read every table again."""


class Cluster(Protocol):
    """What the hub asks of the processes serving the same tables (:class:`Solo` or
    :class:`RedisCluster`)."""

    proc: str
    """This process's id."""
    shared: bool
    """Whether other processes serve the same tables."""

    async def start(self, listener: Listener) -> None:
        """Join the others (raises if they cannot be reached)."""

    def owns(self, code: str) -> bool:
        """Whether this process runs ``code``'s bots and clocks now."""

    async def claim(self, codes: list[str]) -> None:
        """Own each of ``codes`` that no live process owns."""

    async def release(self, code: str) -> None:
        """The table's game is over: nobody runs it any more."""

    def publish(self, notice: dict[str, Any]) -> None:
        """Tell the other processes."""

    async def stop(self) -> None:
        """Leave (a survivor takes this process's tables over)."""


class Solo:
    """One server process: it owns every table and tells nobody (the default, no Redis)."""

    proc = "solo"
    shared = False

    async def start(self, listener: Listener) -> None:
        """Nothing to connect to."""

    def owns(self, code: str) -> bool:
        """Every table is this process's."""
        return True

    async def claim(self, codes: list[str]) -> None:
        """Every table is this process's already."""

    async def release(self, code: str) -> None:
        """Nothing to release."""

    def publish(self, notice: dict[str, Any]) -> None:
        """Nobody to tell."""

    async def stop(self) -> None:
        """Nothing to stop."""


class RedisCluster:
    """Server processes sharing their tables through the Redis at ``url``; every key and the
    channel start with ``prefix`` (several clusters, or tests, may share one Redis)."""

    shared = True

    def __init__(self, url: str, prefix: str = "sequence") -> None:
        import redis.asyncio as aioredis

        self.redis: Redis = aioredis.from_url(url, socket_timeout=LEASE_MS / 2000)
        self.prefix = prefix
        self.channel = f"{prefix}:events"
        self.proc = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        self.owned: set[str] = set()
        """The tables this process runs (a local copy of what Redis says, for :meth:`owns`)."""
        self._outbox: asyncio.Queue[str] = asyncio.Queue()
        self._batch: list[str] = []
        """The notices being sent (kept until Redis took them)."""
        self._tasks: list[asyncio.Task[None]] = []
        self._renewed = 0.0
        self._listener: Listener | None = None
        self._random = random.Random(secrets.randbits(32))
        self._fenced: set[str] = set()
        """Tables this process stopped running when its lease was late (to claim again)."""
        self._peers: set[str] = set()
        """The other processes heard from (their lease is checked at every beat)."""
        self.channel_up = True
        """Whether the notices channel is subscribed now (``False`` while Redis is away: this
        process serves what it can, and its health check says so)."""

    def _key(self, *parts: str) -> str:
        return ":".join((self.prefix, *parts))

    async def start(self, listener: Listener) -> None:
        """Register this process, subscribe, and start renewing the lease (raises if Redis
        cannot be reached)."""
        self._listener = listener
        await self._renew()
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(self.channel)
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._listen(pubsub)),
            loop.create_task(self._publish_loop()),
            loop.create_task(self._beat()),
        ]
        self.publish({"k": "hi"})  # the others say who is connected to them

    def owns(self, code: str) -> bool:
        """Whether this process runs ``code``'s bots and clocks now."""
        return code in self.owned

    async def claim(self, codes: list[str]) -> None:
        """Own each of ``codes`` that no live process owns (at start-up, a new table, a table
        read back from the database)."""
        if not codes:
            return
        async with self.redis.pipeline(transaction=False) as pipe:
            for code in codes:
                pipe.eval(CLAIM_SCRIPT, 0, self.prefix, code, self.proc)
            answers = await pipe.execute()
        self.owned.update(code for code, got in zip(codes, answers, strict=True) if got == 1)

    async def release(self, code: str) -> None:
        """The table's game is over: nobody runs it any more."""
        self.owned.discard(code)
        await self.redis.eval(RELEASE_SCRIPT, 0, self.prefix, code, self.proc)

    def publish(self, notice: dict[str, Any]) -> None:
        """Tell the other processes (in order, after what was published before)."""
        text = json.dumps(notice, separators=(",", ":"))  # the sender is in the header
        self._outbox.put_nowait(f"{header(self.proc, notice)}\n{text}")

    async def stop(self) -> None:
        """Hand this process's tables back (a survivor takes them at once) and disconnect."""
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        # What was still to be sent goes now (a notice twice does no harm: each is applied
        # only if it is news), so the others are not left behind this process's last moves.
        unsent = self._batch
        while not self._outbox.empty():
            unsent.append(self._outbox.get_nowait())
        with contextlib.suppress(Exception):
            await self._send(unsent)
        with contextlib.suppress(Exception):
            await self.redis.delete(self._key("proc", self.proc))
        self.owned.clear()
        await self.redis.aclose()

    # --- the tasks ------------------------------------------------------------------------------

    async def _renew(self) -> None:
        """Renew this process's lease. If it had expired (this process was too slow or cut off
        from Redis), another process may have taken its tables: it owns none until it claims
        them again."""
        now = time.monotonic()
        alive = await self.redis.set(self._key("proc", self.proc), "1", px=LEASE_MS, xx=True)
        if not alive or now - self._renewed > LEASE_MS / 1000:
            if self.owned:
                log.warning("lease of %s expired: its tables are claimed again", self.proc)
                self._fence()
            await self.redis.set(self._key("proc", self.proc), "1", px=LEASE_MS)
            await self.redis.sadd(self._key("procs"), self.proc)
        self._renewed = now

    def _fence(self) -> None:
        """Stop running every table at once (this process may be taken for dead); they are
        claimed again once the lease is renewed, and only those nobody else took over come
        back."""
        self._fenced |= self.owned
        self.owned.clear()

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(BEAT * (0.8 + 0.4 * self._random.random()))
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("could not renew the lease of %s (%s)", self.proc, exc)

    async def tick(self) -> None:
        """One beat: renew this process's lease (first stopping its tables if it is late),
        claim back what it stopped and nobody took, and take over dead processes' tables."""
        if time.monotonic() - self._renewed > LEASE_MS / 1000 * 0.8:
            self._fence()  # about to be taken for dead: stop before anyone may start
        await self._renew()
        if self._fenced:
            codes, self._fenced = sorted(self._fenced), set()
            await self.claim(codes)
            back = [code for code in codes if code in self.owned]
            if back:
                assert self._listener is not None
                self._listener.adopted(back)
        await self._adopt()

    async def _adopt(self) -> None:
        """Find the processes whose lease expired (those registered, and those heard from):
        forget who was connected to them, and take their tables over."""
        procs = {
            p.decode() if isinstance(p, bytes) else str(p)
            for p in await self.redis.smembers(self._key("procs"))
        }
        others = sorted((procs | self._peers) - {self.proc})
        if not others:
            return
        async with self.redis.pipeline(transaction=False) as pipe:
            for proc in others:
                pipe.exists(self._key("proc", proc))
            alive = await pipe.execute()
        assert self._listener is not None
        for proc, up in zip(others, alive, strict=True):
            if up:
                continue
            self._peers.discard(proc)
            self._listener.peer_gone(proc)
            if proc not in procs:
                continue
            took = await self.redis.eval(
                ADOPT_SCRIPT, 0, self.prefix, proc, self.proc, str(ADOPT_AT_ONCE)
            )
            codes = [c.decode() if isinstance(c, bytes) else str(c) for c in took]
            if codes:
                log.warning("process %s is gone: %s takes over %s", proc, self.proc, codes)
                self.owned.update(codes)
                self._listener.adopted(codes)

    async def _send(self, batch: list[str]) -> None:
        if batch:
            async with self.redis.pipeline(transaction=False) as pipe:
                for text in batch:
                    pipe.publish(self.channel, text)
                await pipe.execute()

    async def _publish_loop(self) -> None:
        while True:
            self._batch = [await self._outbox.get()]
            while not self._outbox.empty():
                self._batch.append(self._outbox.get_nowait())
            while True:
                try:
                    await self._send(self._batch)
                    self._batch = []
                    break
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    log.warning("could not publish %d notices (%s)", len(self._batch), exc)
                    await asyncio.sleep(0.5)

    async def _listen(self, pubsub: Any) -> None:
        assert self._listener is not None
        while True:
            try:
                async for message in pubsub.listen():
                    self._on_message(message)
                # listen() ends at once when nothing is subscribed (redis-py loops while
                # subscribed): the channel is as lost as when it raises. Going round again
                # without waiting would spin the event loop and starve every request.
                raise ConnectionError(NOT_SUBSCRIBED)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self.channel_up = False
                log.warning("lost the notices channel (%s); subscribing again", exc)
            pubsub = await self._subscribe_again(pubsub)

    def _on_message(self, message: dict[str, Any]) -> None:
        """Hand one message of the channel to the listener (not this process's own)."""
        assert self._listener is not None
        if message.get("type") != "message":
            return
        read = read_header(message["data"])
        if read is None:
            return
        (proc, kind, code, end), text = read
        if proc == self.proc:
            return
        self._peers.add(proc)
        try:
            if self._listener.quiet(kind, code, end == "1"):
                return  # a move at a table this process does not keep up to date
            notice = json.loads(text)
            if isinstance(notice, dict):
                notice["p"] = proc
                self._listener.notice(notice)
        except json.JSONDecodeError:
            return
        except Exception:  # a bug, not the channel's fault: keep listening
            log.exception("could not apply the notice %s", message["data"][:200])

    async def _subscribe_again(self, old: Any) -> Any:
        """Subscribe again, waiting longer after each failure (up to :data:`RETRY_MAX`
        seconds), until Redis answers; then read every table back, since notices may have
        gone by meanwhile, and say who is connected here."""
        assert self._listener is not None
        with contextlib.suppress(Exception):
            await old.aclose()
        delay = RETRY_MIN
        while True:
            await asyncio.sleep(delay)
            pubsub: Any = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.channel)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("Redis is still unreachable (%s); next try in %.1f s", exc, delay)
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                delay = min(delay * 2, RETRY_MAX)
                continue
            log.warning("the notices channel is back: reading every table again")
            self.channel_up = True
            self._listener.resync()
            self.publish({"k": "hi"})
            return pubsub
