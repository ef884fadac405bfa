"""Real parts for the notification tests: a local SMTP server (aiosmtpd) that keeps every
e-mail, and a local push service that keeps every Web Push request and decrypts it with the
subscription's own keys (RFC 8291, aes128gcm), as a browser would."""

from __future__ import annotations

import base64
import json
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from aiosmtpd.controller import Controller
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

from sequence.server.cluster.launcher import free_port


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Inbox:
    """aiosmtpd's handler: every e-mail received, parsed."""

    def __init__(self) -> None:
        self.mails: list[EmailMessage] = []
        self.recipients: list[list[str]] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        mail = message_from_bytes(envelope.content, policy=policy.default)
        assert isinstance(mail, EmailMessage)
        self.mails.append(mail)
        self.recipients.append(list(envelope.rcpt_tos))
        return "250 OK"

    def wait(self, n: int, timeout: float = 15) -> list[EmailMessage]:
        return _wait(lambda: self.mails, n, timeout)


def _wait(items: Callable[[], list[Any]], n: int, timeout: float) -> list[Any]:
    deadline = time.monotonic() + timeout
    while len(items()) < n:
        assert time.monotonic() < deadline, f"{len(items())} of {n} arrived"
        time.sleep(0.05)
    return list(items())


def smtp_server() -> tuple[Controller, Inbox]:
    """A started aiosmtpd SMTP server on a free loopback port (stop it with ``.stop()``)."""
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    return controller, inbox


@dataclass
class Browser:
    """A browser's push subscription: its own key pair and auth secret, as the Push API makes."""

    endpoint: str
    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: __import__("os").urandom(16))

    def subscription(self) -> dict[str, Any]:
        """``PushSubscription.toJSON()``."""
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {"endpoint": self.endpoint, "keys": {"p256dh": _b64(point), "auth": _b64(self.auth)},
                "expirationTime": None}  # fmt: skip


@dataclass
class Push:
    """One Web Push request as the push service received it."""

    path: str
    headers: dict[str, str]
    body: bytes


class PushService:
    """A local push service: keeps every request; answers 201 (410 for a path in :attr:`gone`)."""

    def __init__(self) -> None:
        self.received: list[Push] = []
        self.gone: set[str] = set()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                headers = {k.lower(): v for k, v in self.headers.items()}
                service.received.append(Push(self.path, headers, body))
                self.send_response(410 if self.path in service.gone else 201)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.port = free_port()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def endpoint(self, name: str) -> str:
        return f"http://127.0.0.1:{self.port}/push/{name}"

    def wait(self, n: int, timeout: float = 15) -> list[Push]:
        return _wait(lambda: self.received, n, timeout)

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def decrypt(push: Push, browser: Browser) -> dict[str, Any]:
    """The message of a push request, decrypted with the browser's keys (RFC 8291)."""
    assert push.headers["content-encoding"] == "aes128gcm"
    plain = http_ece.decrypt(
        push.body, private_key=browser.key, auth_secret=browser.auth, version="aes128gcm"
    )
    return dict(json.loads(plain))


def check_vapid(push: Push, public_key: str, audience: str) -> dict[str, Any]:
    """Verify the request's VAPID signature (RFC 8292: ES256 JWT, ``vapid t=..., k=...``) with
    the server's public key; return the JWT's claims."""
    scheme, _, params = push.headers["authorization"].partition(" ")
    assert scheme == "vapid"
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    assert fields["k"] == public_key
    head, claims, signature = fields["t"].split(".")
    raw = _unb64(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), _unb64(public_key))
    key.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if forged
    decoded = dict(json.loads(_unb64(claims)))
    assert decoded["aud"] == audience and decoded["exp"] > time.time()
    return decoded


def parts() -> Iterator[tuple[Controller, Inbox, PushService]]:
    controller, inbox = smtp_server()
    push = PushService()
    try:
        yield controller, inbox, push
    finally:
        controller.stop()
        push.close()
