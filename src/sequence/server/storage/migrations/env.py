"""Alembic environment for the server's schema; run by
:func:`sequence.server.storage.db.migrate`."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from sequence.server.storage.db import Base, normalise_url

config = context.config
target_metadata = Base.metadata


def run() -> None:
    """Run the migrations on the connection given by ``migrate``, or on the configured URL."""
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=target_metadata)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = create_engine(normalise_url(config.get_main_option("sqlalchemy.url") or ""))
    with engine.begin() as conn:
        context.configure(connection=conn, target_metadata=target_metadata)
        with context.begin_transaction():
            context.run_migrations()


run()
