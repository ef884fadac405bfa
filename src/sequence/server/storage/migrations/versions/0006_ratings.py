"""Ratings and quick play: players (guests, accounts, bot levels), their rating per family and
its history, who sat where, rated tables, and the quick-play queue.

``game_tables.rated`` is a plain ``ADD COLUMN`` with a default: every stored game stays as it
was (unrated). ``players.account_id`` points at the accounts of ``0005``: deleting an account
deletes its player, ratings and history (its games stay).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def _when() -> sa.Column[object]:
    return sa.Column("created_at", sa.DateTime(timezone=True), nullable=False)


def upgrade() -> None:
    """New tables and one new column (no existing row is rewritten)."""
    op.add_column(
        "game_tables", sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    op.create_table(
        "players",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=True, unique=True),
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=True,
            unique=True,
        ),
        sa.Column("bot", sa.String(64), nullable=True, unique=True),
        _when(),
    )
    op.create_table(
        "ratings",
        sa.Column(
            "player_id",
            sa.Integer(),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("family", sa.String(16), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "player_id",
            sa.Integer(),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("family", sa.String(16), nullable=False),
        sa.Column(
            "table_id",
            sa.Integer(),
            sa.ForeignKey("game_tables.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("before_mu", sa.Float(), nullable=False),
        sa.Column("before_sigma", sa.Float(), nullable=False),
        _when(),
    )
    op.create_table(
        "table_players",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "table_id",
            sa.Integer(),
            sa.ForeignKey("game_tables.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column(
            "player_id",
            sa.Integer(),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.UniqueConstraint("table_id", "seat"),
    )
    op.create_table(
        "rated_games",
        sa.Column(
            "table_id",
            sa.Integer(),
            sa.ForeignKey("game_tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("family", sa.String(16), nullable=False),
        sa.Column("applied", sa.Boolean(), nullable=False),
    )
    op.create_table("quickplay_pools", sa.Column("key", sa.String(32), primary_key=True))
    op.create_table(
        "quickplay_tickets",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("pool", sa.String(32), nullable=False, index=True),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column(
            "player_id",
            sa.Integer(),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("status", sa.String(12), nullable=False, index=True),
        _when(),
        sa.Column("deadline", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("table_code", sa.String(16), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("seat_token", sa.String(64), nullable=True),
    )


def downgrade() -> None:
    """Drop ratings and quick play (the games themselves stay)."""
    for name in (
        "quickplay_tickets",
        "quickplay_pools",
        "rated_games",
        "table_players",
        "rating_history",
        "ratings",
        "players",
    ):
        op.drop_table(name)
    op.drop_column("game_tables", "rated")
