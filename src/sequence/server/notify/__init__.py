"""Notifications that reach a signed-in player away from the page: Web Push and e-mail.

- :mod:`.messages` -- :class:`~.messages.Notice` (what happened: public facts only, never a
  card) and its words in the player's language;
- :mod:`.webpush` -- a message encrypted for a browser's subscription (RFC 8291) and signed
  with the server's VAPID key (RFC 8292);
- :mod:`.mail` -- e-mail through the operator's SMTP server;
- :mod:`.links` -- signed unsubscribe and confirmation links;
- :mod:`.store` -- the accounts' choices, subscriptions and what was sent, in the database;
- :mod:`.notifier` -- :class:`~.notifier.Notifier`: watches the tables, batches and
  rate-limits, sends;
- :mod:`.models`, :mod:`.api` -- the ``/api/notify`` routes.

May use: :mod:`..accounts` (who is signed in), :mod:`..tables` (the tables it watches),
:mod:`..storage`, :mod:`..common`, the engine and i18n.
"""
