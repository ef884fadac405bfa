"""Health, readiness and metrics for an operator (issue 30; ``server/web/health.py``)."""

from __future__ import annotations

import re

from .conftest import ServerThread, create_table


def test_health_readiness_and_metrics_of_one_process(server: ServerThread) -> None:
    with server.http() as http:
        assert http.get("/healthz").json() == {"status": "ok"}
        ready = http.get("/readyz")
        assert ready.status_code == 200
        assert ready.json() == {"status": "ok", "database": "up", "redis": None}
        create_table(server, game="kids", players=2, name="Ann", seat=0)
        assert http.get("/api/tables/NOPE42").status_code == 404  # a code no table has
        text = http.get("/metrics")
        assert text.headers["content-type"].startswith("text/plain; version=0.0.4")
        body = text.text
        assert "# TYPE sequence_tables gauge" in body
        assert 'sequence_tables{phase="other"} 1' in body  # the lobby just made
        assert "sequence_connections 0" in body and "sequence_moves 0" in body
        # A counter of the process (tests may run several apps in one): it only grows.
        assert re.search(r'^sequence_errors_total\{code="unknown_table"\} [1-9]', body, re.M)
        assert "sequence_notices_up" not in body  # one process: no Redis
        paths = http.get("/openapi.json").json()["paths"]
        assert not {"/healthz", "/readyz", "/metrics"} & set(paths)
