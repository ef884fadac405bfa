"""Several ``sequence serve`` processes on one PostgreSQL database and one Redis, for the tests.

The processes are started, awaited and stopped by :class:`sequence.server.cluster.launcher.Cluster`
(the same command line an operator's cluster runs, without nginx in front); this module adds
what the tests need on top: each cluster under its own Redis key prefix (``--redis-prefix``), so
clusters and tests running at once never see each other's notices, its keys deleted afterwards;
which process owns a table now; a server's log printed when a test fails; and the server
helpers :mod:`conftest`'s functions expect (``http()``, ``stored(code)``)::

    with fresh_postgres() as db, ServeCluster(db, REDIS_URL, processes=3) as cluster:
        first, second, third = cluster.servers
        ...  # first.url, second.ws_url, cluster.owner(code), first.kill()

(An operator's cluster on one machine, nginx included:
``python -m sequence.server.cluster.launcher``.)
"""

from __future__ import annotations

import contextlib
import os
import secrets
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx

from sequence.server.cluster.launcher import Cluster, Server

from .conftest import load_stored

REDIS_URL = os.environ.get("SEQUENCE_TEST_REDIS", "redis://127.0.0.1:6379/0")
"""The Redis the cluster tests use (each cluster under its own key prefix)."""


def redis_available(url: str = REDIS_URL) -> str | None:
    """``None`` if the Redis at ``url`` answers, else why not."""
    try:
        import redis
    except ImportError:
        return (
            "the redis package is not installed"
            " (in the checkout: .venv/bin/pip install -e '.[cluster]')"
        )
    try:
        client = redis.Redis.from_url(url, socket_timeout=3, socket_connect_timeout=3)
        client.ping()
        client.close()
    except Exception as exc:
        return f"Redis at {url} is not reachable: {exc}"
    return None


def children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (read from /proc: no psutil needed)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdecimal():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # gone meanwhile
            continue
        # "pid (comm) state ppid ...": comm may hold spaces, so split after its ")".
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.add(int(entry.name))
    return found


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie has finished)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


class ServeProcess(Server):
    """One ``sequence serve`` process of a :class:`ServeCluster`, as the game tests' helpers
    see a server (``create_table(server, ...)``, ``Client(server, code)``)."""

    def http(self) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=20)

    def stored(self, code: str) -> Any:
        """The table as the database holds it."""
        return load_stored(self.db, code)


class ServeCluster(Cluster):
    """``processes`` server processes on the database ``db`` and the Redis ``redis``, under a
    fresh key prefix; ``extra`` flags go to every ``sequence serve``."""

    server_type = ServeProcess
    servers: list[ServeProcess]  # type: ignore[assignment]
    redis: str  # always given here

    def __init__(
        self,
        db: str,
        redis: str = REDIS_URL,
        processes: int = 3,
        extra: tuple[str, ...] = ("--bot-workers", "1", "--bot-delay", "0.05"),
        prefix: str | None = None,
    ) -> None:
        self._logs = tempfile.TemporaryDirectory(prefix="sequence-cluster-")
        super().__init__(
            processes,
            db,
            redis,
            redis_prefix=prefix or f"seqtest-{secrets.token_hex(4)}",
            serve_args=extra,
            workdir=Path(self._logs.name),
            nginx=None,
        )
        self.prefix: str = self.redis_prefix or ""

    def __enter__(self) -> ServeCluster:
        try:
            self.start()
        except BaseException:
            self._forget()
            raise
        return self

    def add(self) -> ServeProcess:
        """Start one more process and wait until it serves."""
        server = self.start_server()
        assert isinstance(server, ServeProcess)
        return server

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        self.stop()
        if kind is not None:  # say what the servers said
            for server in self.servers:
                with contextlib.suppress(OSError):
                    tail = server.log.read_text()[-3000:]
                    print(f"--- {server.log.name} ---\n{tail}", file=sys.stderr)
        self._forget()

    def redis_client(self) -> Any:
        import redis

        return redis.Redis.from_url(self.redis, decode_responses=True)

    def owner(self, code: str) -> ServeProcess | None:
        """The process that runs ``code``'s bots and clocks now (``None``: none)."""
        with contextlib.closing(self.redis_client()) as client:
            proc = client.get(f"{self.prefix}:owner:{code}")
        if proc is None:
            return None
        pid = int(str(proc).split(":")[1])
        return next((s for s in self.servers if s.pid == pid), None)

    def _forget(self) -> None:
        """Delete this cluster's Redis keys and its logs."""
        with contextlib.suppress(Exception), contextlib.closing(self.redis_client()) as client:
            keys = list(client.scan_iter(match=f"{self.prefix}:*", count=1000))
            if keys:
                client.delete(*keys)
        self._logs.cleanup()
