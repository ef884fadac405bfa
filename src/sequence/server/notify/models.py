"""The notification requests and answers of the HTTP API as Pydantic models (``/openapi.json``)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from ...i18n import SUPPORTED
from ..tables.models import Answer, OneOf, Request


class NotifySettings(Request):
    """``POST /api/notify``: what the account wants to be told away from the page, and how."""

    lang: Annotated[str, OneOf(lambda: SUPPORTED)] = Field(
        description="the language notifications are written in"
    )
    email: str | None = Field(None, max_length=254, description="where e-mails go")
    email_on: bool = Field(description="send e-mails (once the address is confirmed)")
    push_on: bool = Field(description="send Web Push messages to this account's browsers")


class PushKeys(Request):
    p256dh: str = Field(max_length=200)
    auth: str = Field(max_length=64)


class PushSubscribe(Request):
    """``POST /api/notify/push``: a browser's ``PushSubscription.toJSON()`` (its
    ``expirationTime`` is ignored)."""

    endpoint: str = Field(max_length=1000)
    keys: PushKeys
    expirationTime: int | float | None = None


class PushUnsubscribe(Request):
    """``POST /api/notify/push/delete``: forget a browser's subscription."""

    endpoint: str = Field(max_length=1000)


class NotifyInfo(Answer):
    """The account's choices, and what the server can send."""

    lang: str
    email: str | None
    email_confirmed: bool
    email_on: bool
    push_on: bool
    email_available: bool = Field(description="the server has an SMTP server to send through")
    vapid_key: str = Field(description="the applicationServerKey to subscribe with (base64url)")
    confirmation_sent: bool = False
