"""The web app: the factory that assembles every room's routes, the static browser client.

- :mod:`.app` -- :func:`~.app.create_app`: the lifespan, the error handlers, the routes.

May use: every other room of the server (it is the top one; only :mod:`..cli` is above it).
"""
