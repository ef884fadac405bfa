"""Play over days: notification settings, push subscriptions, what was sent, the server's
secrets, friends, presence and challenges (new tables only: no stored row changes).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def _account(primary_key: bool = False, index: bool = False) -> sa.Column[int]:
    return sa.Column(
        "account_id",
        sa.Integer(),
        sa.ForeignKey("accounts.id", ondelete="CASCADE"),
        primary_key=primary_key,
        index=index,
        nullable=False,
    )


def _when(name: str, nullable: bool = False) -> sa.Column[object]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    """New tables."""
    op.create_table(
        "notify_settings",
        _account(primary_key=True),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("email_confirmed", sa.Boolean(), nullable=False),
        sa.Column("email_on", sa.Boolean(), nullable=False),
        sa.Column("push_on", sa.Boolean(), nullable=False),
        _when("email_sent_at", nullable=True),
        _when("push_sent_at", nullable=True),
    )
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.Integer(), primary_key=True),
        _account(index=True),
        sa.Column("endpoint", sa.String(1000), nullable=False, unique=True),
        sa.Column("p256dh", sa.String(200), nullable=False),
        sa.Column("auth", sa.String(64), nullable=False),
        _when("created_at"),
    )
    op.create_table(
        "notified",
        sa.Column("id", sa.Integer(), primary_key=True),
        _account(),
        sa.Column("key", sa.String(120), nullable=False),
        _when("at"),
        sa.UniqueConstraint("account_id", "key"),
    )
    op.create_table(
        "server_secrets",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.Text(), nullable=False),
    )
    op.create_table(
        "friends",
        _account(primary_key=True),
        sa.Column(
            "other_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            primary_key=True,
            index=True,
        ),
        sa.Column("status", sa.String(8), nullable=False),
        _when("created_at"),
    )
    op.create_table("presence", _account(primary_key=True), _when("seen_at"))
    op.create_table(
        "challenges",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "from_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("settings", sa.Text(), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("table_code", sa.String(16), nullable=True),
        _when("created_at"),
    )
    op.create_table(
        "challenged",
        sa.Column(
            "challenge_id",
            sa.Integer(),
            sa.ForeignKey("challenges.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        _account(primary_key=True, index=True),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("answer", sa.String(8), nullable=False),
    )


TABLES = ("challenged", "challenges", "presence", "friends", "server_secrets", "notified",
          "push_subscriptions", "notify_settings")  # fmt: skip


def downgrade() -> None:
    """Drop them (the games and accounts stay)."""
    for name in TABLES:
        op.drop_table(name)
