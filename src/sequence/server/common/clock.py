"""The server's clock: what time it is, and waiting until a time has come.

Every turn clock reads the time here (:func:`clock`), so a test can replace it: a
correspondence table (days a move) is then played over simulated days in seconds, across a real
restart of the server process. :class:`Clock` is the real time. :class:`FileClock` is the real
time plus a number of seconds read from a file, which a test raises to move time on; the server
uses it when the environment names that file (:data:`CLOCK_FILE_VARIABLE`, for tests only:
``sequence serve`` logs a warning when it is set).
"""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

CLOCK_FILE_VARIABLE = "SEQUENCE_TEST_CLOCK_FILE"
"""The environment variable naming a :class:`FileClock`'s file (tests only)."""


class Clock:
    """The real time."""

    def time(self) -> float:
        """The wall-clock time, in seconds since the Unix epoch (what a deadline is stored as)."""
        return time.time()

    def monotonic(self) -> float:
        """A time that only goes forward, in seconds (what a running turn is measured by)."""
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        """Wait ``seconds`` by this clock."""
        await asyncio.sleep(max(0.0, seconds))


class FileClock(Clock):
    """The real time plus the seconds written in ``path`` (a missing or empty file: 0); a test
    moves time on by writing a larger number. :meth:`sleep` looks at the file every ``poll``
    seconds, so a wait of days ends as soon as the file says they have passed."""

    def __init__(self, path: str | Path, poll: float = 0.1) -> None:
        self.path = Path(path)
        self.poll = poll

    def offset(self) -> float:
        """The seconds the file adds to the real time now."""
        try:
            text = self.path.read_text().strip()
        except OSError:
            return 0.0
        return float(text) if text else 0.0

    def time(self) -> float:
        return time.time() + self.offset()

    def monotonic(self) -> float:
        return time.monotonic() + self.offset()

    async def sleep(self, seconds: float) -> None:
        end = self.monotonic() + seconds
        while (left := end - self.monotonic()) > 0:
            await asyncio.sleep(min(left, self.poll))


_clock: Clock = Clock()


def clock() -> Clock:
    """The clock the server runs by."""
    return _clock


def use_clock(new: Clock) -> Clock:
    """Run the server by ``new`` from now on; return the clock it replaces."""
    global _clock
    old, _clock = _clock, new
    return old


def clock_from_environment() -> FileClock | None:
    """A :class:`FileClock` when the environment names its file (:data:`CLOCK_FILE_VARIABLE`),
    else ``None``."""
    path = os.environ.get(CLOCK_FILE_VARIABLE)
    return FileClock(path) if path else None
