"""Web Push: a message encrypted for one browser's subscription and posted to its push service.

The standard Push API, as every browser speaks it: the payload is encrypted with the
subscription's keys (RFC 8291, content coding ``aes128gcm`` of RFC 8188, by ``http_ece``), and
the request is signed with the server's VAPID key (RFC 8292, by ``py_vapid``), whose public half
the page gives the browser when it subscribes (``applicationServerKey``).

A subscription's endpoint is a URL the browser gave: the server posts only to ``https://`` ones
(every push service is one), unless the operator names a host that may be reached over plain
HTTP (:attr:`PushSender.http_hosts`, for a test's local push service).
"""

from __future__ import annotations

import base64
import json
import logging
import os
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

import http_ece
import httpx
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02

from ...i18n import N_

log = logging.getLogger(__name__)

TTL_SECONDS = 24 * 3600
"""How long a push service keeps a message for a browser that is off (a day: a turn waits)."""


def b64url(data: bytes) -> str:
    """base64url without padding, as the Push API writes keys."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    """The bytes of base64url text, padded or not."""
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def new_vapid_pem() -> str:
    """A new VAPID private key (P-256), as PEM."""
    key = ec.generate_private_key(ec.SECP256R1())
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode()


@dataclass(frozen=True)
class Subscription:
    """A browser's push subscription: where to post, and its keys (base64url)."""

    endpoint: str
    p256dh: str
    auth: str


class Gone(Exception):
    """The push service says the subscription no longer exists (404 or 410): forget it."""


def check_subscription(endpoint: str, p256dh: str, auth: str, http_hosts: tuple[str, ...]) -> str:
    """What is wrong with a subscription a page sent, as a catalogue message (``""``: nothing).

    The endpoint must be an ``https://`` URL (or plain HTTP to one of ``http_hosts``), the key a
    P-256 point and the secret 16 bytes, as the Push API makes them."""
    parts = urlsplit(endpoint)
    if not parts.hostname or not (
        parts.scheme == "https" or (parts.scheme == "http" and parts.hostname in http_hosts)
    ):
        return N_("not a push subscription: the endpoint is not an https:// URL")
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(p256dh))
    except (ValueError, TypeError):
        return N_("not a push subscription: p256dh is not a P-256 public key")
    try:
        if len(unb64url(auth)) != 16:
            return N_("not a push subscription: auth is not 16 bytes")
    except ValueError:
        return N_("not a push subscription: auth is not base64url")
    return ""


def encrypt(payload: bytes, subscription: Subscription) -> bytes:
    """``payload`` encrypted for the subscription (RFC 8291; a fresh key pair and salt each)."""
    return http_ece.encrypt(  # type: ignore[no-any-return]
        payload,
        salt=os.urandom(16),
        private_key=ec.generate_private_key(ec.SECP256R1()),
        dh=unb64url(subscription.p256dh),
        auth_secret=unb64url(subscription.auth),
        version="aes128gcm",
    )


class PushSender:
    """Posts encrypted messages to push services, signed with the server's VAPID key."""

    def __init__(self, vapid_pem: str, contact: str, http_hosts: tuple[str, ...] = ()) -> None:
        self._vapid = Vapid02.from_pem(vapid_pem.encode())
        self.contact = contact
        """The operator's ``mailto:`` or ``https:`` address, in every request (RFC 8292 ``sub``)."""
        self.http_hosts = http_hosts
        """Hosts a subscription may name over plain HTTP (a test's local push service)."""
        point = self._vapid.public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.public_key = b64url(point)
        """The VAPID public key the page subscribes with (``applicationServerKey``)."""

    def headers(self, endpoint: str, length: int) -> dict[str, str]:
        """The request's headers: the VAPID signature for the endpoint's origin, the coding."""
        parts = urlsplit(endpoint)
        claims = {
            "aud": f"{parts.scheme}://{parts.netloc}",
            "exp": int(time.time()) + 12 * 3600,
            "sub": self.contact,
        }
        signed: dict[str, str] = self._vapid.sign(claims)
        return {
            **signed,
            "Content-Encoding": "aes128gcm",
            "Content-Type": "application/octet-stream",
            "Content-Length": str(length),
            "TTL": str(TTL_SECONDS),
            "Urgency": "normal",
        }

    async def send(
        self, client: httpx.AsyncClient, subscription: Subscription, message: dict[str, str]
    ) -> bool:
        """Post ``message`` (JSON) to the subscription; whether the push service took it.
        :class:`Gone` if the subscription has expired."""
        if check_subscription(
            subscription.endpoint, subscription.p256dh, subscription.auth, self.http_hosts
        ):
            return False
        body = encrypt(json.dumps(message).encode(), subscription)
        response = await client.post(
            subscription.endpoint,
            content=body,
            headers=self.headers(subscription.endpoint, len(body)),
        )
        if response.status_code in (404, 410):
            raise Gone(subscription.endpoint)
        if response.status_code >= 300:
            log.warning("push service answered %s", response.status_code)
            return False
        return True
