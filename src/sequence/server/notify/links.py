"""Signed links in notifications: unsubscribe, and confirm an e-mail address.

A token is ``PAYLOAD.MAC``: the payload (purpose, account, detail) in base64url and its
HMAC-SHA256 under the server's secret (:class:`~.store.NotifyStore.secret`, the same in every
process). Anyone holding the link may use it -- that is what a link in an e-mail is for -- and
nobody can make one for another account or purpose.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json

PURPOSES = ("unsubscribe", "confirm")


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def sign(secret: bytes, purpose: str, account_id: int, detail: str = "") -> str:
    """A token for ``purpose`` on ``account_id`` (``detail``: the channel, the address)."""
    payload = _b64(json.dumps([purpose, account_id, detail], separators=(",", ":")).encode())
    mac = hmac.new(secret, payload.encode(), hashlib.sha256).digest()
    return f"{payload}.{_b64(mac)}"


def verify(secret: bytes, token: str, purpose: str) -> tuple[int, str] | None:
    """The account and detail a token for ``purpose`` names, or ``None`` if it is not one the
    server made (forged, altered, another purpose, not a token at all)."""
    payload, dot, mac = token.partition(".")
    if not dot or len(token) > 2000:
        return None
    try:
        wanted = hmac.new(secret, payload.encode(), hashlib.sha256).digest()
        if not hmac.compare_digest(wanted, _unb64(mac)):
            return None
        found, account_id, detail = json.loads(_unb64(payload))
    except (ValueError, TypeError):
        return None
    if found != purpose or not isinstance(account_id, int) or not isinstance(detail, str):
        return None
    return account_id, detail
