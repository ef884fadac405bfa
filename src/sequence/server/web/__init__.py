"""The web app: the factory that assembles every room's routes, and the browser client.

- :mod:`.app` -- :func:`~.app.create_app`: the lifespan (store, hub, ratings, accounts), the
  error handlers, the OpenAPI description, and the routers included in order;
- :mod:`.http` -- what every route shares: the body guard, the client's address and rate
  limits, the error answers;
- :mod:`.site` -- the client's pages, ``/api/meta``, ``/api/i18n``, ``/api/rules``;
- :mod:`.tables` -- the ``/api/tables`` and ``/api/finished`` routes;
- ``static/`` -- the browser client (HTML, JavaScript, CSS, pictures).

The WebSocket's route is the tables' (:mod:`..tables.websocket`), the accounts' and the
ratings' routes are theirs (:mod:`..accounts.api`, :mod:`..ratings.api`).

May use: every other room of the server (it is the top one; only :mod:`..cli` is above it).
"""
