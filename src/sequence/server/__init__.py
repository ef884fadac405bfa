"""``sequence serve``: online play with FastAPI, WebSockets and SQLAlchemy.

- :mod:`.protocol` -- every message to a client, built from the seat's view (the one filter);
- :mod:`.hub` -- routes each request on a table: rights, the engine, storage, then everyone told;
- :mod:`.table` -- a live table: settings, seats, the game state;
- :mod:`.registry` -- every table in memory by code, loaded from and saved to the store;
- :mod:`.access` -- who may do what: seat tokens, the host's rights, spectators;
- :mod:`.scheduler` -- bots' turns, driven by the engine's ``State.next_step()``;
- :mod:`.connection` -- one WebSocket client: payloads out, a rate limit on what comes in;
- :mod:`.errors` -- :class:`~.errors.RequestError`, how every part says no;
- :mod:`.store` / :mod:`.db` -- tables, seats and move logs in the database (Alembic migrations);
- :mod:`.app` -- the HTTP API, the WebSocket and the static browser client;
- :mod:`.cli` -- the ``sequence serve`` command.
"""

from __future__ import annotations

from .web.app import create_app

__all__ = ["create_app"]
