"""The web app: the HTTP API, the WebSocket, the static browser client.

HTTP (JSON):

- ``GET /api/meta`` games, player counts, options and bot levels (for the create form);
- ``POST /api/tables`` create a table (and take a seat): returns its code, link and tokens;
- ``GET /api/tables`` open public tables; ``GET /api/tables/{code}`` one table's public facts;
- ``POST /api/tables/{code}/join`` take a seat; ``/start``, ``/seats/{seat}/bot`` (host),
  ``/rematch`` (a player);
- ``GET /api/finished`` finished games; ``GET /api/tables/{code}/record`` a finished game's
  record; ``GET /api/tables/{code}/replay/{ply}`` the spectators' view after ``ply`` moves of a
  finished game;
- ``GET /api/i18n/{lang}`` the client's strings in a language.

WebSocket ``/ws/{code}``: see :mod:`sequence.server.protocol`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from concurrent.futures import Executor, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.routing import Match
from starlette.websockets import WebSocketDisconnect

from ..engine import (
    GAMES,
    OPTIONS,
    SPECS,
    ConfigError,
    GameRecord,
    Move,
    config_from_dict,
    dice_line_lengths,
    player_counts,
    takes_option,
    team_counts,
)
from ..i18n import LANGUAGE_NAMES, N_, SUPPORTED, catalog_json, negotiate, normalise
from ..i18n.howto import rules_html
from . import protocol
from .connection import Connection, ConnectionClosed
from .errors import RequestError, engine_refusal
from .hub import AWAY_SECONDS, Hub
from .protocol import MAX_MESSAGE
from .scheduler import TIME_CONTROLS, bot_levels, check_level, check_time_control
from .store import Store
from .table import Table

STATIC = Path(__file__).parent / "static"
MAX_BODY = 16_384


def request_language(headers: Any) -> str:
    """The language of a request: its ``Accept-Language`` (the web client sends its choice)."""
    return negotiate(headers.get("accept-language"))


def _error(exc: RequestError, lang: str) -> JSONResponse:
    return JSONResponse({"error": exc.code, "message": exc.text(lang)}, status_code=exc.status)


def _allowed_methods(app: FastAPI, scope: Any) -> str:
    """The methods of every route for a request's path, for a 405's ``Allow``: Starlette's names
    only the first route's (``GET /api/tables`` and not its ``POST``)."""
    methods: set[str] = set()
    for route in app.router.routes:
        if route.matches(scope)[0] != Match.NONE:
            methods.update(getattr(route, "methods", None) or ())
    return ", ".join(sorted(methods))


def _language(value: Any) -> str:
    """A language a client asked for by code (``hello`` or ``lang`` message)."""
    code = normalise(value) if isinstance(value, str) else None
    if code is None:
        raise RequestError(
            "bad_message",
            N_("unknown language {lang}; choose one of {languages}"),
            lang=repr(value)[:20],
            languages=", ".join(SUPPORTED),
        )
    return code


def _too_large() -> RequestError:
    return RequestError(
        "too_large", N_("the request is larger than {limit} bytes"), 413, limit=MAX_BODY
    )


async def _body(request: Request) -> dict[str, Any]:
    # Refuse by the declared length, and stop reading past the limit, so that a huge upload
    # never sits in memory.
    declared = request.headers.get("content-length", "")
    if declared.isdecimal() and int(declared) > MAX_BODY:
        raise _too_large()
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            raise _too_large()
    if not raw:
        return {}
    try:
        data = json.loads(raw)
    except ValueError:
        raise RequestError("bad_json", N_("the request body is not JSON")) from None
    if not isinstance(data, dict):
        raise RequestError("bad_message", N_("the request body must be a JSON object"))
    return data


def _token(body: dict[str, Any], key: str) -> str | None:
    """A secret token from a request body: text or absent."""
    token = body.get(key)
    if not isinstance(token, str | None):
        raise RequestError("bad_message", N_("tokens are text"))
    return token


def _seat_number(body: dict[str, Any]) -> int | None:
    seat = body.get("seat")
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
        raise RequestError("bad_message", N_("seat is a number"))
    return seat


def create_app(
    db: str = "sqlite:///sequence.db",
    bot_delay: float = 0.5,
    executor: Executor | None = None,
    rate: float = 20.0,
    burst: float = 40.0,
    away_seconds: float = AWAY_SECONDS,
) -> FastAPI:
    """The app for the database at ``db`` (migrated and resumed at start-up); ``away_seconds``:
    how long a player must be gone before another may hand their seat to a bot."""
    state: dict[str, Any] = {}

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(db)
        pool = executor or ThreadPoolExecutor(max_workers=2, thread_name_prefix="sequence-bot")
        hub = Hub(store, pool, bot_delay=bot_delay, away_seconds=away_seconds)
        state["hub"] = hub
        await hub.resume()
        try:
            yield
        finally:
            await hub.shutdown()
            if executor is None:
                pool.shutdown(wait=False, cancel_futures=True)
            store.close()

    app = FastAPI(title="Sequence", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    def hub() -> Hub:
        return state["hub"]  # type: ignore[no-any-return]

    @app.exception_handler(RequestError)
    async def request_error(request: Request, exc: RequestError) -> JSONResponse:
        return _error(exc, request_language(request.headers))

    @app.exception_handler(RequestValidationError)
    async def invalid_parameter(request: Request, exc: RequestValidationError) -> JSONResponse:
        # The typed path and query parameters (seat, ply, limit) are all whole numbers; answer in
        # the API's own error format rather than FastAPI's.
        names = sorted({str(e["loc"][-1]) for e in exc.errors() if e.get("loc")})
        error = RequestError(
            "bad_message", N_("{name} must be a whole number"), name=", ".join(names) or "?"
        )
        return _error(error, request_language(request.headers))

    @app.exception_handler(HTTPException)
    async def routing_error(request: Request, exc: HTTPException) -> Response:
        # No route for the path (or no such static file), or a method the route does not take:
        # the API's own error format too, rather than FastAPI's {"detail": ...}.
        path = request.url.path[:100]
        if exc.status_code not in (404, 405):  # none raised by this app; kept as they come
            return await http_exception_handler(request, exc)
        if exc.status_code == 404:
            error = RequestError("not_found", N_("there is nothing at {path}"), 404, path=path)
            return _error(error, request_language(request.headers))
        allowed = _allowed_methods(app, request.scope)
        error = RequestError(
            "method_not_allowed",
            N_("{path} does not take {method}; it takes {allowed}"),
            405,
            path=path,
            method=request.method,
            allowed=allowed,
        )
        response = _error(error, request_language(request.headers))
        response.headers["Allow"] = allowed
        return response

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/t/{code}", include_in_schema=False)
    async def table_page(code: str) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/replay/{code}", include_in_schema=False)
    async def replay_page(code: str) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/rules/{game}", include_in_schema=False)
    async def rules_page(game: str) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/api/rules/{game}")
    async def rules(game: str, request: Request) -> dict[str, Any]:
        """The "how to play" page of a game, as HTML, in the request's language."""
        if game not in GAMES:
            raise RequestError(
                "bad_message",
                N_("unknown game {text}: choose classic, kids or dice"),
                404,
                text=game[:20],
            )
        lang = request_language(request.headers)
        return {"game": game, "lang": lang, "html": rules_html(game, lang)}

    @app.get("/api/meta")
    async def meta(request: Request) -> dict[str, Any]:
        return {
            # What the create form offers, asked of the engine: it never re-derives a rule.
            "games": {
                g: {
                    "title": SPECS[g].title,
                    "players": list(player_counts(g)),
                    "teams": {n: list(team_counts(g, n)) for n in player_counts(g)},
                    "options": [name for name in OPTIONS if takes_option(g, name)],
                }
                for g in GAMES
            },
            "dice_line_lengths": list(dice_line_lengths()),
            "options": {
                name: {"default": o.default, "games": list(o.games), "help": o.help}
                for name, o in OPTIONS.items()
            },
            "bots": bot_levels(),
            "time_controls": {
                name: None if tc is None else {"turn": tc.turn, "reserve": tc.reserve}
                for name, tc in TIME_CONTROLS.items()
            },
            "languages": list(SUPPORTED),
            "language_names": LANGUAGE_NAMES,
            "language": request_language(request.headers),
        }

    @app.get("/api/i18n/{lang}")
    async def i18n(lang: str) -> dict[str, Any]:
        if lang not in SUPPORTED:
            raise RequestError(
                "bad_message",
                N_("unknown language {lang}; choose one of {languages}"),
                404,
                lang=repr(lang)[:20],
                languages=", ".join(SUPPORTED),
            )
        return catalog_json(lang)

    @app.post("/api/tables")
    async def create(request: Request) -> dict[str, Any]:
        body = await _body(request)
        public = body.get("public", True)
        if not isinstance(public, bool):
            raise RequestError("bad_message", N_("public is true or false"))
        for required in ("game", "players"):  # the engine would default them: a client must not
            if body.get(required) is None:
                raise RequestError(
                    "bad_message",
                    N_("{name} is missing: a table needs a game and a number of players"),
                    name=required,
                )
        spec = {"game": body["game"], "players": body["players"]}
        if body.get("teams") is not None:
            spec["teams"] = body["teams"]
        options = body.get("options") or {}
        if not isinstance(options, dict):
            raise RequestError("bad_message", N_("options must be an object"))
        try:
            config = config_from_dict({**options, **spec})
        except ConfigError as exc:
            raise engine_refusal("bad_message", exc) from None
        bots = body.get("bots") or []
        if not isinstance(bots, list) or not all(b is None or isinstance(b, str) for b in bots):
            raise RequestError("bad_message", N_("bots is a list with a level or null per seat"))
        clock = check_time_control(body.get("clock", "off"))
        level = body.get("bot_level")
        if level is not None:
            check_level(level)
        table, host_token, seat_token, seat = await hub().create(
            config, bots, public, body.get("name"), _seat_number(body), clock, level
        )
        return {
            "code": table.code,
            "url": f"/t/{table.code}",
            "host_token": host_token,
            "seat_token": seat_token,
            "seat": seat,
        }

    @app.get("/api/tables")
    async def open_tables() -> dict[str, Any]:
        return {"tables": hub().registry.open_tables()}

    @app.get("/api/tables/{code}")
    async def table_info(code: str) -> Response:
        table = await hub().get(code)
        return Response(protocol.table_meta_json(table), media_type="application/json")

    @app.post("/api/tables/{code}/join")
    async def join(code: str, request: Request) -> dict[str, Any]:
        body = await _body(request)
        table = await hub().get(code)
        seat, token = await hub().join(table, _seat_number(body), body.get("name"))
        return {"code": table.code, "seat": seat, "seat_token": token}

    @app.post("/api/tables/{code}/start")
    async def start(code: str, request: Request) -> dict[str, Any]:
        body = await _body(request)
        table = await hub().get(code)
        await hub().start(table, _token(body, "host_token"))
        return {"code": table.code, "status": table.status}

    @app.post("/api/tables/{code}/seats/{seat}/bot")
    async def seat_bot(code: str, seat: int, request: Request) -> dict[str, Any]:
        body = await _body(request)
        table = await hub().get(code)
        token = _token(body, "host_token") or _token(body, "token")
        await hub().set_bot(table, seat, body.get("level"), token)
        return {"code": table.code, "seat": seat, "bot": table.seats[seat].bot}

    @app.post("/api/tables/{code}/rematch")
    async def rematch(code: str, request: Request) -> dict[str, Any]:
        body = await _body(request)
        table = await hub().get(code)
        new = await hub().rematch(table, _token(body, "token"))
        return {"code": new.code, "url": f"/t/{new.code}"}

    @app.get("/api/finished")
    async def finished(limit: int = 50) -> dict[str, Any]:
        rows = await hub().registry.finished(max(1, min(limit, 200)))
        return {
            "games": [
                {
                    "code": r.code,
                    "config": r.config,
                    "result": r.result,
                    "finished_at": r.finished_at,
                    "players": [s.name for s in r.seats],
                }
                for r in rows
            ]
        }

    async def finished_table(code: str) -> Any:
        table = await hub().get(code)
        if table.status != "finished" or table.state is None:
            raise RequestError(
                "not_finished", N_("a game's record is published only when the game is over"), 403
            )
        return table

    @app.get("/api/tables/{code}/record")
    async def record(code: str) -> dict[str, Any]:
        table = await finished_table(code)
        tags = {f"Seat{s.seat + 1}": s.name or "" for s in table.seats}
        if table.result and table.state.outcome is None:
            tags["Resigned"] = table.result  # a resignation ended it, not a move
        for i, e in enumerate(table.events, 1):
            tags[f"Event{i}"] = protocol.event_text(e)
        rec = GameRecord.from_state(table.state, tags={"Table": table.code, **tags})
        return {
            "record": rec.to_dict(),
            "text": rec.to_text(),
            "events": [e.to_dict() for e in table.events],
        }

    @app.get("/api/tables/{code}/replay/{ply}")
    async def replay(code: str, ply: int) -> Response:
        table = await finished_table(code)
        moves: tuple[Move, ...] = table.state.move_stack
        if not 0 <= ply <= len(moves):
            raise RequestError("bad_message", N_("the game has {n} moves"), 404, n=len(moves))
        rec = GameRecord(table.config, table.seed, moves)
        view = protocol.view_dict(rec.replay(upto=ply), None)
        return Response(
            protocol.dumps({"ply": ply, "plies": len(moves), "view": view}),
            media_type="application/json",
        )

    @app.websocket("/ws/{code}")
    async def ws(websocket: WebSocket, code: str) -> None:
        await websocket.accept()
        conn = Connection(websocket, rate, burst)
        try:
            await serve_connection(hub(), conn, code)
        except (ConnectionClosed, WebSocketDisconnect):
            pass
        finally:
            await conn.finish()
            with contextlib.suppress(Exception):
                await websocket.close()

    app.state.hub = hub
    return app


def _parse(raw: str | bytes) -> dict[str, Any]:
    if len(raw) > MAX_MESSAGE:
        raise RequestError(
            "too_large",
            N_("messages are at most {limit} bytes; nothing was done"),
            limit=MAX_MESSAGE,
        )
    if isinstance(raw, bytes):
        raise RequestError("bad_message", N_("send JSON text frames, not binary"))
    try:
        msg = json.loads(raw)
    except ValueError:
        raise RequestError("bad_json", N_("the message is not JSON; nothing was done")) from None
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        raise RequestError("bad_message", N_('a message is a JSON object with a "type"'))
    return msg


async def serve_connection(hub: Hub, conn: Connection, code: str) -> None:
    """One client's session: the hello, then requests until it leaves.

    Error replies are in the connection's language: the browser's ``Accept-Language`` at the
    handshake, then whatever ``hello`` or a ``lang`` message names.
    """
    conn.lang = request_language(conn.headers)
    try:
        table = await hub.get(code)
    except RequestError as exc:
        conn.send(protocol.error_payload(exc.code, exc.text(conn.lang)))
        return
    attached = False
    while not attached:
        try:
            raw = await asyncio.wait_for(conn.receive(), 30)
        except TimeoutError:
            return
        try:
            if not conn.allow():
                raise RequestError(
                    "rate_limited", N_("too many messages: slow down; nothing was done")
                )
            msg = _parse(raw)
            if msg.get("lang") is not None:
                conn.lang = _language(msg["lang"])
            if msg["type"] != "hello":
                raise RequestError(
                    "bad_message", N_('say "hello" first (with your seat token, if any)')
                )
            token, host = msg.get("token"), msg.get("host")
            if not isinstance(token, str | None) or not isinstance(host, str | None):
                raise RequestError("bad_message", N_("tokens are text"))
            hub.attach(table, conn, token, host)
            attached = True
        except RequestError as exc:
            conn.send(protocol.error_payload(exc.code, exc.text(conn.lang)))
    try:
        await _serve_requests(hub, conn, table)
    finally:
        hub.detach(table, conn)


async def _serve_requests(hub: Hub, conn: Connection, table: Table) -> None:
    """A seated (or watching) client's requests, until it leaves."""
    while not conn.closed:
        raw = await conn.receive()
        msg: Any = None
        try:
            if not conn.allow():
                raise RequestError(
                    "rate_limited", N_("too many messages: slow down; nothing was done")
                )
            msg = _parse(raw)
            kind = msg["type"]
            if kind in ("hello", "lang") and msg.get("lang") is not None:
                conn.lang = _language(msg["lang"])
            if kind == "move":
                await hub.play(table, conn, msg.get("move"), msg.get("version"), msg.get("id"))
            elif kind == "roll":
                await hub.roll(table, conn, msg.get("version"), msg.get("id"))
            elif kind == "resign":
                await hub.resign(table, conn)
            elif kind == "penalty":
                await hub.penalty(table, conn, msg.get("team"), msg.get("version"))
            elif kind == "back":
                await hub.take_back(table, conn)
            elif kind in ("sync", "hello"):
                conn.send(protocol.state_payload(table, conn.seat, conn.rights.hosts(table)))
            elif kind == "ping":
                conn.send(protocol.pong_payload())
            elif kind == "lang":
                if msg.get("lang") is None:
                    raise RequestError("bad_message", N_("name the language, for example fr"))
            else:
                raise RequestError(
                    "bad_message", N_("unknown message type {type}"), type=repr(kind[:20])
                )
        except RequestError as exc:
            mid = msg.get("id") if isinstance(msg, dict) else None
            conn.send(
                protocol.error_payload(
                    exc.code,
                    exc.text(conn.lang),
                    table.version,
                    mid if isinstance(mid, str) and len(mid) <= 64 else None,
                )
            )
