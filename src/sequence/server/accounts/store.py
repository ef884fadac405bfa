"""Accounts and their sessions in the database: the queries behind :mod:`.api`.

Every method is synchronous and runs on the store's one database thread
(``await store.run(accounts.method, ...)``), like a table's own queries in
:mod:`..tables.store`.
A session is found by the SHA-256 of its cookie (the cookie itself is never stored), and only
while it has not expired, so every server process on the same database knows every session.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError

from ..storage.db import AccountRow, SeatRow, SessionRow, TableRow, now
from ..storage.store import Store
from .account import DELETED_NAME


@dataclass(frozen=True)
class AccountData:
    """An account as stored."""

    id: int
    name: str
    password_hash: str
    seat_key: str
    created_at: datetime


@dataclass(frozen=True)
class AccountGame:
    """A table one of the account's seats is at."""

    code: str
    status: str
    config: dict[str, Any]
    result: str | None
    finished_at: datetime | None
    seats: list[int]


def _data(row: AccountRow) -> AccountData:
    return AccountData(row.id, row.name, row.password_hash, row.seat_key, row.created_at)


def _aware(when: datetime) -> datetime:
    # SQLite gives back naive datetimes: they were stored in UTC.
    return when if when.tzinfo is not None else when.replace(tzinfo=now().tzinfo)


class AccountStore:
    """Accounts, sessions, and the seats that belong to an account."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._sessions = store.sessions

    def create(self, name: str, key: str, password_hash: str, seat_key: str) -> AccountData | None:
        """A new account, or ``None`` if the name (whatever its case) is taken."""
        try:
            with self._sessions.begin() as session:
                row = AccountRow(
                    name=name, name_key=key, password_hash=password_hash, seat_key=seat_key
                )
                session.add(row)
                session.flush()
                return _data(row)
        except IntegrityError:
            return None

    def by_key(self, key: str) -> AccountData | None:
        """The account whose case-folded name is ``key``."""
        with self._sessions() as session:
            row = session.scalars(select(AccountRow).where(AccountRow.name_key == key)).first()
            return None if row is None else _data(row)

    def set_password(self, account_id: int, password_hash: str) -> None:
        """Store a new password hash."""
        with self._sessions.begin() as session:
            session.get_one(AccountRow, account_id).password_hash = password_hash

    # --- sessions -------------------------------------------------------------------------------

    def open_session(self, account_id: int, token_hash: str, lifetime: timedelta) -> None:
        """Store a new session (and forget every expired one)."""
        with self._sessions.begin() as session:
            session.execute(delete(SessionRow).where(SessionRow.expires_at <= now()))
            session.add(
                SessionRow(
                    account_id=account_id, token_hash=token_hash, expires_at=now() + lifetime
                )
            )

    def session_account(self, token_hash: str) -> AccountData | None:
        """The account of the live session whose cookie hashes to ``token_hash``."""
        with self._sessions() as session:
            found = session.execute(
                select(SessionRow, AccountRow)
                .join(AccountRow, AccountRow.id == SessionRow.account_id)
                .where(SessionRow.token_hash == token_hash)
            ).first()
            if found is None:
                return None
            row, account = found
            if _aware(row.expires_at) <= now():
                return None
            return _data(account)

    def close_session(self, token_hash: str) -> None:
        """End one session (signing out)."""
        with self._sessions.begin() as session:
            session.execute(delete(SessionRow).where(SessionRow.token_hash == token_hash))

    def close_other_sessions(self, account_id: int, keep_hash: str) -> int:
        """End every session of the account but ``keep_hash``'s (a new password); how many."""
        with self._sessions.begin() as session:
            result = session.execute(
                delete(SessionRow).where(
                    SessionRow.account_id == account_id, SessionRow.token_hash != keep_hash
                )
            )
            return int(result.rowcount)  # type: ignore[attr-defined]

    # --- the account's seats ---------------------------------------------------------------

    def delete(self, account_id: int) -> list[str]:
        """Delete the account, its sessions and its name from every seat it held: the games
        stay, and those seats show :data:`DELETED_NAME`. Return the codes of those games
        (whose copies in memory, in every server process, are to be brought up to it)."""
        with self._sessions.begin() as session:
            codes = session.scalars(
                select(TableRow.code)
                .join(SeatRow, SeatRow.table_id == TableRow.id)
                .where(SeatRow.account_id == account_id)
                .distinct()
            ).all()
            session.execute(
                update(SeatRow)
                .where(SeatRow.account_id == account_id)
                .values(name=DELETED_NAME, account_id=None)
            )
            session.execute(delete(SessionRow).where(SessionRow.account_id == account_id))
            session.execute(delete(AccountRow).where(AccountRow.id == account_id))
            return list(codes)

    def games(self, account_id: int) -> list[AccountGame]:
        """Every table the account holds a seat at, newest first."""
        with self._sessions() as session:
            rows = session.execute(
                select(TableRow, SeatRow.seat)
                .join(SeatRow, SeatRow.table_id == TableRow.id)
                .where(SeatRow.account_id == account_id)
                .order_by(TableRow.created_at.desc(), TableRow.id.desc(), SeatRow.seat)
            ).all()
            games: dict[int, AccountGame] = {}
            for table, seat in rows:
                game = games.get(table.id)
                if game is None:
                    game = games[table.id] = AccountGame(
                        table.code,
                        table.status,
                        json.loads(table.config),
                        table.result,
                        table.finished_at,
                        [],
                    )
                game.seats.append(seat)
            return list(games.values())
