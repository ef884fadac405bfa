"""The rows of ratings and quick play: players, their ratings and history, who sat where at a
rated table, and the quick-play queue (migration ``0006``).

A *player* is whoever a rating belongs to: a guest (known by the hash of a secret player token
the browser keeps), an account (once signed in) or a bot level. :mod:`.players` reads and
writes these rows; :mod:`.matchmaking` the queue's.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from .db import Base, now


class PlayerRow(Base):
    """Whoever a rating belongs to: a guest, an account or a bot level."""

    __tablename__ = "players"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    """``guest``, ``account`` or ``bot``."""
    name: Mapped[str] = mapped_column(String(40))
    """The name last played under (a bot: its level)."""
    token_hash: Mapped[str | None] = mapped_column(String(64), unique=True, nullable=True)
    """A guest's: the SHA-256 of the player token their browser keeps."""
    account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), unique=True, nullable=True
    )
    """An account's id (deleting the account deletes the player, its ratings and history)."""
    bot: Mapped[str | None] = mapped_column(String(64), unique=True, nullable=True)
    """A bot's level."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class RatingRow(Base):
    """A player's rating in one family."""

    __tablename__ = "ratings"

    player_id: Mapped[int] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    family: Mapped[str] = mapped_column(String(16), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class RatingHistoryRow(Base):
    """A player's rating after one rated game (the player page's chart)."""

    __tablename__ = "rating_history"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    family: Mapped[str] = mapped_column(String(16))
    table_id: Mapped[int | None] = mapped_column(
        ForeignKey("game_tables.id", ondelete="SET NULL"), nullable=True
    )
    """The game (``None``: a calibration game between bots, which has no table)."""
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    before_mu: Mapped[float] = mapped_column(Float)
    before_sigma: Mapped[float] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class TablePlayerRow(Base):
    """Which player took a seat (a player token or an account given when sitting)."""

    __tablename__ = "table_players"
    __table_args__ = (UniqueConstraint("table_id", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(
        ForeignKey("game_tables.id", ondelete="CASCADE"), index=True
    )
    seat: Mapped[int] = mapped_column(Integer)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)


class RatedGameRow(Base):
    """A rated table's family, and whether its result has moved the ratings (exactly once)."""

    __tablename__ = "rated_games"

    table_id: Mapped[int] = mapped_column(
        ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True
    )
    family: Mapped[str] = mapped_column(String(16))
    applied: Mapped[bool] = mapped_column(Boolean, default=False)


class QueuePoolRow(Base):
    """One quick-play pool (a game and a number of players): the row every match locks."""

    __tablename__ = "quickplay_pools"

    key: Mapped[str] = mapped_column(String(32), primary_key=True)


class TicketRow(Base):
    """A player waiting in quick play, then the seat they were given."""

    __tablename__ = "quickplay_tickets"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    pool: Mapped[str] = mapped_column(String(32), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    """The SHA-256 of the ticket's secret (only its holder may read or cancel it)."""
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(40))
    mu: Mapped[float] = mapped_column(Float)
    """The player's rating estimate when they asked: whom they are matched with."""
    status: Mapped[str] = mapped_column(String(12), default="waiting", index=True)
    """``waiting``, ``seated`` or ``cancelled``."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    deadline: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    """When bots fill the seats nobody took."""
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    """When its holder last asked after it: a ticket nobody asks after is dropped, so bots
    never fill a table for somebody who has closed the page."""
    table_code: Mapped[str | None] = mapped_column(String(16), nullable=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    seat_token: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The seat's secret token until its holder has read it once (then cleared)."""
