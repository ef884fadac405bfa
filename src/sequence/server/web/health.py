"""Health, readiness and metrics for an operator's load balancer and monitoring.

- ``GET /healthz``: liveness. Answers as long as the process's event loop does (a process that
  hangs stops answering, so systemd or the balancer can restart it).
- ``GET /readyz``: readiness, with what this process can reach: the database (a ``SELECT 1``
  within two seconds) and, in a cluster, the Redis notices channel. 200 while the database
  answers, with ``"status": "degraded"`` while Redis is away (the process goes on serving the
  tables it runs and the players connected to it); 503 while the database does not.
- ``GET /metrics``: Prometheus text format (version 0.0.4): tables, connections, moves in the
  tables held here, error answers by code, whether the notices channel is up.

None of these is in the API's OpenAPI description: they are the operator's, not players'.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse, PlainTextResponse
from sqlalchemy import text

from ..storage.store import Store
from ..tables.hub import Hub
from .http import ERRORS

DB_TIMEOUT = 2.0
"""Seconds the database has to answer a readiness check."""


def _database_up(store: Store) -> bool:
    with store.engine.connect() as conn:
        conn.execute(text("SELECT 1"))
    return True


METRICS: dict[str, tuple[str, str]] = {  # Prometheus's words, for operators: English
    "sequence_tables": ("gauge", "Tables held by this process."),  # i18n: ignore
    "sequence_connections": ("gauge", "WebSocket connections to its tables."),  # i18n: ignore
    "sequence_moves": ("gauge", "Moves made in the tables held here."),  # i18n: ignore
    "sequence_errors_total": ("counter", "Error answers, by code."),  # i18n: ignore
    "sequence_notices_up": ("gauge", "The Redis notices channel is up."),  # i18n: ignore
}
"""Each metric's type and help line."""
PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8"  # i18n: ignore


def _metric(lines: list[str], name: str, samples: list[str]) -> None:
    kind, help_ = METRICS[name]
    lines += [f"# HELP {name} {help_}", f"# TYPE {name} {kind}", *samples]


def health_router(hub: Callable[[], Hub], store: Callable[[], Store]) -> APIRouter:
    """``/healthz``, ``/readyz`` and ``/metrics`` for the hub and store of this process."""
    router = APIRouter(include_in_schema=False)

    @router.get("/healthz")
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @router.get("/readyz")
    async def readyz() -> JSONResponse:
        try:
            database = await asyncio.wait_for(asyncio.to_thread(_database_up, store()), DB_TIMEOUT)
        except Exception:
            database = False
        redis: bool | None = getattr(hub().cluster, "channel_up", None)
        status = "ok" if database and redis is not False else "degraded"
        body: dict[str, Any] = {
            "status": status if database else "unavailable",
            "database": "up" if database else "down",
            "redis": None if redis is None else ("up" if redis else "down"),
        }
        return JSONResponse(body, status_code=200 if database else 503)

    @router.get("/metrics")
    async def metrics() -> PlainTextResponse:
        tables = list(hub().registry.tables.values())
        playing = sum(1 for t in tables if t.state is not None and t.state.outcome is None)
        lines: list[str] = []
        _metric(lines, "sequence_tables", [
            f'sequence_tables{{phase="playing"}} {playing}',
            f'sequence_tables{{phase="other"}} {len(tables) - playing}',
        ])  # fmt: skip
        _metric(lines, "sequence_connections", [
            f"sequence_connections {sum(t.connected for t in tables)}",
        ])  # fmt: skip
        _metric(lines, "sequence_moves", [
            f"sequence_moves {sum(t.version for t in tables)}",
        ])  # fmt: skip
        _metric(lines, "sequence_errors_total", [
            f'sequence_errors_total{{code="{code}"}} {n}' for code, n in sorted(ERRORS.items())
        ])  # fmt: skip
        up = getattr(hub().cluster, "channel_up", None)
        if up is not None:
            _metric(lines, "sequence_notices_up", [
                f"sequence_notices_up {int(up)}",
            ])  # fmt: skip
        return PlainTextResponse("\n".join(lines) + "\n", media_type=PROMETHEUS_TEXT)

    return router
