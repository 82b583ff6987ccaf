"""The book catalog on SQLAlchemy Core: SQLite by default, PostgreSQL unchanged."""
