"""nginx in front of N ``sequence serve`` processes, started and stopped as one (no root needed).

For the tests, the load benchmark and an operator trying the deployment on one machine
(docs/deploy.md describes the real one, under systemd)::

    python -m sequence.server.cluster.launcher --processes 3 --port 8080 \\
        --db postgresql://postgres@127.0.0.1/sequence --redis redis://127.0.0.1:6379/0

Each process listens on its own free loopback port; nginx (:mod:`.nginx`'s configuration, its
pid, logs and temporary files in a working folder) listens on ``--port`` and spreads the
requests over them. Several processes share their tables through PostgreSQL and Redis; one
process may use SQLite. :meth:`Cluster.start` returns once every process and nginx answer;
:meth:`Cluster.stop` ends them all, with whatever they started (bot workers, nginx's workers):
each runs in its own session, and what is left of a session is killed.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from .nginx import site_config, standalone_config

START_TIMEOUT = 60.0
"""Seconds a process (migrations included) or nginx may take to answer."""


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def answers(url: str) -> bool:
    """Whether ``url`` answers 200 now."""
    try:
        with urllib.request.urlopen(url, timeout=2) as reply:
            return int(reply.status) == 200
    except (OSError, urllib.error.URLError):
        return False


def cpu_seconds(pid: int) -> float:
    """The CPU time (user + system) process ``pid`` has used, from ``/proc/PID/stat``."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def session_members(sid: int) -> list[int]:
    """The live processes of session ``sid`` (zombies aside), read from ``/proc``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdecimal():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # it ended meanwhile
            continue
        if int(fields[3]) == sid and fields[0] != "Z":
            found.append(int(entry.name))
    return found


def wait_until_answers(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    """Return once ``url`` answers 200; raise (with the end of ``log``) if ``process`` ends or
    :data:`START_TIMEOUT` passes first."""
    deadline = time.monotonic() + START_TIMEOUT
    while not answers(url):
        if process.poll() is not None or time.monotonic() > deadline:
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise RuntimeError(f"{url} did not start:\n{tail}")
        time.sleep(0.1)


def end(processes: Sequence[subprocess.Popen[bytes]]) -> None:
    """End ``processes`` as ``systemctl stop`` would: SIGTERM to all, SIGKILL to those still
    running 15 s later."""
    for process in processes:
        if process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                process.terminate()
    for process in processes:
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


class Loopback:
    """Something that listens on ``127.0.0.1:port``: its HTTP and WebSocket addresses."""

    port: int

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"


@dataclass(eq=False)  # a process is itself: equal only to itself, and hashable
class Server(Loopback):
    """One ``sequence serve`` process of a cluster, on database ``db``."""

    port: int
    process: subprocess.Popen[bytes]
    log: Path
    db: str

    @property
    def pid(self) -> int:
        return self.process.pid

    def kill(self, sig: int = signal.SIGKILL) -> None:
        """Send ``sig`` to this process alone (``kill -9`` by default) and wait for it."""
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, sig)
        self.process.wait(30)

    def stop(self) -> None:
        """SIGTERM, as ``systemctl stop`` sends (SIGKILL after 15 s)."""
        end([self.process])


class Cluster(Loopback):
    """nginx on ``port`` in front of ``processes`` servers on ``db`` (and ``redis``).

    ``redis_prefix`` starts every Redis key and channel of this cluster (``sequence serve
    --redis-prefix``: clusters sharing one Redis keep apart); ``serve_args`` are more options
    for every ``sequence serve`` (``--bot-threads``...); ``workdir`` holds the logs and
    nginx's files (a temporary folder, removed at the end, by default). ``nginx=None``: the
    servers alone, each reached at its own ``servers[i].url`` (the tests' clusters).
    Use it as a context manager, or :meth:`start` and :meth:`stop`.
    """

    server_type: type[Server] = Server
    """What :meth:`start_server` makes of each process (a subclass may add helpers)."""

    def __init__(
        self,
        processes: int = 1,
        db: str | None = None,
        redis: str | None = None,
        port: int | None = None,
        redis_prefix: str | None = None,
        serve_args: Sequence[str] = (),
        workdir: Path | None = None,
        nginx: str | None = "nginx",
        spread: bool = False,
    ) -> None:
        if processes < 1:
            raise ValueError(f"a cluster has 1 process or more, not {processes}")
        if processes > 1 and (db is None or not db.startswith("postgresql") or redis is None):
            raise ValueError(
                "several processes share their tables through PostgreSQL and Redis:"
                " give a postgresql:// database and a redis:// URL"
            )
        self.count = processes
        self.redis, self.redis_prefix = redis, redis_prefix
        self.serve_args = list(serve_args)
        self.port = port or free_port()  # nginx's: the address players use
        self._own_workdir = workdir is None
        if workdir is None:
            workdir = Path(tempfile.mkdtemp(prefix="sequence-cluster-"))
        self.workdir = workdir
        self.db = db or f"sqlite:///{self.workdir / 'sequence.db'}"
        self.behind_nginx = nginx is not None
        self.spread = spread
        """A table's WebSockets round-robin over the processes (see :func:`.nginx.site_config`)."""
        self.nginx_binary = (
            None
            if nginx is None
            else shutil.which(nginx) or shutil.which(nginx, path="/usr/sbin:/sbin")
        )
        self.servers: list[Server] = []
        self.nginx: subprocess.Popen[bytes] | None = None

    def _serve_command(self, port: int) -> list[str]:
        cmd = [sys.executable, "-m", "sequence.cli.main", "serve", "--host", "127.0.0.1",
               "--port", str(port), "--db", self.db,
               "--forwarded-allow-ips", "127.0.0.1"]  # fmt: skip
        if self.redis is not None:
            cmd += ["--redis", self.redis]
        if self.redis_prefix is not None:
            cmd += ["--redis-prefix", self.redis_prefix]
        return cmd + self.serve_args

    def start_server(self) -> Server:
        """Start one more ``sequence serve`` (not yet behind nginx) and wait until it answers."""
        port = free_port()
        log = self.workdir / f"serve-{port}.log"
        with log.open("wb") as out:
            process = subprocess.Popen(
                self._serve_command(port),
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its bot workers share its session: see stop()
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
        server = self.server_type(port, process, log, self.db)
        self.servers.append(server)
        wait_until_answers(server.url + "/api/meta", process, log)
        return server

    def start(self) -> Cluster:
        """Start the servers one after the other (the first one migrates the database), then
        nginx (unless ``nginx=None``); return once all answer."""
        try:
            for _ in range(self.count):
                self.start_server()
            if not self.behind_nginx:
                return self
            if self.nginx_binary is None:
                raise RuntimeError("nginx is not installed (apt-get install nginx)")
            conf = self.write_nginx_config()
            log = self.workdir / "nginx.log"
            with log.open("wb") as out:
                self.nginx = subprocess.Popen(
                    [
                        self.nginx_binary,
                        "-p",
                        str(self.workdir),
                        "-e",
                        str(self.workdir / "error.log"),
                        "-c",
                        str(conf),
                        "-g",
                        "daemon off;",  # i18n: ignore (nginx directive)
                    ],
                    stdin=subprocess.DEVNULL,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            wait_until_answers(self.url + "/api/meta", self.nginx, log)
        except BaseException:
            self.stop()
            raise
        return self

    def write_nginx_config(self) -> Path:
        """Write nginx's configuration for the servers started into the working folder (the
        site of :func:`.nginx.site_config` in :func:`.nginx.standalone_config`); return the
        ``nginx.conf`` to start nginx with. A subclass may write another (the load benchmark's
        Debian ``nginx.conf``)."""
        site = self.workdir / "sequence.conf"
        upstreams = [f"127.0.0.1:{s.port}" for s in self.servers]
        site.write_text(site_config(upstreams, f"127.0.0.1:{self.port}", spread=self.spread))
        conf = self.workdir / "nginx.conf"
        conf.write_text(standalone_config(self.workdir, site))
        return conf

    def kill(self, index: int, sig: int = signal.SIGKILL) -> None:
        """Send ``sig`` to server ``index`` alone (``kill -9`` by default) and wait for it."""
        self.servers[index].kill(sig)

    def cpu_seconds(self) -> list[float]:
        """Each server process's CPU time so far (its bot workers not included)."""
        return [cpu_seconds(s.pid) for s in self.servers]

    def nginx_cpu_seconds(self) -> float:
        """The CPU time nginx (its master and workers) has used so far."""
        if self.nginx is None:
            return 0.0
        total = 0.0
        for pid in session_members(self.nginx.pid):
            with contextlib.suppress(OSError):
                total += cpu_seconds(pid)
        return total

    def leftovers(self) -> list[int]:
        """Processes still alive in the sessions this cluster started (none after :meth:`stop`)."""
        sessions = [s.pid for s in self.servers] + ([self.nginx.pid] if self.nginx else [])
        return [pid for sid in sessions for pid in session_members(sid)]

    def stop(self) -> None:
        """End nginx and every server as ``systemctl stop`` would (SIGTERM, then SIGKILL after
        15 s), then kill whatever is left in their sessions: nothing outlives the cluster."""
        end([s.process for s in self.servers] + ([self.nginx] if self.nginx else []))
        deadline = time.monotonic() + 5
        while left := self.leftovers():
            for pid in left:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            if time.monotonic() > deadline:
                break
            time.sleep(0.05)
        if self._own_workdir:
            shutil.rmtree(self.workdir, ignore_errors=True)

    def __enter__(self) -> Cluster:
        return self.start()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()


@contextlib.contextmanager
def throwaway_postgres(admin_url: str, prefix: str = "sequence_cluster") -> Iterator[str]:
    """A new, empty PostgreSQL database next to ``admin_url``'s, dropped at the end; yields its
    SQLAlchemy URL. For tests and benchmarks (trust authentication, as on these machines)."""
    import secrets

    import sqlalchemy as sa

    name = f"{prefix}_{secrets.token_hex(4)}"
    url = sa.make_url(admin_url).set(drivername="postgresql+psycopg")
    engine = sa.create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
        yield url.set(database=name).render_as_string(hide_password=False)
    finally:
        with engine.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        engine.dispose()


def main(argv: Sequence[str] | None = None) -> int:
    """Run a cluster until Ctrl-C or SIGTERM."""
    parser = argparse.ArgumentParser(
        prog="python -m sequence.server.cluster.launcher",
        description="nginx in front of N `sequence serve` processes, on one machine, as any user.",
    )
    parser.add_argument("--processes", type=int, default=3, help="server processes (default 3)")
    parser.add_argument("--port", type=int, default=8080, help="nginx's port (default 8080)")
    parser.add_argument("--db", help="database URL (several processes: postgresql://...)")
    parser.add_argument(
        "--redis", help="Redis URL between the processes, e.g. redis://127.0.0.1:6379/0"
    )
    parser.add_argument(
        "--spread",
        action="store_true",
        help="nginx sends each WebSocket to the next process, not a table's all to one",
    )
    parser.add_argument("serve_args", nargs="*", help="more `sequence serve` options, after --")
    args = parser.parse_args(argv)
    try:
        cluster = Cluster(
            args.processes,
            args.db,
            args.redis,
            args.port,
            serve_args=args.serve_args,
            spread=args.spread,
        )
    except ValueError as exc:
        parser.error(str(exc))
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    with cluster:
        ports = ", ".join(str(s.port) for s in cluster.servers)
        # For whoever runs it, like a server's log: English.
        where = f"{cluster.url}/ (nginx; servers on ports {ports}; "  # i18n: ignore (operator)
        where += f"logs in {cluster.workdir})"  # i18n: ignore (for the operator)
        print(f"Sequence: open {where}", flush=True)  # i18n: ignore
        with contextlib.suppress(KeyboardInterrupt):
            while all(s.process.poll() is None for s in cluster.servers):
                time.sleep(0.5)
    return 0


if __name__ == "__main__":
    sys.exit(main())
