"""Storage: the database's schema, its migrations, and the one thread that runs every query.

- :mod:`.db` -- the engine set-up, the rows of tables, seats, moves, events, accounts and
  sessions, and :func:`~.db.migrate` (Alembic, :mod:`.migrations`);
- :mod:`.ratingdb` -- the rows of ratings and quick play (migration ``0006``);
- :mod:`.store` -- :class:`~.store.Store`: the database thread that runs every query, and the
  moves and turn clocks committed in groups.

May use: nothing else of the server (the engine's plain data aside). Every room above stores
through here; the queries of each concern sit beside it (:mod:`..tables.store`,
:mod:`..accounts.store`, :mod:`..ratings.players`, :mod:`..ratings.matchmaking`).
"""
