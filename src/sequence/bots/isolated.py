"""A bot in a process of its own, which is sent copies of its seat's views and nothing else.

A bot that runs in the same process as the game can reach the game's state whatever it is
given: through ``gc``, the call stack, or memory it keeps from one game to the next or shares
with its team-mate's bot. Tournaments and the terminal game therefore run every bot loaded from
``module:Class`` (or ``path/to/file.py:Class``) in an :class:`IsolatedBot`: a fresh process
(``spawn``: nothing of the parent's memory) per bot and game, to which each view goes as a
pickled copy. The user's module is imported in that process only (:func:`user_bot_class`), never
in the one holding the game (:func:`check_bot` tries a spec there), and what comes back is JSON,
read as data: nothing the bot sends is unpickled or run. The built-in bots are ours and run
in-process.

What a process of its own cannot stop (docs/bots.md, "Fair play"): a bot that writes what it
saw to a file and reads it in the next game, or one that uses the operating system against the
processes of the user who runs it (signals; their command lines, where an explicit ``--seed``
shows; their memory, where the user is root). :func:`protect_process` closes what it can of the
last on Linux; tournaments meant to grade untrusted code should still run them in a sandbox.

>>> from sequence.engine import State, make_config
>>> state = State.new(make_config("kids", 2), seed=1)
>>> bot = IsolatedBot("sequence.bots.base:RandomBot", seed=3)
>>> bot.choose(state.view(state.to_move)) in state.legal_moves
True
>>> bot.close()
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import sys
import threading
from multiprocessing.connection import Connection
from typing import TypeGuard

from ..engine import Move, View
from .base import Bot
from .errors import (
    BOT_MESSAGES,
    BotMistake,
    BotSpecError,
    RemoteBotError,
    cut_text,
    failure,
    safe_repr,
)
from .loading import is_file_spec, user_bot_class, where
from .specs import make_bot

START_TIMEOUT = 60.0
"""Seconds a bot's process may take to start and import its module."""

MAX_ANSWER = 64 * 1024
"""Bytes a bot's process may send in one answer (a move, or a reason, and a few figures)."""

MAX_FIGURE = 1e12
"""The largest figure (``stats()`` value) a bot's process may report; larger ones are dropped."""


def failure_at(exc: BaseException) -> str:
    """:func:`~sequence.bots.errors.failure`, and where in the bot's own code it was raised
    when that is known: ``"KeyError: 7 (at mybot.py:12)"``."""
    if isinstance(exc, RemoteBotError):
        return exc.reason
    return failure(exc) + where(exc)


class _Returned:
    """Something a bot returned that is not a Move, as its ``repr`` (the arena names it)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


def _send(conn: Connection, *message: object) -> None:
    try:
        conn.send_bytes(json.dumps(message).encode())
    except OSError:  # the arena has gone (the run was stopped): nothing to tell
        sys.exit(0)


def _refusal(answer: list[object]) -> ValueError:
    """The error a bot's process refused its spec with: rebuilt from its code and parameters
    when they are sound (the process is the user's, and may send anything)."""
    code, params = (answer + [None, None])[2:4]
    if (
        isinstance(code, str)
        and code in BOT_MESSAGES
        and isinstance(params, dict)
        and all(isinstance(v, (str, int)) for v in params.values())
    ):
        try:
            return BotSpecError(code, **{str(k): v for k, v in params.items()})
        except (KeyError, IndexError, ValueError):  # fields that do not fit the template
            pass
    return ValueError(str(answer[1]))


def _serve(
    conn: Connection, spec: str, seed: int, path: list[str], output: str, parent: int | None
) -> None:
    """The bot's process: make the bot, then answer each view with a move. With ``parent``
    (the pid of the process that started it from its main thread) it ends when that does."""
    if parent is not None:
        _die_with_parent(parent)
    # A session of its own: the arena stops the bot with every process it starts (close()),
    # and a Ctrl-C at the terminal is the arena's to handle, not the bot's.
    if hasattr(os, "setsid"):
        os.setsid()
    protect_process()  # another bot (same user) cannot read this one's hand
    sys.path[:] = path
    # spawn copies the parent's arguments (an explicit --seed among them): only the program's
    # name stays, which libraries may read (argparse's prog, say); docs/bots.md says so.
    sys.argv[:] = sys.argv[:1]
    if output == "stderr":  # a bot's prints must not mix with results written to stdout
        os.dup2(2, 1)
    elif output == "null":  # the terminal game owns the screen
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.dup2(null, 2)
    try:
        bot = make_bot(spec, seed)
    except ValueError as exc:  # the spec itself is wrong: make_bot says how
        if isinstance(exc, BotSpecError):  # its code crosses, to be rendered in any language
            _send(conn, "invalid", str(exc), exc.code, exc.params)
        else:
            _send(conn, "invalid", str(exc))
        return
    except BaseException as exc:
        _send(conn, "error", failure(exc) + where(exc))
        return
    _send(conn, "ready", str(bot.name))
    while True:
        try:
            view = conn.recv()
        except (EOFError, OSError):  # the arena closed the pipe, or is gone
            return
        try:
            move = bot.choose(view)
        except BotMistake as exc:  # the bot's own words for its user: told as they are
            _send(conn, "mistake", failure(exc), {})
            continue
        except BaseException as exc:  # even SystemExit: reported, and the arena forfeits
            _send(conn, "error", failure_at(exc), {})
            continue
        if isinstance(move, Move):
            _send(conn, "move", str(move), *_figures(bot))
        else:
            _send(conn, "value", safe_repr(move), {})


def _figures(bot: Bot) -> tuple[dict[str, float], str | None]:
    """The bot's ``stats()`` as finite numbers, and what was wrong with them (``None``: nothing).

    A broken ``stats()`` costs the bot its figures, never its game; the reason goes to the
    arena so that the tournament can say why the bot's figures show ``-``."""
    try:
        raw = bot.stats()
    except Exception as exc:
        return {}, f"stats() raised {failure(exc)}"
    if not isinstance(raw, dict):
        return {}, f"stats() returned {safe_repr(raw)}, not a dict"
    figures: dict[str, float] = {}
    problem = None
    for key, value in raw.items():
        if is_figure(value):
            figures[str(key)] = float(value)
        elif problem is None:
            problem = f"stats() gave {safe_repr(key)}: {safe_repr(value)}, not a finite number"
    return figures, problem


def is_figure(value: object) -> TypeGuard[int | float]:
    """Whether a ``stats()`` value is a number that sums stay finite with (JSON has no
    Infinity): not a bool, not NaN, at most :data:`MAX_FIGURE` either way."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return abs(value) <= MAX_FIGURE  # NaN compares false: dropped too


def _printable(text: str, limit: int = 500) -> str:
    """A bot's text made safe to show: no control characters (a terminal would obey them),
    at most ``limit`` characters."""
    return cut_text(
        "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text[: limit + 1]), limit
    )


def _read(conn: Connection) -> list[object]:
    """One answer from a bot's process, as data. Raises RemoteBotError when there is none."""
    try:
        data = conn.recv_bytes(MAX_ANSWER)
    except (EOFError, ConnectionError):
        raise RemoteBotError("its process ended") from None
    except OSError as exc:
        if "bad message length" in str(exc):  # longer than MAX_ANSWER
            raise RemoteBotError(f"its process sent more than {MAX_ANSWER} bytes") from None
        raise RemoteBotError("its process ended") from None
    try:
        message = json.loads(data)
    except (ValueError, RecursionError):  # not JSON, or nested deeper than the parser goes
        message = None
    if not (
        isinstance(message, list)
        and len(message) >= 2
        and all(isinstance(m, str) for m in message[:2])
    ):
        raise RemoteBotError("its process sent something that is not an answer")
    return [_printable(m) if isinstance(m, str) else m for m in message]


class IsolatedBot(Bot):
    """The bot ``spec`` (any spec :func:`~sequence.bots.make_bot` takes) in its own process.

    ``output`` is where the bot's prints go: ``"stderr"`` (tournaments: never into results on
    stdout) or ``"null"`` (the terminal game, which owns the screen). Raises ValueError when the
    bot cannot start, saying why."""

    def __init__(self, spec: str, seed: int = 0, output: str = "stderr") -> None:
        super().__init__(seed)
        ctx = multiprocessing.get_context("spawn")
        self._conn, child = ctx.Pipe()
        self._process = ctx.Process(
            target=_serve,
            args=(child, spec, seed, list(sys.path), output, _main_thread_pid()),
            daemon=True,
        )
        self._process.start()
        child.close()
        self._stats: dict[str, float] = {}
        self.stats_problem: str | None = None
        """What was wrong with the figures of the bot's last move (``None``: nothing)."""
        self._closed = False
        self._stale_reader: threading.Thread | None = None
        # One question at a time: a caller's threads (the terminal game's, after an undo) must
        # not read each other's answers.
        self._lock = threading.Lock()
        answer: list[object] = []
        try:
            answer = self._read_within(START_TIMEOUT)
            kind, payload = answer[:2]
        except RemoteBotError as exc:
            kind, payload = "error", exc.reason
        except BaseException:  # interrupted while it starts (the run was stopped): stop it too
            self.close()
            raise
        if kind != "ready":
            self.close()
            if kind == "invalid":
                raise _refusal(answer)
            raise BotSpecError("bot_not_started", text=spec, value=str(payload))
        self.name = str(payload)
        self.label = spec

    def _read_within(self, seconds: float) -> list[object]:
        """The next answer, if it comes whole within ``seconds``; else the process is stopped.
        (A reader could otherwise wait for ever on an answer the bot started and never ends.)"""
        answer: list[list[object] | RemoteBotError] = []

        def read() -> None:
            try:
                answer.append(_read(self._conn))
            except RemoteBotError as exc:
                answer.append(exc)

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        reader.join(seconds)
        if reader.is_alive():
            self._stop()
            reader.join(5)
            if reader.is_alive():  # a process the bot started still holds the pipe open
                self._stale_reader = reader
            raise RemoteBotError(f"it did not start in {seconds:.0f} s")
        if isinstance(answer[0], RemoteBotError):
            raise answer[0]
        return answer[0]

    def choose(self, view: View) -> Move:
        with self._lock:
            try:
                self._conn.send(view)  # a pickled copy: no reference to the game's state
            except (OSError, ValueError):
                raise RemoteBotError("its process ended") from None
            message = _read(self._conn)
        kind, payload = message[0], message[1]
        if kind == "error":
            raise RemoteBotError(str(payload), raised=True)
        if kind == "mistake":  # a BotMistake: its message alone, not "choose() raised"
            raise RemoteBotError(str(payload))
        if kind == "value":
            return _Returned(str(payload))  # type: ignore[return-value]
        if kind != "move":
            raise RemoteBotError("its process sent something that is not an answer")
        try:
            move = Move.parse(str(payload))
        except ValueError:
            return _Returned(safe_repr(payload))  # type: ignore[return-value]
        figures = message[2] if len(message) > 2 and isinstance(message[2], dict) else {}
        # Checked again here: the bot's process is the user's, and may send anything.
        self._stats = {str(k): float(v) for k, v in figures.items() if is_figure(v)}
        problem = message[3] if len(message) > 3 else None
        if problem is None and len(self._stats) < len(figures):
            problem = "stats() gave a figure that is not a finite number"
        self.stats_problem = None if problem is None else _printable(str(problem))
        return move

    def stats(self) -> dict[str, float]:
        return dict(self._stats)

    def close(self) -> None:
        """Stop the bot's process and any it started (it may still be thinking after a
        time-out). Calling it again does nothing."""
        if self._closed:
            return
        self._closed = True
        self._stop()
        if self._stale_reader is None:
            self._conn.close()
        # else the pipe stays open: a reader still blocked on it must never wake up on the
        # same descriptor number given to the next bot's pipe.
        self._process.join(5)

    def _stop(self) -> None:
        pid = self._process.pid
        popen = getattr(self._process, "_popen", None)
        # Not once it has been reaped: its pid may be someone else's by now. (Until then its
        # pid, and the group named after it, are its own, even if it has ended.)
        if pid is None or popen is None or popen.returncode is not None:
            return
        try:  # its session: the bot's process and whatever it started
            os.killpg(pid, signal.SIGKILL)
        except (OSError, AttributeError):  # gone already, or no process groups (Windows)
            if self._process.is_alive():
                self._process.kill()


def is_user_bot(spec: str) -> bool:
    """Whether ``spec`` names a user's ``module:Class`` rather than a built-in bot.

    >>> is_user_bot("mypackage.mybot:MyBot@depth=2"), is_user_bot("greedy@time=1")
    (True, False)
    """
    return ":" in spec.partition("@")[0]


def check_bot(spec: str) -> None:
    """Raise ValueError, saying why, if ``spec`` cannot make a bot. A user's bot is tried in a
    process of its own, so its module never runs in this one."""
    if is_user_bot(spec):
        IsolatedBot(spec, output="null").close()
    else:
        make_bot(spec)


class UnstartedBot(Bot):
    """Stands in for a user's bot whose process did not start: it loses the game at its first
    move, saying why, and the tournament goes on."""

    def __init__(self, spec: str, reason: str) -> None:
        super().__init__(0)
        self.name = self.label = spec
        self.reason = reason

    def choose(self, view: View) -> Move:
        raise RemoteBotError(f"it did not start: {self.reason}")


def contained_bot(spec: str, seed: int = 0, output: str = "stderr") -> Bot:
    """A bot for a game against others' bots: a user's ``module:Class`` runs isolated, a
    built-in bot in this process (it is ours, and fast). Raises ValueError when it cannot
    start."""
    return IsolatedBot(spec, seed, output) if is_user_bot(spec) else make_bot(spec, seed)


def _main_thread_pid() -> int | None:
    """This process's pid when called from its main thread: a bot started there may end with
    this process (Linux ties that to the starting thread, and other threads come and go)."""
    return os.getpid() if threading.current_thread() is threading.main_thread() else None


def _prctl(option: int, value: int) -> bool:
    """Linux's ``prctl(option, value)``; False where there is none (other systems)."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    try:
        return int(ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _die_with_parent(parent: int) -> None:
    """End this process when ``parent`` ends (``PR_SET_PDEATHSIG``): a bot in play when its
    arena is stopped or killed must not run on."""
    if _prctl(1, signal.SIGKILL) and os.getppid() != parent:  # it ended before that was set
        os._exit(0)


def protect_process() -> None:
    """Make this process's memory, environment and open files unreadable to other processes of
    the same user (Linux ``PR_SET_DUMPABLE``), as a bot's process is one. Root reads them anyway,
    so graded tournaments run as an ordinary user. Does nothing elsewhere."""
    _prctl(4, 0)  # PR_SET_DUMPABLE, 0


__all__ = [
    "IsolatedBot",
    "RemoteBotError",
    "UnstartedBot",
    "check_bot",
    "contained_bot",
    "failure",
    "is_file_spec",
    "is_user_bot",
    "protect_process",
    "safe_repr",
    "user_bot_class",
]
