"""Notifications in the database: each account's choices, its browsers' push subscriptions,
what it was told already, and the server's secrets.

Every method is synchronous and runs on the store's database thread
(``await store.run(notify_store.method, ...)``), like :mod:`..accounts.store`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, or_, select, update
from sqlalchemy.exc import IntegrityError

from ..storage.db import now
from ..storage.socialdb import (
    NotifiedRow,
    NotifySettingsRow,
    PushSubscriptionRow,
    ServerSecretRow,
)
from ..storage.store import Store
from .webpush import Subscription

CHANNELS = ("email", "push")


@dataclass(frozen=True)
class Settings:
    """What an account chose (the defaults: nothing is sent)."""

    lang: str = "en"
    email: str | None = None
    email_confirmed: bool = False
    email_on: bool = False
    push_on: bool = False

    @property
    def by_email(self) -> bool:
        """E-mails go out: chosen, and the address confirmed."""
        return self.email_on and self.email_confirmed and self.email is not None


def _aware(when: datetime) -> datetime:
    # SQLite gives back naive datetimes: they were stored in UTC.
    return when if when.tzinfo is not None else when.replace(tzinfo=now().tzinfo)


class NotifyStore:
    """The notification rows of every account."""

    def __init__(self, store: Store) -> None:
        self._sessions = store.sessions

    def secret(self, name: str, make: Callable[[], str]) -> str:
        """The server's secret ``name``, made by ``make`` the first time any process asks (the
        first to store it wins, every process then uses that one)."""
        with self._sessions() as session:
            row = session.get(ServerSecretRow, name)
            if row is not None:
                return row.value
        try:
            with self._sessions.begin() as session:
                session.add(ServerSecretRow(name=name, value=make()))
        except IntegrityError:
            pass
        with self._sessions() as session:
            return session.get_one(ServerSecretRow, name).value

    def settings(self, account_id: int) -> Settings:
        """The account's choices."""
        with self._sessions() as session:
            row = session.get(NotifySettingsRow, account_id)
            if row is None:
                return Settings()
            return Settings(row.lang, row.email, row.email_confirmed, row.email_on, row.push_on)

    def save(
        self, account_id: int, lang: str, email: str | None, email_on: bool, push_on: bool
    ) -> Settings:
        """Store the account's choices; a new address must be confirmed again."""
        with self._sessions.begin() as session:
            row = session.get(NotifySettingsRow, account_id)
            if row is None:
                row = NotifySettingsRow(account_id=account_id, email_confirmed=False)
                session.add(row)
            if row.email != email:
                row.email, row.email_confirmed = email, False
            row.lang, row.email_on, row.push_on = lang, email_on, push_on
            return Settings(row.lang, row.email, bool(row.email_confirmed), email_on, push_on)

    def confirm(self, account_id: int, email: str) -> bool:
        """The link sent to ``email`` was opened: confirm it if it is still the account's."""
        with self._sessions.begin() as session:
            result = session.execute(
                update(NotifySettingsRow)
                .where(NotifySettingsRow.account_id == account_id, NotifySettingsRow.email == email)
                .values(email_confirmed=True)
            )
            return bool(result.rowcount)  # type: ignore[attr-defined]

    def unsubscribe(self, account_id: int, channel: str) -> None:
        """Stop ``channel`` (``email``, ``push``) for the account."""
        values = {"email_on": False} if channel == "email" else {"push_on": False}
        with self._sessions.begin() as session:
            session.execute(
                update(NotifySettingsRow)
                .where(NotifySettingsRow.account_id == account_id)
                .values(**values)
            )

    # --- push subscriptions -----------------------------------------------------------------

    def subscribe(self, account_id: int, sub: Subscription) -> None:
        """Keep a browser's subscription for the account (a known endpoint changes hands)."""
        with self._sessions.begin() as session:
            session.execute(
                delete(PushSubscriptionRow).where(PushSubscriptionRow.endpoint == sub.endpoint)
            )
            session.add(
                PushSubscriptionRow(
                    account_id=account_id, endpoint=sub.endpoint, p256dh=sub.p256dh, auth=sub.auth
                )
            )

    def unsubscribe_browser(self, account_id: int | None, endpoint: str) -> None:
        """Forget a subscription (the account's, or any one: the push service said it is gone)."""
        with self._sessions.begin() as session:
            query = delete(PushSubscriptionRow).where(PushSubscriptionRow.endpoint == endpoint)
            if account_id is not None:
                query = query.where(PushSubscriptionRow.account_id == account_id)
            session.execute(query)

    def subscriptions(self, account_id: int) -> list[Subscription]:
        """The account's browsers."""
        with self._sessions() as session:
            rows = session.scalars(
                select(PushSubscriptionRow)
                .where(PushSubscriptionRow.account_id == account_id)
                .order_by(PushSubscriptionRow.id)
            )
            return [Subscription(r.endpoint, r.p256dh, r.auth) for r in rows]

    # --- what was sent ----------------------------------------------------------------------

    def mark(self, account_id: int, keys: Iterable[str]) -> list[str]:
        """Record that the account is told ``keys``; return those not told before (another
        process, or this one before a restart, may have told the others)."""
        fresh: list[str] = []
        for key in keys:
            try:
                with self._sessions.begin() as session:
                    session.add(NotifiedRow(account_id=account_id, key=key))
                fresh.append(key)
            except IntegrityError:
                continue
        return fresh

    def told(self, account_id: int, key: str) -> bool:
        """Whether the account was told ``key``."""
        with self._sessions() as session:
            found = session.scalars(
                select(NotifiedRow.id).where(
                    NotifiedRow.account_id == account_id, NotifiedRow.key == key
                )
            ).first()
            return found is not None

    def claim_send(self, account_id: int, channel: str, interval: float) -> float:
        """Take the account's turn to be sent something on ``channel``: 0 if taken (its last
        sending is now), else the seconds until the last one is ``interval`` old. One
        conditional update, so two processes never both send within the interval."""
        column = (
            NotifySettingsRow.email_sent_at
            if channel == "email"
            else NotifySettingsRow.push_sent_at
        )
        moment = now()
        since = moment - timedelta(seconds=interval)
        with self._sessions.begin() as session:
            result = session.execute(
                update(NotifySettingsRow)
                .where(
                    NotifySettingsRow.account_id == account_id,
                    or_(column.is_(None), column <= since),
                )
                .values({column.key: moment})
            )
            if result.rowcount:  # type: ignore[attr-defined]
                return 0.0
            last = session.scalars(
                select(column).where(NotifySettingsRow.account_id == account_id)
            ).first()
        if last is None:
            return 0.0
        return max(0.01, (_aware(last) + timedelta(seconds=interval) - moment).total_seconds())
