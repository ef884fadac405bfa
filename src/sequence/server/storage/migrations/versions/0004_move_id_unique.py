"""Several server processes: a move id is applied once per seat, whichever process receives it.

One server process kept the rule in memory (``Table.move_ids``); with several processes on one
database, two of them may receive the same move (a resend after a reconnect, through another
process) at once. The database now refuses the second: a unique index on
``moves (table_id, seat, move_id)``. ``(table_id, ply)`` was unique from the start, so two
different moves cannot both become the same ply either. Rows without an id (bots' moves, older
moves) hold ``NULL``, which a unique index never compares equal, in PostgreSQL as in SQLite.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-25
"""

from __future__ import annotations

from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """A unique index (no row is rewritten; one server applied each id once per seat, so an
    existing database holds no duplicate to refuse it)."""
    op.create_index(
        "ix_moves_table_seat_move_id", "moves", ["table_id", "seat", "move_id"], unique=True
    )


def downgrade() -> None:
    """Drop the index (the moves stay)."""
    op.drop_index("ix_moves_table_seat_move_id", table_name="moves")
