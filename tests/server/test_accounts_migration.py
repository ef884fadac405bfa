"""Migration 0005_accounts on a database that holds games (SQLite and PostgreSQL): the games
survive the upgrade and replay to the same positions, their seats belong to nobody, and an
account can then claim a guest's seat; the downgrade keeps the games too."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest
from alembic import command
from alembic.config import Config as AlembicConfig
from sqlalchemy import inspect, text

from sequence.engine import Move, State, make_config
from sequence.server.accounts.account import Owner, new_seat_key
from sequence.server.storage.db import MIGRATIONS, make_engine
from sequence.server.tables.access import new_token
from sequence.server.tables.registry import table_from
from sequence.server.tables.store import TableStore

from .conftest import fresh_postgres


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, sqlite_url: str) -> Iterator[str]:
    if request.param == "sqlite":
        yield sqlite_url
    else:
        with fresh_postgres() as url:
            yield url


def alembic(url: str, action: str, revision: str) -> None:
    engine = make_engine(url)
    cfg = AlembicConfig()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    try:
        with engine.begin() as conn:
            cfg.attributes["connection"] = conn
            getattr(command, action)(cfg, revision)
    finally:
        engine.dispose()


def old_games(url: str) -> dict[str, tuple[State, str]]:
    """Two games stored as revision 0003 stores them (a finished one and one in play): raw
    rows, no code of this revision; the state each reaches and a guest's seat token."""
    engine = make_engine(url)
    games: dict[str, tuple[State, str]] = {}
    rng = random.Random(5)
    with engine.begin() as conn:
        for n, (code, plies) in enumerate((("OLDONE", 12), ("OLDTWO", 30))):
            config = make_config(game="classic", players=2)
            seed = 1000 + n
            state = State.new(config, seed)
            for _ in range(plies):
                state.push(rng.choice(state.legal_moves))
            token, token_hash = new_token()
            table_id = conn.execute(
                text(
                    "INSERT INTO game_tables (code, config, seed, public, status, host_hash,"
                    " created_at, time_control) VALUES (:code, :config, :seed, true,"
                    " 'playing', :host, CURRENT_TIMESTAMP, 'off') RETURNING id"
                ),
                {"code": code, "config": json.dumps(config.to_dict()), "seed": seed,
                 "host": "h" * 64},
            ).scalar_one()  # fmt: skip
            for seat, (name, th) in enumerate((("Ann", token_hash), ("Bob", "b" * 64))):
                conn.execute(
                    text(
                        "INSERT INTO seats (table_id, seat, name, token_hash, stand_in, reserve,"
                        " timeouts) VALUES (:t, :s, :n, :h, false, 0, 0)"
                    ),
                    {"t": table_id, "s": seat, "n": name, "h": th},
                )
            for ply, move in enumerate(state.move_stack, 1):
                conn.execute(
                    text(
                        "INSERT INTO moves (table_id, ply, move, seat, created_at) VALUES"
                        " (:t, :p, :m, :s, CURRENT_TIMESTAMP)"
                    ),
                    {"t": table_id, "p": ply, "m": str(move), "s": (ply - 1) % 2},
                )
            games[code] = (state, token)
    engine.dispose()
    return games


def test_the_accounts_migration_keeps_the_games(db_url: str) -> None:
    alembic(db_url, "upgrade", "0003")
    games = old_games(db_url)
    store = TableStore(db_url)  # migrates to the newest revision, as `sequence serve` does
    try:
        columns = {c["name"] for c in inspect(store.engine).get_columns("seats")}
        assert "account_id" in columns
        tables = set(inspect(store.engine).get_table_names())
        assert {"accounts", "account_sessions"} <= tables
        for code, (state, _token) in games.items():
            data = store.load(code)
            assert data is not None and [s.account_id for s in data.seats] == [None, None]
            table = table_from(data)
            assert table.state is not None
            assert table.state == state
            assert table.seats[0].name == "Ann" and table.state.move_stack == tuple(
                Move.parse(str(m)) for m in state.move_stack
            )
        # An account made after the upgrade holds a guest's old seat.
        from sequence.server.accounts.store import AccountStore

        accounts = AccountStore(store)
        account = accounts.create("Ann", "ann", "$argon2id$placeholder", new_seat_key())
        assert account is not None
        data = store.load("OLDONE")
        assert data is not None
        seat = data.seats[0]
        owner = Owner(account.id, account.name, account.seat_key)
        _, seat.token_hash = owner.seat_token(data.host_hash, 0)
        seat.account_id = account.id
        store.save_seat(data.id, seat)
        assert [g.code for g in accounts.games(account.id)] == ["OLDONE"]
    finally:
        store.close()
    # And back down: the games stay, the accounts go.
    alembic(db_url, "downgrade", "0003")
    engine = make_engine(db_url)
    try:
        assert "accounts" not in inspect(engine).get_table_names()
        with engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM moves")).scalar_one() == 42
    finally:
        engine.dispose()
