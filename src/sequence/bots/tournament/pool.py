"""Play a tournament's games: in this process, or on a pool of worker processes, handing each
game's summary on as it ends, and stopping cleanly (keeping the games played) on a Ctrl-C, a
killed worker or a game that failed for a reason of ours.
"""

from __future__ import annotations

import multiprocessing
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from . import worker
from .schedule import Task


@dataclass(frozen=True)
class Stop:
    """Why a run ended before its last game."""

    reason: str
    interrupted: bool = False
    """By a Ctrl-C (the command exits 130)."""


def play_all(
    tasks: list[Task],
    workers: int,
    on_result: Callable[[dict[str, Any]], None],
    in_process: bool = False,
) -> Stop | None:
    """Play every task and give each game's summary (:func:`~.worker.run_task`) to
    ``on_result`` as it ends; ``None`` once all are played, else why the run stopped.

    ``in_process``: play them one after another in this process (never with a user's bot,
    which can kill the process that runs its game); otherwise on ``workers`` processes.
    """
    if in_process:
        try:
            for task in tasks:
                on_result(worker.run_task(task))
        except KeyboardInterrupt:
            return Stop("interrupted", interrupted=True)
        return None
    stop = None
    # fork on Linux (fast, and workers inherit protect_process); elsewhere the platform's
    # default, since forking beside another thread (a progress bar's) is unsafe there.
    linux = sys.platform.startswith("linux")
    ctx = multiprocessing.get_context("fork" if linux else None)
    # Not multiprocessing.Pool: its workers are daemons, which may not start the process a
    # user's bot plays in (bots/isolated.py).
    with ProcessPoolExecutor(workers, mp_context=ctx, initializer=worker.start_worker) as pool:
        futures = [pool.submit(worker.run_task, task) for task in tasks]
        try:
            for future in as_completed(futures):
                on_result(future.result())
        except KeyboardInterrupt:
            stop = Stop("interrupted", interrupted=True)
        except BrokenProcessPool:  # something killed a worker: keep what was played
            stop = Stop("a worker process was killed (by a bot's process, or the system)")
        except Exception as exc:  # a game that failed for a reason of ours: keep the rest
            stop = Stop(f"a game failed: {type(exc).__name__}: {exc}")
        if stop:
            _stop_pool(pool)
    return stop


def _stop_pool(pool: ProcessPoolExecutor) -> None:
    """Stop a pool now: queued games are dropped and games in play end with their workers."""
    processes = list((getattr(pool, "_processes", None) or {}).values())  # no public way < 3.14
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()  # the worker closes its game's bots, then ends (start_worker)
    for process in processes:
        process.join(5)
        if process.is_alive():  # caught where it could not unwind: it must not hold the exit
            process.kill()
