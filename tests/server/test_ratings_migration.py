"""Migration 0006_ratings on a database that holds games (SQLite and PostgreSQL): the games
survive the upgrade unrated and replay to the same positions, the bots' ratings are seeded, and
the downgrade to 0005 keeps the games."""

from __future__ import annotations

from sqlalchemy import inspect, text

from sequence.bots.levels import LEVELS
from sequence.server.ratings.players import PlayerBook, load_calibration
from sequence.server.storage.db import make_engine
from sequence.server.tables.registry import table_from
from sequence.server.tables.store import TableStore

from .test_accounts_migration import alembic, db_url, old_games

__all__ = ["db_url"]  # the fixture, shared with the accounts' migration test

TABLES = {"players", "ratings", "rating_history", "table_players", "rated_games",
          "quickplay_pools", "quickplay_tickets"}  # fmt: skip


def test_the_ratings_migration_keeps_the_games(db_url: str) -> None:
    alembic(db_url, "upgrade", "0005")
    games = old_games(db_url)
    store = TableStore(db_url)  # migrates to the newest revision, as `sequence serve` does
    try:
        assert set(inspect(store.engine).get_table_names()) >= TABLES
        for code, (state, _token) in games.items():
            data = store.load(code)
            assert data is not None and data.rated is False
            table = table_from(data)
            assert table.state == state and not table.rated
        book = PlayerBook(store.engine)
        assert book.seed_bots(load_calibration()) == len(LEVELS) * 4  # every level x 4 families
        assert book.seed_bots(load_calibration()) == 0  # once
        assert book.bot_ratings("dice").keys() == set(LEVELS)
    finally:
        store.close()
    alembic(db_url, "downgrade", "0005")
    engine = make_engine(db_url)
    try:
        assert not TABLES & set(inspect(engine).get_table_names())
        assert "rated" not in {c["name"] for c in inspect(engine).get_columns("game_tables")}
        with engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM moves")).scalar_one() == 42
    finally:
        engine.dispose()
