"""A real server on a random loopback port, and a WebSocket client that keeps every message."""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from sqlalchemy import Engine, text
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from sequence.engine import Config
from sequence.server.cluster.launcher import free_port as free_port  # the tests take it from here
from sequence.server.storage.db import make_engine, migrate
from sequence.server.tables import protocol
from sequence.server.tables.store import TableStore
from sequence.server.tables.wsframes import WebSocketProtocol
from sequence.server.web.app import create_app

HINT_KEYS = {"type", "version", "seat", "move", "move_says", "notes"}
"""The keys of a ``hint`` message (the move in notation and in the player's words)."""

PG_URL = os.environ.get("SEQUENCE_TEST_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


def load_stored(db: str, code: str) -> Any:
    """Table ``code`` as database ``db`` holds it (seed and moves: what a test checks against)."""
    store = TableStore(db)
    try:
        return store.load(code)
    finally:
        store.close()


def old_database(url: str, revision: str, config: Config) -> Engine:
    """The database at ``url`` brought to the older schema ``revision`` only, holding one table
    in play, ``OLDONE`` (id 1, seed 7), of ``config``; the caller adds its rows (seats, moves)
    through the engine returned, then disposes of it."""
    engine = make_engine(url)
    migrate(engine, revision)
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO game_tables (id, code, config, seed, public, status, host_hash,"
                " created_at) VALUES (1, 'OLDONE', :config, 7, TRUE, 'playing', 'h', '2025-01-01')"
            ),
            {"config": json.dumps(config.to_dict())},
        )
    return engine


class ServerThread:
    """uvicorn serving :func:`create_app` in a thread, on ``host`` (127.0.0.1; 0.0.0.0: every
    address of this machine, the loopback included) and ``port`` (default a free one); ``url``
    is on 127.0.0.1."""

    def __init__(
        self, db: str, host: str = "127.0.0.1", port: int | None = None, **kwargs: Any
    ) -> None:
        self.db = db
        self.tokens: dict[int, str] = {}
        self.app = create_app(db=db, **kwargs)
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        config = uvicorn.Config(
            self.app,
            host=host,
            port=self.port,
            log_level="warning",
            ws_max_size=protocol.WS_MAX_SIZE,
            ws=WebSocketProtocol,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> ServerThread:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(30)

    @property
    def hub(self) -> Any:
        return self.app.state.hub()

    def http(self) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=20)

    def stored(self, code: str) -> Any:
        """The table as the database holds it."""
        return load_stored(self.db, code)


def apply_delta(held: dict[str, Any] | None, delta: dict[str, Any]) -> dict[str, Any] | None:
    """The whole state a ``delta`` message makes of the state message ``held``, as the browser
    (app.js's ``applyDelta``) makes it; ``None`` when ``held`` is not at the delta's base (the
    client must ask with ``sync``)."""
    if held is None or held["view"] is None or held["version"] != delta["base"]:
        return None
    if len(held["view"]["log"]) != delta["base"]:
        return None
    log = held["view"]["log"] + delta["log"]
    view = {**delta["view"], "log": log, "moves": [e["move"] for e in log]}
    keys = ("version", "you", "table", "clock")
    return {"type": "state", **{k: delta[k] for k in keys}, "view": view}


class Client:
    """A WebSocket client for one seat (or a spectator) that records everything it receives."""

    def __init__(
        self,
        server: ServerThread,
        code: str,
        token: str | None = None,
        host: str | None = None,
        local: Any = None,
    ) -> None:
        self.server, self.code, self.token, self.host = server, code, token, host
        self.received: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.whole: dict[str, Any] | None = None
        """The last state, whole (deltas applied)."""
        url = f"{server.ws_url}/ws/{code}"
        self.ws: ClientConnection = connect(url, open_timeout=10, max_size=2**22).__enter__()
        # The server may answer and close before the hello goes out (an unknown table): what it
        # sent stays readable with recv().
        with contextlib.suppress(ConnectionClosed):
            hello = {"type": "hello", "token": token, "host": host}
            if local is not None:  # the other seats of a pass-and-play device
                hello["local"] = local
            self.send(hello)

    def send(self, msg: Any) -> None:
        self.ws.send(msg if isinstance(msg, str | bytes) else json.dumps(msg))

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        """The next message; a delta comes back as the whole state it makes of the last one
        (:func:`apply_delta`: the server sends each connection its deltas in order, so a gap
        is a bug), its text in :attr:`raw` as sent."""
        text = self.ws.recv(timeout=timeout)
        assert isinstance(text, str)
        self.raw.append(text)
        msg = json.loads(text)
        if msg["type"] == "delta":
            whole = apply_delta(self.whole, msg)
            assert whole is not None, f"a delta from {msg['base']} to a client at {self.whole}"
            msg = whole
        if msg["type"] == "state":
            self.whole = msg
        self.received.append(msg)
        return msg

    def drain(self, quiet: float = 0.05) -> None:
        """Read until nothing arrives for ``quiet`` seconds."""
        while True:
            try:
                self.recv(timeout=quiet)
            except TimeoutError:
                return

    @property
    def state(self) -> dict[str, Any] | None:
        for msg in reversed(self.received):
            if msg["type"] == "state":
                return msg
        return None

    def wait(self, pred: Any, timeout: float = 20) -> dict[str, Any]:
        """Read until the latest state satisfies ``pred``; return it."""
        deadline = time.monotonic() + timeout
        st = self.state
        while st is None or not pred(st):
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(
                    f"timed out waiting; last state version {st and st['version']}"
                )
            self.recv(timeout=left)
            st = self.state
        return st

    def wait_version(self, version: int, timeout: float = 20) -> dict[str, Any]:
        return self.wait(lambda s: s["version"] >= version, timeout)

    def error(self, timeout: float = 10) -> dict[str, Any]:
        """Read until an error arrives; return it."""
        deadline = time.monotonic() + timeout
        while True:
            msg = self.recv(timeout=max(0.01, deadline - time.monotonic()))
            if msg["type"] == "error":
                return msg

    def close(self) -> None:
        self.ws.close()


def answer(client: Client, mid: str, timeout: float = 10) -> dict[str, Any]:
    """Read until the ack of, or an error about, move ``mid``."""
    deadline = time.monotonic() + timeout
    while True:
        msg = client.recv(timeout=max(0.01, deadline - time.monotonic()))
        if msg["type"] in ("ack", "error") and msg.get("id") == mid:
            return msg


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'test.db'}"


@pytest.fixture
def server(sqlite_url: str) -> Iterator[ServerThread]:
    with ServerThread(sqlite_url, bot_delay=0, rate=10_000, burst=10_000) as srv:
        yield srv


def postgres_available() -> str | None:
    """``None`` if the test PostgreSQL answers, else why not."""
    try:
        import psycopg
    except ImportError:
        return "psycopg is not installed"
    try:
        with psycopg.connect(PG_URL.replace("+psycopg", ""), connect_timeout=3):
            return None
    except Exception as exc:
        return f"PostgreSQL at {PG_URL} is not reachable: {exc}"


def create_table(server: ServerThread, **body: Any) -> dict[str, Any]:
    with server.http() as http:
        r = http.post("/api/tables", json=body)
        assert r.status_code == 200, r.text
        return dict(r.json())


def join(server: ServerThread, code: str, name: str, seat: int | None = None) -> dict[str, Any]:
    with server.http() as http:
        r = http.post(f"/api/tables/{code}/join", json={"name": name, "seat": seat})
        assert r.status_code == 200, r.text
        return dict(r.json())


def gone_for(table: Any, seconds: float) -> None:
    """Make the people of ``table`` (its seated players, its host's link) look as if each last
    left ``seconds`` ago: the tests' fake of waiting that long (as a lobby is aged)."""
    then = time.monotonic() - seconds
    table.host_left_at = then
    for s in table.seats:
        s.left_at = then


def start(server: ServerThread, code: str, host_token: str) -> None:
    with server.http() as http:
        r = http.post(f"/api/tables/{code}/start", json={"host_token": host_token})
        assert r.status_code == 200, r.text


CHROMIUM = "/usr/bin/chromium"
"""Debian's Chromium, which the browser tests (and ``scripts/screenshots.py``) drive."""
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]  # fmt: skip


def chromium_missing() -> str | None:
    """Why Chromium cannot be driven here (``None``: it can)."""
    if not os.path.exists(CHROMIUM):
        return f"Debian's chromium is not installed at {CHROMIUM} (apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed"
    return None


@contextlib.contextmanager
def chromium() -> Iterator[Any]:
    """Headless Chromium through Playwright (check :func:`chromium_missing` first)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()


def _launched() -> Iterator[Any]:
    why = chromium_missing()
    if why:
        pytest.skip(why)
    with chromium() as b:
        yield b


@pytest.fixture
def browser() -> Iterator[Any]:
    """Headless Chromium through Playwright (skipped where either is missing)."""
    yield from _launched()


@pytest.fixture(scope="module")
def module_browser() -> Iterator[Any]:
    """One headless Chromium for a whole test module (skipped where missing)."""
    yield from _launched()


def seated_page(
    browser: Any,
    server: ServerThread,
    size: dict[str, Any],
    created: dict[str, Any],
    **stored: str,
) -> Any:
    """A page of ``browser`` at ``size`` holding the creator's seat and host rights of the table
    ``created`` (and ``seq.KEY`` = value for each of ``stored``), the game started, at the
    creator's first turn."""
    code = created["code"]
    page = browser.new_context(**size).new_page()
    page.goto(server.url + "/")
    items = {f"seq.seat.{code}": created["seat_token"], f"seq.host.{code}": created["host_token"]}
    items.update({f"seq.{key}": value for key, value in stored.items()})
    page.evaluate(
        "(items) => { for (const [k, v] of Object.entries(items)) localStorage.setItem(k, v); }",
        items,
    )
    page.goto(server.url + f"/t/{code}")
    page.click("#start")
    page.wait_for_function(
        "() => window.seq.msg && window.seq.msg.view && window.seq.msg.view.to_move === 0"
        " && window.seq.msg.view.legal_moves.length > 0",
        timeout=20000,
    )
    return page


@pytest.fixture
def web(sqlite_url: str) -> Iterator[ServerThread]:
    """A server whose bots move quickly, for the browser tests."""
    with ServerThread(sqlite_url, bot_delay=0.05) as srv:
        yield srv


@contextlib.contextmanager
def fresh_postgres() -> Iterator[str]:
    """A new, empty PostgreSQL database for one test, dropped afterwards: the shared ``test``
    database may hold another checkout's migrations (a newer revision this one cannot read)."""
    why = postgres_available()
    if why:
        pytest.skip(why)
    import psycopg

    name = f"seq_test_{secrets.token_hex(4)}"
    admin = PG_URL.replace("+psycopg", "")
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    try:
        yield PG_URL.rsplit("/", 1)[0] + "/" + name
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE {name} WITH (FORCE)")
