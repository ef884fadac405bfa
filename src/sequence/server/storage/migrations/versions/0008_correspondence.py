"""Correspondence tables: what happens when a seat's days run out, and the running turn's
deadline (a turn of days goes on while the server is down).

Tables stored before this revision have neither (``NULL``): their clocks go on as before.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the two columns with plain ``ADD COLUMN`` (no copy of the table)."""
    op.add_column("game_tables", sa.Column("on_timeout", sa.String(8), nullable=True))
    op.add_column("game_tables", sa.Column("clock_deadline", sa.Float(), nullable=True))


def downgrade() -> None:
    """Drop them (the games stay)."""
    op.drop_column("game_tables", "clock_deadline")
    op.drop_column("game_tables", "on_timeout")
