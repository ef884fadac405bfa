"""The ``/api/notify`` routes: an account's notification choices, its browsers' push
subscriptions, and the signed links in e-mails (confirm an address, unsubscribe).

Choices and subscriptions need a signed-in session (and its CSRF token to change them); the
links need only themselves: whoever holds an e-mail's link may confirm that address or stop
those e-mails, and nobody can make a link for another account (:mod:`.links`).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from ...i18n import N_, translator
from ..accounts.api import AccountService
from ..common.errors import RequestError, request_language
from ..tables.models import ErrorAnswer
from .links import verify
from .models import NotifyInfo, NotifySettings, PushSubscribe, PushUnsubscribe
from .notifier import Notifier
from .store import Settings
from .webpush import Subscription, check_subscription

EMAIL = re.compile(r"^[^@\s<>,;:\"()\[\]\\]{1,64}@[^@\s<>,;:\"()\[\]\\]{1,189}$")
"""An address as a person types it: one ``@``, no spaces, quotes or brackets."""

_ERRORS: dict[int, str] = {
    400: "bad_json, bad_message: malformed (does not fit /openapi.json)",  # i18n: ignore
    422: "bad_message: an address or a subscription refused",  # i18n: ignore
    401: "signed_out",  # i18n: ignore
    403: "cross_site",  # i18n: ignore
    413: "too_large",  # i18n: ignore
}


def _errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """An operation's error answers; one that takes a body (413 past the size
    limit) may also refuse one that fits the description by the rules (422)."""
    statuses = (*statuses, 422) if 413 in statuses else statuses
    return {status: {"model": ErrorAnswer, "description": _ERRORS[status]}
            for status in statuses}  # fmt: skip


def _info(notifier: Notifier, settings: Settings, sent: bool = False) -> dict[str, Any]:
    assert notifier.push is not None
    return {
        "lang": settings.lang,
        "email": settings.email,
        "email_confirmed": settings.email_confirmed,
        "email_on": settings.email_on,
        "push_on": settings.push_on,
        "email_available": notifier.config.mail is not None,
        "vapid_key": notifier.push.public_key,
        "confirmation_sent": sent,
    }


def _page(lang: str, text: str, form: str = "") -> HTMLResponse:
    title = html.escape(translator(lang).gettext("Sequence"))
    body = (
        f'<!doctype html><html lang="{lang}"><meta charset="utf-8">'  # i18n: ignore
        f'<meta name="viewport" content="width=device-width"><title>{title}</title>'  # i18n: ignore
        f"<body><p>{html.escape(text)}</p>{form}"
        f'<p><a href="/account">{html.escape(translator(lang).gettext("Account"))}</a></p>'
    )
    return HTMLResponse(body, headers={"Cache-Control": "no-store"})


def bad_link() -> RequestError:
    return RequestError("bad_token", N_("this link is not valid (or not for this site)"), 400)


def notify_router(
    accounts: Callable[[], AccountService], notifier: Callable[[], Notifier]
) -> APIRouter:
    """The ``/api/notify`` routes."""
    router = APIRouter()

    @router.get("/api/notify", response_model=NotifyInfo, responses=_errors(401))
    async def settings(request: Request) -> dict[str, Any]:
        """The account's notification choices, and the VAPID key to subscribe a browser with."""
        account, _ = await accounts().require(request, changes=False)
        n = notifier()
        return _info(n, await n.store.run(n.db.settings, account.id))

    @router.post("/api/notify", response_model=NotifyInfo, responses=_errors(400, 401, 403, 413))
    async def save(request: Request, body: NotifySettings) -> dict[str, Any]:
        """Store the choices. A new address gets a confirmation e-mail, and no other until its
        link is opened."""
        account, _ = await accounts().require(request, changes=True)
        email = (body.email or "").strip() or None
        if email is not None and not EMAIL.match(email):
            raise RequestError("bad_message", N_("{email} is not an e-mail address"), email=email)
        if body.email_on and email is None:
            raise RequestError("bad_message", N_("give an e-mail address to receive e-mails"))
        n = notifier()
        saved = await n.store.run(
            n.db.save, account.id, body.lang, email, body.email_on, body.push_on
        )
        sent = False
        if email is not None and body.email_on and not saved.email_confirmed:
            sent = await n.confirm_email(account.id, email, body.lang)
        return _info(n, saved, sent)

    @router.post(
        "/api/notify/push", response_model=NotifyInfo, responses=_errors(400, 401, 403, 413)
    )
    async def subscribe(request: Request, body: PushSubscribe) -> dict[str, Any]:
        """Keep this browser's push subscription for the account."""
        account, _ = await accounts().require(request, changes=True)
        n = notifier()
        wrong = check_subscription(
            body.endpoint, body.keys.p256dh, body.keys.auth, n.config.push_http_hosts
        )
        if wrong:
            raise RequestError("bad_message", wrong)
        sub = Subscription(body.endpoint, body.keys.p256dh, body.keys.auth)
        await n.store.run(n.db.subscribe, account.id, sub)
        return _info(n, await n.store.run(n.db.settings, account.id))

    @router.post(
        "/api/notify/push/delete", response_model=NotifyInfo, responses=_errors(400, 401, 403, 413)
    )
    async def unsubscribe_browser(request: Request, body: PushUnsubscribe) -> dict[str, Any]:
        """Forget this browser's push subscription."""
        account, _ = await accounts().require(request, changes=True)
        n = notifier()
        await n.store.run(n.db.unsubscribe_browser, account.id, body.endpoint)
        return _info(n, await n.store.run(n.db.settings, account.id))

    @router.get("/api/notify/confirm", include_in_schema=False)
    async def confirm(request: Request, token: str) -> HTMLResponse:
        """The link of a confirmation e-mail: the address is the account's."""
        n, lang = notifier(), request_language(request.headers)
        found = verify(n.secret, token, "confirm")
        if found is None:
            raise bad_link()
        ok = await n.store.run(n.db.confirm, *found)
        _ = translator(lang).gettext
        if not ok:
            return _page(lang, _("This address is no longer the one chosen; nothing was done."))
        return _page(lang, _("Your address is confirmed: notifications will reach it."))

    def _unsubscribed(lang: str, channel: str) -> HTMLResponse:
        _ = translator(lang).gettext
        if channel == "email":
            return _page(lang, _("You will receive no more e-mails from this site."))
        return _page(lang, _("You will receive no more push notifications from this site."))

    @router.get("/api/notify/unsubscribe", include_in_schema=False)
    async def unsubscribe_page(request: Request, token: str) -> HTMLResponse:
        """The unsubscribe link: a page with one button (a mail scanner that opens links
        unsubscribes nobody)."""
        n, lang = notifier(), request_language(request.headers)
        if verify(n.secret, token, "unsubscribe") is None:
            raise bad_link()
        _ = translator(lang).gettext
        action = f"/api/notify/unsubscribe?token={html.escape(token)}"
        button = html.escape(_("Unsubscribe"))
        form = f'<form method="post" action="{action}">'  # i18n: ignore
        form += f"<button>{button}</button></form>"
        return _page(lang, _("Stop these notifications?"), form)

    @router.post("/api/notify/unsubscribe", include_in_schema=False)
    async def unsubscribe(request: Request, token: str) -> HTMLResponse:
        """Unsubscribe (the page's button, or a mail client's one click: RFC 8058)."""
        n, lang = notifier(), request_language(request.headers)
        found = verify(n.secret, token, "unsubscribe")
        if found is None:
            raise bad_link()
        account_id, channel = found
        await n.store.run(n.db.unsubscribe, account_id, channel)
        return _unsubscribed(lang, channel)

    return router
