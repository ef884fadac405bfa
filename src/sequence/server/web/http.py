"""What every HTTP route shares: a request body checked before FastAPI reads it, who a request
comes from and its rate limits, the error answers and how the OpenAPI description declares them.

The routers of each room (:mod:`..tables`' are in :mod:`.tables`, :mod:`..accounts.api`,
:mod:`..ratings.api`) are given these by the app factory (:mod:`.app`)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from fastapi import Request
from fastapi.responses import JSONResponse
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ...i18n import N_
from ..common.errors import RateLimited, RequestError, request_language
from ..common.limits import MAX_DEPTH, ClientLimiter, json_depth, not_json, too_deep
from ..tables.models import ErrorAnswer

MAX_BODY = 16_384

FORM_PATHS = ("/api/notify/unsubscribe",)
"""Paths whose POST body is a form, not JSON (RFC 8058's one-click unsubscribe), left unread."""


ERRORS: Counter[str] = Counter()
"""Error answers this process gave, by code (``/metrics``, :mod:`.health`)."""


def error_response(exc: RequestError, lang: str) -> JSONResponse:
    """A refusal as the API answers it: ``{error, message}`` with its status."""
    ERRORS[exc.code] += 1
    return JSONResponse({"error": exc.code, "message": exc.text(lang)}, status_code=exc.status)


def _too_large() -> RequestError:
    return RequestError(
        "too_large", N_("the request is larger than {limit} bytes"), 413, limit=MAX_BODY
    )


def _check_body(raw: bytes) -> bool:
    """Refuse a request body that is not JSON, or nests too deeply to parse safely, before
    FastAPI parses it; return whether there is one (an empty body is left to the route's
    model, which says what is missing)."""
    if not raw.strip():
        return False
    if json_depth(raw) > MAX_DEPTH:
        raise too_deep()
    try:
        json.loads(raw, parse_constant=not_json)
    except (ValueError, RecursionError):
        raise RequestError("bad_json", N_("the request body is not JSON"), 400) from None
    return True


class BodyGuard:
    """ASGI middleware: every request body is at most :data:`MAX_BODY` bytes (a longer declared
    ``Content-Length`` is refused before the body is read) and well-formed JSON of at most
    :data:`~.limits.MAX_DEPTH` levels; anything else is a 413 or 400 in the API's error format,
    and the app never sees it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or scope["method"] in ("GET", "HEAD", "OPTIONS")
            or (scope["path"] in FORM_PATHS)
        ):
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
            await error_response(exc, request_language(headers))(scope, receive, send)
            return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": raw, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def client_address(request: Request) -> str:
    """Who a request comes from, for the rate limits: its address (behind a proxy, uvicorn's
    ``--forwarded-allow-ips`` makes it the client's)."""
    return request.client.host if request.client else "?"


async def limit(limiter: ClientLimiter, request: Request) -> None:
    """Count a request against ``limiter`` (``rate_limited`` when over it)."""
    wait = await limiter.take(client_address(request))
    if wait:
        raise RateLimited(limiter.retry_after(wait))


def error_answers(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The error answers of a route, for the OpenAPI description; one that takes a body (413 past
    the size limit) may also refuse one that fits the description by the rules (422)."""
    statuses = (*statuses, 422) if 413 in statuses else statuses
    return {status: {"model": ErrorAnswer, "description": ERROR_STATUSES[status]}
            for status in statuses}  # fmt: skip


ERROR_STATUSES: dict[int, str] = {
    400: "bad_json, bad_message: malformed, does not fit /openapi.json",  # i18n: ignore
    401: "signed_out: a table with days a move is for signed-in players",  # i18n: ignore
    403: "not_host, not_seated, not_finished: the token lacks this right;"  # i18n: ignore
    " cross_site: a signed-in request without its CSRF token or from another site",
    404: "unknown_table, unknown_player; not_found: a game, language or ply"  # i18n: ignore
    " that the path names and that does not exist",
    409: "bad_message: a full table, a taken seat, a game started or still going",  # i18n: ignore
    413: "too_large: the body is over 16 KiB",  # i18n: ignore
    422: "bad_message: fits /openapi.json, but the game's rules or the table"  # i18n: ignore
    " refuse it (a player count the game does not take, a seat the table does not have, ...)",
    429: "rate_limited: too many tables made or joined, or reviews waiting"  # i18n: ignore
    " (see Retry-After)",
}
"""What each error status of the API means (every error is ``{error, message}``)."""
