"""The address friends reach this server at: the start of every invite link and QR code.

A server listening on the loopback address is reached only from its own machine, so its links
use the address the browser used. One listening on the network (``--host 0.0.0.0``) is opened
by its host at ``http://127.0.0.1:8000`` as often as not, and a link with that address leads a
friend's phone nowhere: its links use the machine's address on the local network instead. One
behind a domain with TLS (``--public-url https://example.org``) uses that URL.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
from urllib.parse import urlsplit

WILDCARDS = frozenset({"0.0.0.0", "::", ""})
"""Hosts that mean "every address of this machine"."""

# A private address no packet is sent to: connecting a UDP socket only asks the kernel which
# local address its route would leave from.
_PROBE = ("10.255.255.255", 1)


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address or ``localhost``) is reached only from this machine."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def lan_address() -> str | None:
    """This machine's IPv4 address on the local network (the one its default route leaves
    from), or ``None`` where it has none but the loopback."""
    candidates: list[str] = []
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(_PROBE)
        candidates.append(probe.getsockname()[0])
    with contextlib.suppress(OSError):  # no route: the addresses its name resolves to
        candidates += socket.gethostbyname_ex(socket.gethostname())[2]
    return next((a for a in candidates if not is_loopback(a) and a != "0.0.0.0"), None)


def public_url_problem(url: str) -> str | None:
    """Why ``url`` cannot start invite links (``None``: it can), in English for the operator."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return f"--public-url is http(s)://HOST[:PORT][/PATH], not {url!r}"  # i18n: ignore
    if parts.query or parts.fragment:
        return f"--public-url takes no query or fragment: {url!r}"  # i18n: ignore
    return None


def invite_base(host: str, port: int, public_url: str | None = None) -> str | None:
    """The start of invite links for a server listening on ``host:port``: ``public_url`` when
    given, the LAN address when listening on every address, ``host`` itself when that is a
    network address; ``None`` for a server on the loopback (its links use the address the
    browser used, the only one that reaches it)."""
    if public_url:
        return public_url.rstrip("/")
    if is_loopback(host):
        return None
    if host in WILDCARDS:
        found = lan_address()
        if found is None:
            return None
        host = found
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"
