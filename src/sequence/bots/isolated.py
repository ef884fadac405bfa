"""A bot in a process of its own, which is sent copies of its seat's views and nothing else.

A bot that runs in the same process as the game can reach the game's state whatever it is
given: through ``gc``, the call stack, or memory it keeps from one game to the next or shares
with its team-mate's bot. Tournaments therefore run every bot loaded from ``module:Class`` in an
:class:`IsolatedBot`: a fresh process (``spawn``: nothing of the parent's memory) per bot and
game, to which each view goes as a pickled copy and from which a move comes back as notation.
The built-in bots are ours and run in-process.

What isolation cannot stop: a bot that writes what it saw to a file and reads it in the next
game. Tournaments meant to grade untrusted code should run in a sandbox without a shared disk.

>>> from sequence.engine import State, make_config
>>> state = State.new(make_config("kids", 2), seed=1)
>>> bot = IsolatedBot("sequence.bots.base:RandomBot", seed=3)
>>> bot.choose(state.view(state.to_move)) in state.legal_moves()
True
>>> bot.close()
"""

from __future__ import annotations

import multiprocessing
import sys
import threading
from multiprocessing.connection import Connection

from ..engine import Move, View
from .base import Bot

START_TIMEOUT = 60.0
"""Seconds a bot's process may take to start and import its module."""


class RemoteBotError(Exception):
    """The bot in its process raised; ``reason`` is ``"ExceptionName: message"``."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def failure(exc: BaseException) -> str:
    """What a bot's exception says: ``"ExceptionName: message"``, also when it was raised in
    the bot's own process."""
    if isinstance(exc, RemoteBotError):
        return exc.reason
    return f"{type(exc).__name__}: {exc}"


class _Returned:
    """Something a bot returned that is not a Move, as its ``repr`` (the arena names it)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


def _serve(conn: Connection, spec: str, seed: int, path: list[str]) -> None:
    """The bot's process: make the bot, then answer each view with a move."""
    sys.path[:] = path
    try:
        from . import make_bot

        bot = make_bot(spec, seed)
    except BaseException as exc:
        conn.send(("error", failure(exc)))
        return
    conn.send(("ready", bot.name))
    while True:
        try:
            view = conn.recv()
        except EOFError:
            return
        try:
            move = bot.choose(view)
        except BaseException as exc:  # even SystemExit: reported, and the arena forfeits
            conn.send(("error", failure(exc), {}))
            continue
        stats = _figures(bot)
        if isinstance(move, Move):
            conn.send(("move", str(move), stats))
        else:
            conn.send(("value", repr(move)[:200], {}))


def _figures(bot: Bot) -> dict[str, float]:
    """The bot's ``stats()`` as plain numbers; a broken ``stats()`` costs nothing."""
    try:
        return {str(k): float(v) for k, v in dict(bot.stats()).items()}
    except Exception:
        return {}


class IsolatedBot(Bot):
    """The bot ``spec`` (any spec :func:`~sequence.bots.make_bot` takes) in its own process."""

    def __init__(self, spec: str, seed: int = 0) -> None:
        super().__init__(seed)
        ctx = multiprocessing.get_context("spawn")
        self._conn, child = ctx.Pipe()
        self._process = ctx.Process(
            target=_serve, args=(child, spec, seed, list(sys.path)), daemon=True
        )
        self._process.start()
        child.close()
        self._stats: dict[str, float] = {}
        # One question at a time: a caller's threads (the terminal game's, after an undo) must
        # not read each other's answers.
        self._lock = threading.Lock()
        try:
            if self._conn.poll(START_TIMEOUT):
                kind, payload = self._conn.recv()
            else:
                kind, payload = "error", f"it did not start in {START_TIMEOUT:.0f} s"
        except (EOFError, OSError):
            kind, payload = "error", "its process ended"
        if kind != "ready":
            self.close()
            raise ValueError(f"cannot start bot {spec!r}: {payload}")
        self.name = str(payload)
        self.label = spec

    def choose(self, view: View) -> Move:
        with self._lock:
            try:
                self._conn.send(view)  # a pickled copy: no reference to the game's state
                kind, payload, stats = self._conn.recv()
            except (EOFError, OSError):
                raise RemoteBotError("its process ended") from None
        if kind == "error":
            raise RemoteBotError(payload)
        self._stats = dict(stats)
        if kind == "value":
            return _Returned(payload)  # type: ignore[return-value]
        return Move.parse(payload)

    def stats(self) -> dict[str, float]:
        return dict(self._stats)

    def close(self) -> None:
        """Stop the bot's process (it may still be thinking after a time-out)."""
        self._conn.close()
        if self._process.is_alive():
            self._process.kill()
        self._process.join(5)


def contained_bot(spec: str, seed: int = 0) -> Bot:
    """A bot for a game against others' bots: a user's ``module:Class`` runs isolated, a
    built-in bot in this process (it is ours, and fast)."""
    from . import make_bot

    name = spec.partition("@")[0]
    return IsolatedBot(spec, seed) if ":" in name else make_bot(spec, seed)


__all__ = ["IsolatedBot", "RemoteBotError", "contained_bot", "failure"]
