"""Friends and challenges between signed-in players (issue 35).

- :mod:`.store` -- friends, blocks, presence and challenges in the database;
- :mod:`.models`, :mod:`.api` -- the ``/api/friends`` and ``/api/challenges`` routes.

May use: :mod:`..notify` (a challenge is a notification), :mod:`..accounts` (who is signed in,
their seats), :mod:`..tables` (a challenge accepted becomes a table), :mod:`..storage`,
:mod:`..common`, the engine and i18n.
"""
