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

import importlib
import importlib.machinery
import importlib.util
import json
import multiprocessing
import os
import signal
import sys
import sysconfig
import threading
import traceback
from multiprocessing.connection import Connection
from types import ModuleType
from typing import Any, TypeGuard

from ..engine import Move, View
from .base import Bot
from .errors import BOT_MESSAGES, BotSpecError

START_TIMEOUT = 60.0
"""Seconds a bot's process may take to start and import its module."""

MAX_ANSWER = 64 * 1024
"""Bytes a bot's process may send in one answer (a move, or a reason, and a few figures)."""

MAX_FIGURE = 1e12
"""The largest figure (``stats()`` value) a bot's process may report; larger ones are dropped."""


class RemoteBotError(Exception):
    """The bot in its process failed; ``reason`` says how: ``"ExceptionName: message"`` when
    its ``choose()`` raised (``raised``), else what went wrong with the process."""

    def __init__(self, reason: str, raised: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.raised = raised


def failure(exc: BaseException) -> str:
    """What a bot's exception says: ``"ExceptionName: message"``, also when it was raised in
    the bot's own process."""
    if isinstance(exc, RemoteBotError):
        return exc.reason
    try:
        text = str(exc)
    except Exception:  # a bot's own exception class whose __str__ fails
        text = "(its message could not be read)"
    return f"{type(exc).__name__}: {text}"


def failure_at(exc: BaseException) -> str:
    """:func:`failure`, and where in the bot's own code it was raised when that is known:
    ``"KeyError: 7 (at mybot.py:12)"``."""
    if isinstance(exc, RemoteBotError):
        return exc.reason
    return failure(exc) + _where(exc)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def safe_repr(value: object, limit: int = 200) -> str:
    """``repr(value)`` cut to ``limit`` characters, or a plain description where that fails."""
    try:
        return _cut(repr(value), limit)
    except Exception:
        return f"a {type(value).__name__} (its repr failed)"


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


def _where(exc: BaseException) -> str:
    """Where in the bot's own code ``exc`` was raised: `` (at mybot.py:12)``, or nothing."""
    place = _user_line(exc)
    return f" (at {place})" if place else ""


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
        from . import make_bot

        bot = make_bot(spec, seed)
    except ValueError as exc:  # the spec itself is wrong: make_bot says how
        if isinstance(exc, BotSpecError):  # its code crosses, to be rendered in any language
            _send(conn, "invalid", str(exc), exc.code, exc.params)
        else:
            _send(conn, "invalid", str(exc))
        return
    except BaseException as exc:
        _send(conn, "error", failure(exc) + _where(exc))
        return
    _send(conn, "ready", str(bot.name))
    while True:
        try:
            view = conn.recv()
        except (EOFError, OSError):  # the arena closed the pipe, or is gone
            return
        try:
            move = bot.choose(view)
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
    return _cut(
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


# --- Loading a user's bot, in the bot's own process ---------------------------------------------


class _LoadError(Exception):
    """Why a bot's module could not be loaded, in words for its author."""


def user_bot_class(name: str) -> Any:
    """What ``module:Class`` names: the module imported by name, or a file loaded from its path
    (``path/to/mybot.py:MyBot``, see :func:`is_file_spec`). :func:`~sequence.bots.make_bot`
    calls it in the bot's own process. Raises ValueError saying what is wrong and what to do.

    >>> user_bot_class("sequence.bots.base:RandomBot").__name__
    'RandomBot'
    """
    module_name, _, class_name = name.rpartition(":")  # the last ':' (a Windows path has C:)
    try:
        if is_file_spec(module_name):
            module = _load_file(module_name)
        else:
            module = _import_module(module_name, class_name)
    except _LoadError as exc:
        raise BotSpecError("bot_not_loaded", text=name, value=str(exc)) from None
    except (Exception, SystemExit) as exc:  # raised by the module's own code as it ran
        failed = _import_failure(module_name, exc)
        raise BotSpecError("bot_not_loaded", text=name, value=failed) from None
    try:
        return getattr(module, class_name)
    except AttributeError:
        found = ", ".join(_bot_classes(module)) or "none"
        value = (
            f"{module_name} has no class {class_name!r}; after ':' write the name of your Bot"
            f" class (Bot classes defined there: {found})"
        )
        raise BotSpecError("bot_not_loaded", text=name, value=value) from None


def is_file_spec(module: str) -> bool:
    """Whether a spec's module part is a file's path (it ends in ``.py`` or holds a path
    separator) rather than a module's name.

    >>> is_file_spec("bots/mine.py"), is_file_spec("mine.py"), is_file_spec("bots.mine")
    (True, True, False)
    """
    return module.endswith(".py") or any(sep and sep in module for sep in (os.sep, os.altsep))


def _import_module(module: str, class_name: str) -> ModuleType:
    """Import ``module``, looking in the current folder too: ``sequence`` is an installed
    command, which (unlike ``python -m``) does not, and a student's package is usually there."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        here = os.getcwd()
        if exc.name == module.partition(".")[0] and here not in sys.path:
            sys.path.append(here)
            return _import_module(module, class_name)
        if exc.name is None or not (module + ".").startswith(exc.name + "."):
            raise  # a module the bot's module imports is missing: _import_failure says where
        file = f"path/to/{module.replace('.', '/')}.py:{class_name}"
        raise _LoadError(
            f"{exc} (a bot's module must be importable from the current folder, {here}, or"
            f" PYTHONPATH; or give its file: {file})"
        ) from None


def _load_file(text: str) -> ModuleType:
    """The module in the file ``text``, loaded as ``python path/to/mybot.py`` would run it: its
    folder comes first on ``sys.path``, so that it imports its siblings, and code under
    ``if __name__ == "__main__":`` does not run."""
    path = os.path.abspath(text)  # a bot's process starts in the folder of the command
    if not os.path.isfile(path):
        raise _LoadError(_no_file(text, path))
    folder = os.path.dirname(path)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    stem = os.path.splitext(os.path.basename(path))[0]
    # Its file's name, as Python names a module, unless that would replace one already loaded.
    name = stem if stem.isidentifier() and stem not in sys.modules else "sequence_user_bot"
    loader = importlib.machinery.SourceFileLoader(name, path)  # also a file not named .py
    spec = importlib.util.spec_from_file_location(name, path, loader=loader)
    assert spec is not None  # a loader was given
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and pickle look a class's module up by name
    try:
        loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def _no_file(text: str, path: str) -> str:
    if os.path.isdir(path):
        return f"{text} is a folder: give the path of the bot's .py file in it"
    relative = "" if os.path.isabs(text) else f" (a relative one starts from {os.getcwd()})"
    meant = f"; did you mean {text}.py?" if os.path.isfile(path + ".py") else ""
    return f"no file {text}: check the path{relative}{meant}"


def _import_failure(module: str, exc: BaseException) -> str:
    """What the bot's module raised while it was imported, where in its author's code, and what
    to do about it."""
    if isinstance(exc, SyntaxError) and exc.filename and not exc.filename.startswith("<"):
        place: str | None = f"{_shown(exc.filename)}:{exc.lineno}"
        what = f"{type(exc).__name__}: {exc.msg}"  # str(exc) repeats the file and line
    else:
        place, what = _user_line(exc), failure(exc)
    at = f" at {place}" if place else ""
    kind = "loading the bot's file" if is_file_spec(module) else "importing the bot's module"
    return f"{kind} {module} failed{at}: {what}{_advice(exc)}"


def _advice(exc: BaseException) -> str:
    if isinstance(exc, ModuleNotFoundError) and exc.name:
        return (
            f" (install {exc.name.partition('.')[0]!r} in the Python that runs sequence,"
            f" {sys.prefix}, or put it on PYTHONPATH)"
        )
    if isinstance(exc, ImportError) and "relative import" in str(exc):
        return (
            " (a file given by its path is loaded on its own, outside its package: give the bot"
            " as package.module:Class instead)"
        )
    if isinstance(exc, SystemExit):
        return (
            " (the module exits when imported: put a script's own code under"
            ' if __name__ == "__main__":)'
        )
    return ""


def _bot_classes(module: ModuleType) -> list[str]:
    """The names of the Bot classes defined in ``module`` (for a spec that names none of them)."""
    return sorted(
        name
        for name, value in vars(module).items()
        if isinstance(value, type)
        and issubclass(value, Bot)
        and value.__module__ == module.__name__
    )


def _user_line(exc: BaseException) -> str | None:
    """``file:line`` of the deepest frame of ``exc``'s traceback in its author's code: not in
    Python's library, the installed packages or this package (importlib's frames among them);
    failing that, not in Python's library or this package (a bot installed as a package)."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if not f.filename.startswith("<")]
    for skipped in (_LIBRARY + _INSTALLED, _LIBRARY):
        own = [f for f in frames if not _under(f.filename, skipped)]
        if own:
            return f"{_shown(own[-1].filename)}:{own[-1].lineno}"
    return None


def _folders(*names: str) -> tuple[str, ...]:
    paths = sysconfig.get_paths()
    found = {os.path.realpath(paths[n]) for n in names if n in paths}
    return tuple(os.path.join(folder, "") for folder in sorted(found))


_OURS = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(__file__))), "")
"""The sequence package: its frames are never the bot's author's."""
_LIBRARY = (*_folders("stdlib"), _OURS)
_INSTALLED = _folders("platstdlib", "purelib", "platlib")


def _under(path: str, folders: tuple[str, ...]) -> bool:
    return os.path.realpath(path).startswith(folders)


def _shown(path: str) -> str:
    """A file as its author knows it: relative to the current folder when it is inside it."""
    full = os.path.abspath(path)
    try:
        relative = os.path.relpath(full)
    except ValueError:  # another drive (Windows)
        return full
    return full if relative.startswith(os.pardir) else relative


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
        from . import make_bot

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
    from . import make_bot

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
