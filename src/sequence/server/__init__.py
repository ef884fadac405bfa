"""``sequence serve``: online play with FastAPI, WebSockets and SQLAlchemy.

- :mod:`.protocol` -- every message to a client, built from the seat's view (the one filter);
- :mod:`.hub` -- live tables: the engine, seats and tokens, bots in a worker pool;
- :mod:`.store` / :mod:`.db` -- tables, seats and move logs in the database (Alembic migrations);
- :mod:`.app` -- the HTTP API, the WebSocket and the static browser client;
- :mod:`.cli` -- the ``sequence serve`` command.
"""

from __future__ import annotations

from .app import create_app

__all__ = ["create_app"]
