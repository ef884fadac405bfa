"""Accounts: optional player accounts, their server-side sessions, and the seats they hold.

``accounts`` holds a name (unique whatever its case: ``name_key`` is the case-folded name), the
Argon2id hash of the password and the secret the account's seat tokens are derived from;
``account_sessions`` the SHA-256 of each signed-in browser's cookie; ``seats.account_id`` the
account whose player sits there (``NULL`` for guests, bots and every seat stored before). No
existing row is rewritten: the games stored before stay as they were, played by guests.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Two new tables and a plain ``ADD COLUMN`` on ``seats`` (never a copy of the table, which
    on SQLite would drop the old one and, with foreign keys on, its moves with it)."""
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_key", sa.String(40), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("seat_key", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "account_sessions",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    if op.get_context().dialect.name == "sqlite":
        # SQLite takes a reference in ADD COLUMN (not as a constraint added afterwards).
        op.execute(
            "ALTER TABLE seats ADD COLUMN account_id INTEGER"
            " REFERENCES accounts (id) ON DELETE SET NULL"
        )
    else:
        op.add_column(
            "seats",
            sa.Column(
                "account_id",
                sa.Integer(),
                sa.ForeignKey("accounts.id", ondelete="SET NULL", name="fk_seats_account_id"),
                nullable=True,
            ),
        )
    op.create_index("ix_seats_account_id", "seats", ["account_id"])


def downgrade() -> None:
    """Drop the accounts, their sessions and the seats' links to them (the games stay)."""
    op.drop_index("ix_seats_account_id", "seats")
    if op.get_context().dialect.name != "sqlite":
        op.drop_constraint("fk_seats_account_id", "seats", type_="foreignkey")
    op.drop_column("seats", "account_id")
    op.drop_table("account_sessions")
    op.drop_table("accounts")
