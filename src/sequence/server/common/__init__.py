"""What every room of the server uses: the one refusal and the limits on a client.

- :mod:`.errors` -- :class:`~.errors.RequestError`, how every part says no (a stable code, an
  HTTP status, a message in the requester's language);
- :mod:`.limits` -- how deep a client's JSON may nest, how often it may make or join tables.

May use: the engine and i18n only (nothing else of the server).
"""
