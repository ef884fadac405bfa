"""Move ids and table events: a move resent after a reconnect is applied once, and every change
of who holds a seat or the host's rights is recorded with the moves.

``moves.move_id`` is the id the client gave a move (``None`` for bots' and older moves);
``table_events`` holds the table's events (a host's rights passed on, a seat handed to a bot, a
resignation), each at the version of the game it happened at.

Revision ID: 0003
Revises: 0002
Create Date: 2025-06-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """A plain ``ADD COLUMN`` and a new table (no existing row is rewritten)."""
    op.add_column("moves", sa.Column("move_id", sa.String(64), nullable=True))
    op.create_table(
        "table_events",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "table_id",
            sa.Integer(),
            sa.ForeignKey("game_tables.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("ply", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("by_seat", sa.Integer(), nullable=True),
        sa.Column("detail", sa.String(64), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    """Drop the events and the move ids (the games themselves stay)."""
    op.drop_table("table_events")
    op.drop_column("moves", "move_id")
