"""`LibraryStore` on SQLAlchemy Core: reading lists, ratings and corrections per user."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from lectern.adapters.actions.sqlalchemy_actions import utc
from lectern.adapters.catalog.tables import (
    corrections,
    list_entries,
    ratings,
    reading_lists,
)
from lectern.domain.assistant import canonical_json
from lectern.domain.books import JSONValue
from lectern.domain.library import (
    CatalogCorrection,
    CorrectionStatus,
    ListEntry,
    Rating,
    ReadingList,
)


def name_key(name: str) -> str:
    """The form list names are unique in: case-folded, spaces collapsed."""
    return " ".join(name.casefold().split())


class SqlAlchemyLibrary:
    """The reading lists, ratings and corrections tables (migration 0004)."""

    def __init__(self, engine: Engine) -> None:
        """Share the catalog's engine; the catalog has already migrated the schema."""
        self.engine = engine

    # --- lists ----------------------------------------------------------------------------

    def lists(self, user: str) -> list[ReadingList]:
        """The user's lists with their entries, oldest first."""
        statement = (
            sa.select(reading_lists)
            .where(reading_lists.c.user == user)
            .order_by(reading_lists.c.created_at, reading_lists.c.id)
        )
        with self.engine.connect() as connection:
            rows = connection.execute(statement).all()
            return self._with_entries(connection, rows)

    def get_list(self, user: str, list_id: str) -> ReadingList | None:
        """The user's list with this id."""
        return self._one(
            sa.select(reading_lists).where(
                reading_lists.c.id == list_id, reading_lists.c.user == user
            )
        )

    def find_list(self, user: str, name: str) -> ReadingList | None:
        """The user's list with this name."""
        return self._one(
            sa.select(reading_lists).where(
                reading_lists.c.user == user, reading_lists.c.name_key == name_key(name)
            )
        )

    def _one(self, statement: Any) -> ReadingList | None:
        with self.engine.connect() as connection:
            rows = connection.execute(statement).all()
            found = self._with_entries(connection, rows)
        return found[0] if found else None

    @staticmethod
    def _with_entries(connection: Connection, rows: Sequence[Any]) -> list[ReadingList]:
        ids = [row.id for row in rows]
        entries: dict[str, list[ListEntry]] = {}
        if ids:
            for entry in connection.execute(
                sa.select(list_entries)
                .where(list_entries.c.list_id.in_(ids))
                .order_by(list_entries.c.added_at, list_entries.c.book_id)
            ):
                entries.setdefault(entry.list_id, []).append(
                    ListEntry(entry.book_id, entry.note, utc(entry.added_at))
                )
        return [
            ReadingList(
                row.id, row.user, row.name, utc(row.created_at), tuple(entries.get(row.id, ()))
            )
            for row in rows
        ]

    def create_list(self, user: str, list_id: str, name: str, now: datetime) -> ReadingList:
        """A new empty list (the name is unique per user: the database refuses a twin)."""
        with self.engine.begin() as connection:
            connection.execute(
                reading_lists.insert().values(
                    id=list_id, user=user, name=name, name_key=name_key(name), created_at=utc(now)
                )
            )
        return ReadingList(list_id, user, name, utc(now))

    def rename_list(self, user: str, list_id: str, name: str) -> None:
        """Give the user's list a new name."""
        with self.engine.begin() as connection:
            connection.execute(
                reading_lists.update()
                .where(reading_lists.c.id == list_id, reading_lists.c.user == user)
                .values(name=name, name_key=name_key(name))
            )

    def delete_list(self, user: str, list_id: str) -> None:
        """Delete the user's list and its entries."""
        with self.engine.begin() as connection:
            owned = connection.execute(
                sa.select(reading_lists.c.id).where(
                    reading_lists.c.id == list_id, reading_lists.c.user == user
                )
            ).first()
            if owned is None:
                return
            connection.execute(list_entries.delete().where(list_entries.c.list_id == list_id))
            connection.execute(reading_lists.delete().where(reading_lists.c.id == list_id))

    def add_entry(
        self, user: str, list_id: str, book_id: str, note: str | None, now: datetime
    ) -> None:
        """Put a book on the user's list (nothing happens for another user's list)."""
        with self.engine.begin() as connection:
            if self._owns(connection, user, list_id):
                connection.execute(
                    list_entries.insert().values(
                        list_id=list_id, book_id=book_id, note=note, added_at=utc(now)
                    )
                )

    def remove_entry(self, user: str, list_id: str, book_id: str) -> None:
        """Take a book off the user's list."""
        with self.engine.begin() as connection:
            if self._owns(connection, user, list_id):
                connection.execute(
                    list_entries.delete().where(
                        list_entries.c.list_id == list_id, list_entries.c.book_id == book_id
                    )
                )

    @staticmethod
    def _owns(connection: Connection, user: str, list_id: str) -> bool:
        return (
            connection.execute(
                sa.select(reading_lists.c.id).where(
                    reading_lists.c.id == list_id, reading_lists.c.user == user
                )
            ).first()
            is not None
        )

    # --- ratings --------------------------------------------------------------------------

    def rating(self, user: str, book_id: str) -> Rating | None:
        """The user's rating of a book."""
        with self.engine.connect() as connection:
            row = connection.execute(
                sa.select(ratings).where(ratings.c.user == user, ratings.c.book_id == book_id)
            ).first()
        return _rating(row) if row is not None else None

    def ratings(self, user: str) -> list[Rating]:
        """Every rating of the user, newest first."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                sa.select(ratings)
                .where(ratings.c.user == user)
                .order_by(ratings.c.updated_at.desc(), ratings.c.book_id)
            ).all()
        return [_rating(row) for row in rows]

    def put_rating(self, rating: Rating) -> None:
        """Insert or replace the user's rating of a book."""
        with self.engine.begin() as connection:
            connection.execute(
                ratings.delete().where(
                    ratings.c.user == rating.user, ratings.c.book_id == rating.book_id
                )
            )
            connection.execute(
                ratings.insert().values(
                    user=rating.user,
                    book_id=rating.book_id,
                    stars=rating.stars,
                    review=rating.review,
                    updated_at=utc(rating.updated_at),
                )
            )

    # --- corrections ----------------------------------------------------------------------

    def add_correction(self, correction: CatalogCorrection) -> None:
        """Record a correction."""
        changes: list[JSONValue] = [
            {"field": f, "old": old, "new": new} for f, old, new in correction.changes
        ]
        with self.engine.begin() as connection:
            connection.execute(
                corrections.insert().values(
                    id=correction.id,
                    user=correction.user,
                    book_id=correction.book_id,
                    changes_json=canonical_json(changes),
                    status=correction.status,
                    created_at=utc(correction.created_at),
                )
            )

    def corrections(self, user: str) -> list[CatalogCorrection]:
        """The user's corrections, oldest first."""
        return self._corrections(corrections.c.user == user)

    def correction(self, correction_id: str) -> CatalogCorrection | None:
        """One correction by id, whoever proposed it."""
        found = self._corrections(corrections.c.id == correction_id)
        return found[0] if found else None

    def corrections_by_status(self, status: CorrectionStatus) -> list[CatalogCorrection]:
        """Everyone's corrections in this status, oldest first."""
        return self._corrections(corrections.c.status == status)

    def set_correction_status(
        self, correction_id: str, from_status: CorrectionStatus, to_status: CorrectionStatus
    ) -> bool:
        """Move a correction between statuses in one conditional update (one winner)."""
        with self.engine.begin() as connection:
            moved = connection.execute(
                corrections.update()
                .where(corrections.c.id == correction_id, corrections.c.status == from_status)
                .values(status=to_status)
            )
        return moved.rowcount == 1

    def _corrections(self, where: Any) -> list[CatalogCorrection]:
        with self.engine.connect() as connection:
            rows = connection.execute(
                sa.select(corrections)
                .where(where)
                .order_by(corrections.c.created_at, corrections.c.id)
            ).all()
        return [
            CatalogCorrection(
                row.id,
                row.user,
                row.book_id,
                tuple((c["field"], c["old"], c["new"]) for c in json.loads(row.changes_json)),
                row.status,
                utc(row.created_at),
            )
            for row in rows
        ]


def _rating(row: Any) -> Rating:
    return Rating(row.user, row.book_id, row.stars, row.review, utc(row.updated_at))
