"""Accounts: names, passwords, sessions, attempts, their queries and their HTTP API.

- :mod:`.account` -- what an account is made of: names, passwords, seat tokens (:class:`Owner`);
- :mod:`.sessions` -- the session cookie and the checks that keep other sites out;
- :mod:`.attempts` -- counting sign-up and sign-in attempts (in memory or in Redis);
- :mod:`.store` -- accounts and sessions in the database;
- :mod:`.models` -- the account requests and answers of the HTTP API;
- :mod:`.api` -- :class:`~.api.AccountService` and the ``/api/account`` routes.

May use: :mod:`..tables` (the seats that follow a signed-in player), :mod:`..storage`,
:mod:`..common`, the engine and i18n.
"""
