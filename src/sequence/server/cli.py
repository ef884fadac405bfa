"""``sequence serve``: start the web app for online play."""

from __future__ import annotations

import argparse
import errno
import multiprocessing
import os
import signal
import socket
import sys
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor

LOG_LEVELS = ("critical", "error", "warning", "info", "debug", "trace")
"""uvicorn's log levels (its ``LOG_LEVELS``, named here so that ``--help`` does not import it)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``sequence serve``."""
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1: this machine only; 0.0.0.0: friends on"
        " the same network too, the invite links then use this machine's address there)",
    )
    parser.add_argument(
        "--public-url",
        default=os.environ.get("SEQUENCE_PUBLIC_URL") or None,
        metavar="URL",
        help="the address players reach this server at, which invite links, QR codes and the"
        " e-mails' links use,"
        " e.g. https://example.org behind nginx with TLS (default $SEQUENCE_PUBLIC_URL, else"
        " this machine's network address with --host 0.0.0.0, else the address the browser used)",
    )
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument(
        "--db",
        default="sqlite:///sequence.db",
        help="SQLAlchemy database URL (default sqlite:///sequence.db; e.g."
        " postgresql://user@host/dbname)",
    )
    parser.add_argument(
        "--redis",
        default=os.environ.get("SEQUENCE_REDIS_URL") or None,
        help="Redis URL through which several server processes on one database serve the same"
        " tables (e.g. redis://127.0.0.1:6379/0; default $SEQUENCE_REDIS_URL, else none: this"
        " process alone)",
    )
    parser.add_argument(
        "--redis-prefix",
        default=os.environ.get("SEQUENCE_REDIS_PREFIX") or "sequence",
        help="start of every Redis key and channel of this cluster (default"
        " $SEQUENCE_REDIS_PREFIX, else sequence)",
    )
    parser.add_argument(
        "--time-control",
        action="append",
        default=[],
        metavar="NAME=TURN,RESERVE",
        help="the seconds a turn and the reserve of a time control offered at table creation,"
        " e.g. quick=20,40 (repeatable; defaults casual=120,0 and quick=30,60)",
    )
    parser.add_argument(
        "--bot-workers", type=int, default=2, help="worker processes for bots (default 2)"
    )
    parser.add_argument(
        "--bot-threads", action="store_true", help="run bots in threads instead of processes"
    )
    parser.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="NAME=SPEC",
        help="offer another bot at tables, by NAME: a saved model (policy:runs/gen-5.zip),"
        " ismcts@simulations=200, any bot spec (repeatable)",
    )
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=0.6,
        help="seconds a bot waits before moving (default 0.6)",
    )
    parser.add_argument(
        "--away-seconds",
        type=float,
        default=60.0,
        help="seconds a player must be gone before another may hand their seat to a bot,"
        " and the host before their rights pass to a player who is here (default 60)",
    )
    parser.add_argument(
        "--message-rate",
        type=float,
        default=20.0,
        help="WebSocket messages a connection may send a second, twice that at once (default 20)",
    )
    parser.add_argument(
        "--log-level",
        default="warning",
        choices=LOG_LEVELS,
        help="uvicorn's log level (default warning)",
    )
    parser.add_argument(
        "--forwarded-allow-ips",
        default="127.0.0.1",
        metavar="ADDRESSES",
        help="comma-separated addresses or networks of the reverse proxies (nginx) whose"
        " X-Forwarded-For and X-Forwarded-Proto are believed, so that the rate limits see the"
        " player's address; '*' trusts any (default 127.0.0.1)",
    )
    from .notify.options import add_notify_arguments

    add_notify_arguments(parser)


def end_with_server(server: int) -> None:
    """A bot worker's first act: end when the server process ``server`` ends, however it ends
    (``kill -9`` included), so that no worker is left behind as an orphan. On Linux the kernel
    does it (``PR_SET_PDEATHSIG``, as :mod:`sequence.bots.isolated` does for its bots);
    elsewhere a thread watches for the worker being handed to another parent."""
    if os.getppid() != server:  # the server ended before this worker started
        os._exit(0)
    if sys.platform.startswith("linux"):
        import ctypes

        try:
            if ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0) == 0:
                if os.getppid() != server:  # it ended before that was set
                    os._exit(0)
                return
        except (OSError, AttributeError):
            pass

    def watch() -> None:
        while os.getppid() == server:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="sequence-watch-server", daemon=True).start()


def make_executor(workers: int, threads: bool) -> Executor:
    """The bot pool: processes (bots think without holding the server's GIL) or threads.

    Each worker process ends with the server (:func:`end_with_server`); multiprocessing's
    resource tracker, whose pipe only the server and the workers hold, then ends too."""
    workers = max(1, workers)
    if threads:
        return ThreadPoolExecutor(max_workers=workers, thread_name_prefix="sequence-bot")
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=end_with_server,
        initargs=(os.getpid(),),
    )


def cannot_listen(host: str, port: int) -> str | None:
    """Why the server could not listen on ``host:port`` (as uvicorn binds it), or ``None``.

    Checked before the "open" line is printed, so that a port already taken is one clear line
    rather than an address to open followed by uvicorn's error.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((host, port))
    except OSError as exc:
        shown = f"[{host}]" if ":" in host else host
        if exc.errno == errno.EADDRINUSE:
            hint = "another server? choose another port with --port"  # i18n: ignore
            return f"port {port} is already in use on {shown} ({hint})"  # i18n: ignore
        reason = exc.strerror or str(exc)
        return f"cannot listen on {shown}:{port}: {reason}"  # i18n: ignore (for the operator)
    return None


def time_control(text: str, names: tuple[str, ...]) -> tuple[str, float, float]:
    """``NAME=TURN,RESERVE`` (seconds) from ``--time-control``, ``NAME`` one of ``names``;
    raise ``ValueError`` saying what is wrong."""
    name, _, spec = text.partition("=")
    turn, _, reserve = spec.partition(",")
    try:
        seconds = float(turn), float(reserve or 0)
    except ValueError:
        seconds = (-1.0, -1.0)
    if name not in names or not 0 < seconds[0] < 86400 or not 0 <= seconds[1] < 86400:
        shown = " or ".join(names)
        form = "NAME=TURN,RESERVE in seconds, NAME"  # i18n: ignore (for the operator)
        raise ValueError(
            f"--time-control is {form} {shown} and TURN over 0, not {text!r}"
        )  # i18n: ignore
    return name, seconds[0], seconds[1]


def redis_problem(url: str) -> str | None:
    """Why the Redis at ``url`` cannot be used (``None``: it answers)."""
    try:
        import redis
    except ImportError:
        return (
            "the redis package is missing:"  # i18n: ignore
            " in the checkout, .venv/bin/pip install -e '.[cluster]'"  # i18n: ignore
        )
    try:
        client = redis.Redis.from_url(url, socket_timeout=3, socket_connect_timeout=3)
        client.ping()
        client.close()
    except Exception as exc:
        where = url.split("@")[-1]
        return f"cannot reach Redis at {where}: {exc}"  # i18n: ignore (for the operator)
    return None


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted."""
    import uvicorn

    from .notify.options import notify_config
    from .storage.store import Store
    from .tables.protocol import WS_MAX_SIZE
    from .tables.scheduler import TIME_CONTROLS, offer_bots
    from .tables.table import TimeControl
    from .tables.wsframes import WebSocketProtocol
    from .web.address import invite_base, public_url_problem
    from .web.app import create_app

    # Said to whoever runs the server, like its log: English.
    problem = None
    notify = None
    if not 1 <= args.port <= 65535:
        problem = f"--port is 1 to 65535, not {args.port}"  # i18n: ignore
    elif not args.bot_delay >= 0:
        problem = f"--bot-delay is 0 seconds or more, not {args.bot_delay}"  # i18n: ignore
    elif args.bot_workers < 1:
        problem = f"--bot-workers is 1 or more, not {args.bot_workers}"  # i18n: ignore
    elif not args.message_rate > 0:
        problem = f"--message-rate is more than 0, not {args.message_rate}"  # i18n: ignore
    elif args.public_url and (bad_url := public_url_problem(args.public_url)):
        problem = bad_url
    elif bad := next((b for b in args.bot if "=" not in b or not b.partition("=")[2]), None):
        problem = f"--bot is NAME=SPEC (model=policy:gen-5.zip), not {bad!r}"  # i18n: ignore
    else:
        try:
            for text in args.time_control:
                names = tuple(n for n, tc in TIME_CONTROLS.items() if tc is not None)
                name, turn, reserve = time_control(text, names)
                TIME_CONTROLS[name] = TimeControl(name, turn, reserve)
        except ValueError as exc:
            problem = str(exc)
        if not problem and args.redis:
            problem = redis_problem(args.redis)
        if not problem:
            try:
                notify = notify_config(args)
            except ValueError as exc:
                problem = str(exc)
    if not problem:
        try:  # open (and migrate) it now, to say what is wrong before anything starts
            Store(args.db).close()
        except Exception as exc:
            reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            problem = f"cannot open the database {args.db.split('@')[-1]}: {reason}"  # i18n: ignore
    if problem:
        print(f"sequence serve: {problem}", file=sys.stderr)  # i18n: ignore (for the operator)
        return 2
    bots = dict(b.partition("=")[::2] for b in args.bot)
    try:
        offer_bots(bots)  # build each now: a bad spec is one clear line, not a table's failure
    except ValueError as exc:
        print(f"sequence serve: --bot {exc}", file=sys.stderr)  # i18n: ignore
        return 2
    # A mistake in the command line is told before a port someone else holds.
    taken = cannot_listen(args.host, args.port)
    if taken:
        print(f"sequence serve: {taken}", file=sys.stderr)  # i18n: ignore (for the operator)
        return 3  # uvicorn's status when it cannot start
    executor = make_executor(args.bot_workers, args.bot_threads)
    app = create_app(
        db=args.db,
        bot_delay=args.bot_delay,
        executor=executor,
        away_seconds=args.away_seconds,
        rate=args.message_rate,
        burst=2 * args.message_rate,
        redis=args.redis,
        redis_prefix=args.redis_prefix,
        bots=bots,
        invite_base=(links := invite_base(args.host, args.port, args.public_url)),
        notify=notify,
    )
    # For whoever runs the server, like its log: English. Where friends open it, when it is
    # not this machine only: the address the invite links use.
    # Behind a public URL the process itself still listens here: say both, so whoever runs it
    # can check it directly (or find it in the proxy's settings).
    shown = f"[{args.host}]" if ":" in args.host else args.host
    listening = f"http://{shown}:{args.port}"
    details = [f"listening on {listening}"] if args.public_url else []  # i18n: ignore (the log)
    details.append(f"database {args.db.split('@')[-1]}")  # i18n: ignore
    details += [f"Redis {args.redis.split('@')[-1]}"] if args.redis else []  # i18n: ignore
    print(f"Sequence: open {links or listening}/ ({', '.join(details)})")  # i18n: ignore
    # uvicorn stops gracefully on SIGINT or SIGTERM, then raises the signal again with the
    # handler found before it started. SIGTERM's default would kill the process there, before
    # the pool below is shut down, orphaning its workers (systemctl stop, docker stop): make it
    # end like Ctrl-C instead.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        uvicorn.run(
            app,
            host=args.host,
            port=args.port,
            log_level=args.log_level,
            proxy_headers=True,
            forwarded_allow_ips=args.forwarded_allow_ips,
            ws_max_size=WS_MAX_SIZE,
            ws=WebSocketProtocol,  # a frame over ws_max_size: the client is told why
            ws_ping_interval=20,
            ws_ping_timeout=20,
        )
    finally:
        executor.shutdown(wait=False, cancel_futures=True)
    return 0
