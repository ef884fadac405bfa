#!/usr/bin/env python3
"""Load benchmark for ``sequence serve``: many tables played through real WebSocket connections.

Every table is classic Sequence for two; both seats are played by this script as clients (a
random legal move after a think time), so every move goes the whole server path: JSON parsing,
the engine, the database commit, and a view built and sent to each seat. It prints the tables,
the moves a second and the move round trip (from sending a move to receiving the state that
contains it): p50, p95, p99.

    .venv/bin/python scripts/loadtest.py --tables 200 --duration 60

It starts its own server (``sequence serve`` on a free port, SQLite in a temporary folder)
unless ``--url`` names a running one.
"""

from __future__ import annotations

import _venv  # noqa: F401  (first: another Python runs this again with .venv's)

# isort: split
import argparse
import asyncio
import json
import math
import os
import random
import socket
import subprocess
import sys
import tempfile
import time

import httpx
from websockets.asyncio.client import connect


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def percentile(ordered: list[float], p: int) -> float:
    """The ``p``-th percentile of sorted values by the nearest rank: a value measured, and one for
    any number of them (``statistics.quantiles`` needs 100 to give 99 cut points apart)."""
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


class Stats:
    """What the clients measured."""

    def __init__(self) -> None:
        self.rtts: list[float] = []
        self.moves = 0
        self.errors: dict[str, int] = {}
        self.games = 0
        self.elapsed = 0.0


async def seat_loop(
    ws_url: str, code: str, token: str, think: float, stats: Stats, stop: float
) -> None:
    """One seat: on each state where it may act, think, then send a random legal move."""
    rng = random.Random()
    async with connect(f"{ws_url}/ws/{code}", max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sent_at: float | None = None
        sent_version = -1
        while time.monotonic() < stop:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, stop - time.monotonic()))
            except TimeoutError:
                break
            msg = json.loads(raw)
            if msg["type"] == "error":
                stats.errors[msg["code"]] = stats.errors.get(msg["code"], 0) + 1
                sent_at = None
                continue
            if msg["type"] != "state" or msg["view"] is None:
                continue
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


async def table_loop(
    http: httpx.AsyncClient, ws_url: str, think: float, stats: Stats, stop: float
) -> None:
    """Open a table, seat two clients, play; when the game ends, open another."""
    while time.monotonic() < stop:
        body = {"game": "classic", "players": 2, "name": "A", "seat": 0, "public": False}
        created = (await http.post("/api/tables", json=body)).json()
        code = created["code"]
        other = (await http.post(f"/api/tables/{code}/join", json={"name": "B"})).json()
        await http.post(f"/api/tables/{code}/start", json={"host_token": created["host_token"]})
        await asyncio.gather(
            seat_loop(ws_url, code, created["seat_token"], think, stats, stop),
            seat_loop(ws_url, code, other["seat_token"], think, stats, stop),
        )


async def run(args: argparse.Namespace, url: str) -> Stats:
    """Open the tables over the ramp-up, then measure for the duration."""
    stats = Stats()
    ws_url = url.replace("http", "ws", 1)
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as http:
        stop = time.monotonic() + args.ramp + args.duration
        tasks = []
        for _ in range(args.tables):
            tasks.append(asyncio.create_task(table_loop(http, ws_url, args.think, stats, stop)))
            await asyncio.sleep(args.ramp / args.tables)
        stats.rtts.clear()
        stats.moves = 0
        started = time.monotonic()
        results = await asyncio.gather(*tasks, return_exceptions=True)
        stats.elapsed = time.monotonic() - started
        for r in results:
            if isinstance(r, BaseException):
                name = type(r).__name__
                stats.errors[name] = stats.errors.get(name, 0) + 1
    return stats


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--duration", type=float, default=60, help="seconds measured")
    parser.add_argument("--ramp", type=float, default=10, help="seconds to open the tables")
    parser.add_argument("--think", type=float, default=1.0, help="mean think time, seconds")
    parser.add_argument("--url", help="a running server (default: start one)")
    parser.add_argument("--db", help="database URL for the server started here")
    args = parser.parse_args()
    proc = None
    url = args.url
    if url is None:
        port = free_port()
        db = args.db or f"sqlite:///{tempfile.mkdtemp()}/load.db"
        cmd = [sys.executable, "-m", "sequence.cli.main", "serve", "--port", str(port),
               "--db", db, "--bot-threads", "--bot-delay", "0"]  # fmt: skip
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, env={**os.environ})
        url = f"http://127.0.0.1:{port}"
        for _ in range(300):
            try:
                if httpx.get(url + "/api/meta", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
    try:
        stats = asyncio.run(run(args, url))
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(10)
    rtts = sorted(stats.rtts)
    elapsed = stats.elapsed or args.duration
    print(f"tables            {args.tables} concurrent (classic, 2 seats, think {args.think} s)")
    print(f"measured          {elapsed:.1f} s after a {args.ramp:.0f} s ramp-up")
    print(f"moves             {stats.moves} ({stats.moves / elapsed:.1f} moves/s)")
    print(f"games finished    {stats.games}")
    if rtts:
        for p in (50, 95, 99):
            print(f"round trip p{p}    {percentile(rtts, p) * 1000:.1f} ms")
        print(f"round trip max    {rtts[-1] * 1000:.1f} ms")
    else:
        print("round trip        no move was measured")
    print(f"errors            {stats.errors or 'none'}")
    print(f"cpus              {os.cpu_count()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
