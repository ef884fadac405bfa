"""``sequence serve``: online play with FastAPI, WebSockets and SQLAlchemy, in rooms by concern.

Each room imports only the rooms below it (the import-linter contract ``server-rooms``;
docs/server.md, "The map"):

- :mod:`.cli` -- the ``sequence serve`` command;
- :mod:`.web` -- the app factory, the routers, the static browser client;
- :mod:`.ratings` -- ratings, ranked play, quick play, players' pages, their routes;
- :mod:`.accounts` -- accounts, sessions, attempts, their queries and routes;
- :mod:`.tables` -- live tables: the hub and its jobs, the protocol (the one filter), the
  WebSocket, the scheduler of bots and clocks, a table's queries;
- :mod:`.storage` / :mod:`.cluster` -- the database (its thread, rows, migrations) / the other
  server processes (notices and leases through Redis, nginx, the launcher);
- :mod:`.common` -- how every part refuses a request, limits.
"""

from __future__ import annotations

from .web.app import create_app

__all__ = ["create_app"]
