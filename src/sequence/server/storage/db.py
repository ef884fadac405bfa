"""Storage: tables, seats, every move and results, in any SQLAlchemy database.

The database holds what a game *is* -- its configuration, its seed and its move log -- and the
state is rebuilt by replaying (``State.new(config, seed)`` and a push per move), as boardgame.io
keeps ``createMatch`` / ``setState(deltalog)``. The schema is created and upgraded by the Alembic
migrations shipped in :mod:`sequence.server.storage.migrations`, run by :func:`migrate` at start-up.
"""

from __future__ import annotations

import hashlib
import hmac
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    create_engine,
    event,
    false,
    text,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

MIGRATIONS = Path(__file__).parent / "migrations"


class Base(DeclarativeBase):
    """Declarative base of the server's tables."""


def now() -> datetime:
    """The current time in UTC (what every timestamp column holds)."""
    return datetime.now(UTC)


class TableRow(Base):
    """One game table: its settings, its secret seed, where it stands."""

    __tablename__ = "game_tables"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    code: Mapped[str] = mapped_column(String(16), unique=True, index=True)
    config: Mapped[str] = mapped_column(Text)
    """The game configuration as JSON (``Config.to_dict``)."""
    seed: Mapped[int] = mapped_column(BigInteger)
    """The seed of the deal and the dice: never sent to a client while the game runs."""
    public: Mapped[bool] = mapped_column(Boolean, default=True)
    status: Mapped[str] = mapped_column(String(16), default="lobby", index=True)
    """``lobby`` (seats being taken), ``playing`` or ``finished``."""
    host_hash: Mapped[str] = mapped_column(String(64))
    result: Mapped[str | None] = mapped_column(String(32), nullable=True)
    rematch_code: Mapped[str | None] = mapped_column(String(16), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    time_control: Mapped[str] = mapped_column(String(16), default="off", server_default="off")
    """The turn clock chosen at creation: ``off``, ``casual``, ``quick`` or ``days1`` ..."""
    turn_seconds: Mapped[float | None] = mapped_column(Float, nullable=True)
    """Seconds a turn (``None``: no clock); kept with the table, whatever the presets become."""
    reserve_seconds: Mapped[float | None] = mapped_column(Float, nullable=True)
    """Each seat's reserve at the start, in seconds."""
    bot_level: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The bot that plays for a seat whose time ran out (``None``: the server's default)."""
    clock_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The seat whose turn clock was running when last stored."""
    clock_left: Mapped[float | None] = mapped_column(Float, nullable=True)
    """Seconds that seat had left then: a restart goes on from there, not from a full turn."""
    clock_deadline: Mapped[float | None] = mapped_column(Float, nullable=True)
    """When that turn ends, as a Unix time by the server's clock: a correspondence table's
    turn (days) goes on from it, the time the server was down included."""
    on_timeout: Mapped[str | None] = mapped_column(String(8), nullable=True)
    """What a correspondence table does when a seat's days run out: ``bot`` (a bot plays for
    the seat) or ``lost`` (its team loses); ``None`` for the other clocks."""
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """The result moves its players' ratings (chosen at creation: see :mod:`.ratings`)."""

    seats: Mapped[list[SeatRow]] = relationship(
        back_populates="table", order_by="SeatRow.seat", cascade="all, delete-orphan"
    )
    moves: Mapped[list[MoveRow]] = relationship(
        back_populates="table", order_by="MoveRow.ply", cascade="all, delete-orphan"
    )
    events: Mapped[list[EventRow]] = relationship(
        back_populates="table", order_by="EventRow.id", cascade="all, delete-orphan"
    )


class SeatRow(Base):
    """One seat at a table: a person (by the hash of their seat token) or a bot."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("table_id", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str | None] = mapped_column(String(40), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    bot: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The bot level playing this seat, or ``None`` for a person."""
    stand_in: Mapped[bool] = mapped_column(Boolean, default=False)
    """True when the host handed an absent person's seat to a bot until they come back."""
    reserve: Mapped[float] = mapped_column(Float, default=0.0, server_default="0")
    """Seconds of clock reserve the seat has left."""
    timeouts: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """Turns in a row the seat's clock ran out."""
    account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True, index=True
    )
    """The account whose player sits here (``None``: a guest, a bot, or a deleted account)."""

    table: Mapped[TableRow] = relationship(back_populates="seats")


class MoveRow(Base):
    """One move of a game, in notation, numbered from 1."""

    __tablename__ = "moves"
    __table_args__ = (
        UniqueConstraint("table_id", "ply"),
        # Migration 0004: whichever server process receives a move, its id is applied once.
        Index("ix_moves_table_seat_move_id", "table_id", "seat", "move_id", unique=True),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(
        ForeignKey("game_tables.id", ondelete="CASCADE"), index=True
    )
    ply: Mapped[int] = mapped_column(Integer)
    move: Mapped[str] = mapped_column(String(32))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """Who made it (``None``: the server, for a Dice roll it made or the host's penalty)."""
    move_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The id the player's client gave the move: a resend of it is acknowledged, not applied."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)

    table: Mapped[TableRow] = relationship(back_populates="moves")


class EventRow(Base):
    """A change at a table that is not a move (see :class:`sequence.server.tables.table.Event`)."""

    __tablename__ = "table_events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(
        ForeignKey("game_tables.id", ondelete="CASCADE"), index=True
    )
    ply: Mapped[int] = mapped_column(Integer)
    """The game's version when it happened (after that many moves)."""
    kind: Mapped[str] = mapped_column(String(16))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    by_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    detail: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)

    table: Mapped[TableRow] = relationship(back_populates="events")


class AccountRow(Base):
    """A player's optional account (see :mod:`sequence.server.accounts.account`): a name and the
    Argon2id hash of a password; seats point at it (:attr:`SeatRow.account_id`)."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    """The name as its owner wrote it (NFKC), shown to others."""
    name_key: Mapped[str] = mapped_column(String(40), unique=True)
    """The name case-folded: two accounts never share one, whatever the case."""
    password_hash: Mapped[str] = mapped_column(String(255))
    """Argon2id, in the PHC string format (parameters and salt with the hash)."""
    seat_key: Mapped[str] = mapped_column(String(64))
    """A random secret from which the account's seat tokens are derived (HMAC), so that every
    device the player signs in on gets the same token for the same seat."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class SessionRow(Base):
    """A signed-in browser: the SHA-256 of its session cookie, whose account, until when."""

    __tablename__ = "account_sessions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


def hash_token(token: str) -> str:
    """The stored form of a secret token (SHA-256, hex)."""
    return hashlib.sha256(token.encode()).hexdigest()


def token_matches(token: str | None, stored: str | None) -> bool:
    """Whether ``token`` is the one whose hash is ``stored`` (constant-time)."""
    if not isinstance(token, str) or not token or not stored:
        return False
    return hmac.compare_digest(hash_token(token), stored)


def normalise_url(url: str) -> str:
    """Accept ``postgresql://`` as PostgreSQL through psycopg 3 (the driver this project ships)."""
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://") :]
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://") :]
    return url


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets WAL journaling (a killed server loses no commit).

    Statements' parameters never reach a log line or an error message (``hide_parameters``):
    they hold password hashes and the hashes of tokens."""
    url = normalise_url(url)
    kwargs: dict[str, Any] = {"future": True, "hide_parameters": True}
    if url.startswith("sqlite"):
        kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
    engine = create_engine(url, **kwargs)
    if engine.dialect.name == "sqlite":

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

    return engine


def migrate(engine: Engine, revision: str = "head") -> None:
    """Bring the database's schema to the newest migration (Alembic ``upgrade head``), or to
    ``revision`` (the tests make databases of an older schema this way)."""
    from alembic import command
    from alembic.config import Config as AlembicConfig

    cfg = AlembicConfig()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", engine.url.render_as_string(hide_password=False))
    with engine.begin() as conn:
        if engine.dialect.name == "postgresql":
            # Several server processes starting at once on one database: one migrates, the
            # others wait for it (the lock ends with the transaction) and find nothing to do.
            conn.execute(text("SELECT pg_advisory_xact_lock(7436105)"))
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)
