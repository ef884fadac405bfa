#!/usr/bin/env python3
"""Load benchmark for ``sequence serve``: many tables played through real WebSocket connections,
on one, two and three server processes behind nginx, in one run.

Every table is classic Sequence for two; both seats are played by this script as clients (a
random legal move after a think time), so every move goes the whole server path: nginx, JSON
parsing, the engine, the database commit, the notice to the other processes (several
processes: PostgreSQL and Redis), and a view built and sent to each seat. For each setup and
table count it starts a fresh cluster (:class:`sequence.server.cluster.launcher.Cluster`: nginx in
front of N ``sequence serve`` processes), opens the tables over the ramp-up, then measures: the
moves a second, the move round trip (from sending a move to receiving the state that contains it) at
p50, p95 and p99, and each server process's CPU time per move (``/proc/PID/stat`` read at the start
and the end of the measured time). Then it prints one table::

    .venv/bin/python scripts/loadtest.py                      # sqlite:1, postgres:2, postgres:3
    .venv/bin/python scripts/loadtest.py --setups sqlite:1 --tables 200 --duration 60
    .venv/bin/python scripts/loadtest.py --url http://127.0.0.1:8000   # a running server
    .venv/bin/python scripts/loadtest.py --nginx stock --code old=../old,new=.  # side by side

``--nginx stock`` puts the shipped site (deploy/nginx/sequence.conf) in Debian's own
``/etc/nginx/nginx.conf``, raised as docs/deploy.md says and run without root under the cluster's
folder; ``--code`` runs each setup once with each checkout's server code, one after the other.

One process uses SQLite in a temporary folder; several use a throw-away PostgreSQL database
(``--postgres``, created and dropped here) and Redis (``--redis``, keys under a prefix of their
own).
"""

from __future__ import annotations

import _venv  # noqa: F401  (first: another Python runs this again with .venv's)

# isort: split
import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import re
import secrets
import signal
import ssl
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

from sequence.server.cluster.launcher import Cluster, throwaway_postgres

TLS = ssl.create_default_context()
OPEN_TIMEOUT = 120.0
"""Seconds after the ramp-up to wait for the last tables to open before measuring anyway."""
SETUPS = "sqlite:1,postgres:2,postgres:3"
POSTGRES = "postgresql://postgres@127.0.0.1:5432/test"
REDIS = "redis://127.0.0.1:6379/0"


def percentile(ordered: list[float], p: int) -> float:
    """The ``p``-th percentile of sorted values by the nearest rank: a value measured, and one for
    any number of them (``statistics.quantiles`` needs 100 to give 99 cut points apart)."""
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


@dataclass
class Stats:
    """What the clients measured, and the CPU seconds of each process (servers, then nginx)
    when the measurement started and stopped."""

    rtts: list[float] = field(default_factory=list)
    moves: int = 0
    measured_moves: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    games: int = 0
    elapsed: float = 0.0
    measured_seconds: float = 0.0
    ramp_seconds: float = 0.0
    opened: int = 0
    """Tables created, joined and started so far."""
    stop: float = math.inf
    """When the clients stop playing (set once the tables are open)."""
    cpu_before: list[float] = field(default_factory=list)
    cpu_after: list[float] = field(default_factory=list)
    nginx: bool = False


async def seat_loop(
    ws_url: str, code: str, token: str, think: float, stats: Stats, host: str | None = None
) -> None:
    """One seat: on each state where it may act, think, then send a random legal move."""
    rng = random.Random()
    # A busy machine may take more than websockets' 10 s to answer a handshake: a table that
    # fails to open counts nothing, so wait as long as the tables may take to open.
    async with connect(f"{ws_url}/ws/{code}", max_size=2**22, open_timeout=OPEN_TIMEOUT) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token, "host": host}))
        sent_at: float | None = None
        sent_version = -1
        held: int | None = None  # the version of the last state (deltas build on it)
        while time.monotonic() < stats.stop:
            wait = min(30.0, max(0.1, stats.stop - time.monotonic()))
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=wait)
            except TimeoutError:
                continue
            msg = json.loads(raw)
            if msg["type"] == "error":
                stats.errors[msg["code"]] = stats.errors.get(msg["code"], 0) + 1
                sent_at = None
                continue
            if msg["type"] == "delta":
                # Only what changed since the last state: its view (less the log, which this
                # client does not read) is whole. A gap: ask for the whole state, as app.js does.
                if msg["base"] != held:
                    stats.errors["resync"] = stats.errors.get("resync", 0) + 1
                    await ws.send('{"type":"sync"}')
                    continue
            elif msg["type"] != "state" or msg["view"] is None:
                continue
            held = msg["version"]
            if sent_at is not None and msg["version"] > sent_version:
                stats.rtts.append(time.perf_counter() - sent_at)
                stats.moves += 1
                sent_at = None
            view = msg["view"]
            if view["outcome"] is not None:
                stats.games += 1
                return
            if view["legal_moves"] and sent_at is None:
                await asyncio.sleep(rng.uniform(0, 2 * think))
                sent_version = msg["version"]
                sent_at = time.perf_counter()
                move = rng.choice(view["legal_moves"])
                await ws.send(json.dumps({"type": "move", "move": move, "version": sent_version}))


async def post(http: httpx.AsyncClient, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST ``body``; the answer, or an error saying what the server answered instead."""
    reply = await http.post(path, json=body)
    if reply.status_code != 200:
        raise RuntimeError(f"POST {path}: {reply.status_code} {reply.text[:200]}")
    return dict(reply.json())


def client_address(table: int) -> str:
    """Each table's players come from their own loopback address (127.1.x.y: Linux answers on
    all of 127/8), as players on their own machines do: the server's per-client limits on
    creating and joining tables see each of them, through nginx, as themselves."""
    return f"127.1.{table // 250}.{table % 250 + 1}"


async def table_loop(url: str, ws_url: str, table: int, think: float, stats: Stats) -> None:
    """Open a table, seat two clients, play; when the game ends, open another."""
    # One TLS context for all (plain HTTP needs none, but httpx makes one per transport
    # otherwise, which takes longer than the ramp-up allows per table).
    transport = httpx.AsyncHTTPTransport(local_address=client_address(table), verify=TLS)
    async with httpx.AsyncClient(base_url=url, timeout=60, transport=transport) as http:
        while time.monotonic() < stats.stop:
            body = {"game": "classic", "players": 2, "name": "A", "seat": 0, "public": False}
            created = await post(http, "/api/tables", body)
            code = created["code"]
            other = await post(http, f"/api/tables/{code}/join", {"name": "B"})
            await post(http, f"/api/tables/{code}/start", {"host_token": created["host_token"]})
            stats.opened += 1
            await asyncio.gather(
                # The creator's page holds the host token too, as the browser's does.
                seat_loop(ws_url, code, created["seat_token"], think, stats, created["host_token"]),
                seat_loop(ws_url, code, other["seat_token"], think, stats),
            )


async def run(
    url: str, tables: int, args: argparse.Namespace, cpu: Callable[[], list[float]]
) -> Stats:
    """Open the tables over the ramp-up, then measure for the duration; ``cpu`` gives each
    server process's CPU seconds, read when the measurement starts and when it stops."""
    stats = Stats()
    ws_url = url.replace("http", "ws", 1)
    tasks = []
    ramp_end = time.monotonic() + args.ramp
    for table in range(tables):
        loop = table_loop(url, ws_url, table, args.think, stats)
        tasks.append(asyncio.create_task(loop))
        await asyncio.sleep(max(0.0, (ramp_end - time.monotonic()) / (tables - table)))
    # The measurement starts once every table is open, so that it counts moves only, not the
    # making of tables (on a busy machine the ramp-up takes longer than asked).
    while stats.opened < tables and time.monotonic() < ramp_end + OPEN_TIMEOUT:
        await asyncio.sleep(0.1)
    await asyncio.sleep(1)  # the last seats say hello
    started = time.monotonic()
    stats.stop = started + args.duration
    stats.rtts.clear()
    stats.moves = 0
    stats.cpu_before = cpu()
    await asyncio.sleep(args.duration)
    stats.cpu_after = cpu()
    stats.measured_moves = stats.moves
    stats.measured_seconds = time.monotonic() - started
    stats.ramp_seconds = started - ramp_end + args.ramp
    if stats.opened < tables:
        print(f"only {stats.opened} of {tables} tables opened in time", file=sys.stderr)
    results = await asyncio.gather(*tasks, return_exceptions=True)
    stats.elapsed = time.monotonic() - started
    for r in results:
        if isinstance(r, BaseException):
            name = type(r).__name__
            stats.errors[name] = stats.errors.get(name, 0) + 1
            print(f"a table failed: {r!r}", file=sys.stderr)
    return stats


@dataclass
class Row:
    """One line of the table: a setup at a number of tables."""

    setup: str
    tables: int
    stats: Stats

    def cells(self) -> list[str]:
        s = self.stats
        rtts = sorted(s.rtts)
        ms = [f"{percentile(rtts, p) * 1000:.1f}" if rtts else "-" for p in (50, 95, 99)]
        moves = s.measured_moves or s.moves
        per_process = [
            (after - before) / moves * 1000 if moves else 0.0
            for before, after in zip(s.cpu_before, s.cpu_after, strict=True)
        ]
        servers = per_process[:-1] if s.nginx else per_process
        total = f"{sum(servers):.2f}" if servers else "-"
        each = " ".join(f"{c:.2f}" for c in servers) or "-"
        nginx = f"{per_process[-1]:.2f}" if s.nginx and per_process else "-"
        errors = ", ".join(f"{k} {v}" for k, v in sorted(s.errors.items())) or "none"
        rate = f"{moves / (s.measured_seconds or s.elapsed or 1):.1f}"
        ramp = f"{s.ramp_seconds:.0f}"
        return [self.setup, str(self.tables), rate, *ms, total, each, nginx, ramp, str(s.games),
                errors]  # fmt: skip


HEADER = ["setup", "tables", "moves/s", "p50 ms", "p95 ms", "p99 ms", "CPU ms/move",
          "per process", "nginx", "ramp-up s", "games", "errors"]  # fmt: skip


def print_table(rows: list[Row]) -> None:
    """The rows as a Markdown table (docs/server.md takes it as it is)."""
    lines = [HEADER, ["---"] * len(HEADER), *(r.cells() for r in rows)]
    for line in lines:
        print("| " + " | ".join(line) + " |")


def parse_setups(text: str) -> list[tuple[str, int]]:
    """``sqlite:1,postgres:2`` -> ``[("sqlite", 1), ("postgres", 2)]``."""
    setups = []
    for part in text.split(","):
        store, _, count = part.strip().partition(":")
        if store not in ("sqlite", "postgres") or not count.isdecimal() or int(count) < 1:
            raise argparse.ArgumentTypeError(f"a setup is sqlite:N or postgres:N, not {part!r}")
        if store == "sqlite" and int(count) != 1:
            raise argparse.ArgumentTypeError("SQLite serves one process only: sqlite:1")
        setups.append((store, int(count)))
    return setups


ROOT = Path(__file__).resolve().parents[1]
SHIPPED_SITE = ROOT / "deploy" / "nginx" / "sequence.conf"
STOCK_NGINX = Path("/etc/nginx/nginx.conf")
RAISED = (
    # What docs/deploy.md tells an operator to raise in Debian's nginx.conf, and nothing else.
    (r"worker_connections 768;", "worker_connections 8192;"),
    (r"(pid [^;]*;)", "worker_rlimit_nofile 20000;\n\\1"),
)
NO_ROOT = (
    # Without root, under the prefix: nginx's pid, logs and temporary files (Debian's are under
    # /run, /var/log/nginx and /var/lib/nginx), and the sites enabled (the shipped one only).
    (r"pid [^;]*;", "pid {prefix}/nginx.pid;"),
    (r"error_log [^;]*;", "error_log {prefix}/error.log;"),
    (r"access_log [^;]*;", "access_log {prefix}/access.log;"),
    (r"include /etc/nginx/sites-enabled/\*;", "include {prefix}/sites-enabled/*;"),
    (
        r"(http \{)",
        "\\1\n\tclient_body_temp_path {prefix}/client_body;\n\tproxy_temp_path {prefix}/proxy;"
        "\n\tfastcgi_temp_path {prefix}/fastcgi;\n\tuwsgi_temp_path {prefix}/uwsgi;"
        "\n\tscgi_temp_path {prefix}/scgi;",
    ),
)


def shipped_site(ports: list[int], listen: str) -> str:
    """deploy/nginx/sequence.conf as shipped, for the processes on ``ports`` (its 8001, 8002,
    8003 in order; the lines of those not started left out) listening on ``listen``."""
    out = []
    for line in SHIPPED_SITE.read_text().splitlines():
        found = re.search(r"127\.0\.0\.1:(800\d)\b", line)
        if found:
            i = int(found.group(1)) - 8001
            if i >= len(ports):
                continue
            line = line.replace(found.group(0), f"127.0.0.1:{ports[i]}")
        out.append(re.sub(r"^(\s*)listen 80;", f"\\1listen {listen};", line))
    return "\n".join(out) + "\n"


def stock_config(stock: str, prefix: Path) -> str:
    """Debian's ``nginx.conf`` (``stock``) as docs/deploy.md leaves it (:data:`RAISED`), run
    without root under ``prefix`` (:data:`NO_ROOT`)."""
    for pattern, repl in (*RAISED, *NO_ROOT):
        stock, n = re.subn(pattern, repl.replace("{prefix}", str(prefix)), stock, count=1)
        if n != 1:
            raise RuntimeError(f"{STOCK_NGINX} has no {pattern!r}: not Debian's stock file?")
    return stock


class StockCluster(Cluster):
    """A cluster behind the shipped site in Debian's stock ``nginx.conf`` (two workers on two
    CPUs, access log on, ``gzip on``...), as an operator following docs/deploy.md has it."""

    def write_nginx_config(self) -> Path:
        if len(self.servers) > 3:
            raise RuntimeError("the shipped site names 3 processes")
        sites = self.workdir / "sites-enabled"
        sites.mkdir(exist_ok=True)
        listen = f"127.0.0.1:{self.port}"
        (sites / "sequence").write_text(shipped_site([s.port for s in self.servers], listen))
        conf = self.workdir / "nginx.conf"
        conf.write_text(stock_config(STOCK_NGINX.read_text(), self.workdir))
        return conf


def measure(
    store: str, count: int, tables: int, args: argparse.Namespace, code: tuple[str, Path] | None
) -> Row:
    """A fresh cluster of ``count`` processes on ``store``, loaded with ``tables`` tables;
    ``code``: a name and a checkout whose ``src`` the servers run (``None``: this one's)."""
    serve_args = ["--bot-threads", "--bot-delay", "0"]
    kind = StockCluster if args.nginx == "stock" else Cluster
    before = os.environ.get("PYTHONPATH")
    with contextlib.ExitStack() as stack:
        if code is not None:  # the servers' Python imports that checkout's sequence
            os.environ["PYTHONPATH"] = str(code[1] / "src")
            stack.callback(restore_pythonpath, before)
        db = redis = prefix = None
        if store == "postgres":
            db = stack.enter_context(throwaway_postgres(args.postgres, "sequence_load"))
            redis, prefix = args.redis, f"load-{secrets.token_hex(4)}"
        cluster = stack.enter_context(
            kind(count, db, redis, redis_prefix=prefix, serve_args=serve_args)
        )

        def cpu() -> list[float]:
            if args.py_spy and not profiles:  # the measurement starts: profile it
                profiles.extend(py_spy(cluster, args, f"{store}{count}-{tables}", code))
            return [*cluster.cpu_seconds(), cluster.nginx_cpu_seconds()]

        profiles: list[subprocess.Popen[bytes]] = []
        stack.callback(lambda: [p.wait() for p in profiles])

        stats = asyncio.run(run(cluster.url, tables, args, cpu))
        stats.nginx = True
    name = f"{count} x {store}" + (" + Redis" if store == "postgres" else "")
    return Row(name if code is None else f"{code[0]}: {name}", tables, stats)


def py_spy(
    cluster: Cluster, args: argparse.Namespace, name: str, code: tuple[str, Path] | None
) -> list[subprocess.Popen[bytes]]:
    """py-spy (not a dependency: ``pip install py-spy``) recording each server process for the
    measured time, into ``--py-spy``'s folder (raw stacks of the threads on the CPU, one file a
    process; pausing each process 50 times a second costs it a little)."""
    folder = Path(args.py_spy)
    folder.mkdir(parents=True, exist_ok=True)
    tag = name if code is None else f"{code[0]}-{name}"
    return [
        subprocess.Popen(
            [
                args.py_spy_binary,
                "record",  # blocking: py-spy tells idle threads apart only when it pauses
                "--format",
                "raw",
                "--rate",
                "50",
                "--duration",
                str(int(args.duration)),
                "--pid",
                str(server.pid),
                "--output",
                str(folder / f"{tag}-{i}.txt"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for i, server in enumerate(cluster.servers)
    ]


def restore_pythonpath(value: str | None) -> None:
    """``PYTHONPATH`` back as it was (``None``: unset)."""
    if value is None:
        os.environ.pop("PYTHONPATH", None)
    else:
        os.environ["PYTHONPATH"] = value


def parse_code(text: str) -> list[tuple[str, Path]]:
    """``old=/work/old,new=.`` -> ``[("old", Path("/work/old")), ("new", Path("."))]``."""
    trees = []
    for part in text.split(","):
        name, _, path = part.strip().partition("=")
        tree = Path(path).resolve()
        if not name or not (tree / "src" / "sequence").is_dir():
            raise argparse.ArgumentTypeError(f"--code takes NAME=CHECKOUT, not {part!r}")
        trees.append((name, tree))
    return trees


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--setups", type=parse_setups, default=parse_setups(SETUPS),
                        help=f"processes and their store (default {SETUPS})")  # fmt: skip
    parser.add_argument("--tables", default="200,400", help="table counts (default 200,400)")
    parser.add_argument("--duration", type=float, default=30, help="seconds measured")
    parser.add_argument("--ramp", type=float, default=10, help="seconds to open the tables")
    parser.add_argument("--think", type=float, default=1.0, help="mean think time, seconds")
    parser.add_argument("--url", help="a running server (no CPU figures; --setups ignored)")
    parser.add_argument("--postgres", default=POSTGRES, help=f"PostgreSQL (default {POSTGRES})")
    parser.add_argument("--redis", default=REDIS, help=f"Redis (default {REDIS})")
    parser.add_argument("--nginx", choices=("own", "stock"), default="own",
                        help="own: the launcher's nginx.conf; stock: the shipped site in"
                        f" {STOCK_NGINX} as docs/deploy.md raises it")  # fmt: skip
    parser.add_argument(
        "--py-spy", metavar="DIR", help="record each server process with py-spy while measuring"
    )
    parser.add_argument("--py-spy-binary", default="py-spy", help="py-spy's path")
    parser.add_argument("--code", type=parse_code,
                        help="compare checkouts side by side, e.g. old=../old,new=. (each setup"
                        " runs each one's server code in turn)")  # fmt: skip
    args = parser.parse_args()
    # Stopped with SIGTERM (timeout, kill): stop the clusters as Ctrl-C does, leaving nothing.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    counts = [int(t) for t in args.tables.split(",")]
    rows = []
    for tables in counts:
        if args.url:
            rows.append(Row(args.url, tables, asyncio.run(run(args.url, tables, args, list))))
            continue
        for store, count in args.setups:
            for code in args.code or [None]:  # side by side: one after the other, same load
                row = measure(store, count, tables, args, code)
                print("| " + " | ".join(row.cells()) + " |", file=sys.stderr, flush=True)
                rows.append(row)
    print(f"classic for two, think {args.think} s, {args.duration:.0f} s measured after a"
          f" {args.ramp:.0f} s ramp-up, {os.cpu_count()} CPUs shared by the servers, nginx and"
          " the clients; CPU ms/move: all server processes together")  # fmt: skip
    print_table(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
