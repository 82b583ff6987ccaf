"""Alembic environment: runs on the connection the catalog passes, or on sqlalchemy.url."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context

from lectern.adapters.catalog.tables import metadata

config = context.config
connection = config.attributes.get("connection")
if connection is None:
    engine = sa.create_engine(config.get_main_option("sqlalchemy.url") or "")
    with engine.begin() as own_connection:
        context.configure(connection=own_connection, target_metadata=metadata)
        with context.begin_transaction():
            context.run_migrations()
else:
    context.configure(connection=connection, target_metadata=metadata)
    with context.begin_transaction():
        context.run_migrations()
