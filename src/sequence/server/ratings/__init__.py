"""Ratings: rated games, players and their pages, the leaderboard, quick play, their HTTP API.

- :mod:`.rating` -- which family a game is rated in, what a rated table must be, and how a
  finished game moves its players' ratings (OpenSkill);
- :mod:`.players` -- players and their ratings in the database, the leaderboard;
- :mod:`.matchmaking` -- quick play: the queue, matched by rating;
- :mod:`.ranked` -- :class:`~.ranked.Ranked`: what the routes and the hub ask of ratings;
- :mod:`.api` -- the ``/api/players``, ``/api/leaderboard`` and ``/api/quickplay`` routes.

May use: :mod:`..accounts`, :mod:`..tables`, :mod:`..storage`, :mod:`..common`, the engine,
the bots and i18n.
"""
