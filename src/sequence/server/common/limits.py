"""Limits on what one client may send: how deep its JSON nests, how often it makes tables.

Both front doors use them: the HTTP API (request bodies; creating and joining tables) and the
WebSocket (each frame). A client over a limit is refused with a clear error and nothing changes.
"""

from __future__ import annotations

import math
import time
from typing import Any, Final

from ...i18n import N_
from .errors import RequestError

MAX_DEPTH: Final = 32
"""How deep arrays and objects may nest in a request body or a WebSocket message."""


def too_deep() -> RequestError:
    return RequestError(
        "bad_json",
        N_("the JSON nests deeper than {limit} levels; nothing was done"),
        400,
        limit=MAX_DEPTH,
    )


def not_json(constant: str) -> Any:
    """``json.loads``'s ``parse_constant``: the refusal of ``NaN`` and ``Infinity``."""
    raise ValueError(constant)  # NaN, Infinity: Python reads them, JSON has no such numbers


def json_depth(text: str | bytes) -> int:
    """How deep the arrays and objects of JSON ``text`` nest (brackets inside strings do not
    count), found without parsing, so that a deeply nested document never reaches a parser
    that recurses."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
        elif ch in "]}":
            depth -= 1
    return deepest


class ClientLimiter:
    """A token bucket per client (its address): ``burst`` requests at once, then ``rate`` a
    second. Clients whose bucket is full again are forgotten, so memory stays bounded."""

    FORGET_AFTER: Final = 10_000
    """Sweep the full buckets out once this many clients are remembered."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self._buckets: dict[str, tuple[float, float]] = {}

    def _tokens(self, client: str, now: float) -> float:
        tokens, stamp = self._buckets.get(client, (self.burst, now))
        return min(self.burst, tokens + (now - stamp) * self.rate)

    def take(self, client: str) -> float:
        """Take one request for ``client``: 0 if allowed, else the seconds to wait (> 0)."""
        now = time.monotonic()
        tokens = self._tokens(client, now)
        if tokens < 1:
            self._buckets[client] = (tokens, now)
            return max(1e-3, (1 - tokens) / self.rate)
        self._buckets[client] = (tokens - 1, now)
        if len(self._buckets) > self.FORGET_AFTER:
            self._buckets = {
                c: b for c, b in self._buckets.items() if self._tokens(c, now) < self.burst
            }
        return 0.0

    def retry_after(self, wait: float) -> str:
        """A ``Retry-After`` header's whole seconds for a wait."""
        return str(max(1, math.ceil(wait)))
