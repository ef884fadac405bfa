"""Several ``sequence serve`` processes on one PostgreSQL database and one Redis, started as an
operator starts them (the CLI and its flags ``--db``, ``--redis``, ``--port``, ``--host``).

For the tests (``tests/server/test_cluster.py``) and for anything else that needs a running
cluster (a reverse proxy in front of it, a load test)::

    with fresh_postgres() as db, ServeCluster(db, REDIS_URL, processes=3) as cluster:
        first, second, third = cluster.servers
        ...  # first.url, second.ws_url, cluster.owner(code), first.kill()

Each cluster uses its own Redis key prefix (``--redis-prefix``), so clusters and tests running
at once never see each other's notices; its keys are deleted afterwards. Run as a script, it
starts a cluster on the given database and waits (Ctrl-C stops it)::

    python tests/server/cluster.py --db postgresql://postgres@127.0.0.1:5432/test --processes 3
"""

from __future__ import annotations

import argparse
import contextlib
import os
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import TracebackType
from typing import Any

import httpx

REDIS_URL = os.environ.get("SEQUENCE_TEST_REDIS", "redis://127.0.0.1:6379/0")
"""The Redis the cluster tests use (each cluster under its own key prefix)."""


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def redis_available(url: str = REDIS_URL) -> str | None:
    """``None`` if the Redis at ``url`` answers, else why not."""
    try:
        import redis
    except ImportError:
        return "the redis package is not installed (pip install 'sequence-games[cluster]')"
    try:
        client = redis.Redis.from_url(url, socket_timeout=3, socket_connect_timeout=3)
        client.ping()
        client.close()
    except Exception as exc:
        return f"Redis at {url} is not reachable: {exc}"
    return None


def children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (read from /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdecimal():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
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


class ServeProcess:
    """One ``sequence serve`` subprocess on 127.0.0.1 and a free port."""

    def __init__(self, db: str, redis: str, prefix: str, log_dir: Path, *extra: str) -> None:
        self.db = db
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.log = log_dir / f"serve-{self.port}.log"
        cmd = [sys.executable, "-m", "sequence.cli.main", "serve", "--host", "127.0.0.1",
               "--port", str(self.port), "--db", db, "--redis", redis,
               "--redis-prefix", prefix, *extra]  # fmt: skip
        # The log to a file, not a pipe: a leftover child would hold a pipe open.
        self.proc = subprocess.Popen(
            cmd,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
            stdout=subprocess.DEVNULL,
            stderr=self.log.open("wb"),
        )
        self.workers: set[int] = set()
        """The bot worker processes it had started (see :meth:`wait_ready`)."""

    @property
    def pid(self) -> int:
        return self.proc.pid

    def wait_ready(self, timeout: float = 60) -> None:
        """Wait until it answers HTTP (and note its bot workers)."""
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"sequence serve ended: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(f"{self.url}/api/meta", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"sequence serve did not start: {self.log.read_text()[-2000:]}")
            time.sleep(0.1)
        self.workers = children(self.pid)

    def http(self) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=20)

    def kill(self) -> None:
        """``kill -9``: no shutdown at all."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        """SIGTERM, as ``systemctl stop`` sends (SIGKILL after 15 s)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()

    def stored(self, code: str) -> Any:
        """The table as the database holds it."""
        from sequence.server.store import Store

        store = Store(self.db)
        try:
            return store.load(code)
        finally:
            store.close()


class ServeCluster:
    """``processes`` server processes on the database ``db`` and the Redis ``redis``, under a
    fresh key prefix; ``extra`` flags go to every ``sequence serve``."""

    def __init__(
        self,
        db: str,
        redis: str = REDIS_URL,
        processes: int = 3,
        extra: tuple[str, ...] = ("--bot-workers", "1", "--bot-delay", "0.05"),
        prefix: str | None = None,
    ) -> None:
        self.db, self.redis, self.count, self.extra = db, redis, processes, extra
        self.prefix = prefix or f"seqtest-{secrets.token_hex(4)}"
        self._logs = tempfile.TemporaryDirectory(prefix="sequence-cluster-")
        self.servers: list[ServeProcess] = []

    def __enter__(self) -> ServeCluster:
        try:
            for _ in range(self.count):
                self.add()
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def add(self) -> ServeProcess:
        """Start one more process and wait until it serves."""
        server = ServeProcess(self.db, self.redis, self.prefix, Path(self._logs.name), *self.extra)
        self.servers.append(server)
        server.wait_ready()
        return server

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        for server in self.servers:
            server.stop()
        if kind is not None:  # say what the servers said
            for server in self.servers:
                with contextlib.suppress(OSError):
                    tail = server.log.read_text()[-3000:]
                    print(f"--- {server.log.name} ---\n{tail}", file=sys.stderr)
        self._forget_keys()
        self._logs.cleanup()

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

    def _forget_keys(self) -> None:
        with contextlib.suppress(Exception), contextlib.closing(self.redis_client()) as client:
            keys = list(client.scan_iter(match=f"{self.prefix}:*", count=1000))
            if keys:
                client.delete(*keys)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", required=True, help="PostgreSQL URL shared by the processes")
    parser.add_argument("--redis", default=REDIS_URL)
    parser.add_argument("--processes", type=int, default=3)
    args = parser.parse_args()
    # SIGTERM stops it as Ctrl-C does: the servers are stopped too, never left behind.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    with ServeCluster(args.db, args.redis, args.processes, extra=()) as cluster:
        for server in cluster.servers:
            print(f"{server.url} (pid {server.pid})", flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            while all(s.proc.poll() is None for s in cluster.servers):
                time.sleep(1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
