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
- ``GET /api/tables/{code}/qr.svg`` the table's invite link as a QR code;
- ``GET /api/i18n/{lang}`` the client's strings in a language.

WebSocket ``/ws/{code}``: see :mod:`sequence.server.protocol`.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
from collections.abc import AsyncIterator, Mapping
from concurrent.futures import Executor, ThreadPoolExecutor
from pathlib import Path
from typing import Any, Final

import segno
from fastapi import FastAPI, Request, WebSocket
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.routing import Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocketDisconnect

from ..engine import (
    GAMES,
    OPTIONS,
    SPECS,
    VARIANTS,
    ConfigError,
    GameRecord,
    Move,
    dice_line_lengths,
    make_config,
    player_counts,
    takes_option,
    team_counts,
    unknown_game,
)
from ..i18n import LANGUAGE_NAMES, N_, SUPPORTED, catalog_json, negotiate, normalise
from ..i18n.howto import rules_html
from . import messages, protocol
from .account_api import AccountService, add_account_routes
from .accounts import Passwords
from .attempts import AttemptLimits, Counter, MemoryCounter, RedisCounter
from .cluster import RedisCluster
from .connection import Connection, ConnectionClosed
from .errors import RateLimited, RequestError, engine_refusal, invalid_request
from .hub import AWAY_SECONDS, Hub, seat_bots
from .learn_api import learn_router
from .limits import MAX_DEPTH, ClientLimiter, json_depth
from .matchmaking import WAITS
from .models import (
    Catalogue,
    Created,
    CreateTable,
    ErrorAnswer,
    Finished,
    Join,
    Joined,
    Meta,
    OpenTables,
    Rematch,
    Rematched,
    Replay,
    Rules,
    SeatBot,
    SeatBotAnswer,
    Start,
    Started,
    TableInfo,
)
from .models import Record as RecordAnswer
from .protocol import MAX_FRAME, MAX_MESSAGE
from .ranked import Ranked
from .ratings_api import ratings_router
from .scheduler import TIME_CONTROLS, bot_levels, check_level, check_time_control, offer_bots
from .store import Store
from .table import Table
from .wsframes import frame_too_large

log = logging.getLogger("sequence.server")

STATIC = Path(__file__).parent / "static"
MAX_BODY = 16_384


def invite_qr_svg(link: str) -> str:
    """``link`` as a QR code in SVG (error correction M, 4 modules of quiet zone, 6 px a
    module): black on white, no script, no external reference."""
    qr = segno.make(link, error="m", micro=False)
    out = io.BytesIO()
    qr.save(out, kind="svg", scale=6, border=4, xmldecl=False, svgclass="qr", title=None)
    return out.getvalue().decode("utf-8")


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


def _too_deep() -> RequestError:
    return RequestError(
        "bad_json",
        N_("the JSON nests deeper than {limit} levels; nothing was done"),
        limit=MAX_DEPTH,
    )


def _not_json(constant: str) -> Any:
    raise ValueError(constant)  # NaN, Infinity: Python reads them, JSON has no such numbers


def _check_body(raw: bytes) -> bool:
    """Refuse a request body that is not JSON, or nests too deeply to parse safely, before
    FastAPI parses it; return whether there is one (an empty body is left to the route's
    model, which says what is missing)."""
    if not raw.strip():
        return False
    if json_depth(raw) > MAX_DEPTH:
        raise _too_deep()
    try:
        json.loads(raw, parse_constant=_not_json)
    except (ValueError, RecursionError):
        raise RequestError("bad_json", N_("the request body is not JSON")) from None
    return True


class BodyGuard:
    """ASGI middleware: every request body is at most :data:`MAX_BODY` bytes (a longer declared
    ``Content-Length`` is refused before the body is read) and well-formed JSON of at most
    :data:`~.limits.MAX_DEPTH` levels; anything else is a 413 or 400 in the API's error format,
    and the app never sees it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        try:
            declared = headers.get("content-length", "")
            if declared.isdecimal() and int(declared) > MAX_BODY:
                raise _too_large()
            raw = b""
            more = True
            while more:
                message = await receive()
                if message["type"] == "http.disconnect":
                    return
                raw += message.get("body", b"")
                more = message.get("more_body", False)
                if len(raw) > MAX_BODY:
                    raise _too_large()
            if _check_body(raw):
                # JSON whatever the client declared (curl -d says form data): FastAPI reads
                # a body as JSON only when the header says so.
                scope = dict(scope)
                scope["headers"] = [
                    *((k, v) for k, v in scope["headers"] if k.lower() != b"content-type"),
                    (b"content-type", b"application/json"),
                ]
        except RequestError as exc:
            await _error(exc, request_language(headers))(scope, receive, send)
            return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": raw, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def _client(request: Request) -> str:
    """Who a request comes from, for the rate limits: its address (behind a proxy, uvicorn's
    ``--forwarded-allow-ips`` makes it the client's)."""
    return request.client.host if request.client else "?"


def _limit(limiter: ClientLimiter, request: Request) -> None:
    wait = limiter.take(_client(request))
    if wait:
        raise RateLimited(limiter.retry_after(wait))


def _errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The error answers of a route, for the OpenAPI description."""
    return {status: {"model": ErrorAnswer, "description": ERROR_STATUSES[status]}
            for status in statuses}  # fmt: skip


ERROR_STATUSES: dict[int, str] = {
    400: "bad_json, bad_message: malformed, or a value is wrong",  # i18n: ignore
    403: "not_host, not_seated, not_finished: the token lacks this right;"  # i18n: ignore
    " cross_site: a signed-in request without its CSRF token or from another site",
    404: "unknown_table, unknown_player; not_found: a game, language or ply"  # i18n: ignore
    " that the path names and that does not exist",
    409: "bad_message: a full table, a taken seat, a game started or still going",  # i18n: ignore
    413: "too_large: the body is over 16 KiB",  # i18n: ignore
    429: "rate_limited: too many tables made or joined (see Retry-After)",  # i18n: ignore
}
"""What each error status of the API means (every error is ``{error, message}``)."""


def create_app(
    db: str = "sqlite:///sequence.db",
    bot_delay: float = 0.5,
    executor: Executor | None = None,
    rate: float = 20.0,
    burst: float = 40.0,
    create_rate: float = 10 / 60,
    create_burst: float = 10,
    join_rate: float = 30 / 60,
    join_burst: float = 30,
    away_seconds: float = AWAY_SECONDS,
    quickplay_min_wait: float = WAITS[0],
    redis: str | None = None,
    redis_prefix: str = "sequence",
    bots: Mapping[str, str] | None = None,
    passwords: Passwords | None = None,
    attempt_limits: AttemptLimits | None = None,
) -> FastAPI:
    """The app for the database at ``db`` (migrated and resumed at start-up).

    ``redis``: the Redis URL through which this process shares the tables with the other
    server processes on the same database (``None``: it is the only one), and where sign-up
    and sign-in attempts are counted (``None``: in this process); ``redis_prefix`` starts
    every key and channel it uses there (see :mod:`.cluster`; the attempts' keys start with
    ``PREFIX:attempts:``).

    ``rate``/``burst``: messages a second (and at once) per WebSocket connection;
    ``create_rate``/``create_burst``: tables a client (an address) may create or rematch a
    second (and at once); ``join_rate``/``join_burst``: the same for taking seats;
    ``away_seconds``: how long a player must be gone before another may hand their seat to a
    bot; ``quickplay_min_wait``: the shortest wait for quick play a player may choose;
    ``redis``: the Redis URL shared by every server process (``sequence serve --redis``),
    where sign-up and sign-in attempts are counted (``None``: in this process), under keys
    starting with ``redis_prefix``; ``passwords``: the account passwords' Argon2id hasher
    (default: argon2-cffi's parameters); ``attempt_limits``: how many attempts; ``bots``: the
    operator's bots offered at tables besides the built-in ones (name -> spec,
    :func:`~sequence.server.scheduler.offer_bots`: ``{"model": "policy:gen-5.zip"}``).
    """
    offer_bots(bots or {})
    state: dict[str, Any] = {}
    creates = ClientLimiter(create_rate, create_burst)
    joins = ClientLimiter(join_rate, join_burst)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(db)
        pool = executor or ThreadPoolExecutor(max_workers=2, thread_name_prefix="sequence-bot")
        cluster = RedisCluster(redis, redis_prefix) if redis else None
        hub = Hub(store, pool, bot_delay=bot_delay, away_seconds=away_seconds, cluster=cluster)
        state["hub"] = hub
        state["ranked"] = Ranked(hub, min_wait=quickplay_min_wait)
        # The attempt counts use the cluster's Redis connection (one setup; the cluster closes it).
        counter: Counter = (
            RedisCounter(cluster.redis, f"{redis_prefix}:attempts:") if cluster else MemoryCounter()
        )
        state["accounts"] = AccountService(
            store,
            hub,
            passwords or Passwords(),
            counter,
            attempt_limits or AttemptLimits(),
            _client,
        )
        await hub.resume()
        await state["ranked"].start()
        try:
            yield
        finally:
            await counter.close()
            await hub.shutdown()
            if executor is None:
                pool.shutdown(wait=False, cancel_futures=True)
            store.close()

    app = FastAPI(
        title="Sequence",
        description=API_DESCRIPTION,
        version="1",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
    )
    app.add_middleware(BodyGuard)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    def hub() -> Hub:
        return state["hub"]  # type: ignore[no-any-return]

    def accounts() -> AccountService:
        return state["accounts"]  # type: ignore[no-any-return]

    add_account_routes(app, accounts)

    def ranked() -> Ranked:
        return state["ranked"]  # type: ignore[no-any-return]

    app.include_router(ratings_router(ranked, accounts, _errors, joins, _limit))
    app.include_router(learn_router(_errors))

    @app.exception_handler(RequestError)
    async def request_error(request: Request, exc: RequestError) -> JSONResponse:
        response = _error(exc, request_language(request.headers))
        if isinstance(exc, RateLimited):
            response.headers["Retry-After"] = exc.retry_after
        return response

    @app.exception_handler(RequestValidationError)
    async def invalid_request_handler(
        request: Request, exc: RequestValidationError
    ) -> JSONResponse:
        # A body that does not fit its model, a path or query parameter that is not a number:
        # a 400 in the API's own error format (not FastAPI's 422), naming the field.
        return _error(invalid_request(exc.errors()), request_language(request.headers))

    @app.exception_handler(HTTPException)
    async def routing_error(request: Request, exc: HTTPException) -> Response:
        # No route for the path (or no such static file), or a method the route does not take:
        # the API's own error format too, rather than FastAPI's {"detail": ...}.
        path = request.url.path[:100]
        if exc.status_code == 400:  # FastAPI could not read the body (BodyGuard checks first)
            error = RequestError("bad_json", N_("the request body is not JSON"))
            return _error(error, request_language(request.headers))
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

    @app.get("/manifest.webmanifest", include_in_schema=False)
    async def manifest() -> FileResponse:
        return FileResponse(STATIC / "manifest.webmanifest", media_type="application/manifest+json")

    @app.get("/sw.js", include_in_schema=False)
    async def service_worker() -> FileResponse:
        # At the root, so that its scope is the whole app; never cached by the browser itself.
        return FileResponse(
            STATIC / "sw.js",
            media_type="text/javascript",
            headers={"Cache-Control": "no-cache"},
        )

    @app.get("/t/{code}", include_in_schema=False)
    async def table_page(code: str) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/replay/{code}", include_in_schema=False)
    async def replay_page(code: str) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/leaderboard", include_in_schema=False)
    async def leaderboard_page() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/p/{player}", include_in_schema=False)
    async def player_page(player: str) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/rules/{game}", include_in_schema=False)
    async def rules_page(game: str) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/api/rules/{game}", response_model=Rules, responses=_errors(404))
    async def rules(game: str, request: Request) -> dict[str, Any]:
        """The "how to play" page of a game, as HTML, in the request's language."""
        if game not in GAMES:  # the engine's refusal names the games /api/meta lists
            raise engine_refusal("not_found", unknown_game(game[:20]), 404)
        lang = request_language(request.headers)
        return {"game": game, "lang": lang, "html": rules_html(game, lang)}

    @app.get("/api/meta", response_model=Meta)
    async def meta(request: Request) -> dict[str, Any]:
        return {
            # What the create form offers, asked of the engine: it never re-derives a rule.
            "games": {
                g: {
                    "title": SPECS[g].title,
                    "players": list(player_counts(g)),
                    "teams": {str(n): list(team_counts(g, n)) for n in player_counts(g)},
                    "options": [name for name in OPTIONS if takes_option(g, name)],
                }
                for g in GAMES
            },
            # Names POST /api/tables also takes as a game: a game with options (draft).
            "variants": {
                name: {"game": game, "options": options}
                for name, (game, options) in VARIANTS.items()
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

    @app.get("/api/i18n/{lang}", response_model=Catalogue, responses=_errors(404))
    async def i18n(lang: str) -> dict[str, Any]:
        if lang not in SUPPORTED:
            raise RequestError(
                "not_found",
                N_("unknown language {lang}; choose one of {languages}"),
                404,
                lang=repr(lang)[:20],
                languages=", ".join(SUPPORTED),
            )
        return catalog_json(lang)

    @app.post("/api/tables", response_model=Created, responses=_errors(400, 403, 413, 429))
    async def create(body: CreateTable, request: Request) -> dict[str, Any]:
        """A new table in the lobby; with a ``name``, its creator takes a seat (the account's,
        when signed in)."""
        _limit(creates, request)
        owner = await accounts().owner(request) if body.name is not None else None
        options = body.options.model_dump(exclude_none=True) if body.options else {}
        spec: dict[str, Any] = {"game": body.game, "players": body.players}
        if body.teams is not None:
            spec["teams"] = body.teams
        try:  # the engine says what the game takes (its reason, translated, if not)
            config = make_config(**spec, **options)
        except ConfigError as exc:
            raise engine_refusal("bad_message", exc) from None
        clock = check_time_control(body.clock)
        if body.bot_level is not None:
            check_level(body.bot_level)
        player = await ranked().player(body.player_token, owner)
        bots = seat_bots(body.bots, config.players)  # one a seat, before the rated rules
        local = [(s.seat, s.name) for s in body.local or ()]
        ranked().check_create(
            body.rated, config, clock, bots, body.bot_level, player, body.name is not None,
            bool(local),
        )  # fmt: skip
        table, host_token, seat_token, seat, taken = await hub().create(
            config,
            bots,
            body.public,
            body.name,
            body.seat,
            clock,
            body.bot_level,
            local,
            owner,
            rated=body.rated,
        )
        await ranked().created(table, seat, player)
        return {
            "code": table.code,
            "url": f"/t/{table.code}",
            "host_token": host_token,
            "seat_token": seat_token,
            "seat": seat,
            "local": [{"seat": n, "seat_token": token} for n, token in taken],
        }

    @app.get("/api/tables", response_model=OpenTables)
    async def open_tables() -> dict[str, Any]:
        """Public tables: lobbies to join and games in play to watch, the most recent first."""
        return {"tables": hub().registry.open_tables()}

    @app.get("/api/tables/{code}", response_model=TableInfo, responses=_errors(404))
    async def table_info(code: str) -> Response:
        """A table's public facts: settings, seats, names, who is away, where it stands."""
        table = await hub().get(code)
        return Response(protocol.table_meta_json(table), media_type="application/json")

    @app.get(
        "/api/tables/{code}/qr.svg",
        response_class=Response,
        responses={
            200: {"content": {"image/svg+xml": {}}, "description": "the QR code"},  # i18n: ignore
            **_errors(404),
        },
    )
    async def invite_qr(code: str, request: Request) -> Response:
        """The invite link (this server's address as the request reached it, then ``/t/CODE``)
        as a QR code, for a phone at the same table."""
        table = await hub().get(code)
        link = f"{str(request.base_url).rstrip('/')}/t/{table.code}"
        return Response(
            invite_qr_svg(link),
            media_type="image/svg+xml",
            headers={"Cache-Control": "public, max-age=3600"},  # i18n: ignore
        )

    @app.post(
        "/api/tables/{code}/join",
        response_model=Joined,
        responses=_errors(400, 403, 404, 409, 413, 429),
    )
    async def join(code: str, body: Join, request: Request) -> dict[str, Any]:
        """Take a seat in the lobby: the answer holds the seat's secret token (when signed in,
        the seat is the account's, and its token the same on every device)."""
        _limit(joins, request)
        owner = await accounts().owner(request)
        table = await hub().get(code)
        player = await ranked().player(body.player_token, owner)
        local = [(s.seat, s.name) for s in body.local or ()]
        await ranked().check_join(table, player, bool(local))
        seat, token, taken = await hub().join(table, body.seat, body.name, local, owner)
        await ranked().joined(table, seat, player)
        return {
            "code": table.code,
            "seat": seat,
            "seat_token": token,
            "local": [{"seat": n, "seat_token": t} for n, t in taken],
        }

    @app.post(
        "/api/tables/{code}/start",
        response_model=Started,
        responses=_errors(400, 403, 404, 409, 413),
    )
    async def start(code: str, body: Start) -> dict[str, Any]:
        """The host deals, once every seat has a player or a bot."""
        table = await hub().get(code)
        await hub().start(table, body.host_token)
        return {"code": table.code, "status": table.status}

    @app.post(
        "/api/tables/{code}/seats/{seat}/bot",
        response_model=SeatBotAnswer,
        responses=_errors(400, 403, 404, 409, 413),
    )
    async def seat_bot(code: str, seat: int, body: SeatBot) -> dict[str, Any]:
        """The host seats a bot (``level: null``: opens the seat in the lobby), or in play has
        one stand in for a player who is away."""
        if body.host_token is None and body.token is None:  # a 400 before any right is checked
            raise RequestError("bad_message", N_("{name} is missing"), name="host_token")
        table = await hub().get(code)
        await hub().set_bot(table, seat, body.level, body.host_token or body.token)
        return {"code": table.code, "seat": seat, "bot": table.seats[seat].bot}

    @app.post(
        "/api/tables/{code}/rematch",
        response_model=Rematched,
        responses=_errors(400, 403, 404, 409, 413, 429),
    )
    async def rematch(code: str, body: Rematch, request: Request) -> dict[str, Any]:
        """A player (or the host) of a finished game opens a new table with the same people."""
        _limit(creates, request)
        table = await hub().get(code)
        new = await hub().rematch(table, body.token)
        await ranked().rematched(table, new)
        return {"code": new.code, "url": f"/t/{new.code}"}

    @app.get("/api/finished", response_model=Finished, responses=_errors(400))
    async def finished(limit: int = 50) -> dict[str, Any]:
        """Finished public games, newest first (``limit``: 1 to 200)."""
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

    @app.get("/api/tables/{code}/record", response_model=RecordAnswer, responses=_errors(403, 404))
    async def record(code: str) -> dict[str, Any]:
        """A finished game's record, as JSON and as text."""
        return protocol.record_dict(await finished_table(code))

    @app.get(
        "/api/tables/{code}/replay/{ply}",
        response_model=Replay,
        responses=_errors(400, 403, 404),
    )
    async def replay(code: str, ply: int) -> Response:
        """The spectators' view of a finished game after ``ply`` moves, and who sat where."""
        table = await finished_table(code)
        moves: tuple[Move, ...] = table.state.move_stack
        if not 0 <= ply <= len(moves):
            raise RequestError("not_found", N_("the game has {n} moves"), 404, n=len(moves))
        rec = GameRecord(table.config, table.seed, moves)
        view = protocol.view_dict(rec.replay(upto=ply), None)
        seats = protocol.table_meta(table)["seats"]
        return Response(
            protocol.dumps({"ply": ply, "plies": len(moves), "view": view, "seats": seats}),
            media_type="application/json",
        )

    @app.websocket("/ws/{code}")
    async def ws(websocket: WebSocket, code: str) -> None:
        await websocket.accept()
        conn = Connection(websocket, rate, burst)
        close = (CLOSE_NORMAL, "")
        try:
            close = await serve_connection(hub(), conn, code)
        except (ConnectionClosed, WebSocketDisconnect):
            pass
        except FrameTooLarge:
            error = frame_too_large()  # the table's version after hello, as every error
            conn.send(protocol.error_payload(error.code, error.text(conn.lang), conn.version))
            close = (CLOSE_TOO_BIG, "message too big")  # i18n: ignore
        except Exception:
            # A bug, not the client's doing: it is logged, and the client is told and closed
            # with 1011 rather than left with a connection that ends for no reason.
            log.exception("WebSocket session at %s failed", code[:20])
            error = RequestError("unavailable", N_("the server failed; reconnect"))
            conn.send(protocol.error_payload(error.code, error.text(conn.lang), conn.version))
            close = (CLOSE_ERROR, "server error")  # i18n: ignore
        finally:
            await conn.finish()
            with contextlib.suppress(Exception):
                await websocket.close(*close)

    app.state.hub = hub
    app.state.accounts = accounts
    app.openapi = lambda: _openapi(app)  # type: ignore[method-assign]
    return app


API_DESCRIPTION = (
    "The HTTP API of `sequence serve` (docs/server.md). "  # i18n: ignore (for developers)
    'Every error is `{"error": CODE, "message": TEXT}` (the message in the '
    "request's `Accept-Language`), and a refused request changes nothing. Besides the "
    "answers declared for each operation, any path the API does not have is a 404 "
    "`not_found` and any method a path does not take a 405 `method_not_allowed` (with "
    "`Allow`). The game itself is played over the WebSocket `/ws/{code}` (docs/server.md)."
)


def _openapi(app: FastAPI) -> dict[str, Any]:
    """FastAPI's description without its 422 answers: this API refuses a request that does not
    fit with a 400 in its own error format (declared on each operation)."""
    if app.openapi_schema is None:
        schema = get_openapi(
            title=app.title,
            version=app.version,
            description=app.description,
            routes=app.routes,
        )
        for path in schema.get("paths", {}).values():
            for operation in path.values():
                operation.get("responses", {}).pop("422", None)
        for name in ("HTTPValidationError", "ValidationError"):
            schema.get("components", {}).get("schemas", {}).pop(name, None)
        app.openapi_schema = schema
    return app.openapi_schema


class FrameTooLarge(Exception):
    """A frame over :data:`~.protocol.MAX_FRAME` bytes: the client is told, then the connection
    ends with 1009."""


async def read_frame(conn: Connection) -> str | bytes:
    """The next frame, or :class:`FrameTooLarge` for one over :data:`~.protocol.MAX_FRAME`.

    uvicorn's own limit (:data:`~.protocol.WS_MAX_SIZE`) is far above it, so that a client
    sending too much is told why rather than cut off without a word."""
    raw = await conn.receive()
    if len(raw) > MAX_FRAME:
        raise FrameTooLarge
    return raw


def parse_frame(raw: str | bytes) -> messages.ClientMessage:
    """A frame as its message's model (:func:`.messages.parse_message`), or the reason it is
    refused: too long, binary, nested too deeply, not JSON, or not a message that fits."""
    if len(raw) > MAX_MESSAGE:
        raise RequestError(
            "too_large",
            N_("messages are at most {limit} bytes; nothing was done"),
            limit=MAX_MESSAGE,
        )
    if isinstance(raw, bytes):
        raise RequestError("bad_message", N_("send JSON text frames, not binary"))
    if json_depth(raw) > MAX_DEPTH:
        raise _too_deep()
    try:
        data = json.loads(raw, parse_constant=_not_json)
    except (ValueError, RecursionError):
        raise RequestError("bad_json", N_("the message is not JSON; nothing was done")) from None
    return messages.parse_message(data)


CLOSE_NORMAL: Final = 1000
CLOSE_POLICY: Final = 1008
"""The client did not say hello in time."""
CLOSE_TOO_BIG: Final = 1009
"""A frame over :data:`~.protocol.MAX_FRAME` bytes (the ``too_large`` error came first)."""
CLOSE_ERROR: Final = 1011
"""The server failed (logged); the client was told with an ``unavailable`` error first."""
CLOSE_UNKNOWN_TABLE: Final = 4404
"""There is no such table (the ``unknown_table`` error came first)."""
HELLO_TIMEOUT: Final = 30.0


async def serve_connection(hub: Hub, conn: Connection, code: str) -> tuple[int, str]:
    """One client's session: the hello, then requests until it leaves; return the close code
    and reason for the server's side of the closing handshake.

    Error replies are in the connection's language: the browser's ``Accept-Language`` at the
    handshake, then whatever ``hello`` or a ``lang`` message names.
    """
    conn.lang = request_language(conn.headers)
    try:
        table = await hub.get(code)
    except RequestError as exc:
        conn.send(protocol.error_payload(exc.code, exc.text(conn.lang)))
        return CLOSE_UNKNOWN_TABLE, "unknown table"  # i18n: ignore
    attached = False
    while not attached:
        try:
            raw = await asyncio.wait_for(read_frame(conn), HELLO_TIMEOUT)
        except TimeoutError:
            return CLOSE_POLICY, "no hello"  # i18n: ignore
        try:
            if not conn.allow():
                raise RequestError(
                    "rate_limited", N_("too many messages: slow down; nothing was done")
                )
            msg = parse_frame(raw)
            if isinstance(msg, messages.Hello | messages.Lang) and msg.lang is not None:
                conn.lang = _language(msg.lang)
            if not isinstance(msg, messages.Hello):
                raise RequestError(
                    "bad_message", N_('say "hello" first (with your seat token, if any)')
                )
            # The table again: an idle lobby may have left memory while this client took its
            # time, and the connection must join the one every request shares.
            table = await hub.get(code)
            try:
                hub.attach(table, conn, msg.token, msg.host, msg.local)
            except RequestError as exc:
                if exc.code != "bad_token":
                    raise
                # Taken through another process a moment ago? Read the table, then judge.
                await hub.refresh(table)
                hub.attach(table, conn, msg.token, msg.host, msg.local)
            conn.joined(table)
            attached = True
        except RequestError as exc:
            conn.send(protocol.error_payload(exc.code, exc.text(conn.lang)))
    try:
        await _serve_requests(hub, conn, table)
    finally:
        hub.detach(table, conn)
    return CLOSE_NORMAL, ""


async def _serve_requests(hub: Hub, conn: Connection, table: Table) -> None:
    """A seated (or watching) client's requests, until it leaves."""
    while not conn.closed:
        raw = await read_frame(conn)
        msg: messages.ClientMessage | None = None
        try:
            if not conn.allow():
                raise RequestError(
                    "rate_limited", N_("too many messages: slow down; nothing was done")
                )
            msg = parse_frame(raw)
            await _dispatch(hub, conn, table, msg)
        except RequestError as exc:
            mid = msg.id if isinstance(msg, messages.Move | messages.Roll) else None
            conn.send(protocol.error_payload(exc.code, exc.text(conn.lang), conn.version, mid))


async def _dispatch(hub: Hub, conn: Connection, table: Table, msg: messages.ClientMessage) -> None:
    """Carry out one message of a client at ``table``."""
    if isinstance(msg, messages.Hello | messages.Lang) and msg.lang is not None:
        conn.lang = _language(msg.lang)
    if isinstance(msg, messages.Move):
        await hub.play(table, conn, msg.move, msg.version, msg.id)
    elif isinstance(msg, messages.Roll):
        await hub.roll(table, conn, msg.version, msg.id)
    elif isinstance(msg, messages.Resign):
        await hub.resign(table, conn)
    elif isinstance(msg, messages.Penalty):
        await hub.penalty(table, conn, msg.team, msg.version)
    elif isinstance(msg, messages.Back):
        await hub.take_back(table, conn)
    elif isinstance(msg, messages.Sync | messages.Hello):
        conn.send(protocol.state_payload(table, conn.seat, conn.rights.hosts(table)))
    elif isinstance(msg, messages.React):
        hub.react(table, conn, msg.reaction)
    elif isinstance(msg, messages.Chat):
        hub.chat(table, conn, msg.text)
    elif isinstance(msg, messages.Ping):
        conn.send(protocol.pong_payload())
    # Lang: done above, nothing is sent back
