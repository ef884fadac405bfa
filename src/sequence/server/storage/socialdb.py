"""The rows of play over days (migration ``0007``): notification settings, push subscriptions,
what was already sent, the server's own secrets, friends, presence and challenges.

:mod:`..notify.store` reads and writes the notification rows, :mod:`..social.store` the
friends' and challenges' ones. Every row belongs to an account and goes with it.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, DateTime, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from .db import Base, now


class NotifySettingsRow(Base):
    """What an account chose to be told away from the page, and when it was last told."""

    __tablename__ = "notify_settings"

    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    lang: Mapped[str] = mapped_column(String(8), default="en")
    """The language the notifications are written in (the page's when the settings were saved)."""
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    email_confirmed: Mapped[bool] = mapped_column(Boolean, default=False)
    """The address's owner opened the confirmation link: only then is anything sent to it."""
    email_on: Mapped[bool] = mapped_column(Boolean, default=False)
    push_on: Mapped[bool] = mapped_column(Boolean, default=False)
    email_sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    push_sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class PushSubscriptionRow(Base):
    """A browser's Web Push subscription (the Push API's ``PushSubscription``)."""

    __tablename__ = "push_subscriptions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    endpoint: Mapped[str] = mapped_column(String(1000), unique=True)
    p256dh: Mapped[str] = mapped_column(String(200))
    """The browser's P-256 public key (base64url, uncompressed point)."""
    auth: Mapped[str] = mapped_column(String(64))
    """The subscription's 16-byte authentication secret (base64url)."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class NotifiedRow(Base):
    """One thing an account was told (or is being told): stored before it is sent, so that it
    is sent once, by one server process, across restarts."""

    __tablename__ = "notified"
    __table_args__ = (UniqueConstraint("account_id", "key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    key: Mapped[str] = mapped_column(String(120))
    """``turn:CODE:PLY``, ``end:CODE``, ``invite:ID``."""
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class ServerSecretRow(Base):
    """A secret of the server made once and shared by every process: the VAPID key, the key
    that signs unsubscribe and confirmation links."""

    __tablename__ = "server_secrets"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class FriendRow(Base):
    """What ``account_id`` made of ``other_id``: asked them to be friends (``asked``), is their
    friend (``friend``, stored both ways), or blocked them (``blocked``)."""

    __tablename__ = "friends"

    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    other_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    status: Mapped[str] = mapped_column(String(8))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class PresenceRow(Base):
    """When an account's page last said it was there (the friends' list shows who is online)."""

    __tablename__ = "presence"

    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class ChallengeRow(Base):
    """A player's challenge to friends: a table with chosen rules, made once all accept."""

    __tablename__ = "challenges"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    from_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    settings: Mapped[str] = mapped_column(Text)
    """The table's settings as JSON (game, options, bots for the other seats, clock)."""
    status: Mapped[str] = mapped_column(String(10), default="open")
    """``open``, ``accepted`` (the table is made), ``declined`` or ``cancelled``."""
    table_code: Mapped[str | None] = mapped_column(String(16), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class ChallengedRow(Base):
    """One friend a challenge asks, and their answer."""

    __tablename__ = "challenged"

    challenge_id: Mapped[int] = mapped_column(
        ForeignKey("challenges.id", ondelete="CASCADE"), primary_key=True
    )
    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    seat: Mapped[int] = mapped_column(Integer)
    answer: Mapped[str] = mapped_column(String(8), default="waiting")
    """``waiting``, ``accepted`` or ``declined``."""
