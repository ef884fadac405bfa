"""Signed-in browsers: the session cookie, and the checks that keep other sites out.

- **The cookie** (:data:`COOKIE`) holds a random session token (256 bits); the database keeps
  only its SHA-256 (:mod:`.account_store`), so every server process knows every session and a
  copy of the database signs nobody in. It is ``HttpOnly`` (no script reads it),
  ``SameSite=Lax`` (no other site's request carries it but a link followed), ``Path=/``, and
  ``Secure`` when the request came over TLS (``X-Forwarded-Proto: https`` from a proxy
  counts: a client that lies about it only makes its own cookie travel over TLS alone).
- **Cross-site requests** are refused twice over. Every request that changes something for a
  signed-in player carries the session's CSRF token in the :data:`CSRF_HEADER` header
  (:func:`csrf_token`: an HMAC of the session token, which only this site's pages can read,
  from ``GET /api/account``); and a browser's ``Origin`` (or ``Sec-Fetch-Site``) must say the
  request came from this site's own pages (:func:`check_same_site`), for signing in and up too.

>>> csrf_token("abc") == csrf_token("abc") != csrf_token("abd")
True
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from datetime import timedelta
from typing import Final
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection
from starlette.responses import Response

from ...i18n import N_
from ..common.errors import RequestError
from ..storage.db import hash_token

COOKIE: Final = "seq_session"
CSRF_HEADER: Final = "X-CSRF-Token"
LIFETIME: Final = timedelta(days=30)
"""How long a session lasts from signing in (then the player signs in again)."""
TOKEN_MAX: Final = 100
"""A cookie longer than this is no session of ours (never hashed nor looked up)."""


def new_session() -> tuple[str, str]:
    """A fresh session token and the hash stored in its place."""
    token = secrets.token_urlsafe(32)
    return token, hash_token(token)


def csrf_token(session_token: str) -> str:
    """The CSRF token of a session: derived from it, so nothing more is stored."""
    digest = hmac.new(session_token.encode(), b"csrf", hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def session_cookie(request: HTTPConnection) -> str | None:
    """The session token the request's cookie holds, if it could be one."""
    token = request.cookies.get(COOKIE)
    if not token or len(token) > TOKEN_MAX:
        return None
    return token


def came_over_tls(request: HTTPConnection) -> bool:
    """Whether the browser reached the site over TLS (directly, or through a proxy that says
    so in ``X-Forwarded-Proto``)."""
    forwarded = request.headers.get("x-forwarded-proto", "").split(",")[0].strip().lower()
    return request.url.scheme in ("https", "wss") or forwarded == "https"


def set_session_cookie(response: Response, request: HTTPConnection, token: str) -> None:
    """Give the browser its session cookie."""
    response.set_cookie(
        COOKIE,
        token,
        max_age=int(LIFETIME.total_seconds()),
        path="/",
        httponly=True,
        samesite="lax",
        secure=came_over_tls(request),
    )


def clear_session_cookie(response: Response, request: HTTPConnection) -> None:
    """Make the browser forget its session cookie."""
    response.delete_cookie(
        COOKIE, path="/", httponly=True, samesite="lax", secure=came_over_tls(request)
    )


def cross_site() -> RequestError:
    """The refusal of a request another site made the browser send."""
    return RequestError(
        "cross_site",
        N_("this request did not come from this site's pages; nothing was done"),
        403,
    )


def check_same_site(request: HTTPConnection) -> None:
    """Refuse a request a browser sent from another site's page: its ``Sec-Fetch-Site`` says
    ``cross-site``, or its ``Origin`` is not this server (as the request's ``Host`` names it,
    or behind a proxy that rewrites ``Host``, its ``X-Forwarded-Host``: a page of another site
    cannot set that header without a CORS preflight this server never grants). A request
    without either (curl, a script) is not a browser's and passes."""
    if request.headers.get("sec-fetch-site", "").lower() == "cross-site":
        raise cross_site()
    origin = request.headers.get("origin")
    if origin is None:
        return
    hosts = {
        request.headers.get("host", "").lower(),
        request.headers.get("x-forwarded-host", "").split(",")[0].strip().lower(),
    } - {""}
    try:
        netloc = urlsplit(origin).netloc.lower()
    except ValueError:
        netloc = ""
    if origin == "null" or not netloc or netloc not in hosts:
        raise cross_site()


def check_csrf(request: HTTPConnection, session_token: str) -> None:
    """Refuse a request that changes something for a signed-in player unless it came from this
    site's pages: the same site, and the session's CSRF token in :data:`CSRF_HEADER`."""
    check_same_site(request)
    sent = request.headers.get(CSRF_HEADER, "")
    if not hmac.compare_digest(sent.encode(), csrf_token(session_token).encode()):
        raise RequestError(
            "cross_site",
            N_("this request lacks the page's security token: reload the page; nothing was done"),
            403,
        )
