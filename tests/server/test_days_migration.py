"""Migration 0007_days on a database that holds games (SQLite and PostgreSQL): the games
survive the upgrade and replay to the same positions, the new tables are made, and the
downgrade to 0006 drops only them."""

from __future__ import annotations

from sqlalchemy import inspect, text

from sequence.server.storage.db import make_engine
from sequence.server.tables.registry import table_from
from sequence.server.tables.store import TableStore

from .test_accounts_migration import alembic, db_url, old_games

__all__ = ["db_url"]  # the fixture, shared with the accounts' migration test

TABLES = {"notify_settings", "push_subscriptions", "notified", "server_secrets", "friends",
          "presence", "challenges", "challenged"}  # fmt: skip


def test_the_days_migration_keeps_the_games(db_url: str) -> None:
    alembic(db_url, "upgrade", "0006")
    games = old_games(db_url)
    store = TableStore(db_url)  # migrates to the newest revision, as `sequence serve` does
    try:
        assert set(inspect(store.engine).get_table_names()) >= TABLES
        for code, (state, _token) in games.items():
            data = store.load(code)
            assert data is not None and table_from(data).state == state
    finally:
        store.close()
    alembic(db_url, "downgrade", "0006")
    engine = make_engine(db_url)
    try:
        assert not TABLES & set(inspect(engine).get_table_names())
        with engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM moves")).scalar_one() == 42
    finally:
        engine.dispose()
