"""What the fault suite (``test_faults_*.py``) needs besides a cluster: a Redis of its own to
kill, a watch on the processes' health checks while a part is away, moves sent with ids and
counted, a SIGTERM timed, and the figures printed.

The Redis is a ``redis-server`` this module starts on a free port, without persistence (a
restart comes back empty, as a Redis that lost its machine does); never the shared one on 6379.
The PostgreSQL is a cluster of its own (:class:`OwnPostgres`): ``initdb`` into a temporary
folder with Debian's ``/usr/lib/postgresql/*/bin``, as the ``postgres`` user when the tests run
as root, on a free port; never the shared one on 5432.
Each figure is printed as one ``fault figure:`` line (``pytest -s`` shows them) and, when
``SEQUENCE_FAULT_FIGURES`` names a file, added to it as a JSON line.
"""

from __future__ import annotations

import contextlib
import glob
import json
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from .cluster import ServeProcess, redis_available
from .conftest import Client, answer, free_port


class OwnPostgres:
    """A PostgreSQL cluster of the test's own on a free loopback port, in a temporary folder:
    :meth:`stop` (``pg_ctl stop -m immediate``: every connection breaks, the port closes) and
    :meth:`start` again, with its data. Skips the test when the server binaries are missing."""

    def __init__(self) -> None:
        found = sorted(
            glob.glob("/usr/lib/postgresql/*/bin/initdb"),
            key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0,
        )
        if not found:
            pytest.skip(
                "PostgreSQL's server binaries are not installed (/usr/lib/postgresql/*/bin;"
                " apt-get install postgresql)"
            )
        self.bin = Path(found[-1]).parent
        self.as_root = os.geteuid() == 0
        if self.as_root:
            try:
                self._owner = pwd.getpwnam("postgres")
            except KeyError:
                pytest.skip("running as root, and there is no postgres user to run initdb as")
        self.folder = Path(tempfile.mkdtemp(prefix="sequence-pg-"))
        self.data = self.folder / "data"
        self.port = free_port()
        self.url = f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"
        if self.as_root:
            os.chown(self.folder, self._owner.pw_uid, self._owner.pw_gid)
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "-E",
                  "UTF8", "--no-sync")  # fmt: skip

    def _run(self, tool: str, *args: str) -> None:
        cmd = [str(self.bin / tool), *args]
        if self.as_root:  # initdb and postgres refuse to run as root
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, f"{tool} failed: {done.stdout}{done.stderr}"

    def start(self) -> float:
        """Start it; return once it accepts connections, with the seconds that took."""
        began = time.monotonic()
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.folder / "log"), "-o",
                  options, "-w", "start")  # fmt: skip
        return time.monotonic() - began

    def stop(self) -> None:
        """``pg_ctl stop -m immediate``: gone at once, as a crashed or unplugged server."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "stop")

    def __enter__(self) -> OwnPostgres:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        with contextlib.suppress(AssertionError, subprocess.TimeoutExpired):
            self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


class OwnRedis:
    """A ``redis-server`` of the test's own on a free loopback port: :meth:`kill` (``kill -9``)
    and :meth:`start` again on the same port, empty."""

    def __init__(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.skip("redis-server is not installed (apt-get install redis-server)")
        self.binary = binary
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start it and return once it answers."""
        cmd = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
               "--appendonly", "no"]  # fmt: skip
        self.process = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while redis_available(self.url):
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.02)

    def kill(self) -> None:
        """``kill -9`` it (every connection to it breaks at once)."""
        if self.process is not None:
            self.process.kill()
            self.process.wait(10)
            self.process = None

    def __enter__(self) -> OwnRedis:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.kill()


@dataclass
class HealthWatch:
    """Asks every process's ``/healthz`` every :attr:`every` seconds in a thread, until
    :meth:`stop`: the slowest answer, the failures, and what each said."""

    servers: list[ServeProcess]
    every: float = 0.25
    slowest: float = 0.0
    failures: list[str] = field(default_factory=list)
    said: list[tuple[float, int, dict[str, Any]]] = field(default_factory=list)
    """(when, which server, the body) for every answer."""
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def __enter__(self) -> HealthWatch:
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(10)

    def _run(self) -> None:
        with httpx.Client(timeout=3) as http:
            while not self._stop.is_set():
                for i, server in enumerate(self.servers):
                    began = time.monotonic()
                    try:
                        r = http.get(server.url + "/healthz")
                        took = time.monotonic() - began
                        self.slowest = max(self.slowest, took)
                        if r.status_code != 200:
                            self.failures.append(f"{server.port}: {r.status_code} {r.text}")
                        else:
                            self.said.append((time.monotonic(), i, r.json()))
                    except httpx.HTTPError as exc:
                        self.failures.append(f"{server.port}: {exc!r}")
                self._stop.wait(self.every)

    def saw(self, **fields: Any) -> bool:
        """Whether some answer held all of ``fields``."""
        return any(all(body.get(k) == v for k, v in fields.items()) for _, _, body in self.said)


class Moves:
    """Moves sent with ids by the players' clients, each answer kept: the fault suite's "lost"
    (an id never acknowledged, or acknowledged and not stored) and "twice" (an id stored at two
    plies, or acknowledged as new twice)."""

    def __init__(self) -> None:
        self.acked: dict[str, list[dict[str, Any]]] = {}
        self._next = 0
        self.version = 0
        """The game's version after the last move acknowledged."""

    def play(self, client: Client, seat: int, timeout: float = 30) -> dict[str, Any]:
        """Wait until it is ``seat``'s turn as ``client`` sees it (after the last move
        acknowledged), send its first legal move with a new id, and return the state it was
        sent at."""
        st = client.wait(
            lambda s: (
                s["version"] >= self.version
                and s["view"] is not None
                and s["view"]["to_move"] == seat
                and bool(s["view"]["legal_moves"])
            ),
            timeout,
        )
        self._next += 1
        mid = f"fault-{self._next}"
        client.send(
            {"type": "move", "move": st["view"]["legal_moves"][0], "version": st["version"],
             "id": mid}
        )  # fmt: skip
        got = answer(client, mid, timeout)
        assert got["type"] == "ack", got
        self.acked.setdefault(mid, []).append(got)
        self.version = max(self.version, got["ply"])
        return st

    def next(self, players: dict[int, Client], timeout: float = 30) -> tuple[int, Client]:
        """The seat (and its client) of the next person to move after the last move
        acknowledged, as their own client sees it (bots' turns are waited through)."""
        deadline = time.monotonic() + timeout
        while True:
            for seat, client in players.items():
                with contextlib.suppress(TimeoutError):
                    client.recv(timeout=0.02)
                st = client.state
                if (
                    st is not None
                    and st["version"] >= self.version
                    and st["view"] is not None
                    and st["view"]["to_move"] == seat
                    and st["view"]["legal_moves"]
                ):
                    return seat, client
            assert time.monotonic() < deadline, f"nobody's turn after version {self.version}"

    def turn(self, players: dict[int, Client], timeout: float = 30) -> int:
        """Play the next person's move (:meth:`next`, :meth:`play`); return their seat."""
        seat, client = self.next(players, timeout)
        self.play(client, seat, timeout)
        return seat

    def check(self, stored_ids: list[tuple[int, int | None, str]]) -> tuple[int, int]:
        """(lost, twice) against the database's move ids (``(ply, seat, id)`` each)."""
        in_db: dict[str, list[int]] = {}
        for ply, _, mid in stored_ids:
            in_db.setdefault(mid, []).append(ply)
        lost = sum(1 for mid in self.acked if mid not in in_db)
        twice = sum(1 for plies in in_db.values() if len(plies) > 1)
        twice += sum(1 for acks in self.acked.values() if sum(not a["duplicate"] for a in acks) > 1)
        return lost, twice


def sigterm_seconds(server: ServeProcess, limit: float = 20) -> float:
    """SIGTERM ``server`` (as ``systemctl stop`` does) and return the seconds it took to end
    (SIGKILL, and a failure, after ``limit``)."""
    began = time.monotonic()
    os.kill(server.pid, signal.SIGTERM)
    try:
        server.process.wait(limit)
    except subprocess.TimeoutExpired:
        server.process.kill()
        server.process.wait(10)
        raise AssertionError(f"process {server.pid} ignored SIGTERM for {limit} s") from None
    return time.monotonic() - began


def wait_for(what: str, check: Any, timeout: float, every: float = 0.05) -> float:
    """Poll ``check()`` until it is true; return the seconds that took (fail after
    ``timeout``, naming ``what``)."""
    began = time.monotonic()
    while not check():
        assert time.monotonic() - began < timeout, f"{what}: not within {timeout} s"
        time.sleep(every)
    return time.monotonic() - began


def figure(name: str, **values: Any) -> None:
    """Print one figure of the fault suite (and add it to ``$SEQUENCE_FAULT_FIGURES``)."""
    shown = ", ".join(
        f"{k} {round(v, 2) if isinstance(v, float) else v}" for k, v in values.items()
    )
    print(f"fault figure: {name}: {shown}")
    out = os.environ.get("SEQUENCE_FAULT_FIGURES")
    if out:
        with Path(out).open("a") as f:
            f.write(json.dumps({"fault": name, **values}) + "\n")


def server_logs(servers: list[ServeProcess]) -> Iterator[str]:
    """Each server's log so far."""
    for server in servers:
        yield server.log.read_text(errors="replace")
