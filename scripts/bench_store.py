#!/usr/bin/env python3
"""The server's CPU per stored move: checkouts' ``Store`` side by side, on PostgreSQL and SQLite.

Each checkout (``--code NAME=CHECKOUT``, its ``src`` on ``PYTHONPATH``) stores ``--moves`` moves
of one table, one move a commit, in a child process on a fresh database (a throw-away
PostgreSQL database, a temporary SQLite file), in turn, for ``--rounds`` rounds, so that a busy
machine slows each alike. Two figures per commit, the medians of the rounds: the client's CPU
(``time.process_time()``: the server's Python, psycopg and SQLAlchemy, not the database's) of
``Store._commit_moves`` called directly on the database thread's work, and of the whole path a
move takes, ``Store.append_move`` from the event loop (its future, the thread pool, the group
commit)::

    scripts/bench_store.py --code old=../old,new=.
    scripts/bench_store.py --code new=. --stores postgresql --moves 5000
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

import _venv  # noqa: F401  (re-runs this script with .venv/bin/python where needed)

MEASURE = r"""
import asyncio, json, secrets, sys, tempfile, time
import psycopg
from sequence.engine import make_config
from sequence.server.storage.store import _Pending
from sequence.server.tables.store import SeatData, TableData, TableStore

kind, admin, moves = sys.argv[1], sys.argv[2], int(sys.argv[3])


def table(store):
    return store.create_table(TableData(
        id=0, code="BENCH1", config=make_config("classic", players=2).to_dict(), seed=1,
        public=True, status="playing", host_hash="h", result=None, rematch_code=None,
        seats=[SeatData(0), SeatData(1)], moves=[],
    ))


def measure(url):
    store = TableStore(url)
    try:
        tid, loop = table(store), asyncio.new_event_loop()
        pending = lambda ply: _Pending(  # noqa: E731
            tid, ply, "2C a2", ply % 2, None, False, loop.create_future(), f"m{ply}")
        for ply in range(1, 101):  # warm: connections, prepared statements
            store._commit_moves([pending(ply)])
        cpu = time.process_time()
        for ply in range(101, 101 + moves):
            store._commit_moves([pending(ply)])
        direct = (time.process_time() - cpu) / moves

        async def append(first):
            for ply in range(first, first + moves):
                await store.append_move(tid, ply, "2C a2", ply % 2, None, False, f"m{ply}")

        cpu = time.process_time()
        loop.run_until_complete(append(101 + moves))
        whole = (time.process_time() - cpu) / moves
        loop.close()
        return {"commit_ms": direct * 1000, "append_ms": whole * 1000}
    finally:
        store.close()


if kind == "postgresql":
    name = f"seq_bench_{secrets.token_hex(4)}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    try:
        base = admin.rsplit("/", 1)[0].replace("postgresql://", "postgresql+psycopg://", 1)
        print(json.dumps(measure(f"{base}/{name}")))
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE {name} WITH (FORCE)")
else:
    with tempfile.TemporaryDirectory() as folder:
        print(json.dumps(measure(f"sqlite:///{folder}/bench.db")))
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--code", default="this=.", help="NAME=CHECKOUT,... (default this=.)")
    parser.add_argument("--stores", default="postgresql,sqlite", help="postgresql and/or sqlite")
    parser.add_argument("--moves", type=int, default=2000, help="moves measured per path")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of every checkout")
    parser.add_argument(
        "--postgres", default="postgresql://postgres@127.0.0.1:5432/test", help="PostgreSQL"
    )
    args = parser.parse_args()
    checkouts = [entry.split("=", 1) for entry in args.code.split(",")]
    results: dict[tuple[str, str], list[dict[str, float]]] = {}
    for _ in range(args.rounds):
        for kind in args.stores.split(","):
            for name, checkout in checkouts:
                env = {**os.environ, "PYTHONPATH": str(Path(checkout).resolve() / "src")}
                out = subprocess.run(
                    [sys.executable, "-c", MEASURE, kind, args.postgres, str(args.moves)],
                    env=env, check=True, capture_output=True, text=True,
                ).stdout  # fmt: skip
                results.setdefault((kind, name), []).append(json.loads(out.splitlines()[-1]))
    print(f"CPU ms per move, one move a commit, median of {args.rounds} rounds of {args.moves}")
    print("| store | code | Store._commit_moves | Store.append_move |")
    print("| --- | --- | --- | --- |")
    for (kind, name), runs in results.items():
        commit = statistics.median(r["commit_ms"] for r in runs)
        append = statistics.median(r["append_ms"] for r in runs)
        print(f"| {kind} | {name} | {commit:.3f} | {append:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
