"""Turn clocks: the table's time control and bot level, the running clock, each seat's reserve.

Tables stored before this revision have no clock (``off``) and lose nothing: every new column
has a default, and no row is rewritten but to fill it.

Revision ID: 0002
Revises: 0001
Create Date: 2025-06-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the clock's columns with plain ``ADD COLUMN`` (never a copy of the table, which on
    SQLite would drop the old one and, with foreign keys on, its seats and moves with it)."""
    op.add_column(
        "game_tables",
        sa.Column("time_control", sa.String(16), nullable=False, server_default="off"),
    )
    op.add_column("game_tables", sa.Column("turn_seconds", sa.Float(), nullable=True))
    op.add_column("game_tables", sa.Column("reserve_seconds", sa.Float(), nullable=True))
    op.add_column("game_tables", sa.Column("bot_level", sa.String(64), nullable=True))
    op.add_column("game_tables", sa.Column("clock_seat", sa.Integer(), nullable=True))
    op.add_column("game_tables", sa.Column("clock_left", sa.Float(), nullable=True))
    op.add_column("seats", sa.Column("reserve", sa.Float(), nullable=False, server_default="0"))
    op.add_column("seats", sa.Column("timeouts", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    """Drop the clock's columns with plain ``DROP COLUMN`` (the games themselves stay)."""
    op.drop_column("seats", "timeouts")
    op.drop_column("seats", "reserve")
    for name in (
        "clock_left",
        "clock_seat",
        "bot_level",
        "reserve_seconds",
        "turn_seconds",
        "time_control",
    ):
        op.drop_column("game_tables", name)
