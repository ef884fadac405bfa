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

WebSocket ``/ws/{code}``: see :mod:`sequence.server.tables.protocol`.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Iterable, Iterator, Mapping
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.routing import BaseRoute, Match

from ...i18n import N_
from ..accounts.account import Passwords
from ..accounts.api import AccountService, account_router
from ..accounts.attempts import AttemptLimits, Counter, MemoryCounter, RedisCounter
from ..cluster.notices import RedisCluster
from ..common.clock import CLOCK_FILE_VARIABLE, clock_from_environment, use_clock
from ..common.errors import RateLimited, RequestError, invalid_request, request_language
from ..common.limits import ClientLimiter
from ..notify.api import notify_router
from ..notify.notifier import Notifier, NotifyConfig
from ..ratings.api import ratings_router
from ..ratings.matchmaking import WAITS
from ..ratings.ranked import Ranked
from ..social.api import SocialService, social_router
from ..tables.hub import Hub
from ..tables.scheduler import offer_bots
from ..tables.store import TableStore
from ..tables.table import AWAY_SECONDS
from ..tables.websocket import websocket_router
from .health import health_router
from .http import BodyGuard, client_address, error_answers, error_response, limit
from .learn import learn_router
from .site import STATIC, site_router
from .tables import tables_router


def _routes(routes: Iterable[BaseRoute]) -> Iterator[BaseRoute]:
    """Every route, those of the included routers too: FastAPI keeps an included router as one
    route of its own, and the routers here have no prefix, so their routes match as they are."""
    for route in routes:
        included = getattr(route, "original_router", None)
        if included is not None:
            yield from _routes(included.routes)
        else:
            yield route


def _allowed_methods(app: FastAPI, scope: Any) -> str:
    """The methods of every route for a request's path, for a 405's ``Allow``: Starlette's names
    only the first route's (``GET /api/tables`` and not its ``POST``)."""
    methods: set[str] = set()
    for route in _routes(app.router.routes):
        if route.matches(scope)[0] != Match.NONE:
            methods.update(getattr(route, "methods", None) or ())
    return ", ".join(sorted(methods))


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
    invite_base: str | None = None,
    notify: NotifyConfig | None = None,
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
    :func:`~sequence.server.tables.scheduler.offer_bots`: ``{"model": "policy:gen-5.zip"}``);
    ``invite_base``: the start of invite links and their QR codes, an address friends' devices
    reach (:func:`~sequence.server.web.address.invite_base`; ``None``: the address the request
    reached this server at).
    ``notify``: the SMTP server, the site's public address and the limits of notifications
    (:class:`~sequence.server.notify.notifier.NotifyConfig`; default: no e-mail, push only).
    """
    offer_bots(bots or {})
    test_clock = clock_from_environment()
    if test_clock is not None:  # a test moves time on (correspondence tables over days)
        use_clock(test_clock)
        logging.getLogger("sequence.server").warning(
            "the server's clock is the real time plus %s (%s: for tests only)",  # i18n: ignore
            test_clock.path,
            CLOCK_FILE_VARIABLE,
        )
    state: dict[str, Any] = {}
    creates = ClientLimiter(create_rate, create_burst, "creates")
    joins = ClientLimiter(join_rate, join_burst, "joins")

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = TableStore(db)
        pool = executor or ThreadPoolExecutor(max_workers=2, thread_name_prefix="sequence-bot")
        cluster = RedisCluster(redis, redis_prefix) if redis else None
        if cluster is not None:  # every process takes from the same buckets
            for limiter in (creates, joins):
                limiter.share(cluster.redis, f"{redis_prefix}:limits:")
        hub = Hub(store, pool, bot_delay=bot_delay, away_seconds=away_seconds, cluster=cluster)
        state["hub"] = hub
        state["store"] = store
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
            client_address,
        )
        notifier = state["notifier"] = Notifier(
            store, notify or NotifyConfig(), hub.registry.tables.get
        )
        await notifier.start()
        hub.watchers.append(notifier.watch)
        state["social"] = SocialService(state["accounts"], hub, notifier)
        await hub.resume()
        await state["ranked"].start()
        try:
            yield
        finally:
            await counter.close()
            await hub.shutdown()
            await notifier.close()
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

    app.include_router(account_router(accounts))

    def ranked() -> Ranked:
        return state["ranked"]  # type: ignore[no-any-return]

    app.include_router(ratings_router(ranked, accounts, error_answers, joins, limit))
    app.include_router(learn_router(error_answers))
    app.include_router(notify_router(accounts, lambda: state["notifier"]))
    app.include_router(social_router(lambda: state["social"]))

    @app.exception_handler(RequestError)
    async def request_error(request: Request, exc: RequestError) -> JSONResponse:
        response = error_response(exc, request_language(request.headers))
        if isinstance(exc, RateLimited):
            response.headers["Retry-After"] = exc.retry_after
        return response

    @app.exception_handler(RequestValidationError)
    async def invalid_request_handler(
        request: Request, exc: RequestValidationError
    ) -> JSONResponse:
        # A body that does not fit its model, a path or query parameter that is not a number:
        # a 400 in the API's own error format (not FastAPI's 422), naming the field.
        return error_response(invalid_request(exc.errors()), request_language(request.headers))

    @app.exception_handler(HTTPException)
    async def routing_error(request: Request, exc: HTTPException) -> Response:
        # No route for the path (or no such static file), or a method the route does not take:
        # the API's own error format too, rather than FastAPI's {"detail": ...}.
        path = request.url.path[:100]
        if exc.status_code == 400:  # FastAPI could not read the body (BodyGuard checks first)
            error = RequestError("bad_json", N_("the request body is not JSON"), 400)
            return error_response(error, request_language(request.headers))
        if exc.status_code not in (404, 405):  # none raised by this app; kept as they come
            return await http_exception_handler(request, exc)
        if exc.status_code == 404:
            error = RequestError("not_found", N_("there is nothing at {path}"), 404, path=path)
            return error_response(error, request_language(request.headers))
        allowed = _allowed_methods(app, request.scope)
        error = RequestError(
            "method_not_allowed",
            N_("{path} does not take {method}; it takes {allowed}"),
            405,
            path=path,
            method=request.method,
            allowed=allowed,
        )
        response = error_response(error, request_language(request.headers))
        response.headers["Allow"] = allowed
        return response

    app.include_router(health_router(hub, lambda: state["store"]))
    app.include_router(site_router(invite_base))
    app.include_router(tables_router(hub, accounts, ranked, creates, joins, invite_base))
    app.include_router(websocket_router(hub, rate, burst))

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
    """FastAPI's description without its own 422 answers (its validation errors): this API
    refuses a request that does not fit with a 400 in its own error format, and one that fits
    but that the rules refuse with a 422 (both declared on each operation that takes input)."""
    if app.openapi_schema is None:
        schema = get_openapi(
            title=app.title,
            version=app.version,
            description=app.description,
            routes=app.routes,
        )
        for path in schema.get("paths", {}).values():
            for operation in path.values():
                responses = operation.get("responses", {})
                if "HTTPValidationError" in str(responses.get("422")):  # FastAPI's, not ours
                    responses.pop("422")
        for name in ("HTTPValidationError", "ValidationError"):
            schema.get("components", {}).get("schemas", {}).pop(name, None)
        app.openapi_schema = schema
    return app.openapi_schema
