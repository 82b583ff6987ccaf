"""`ProviderRecordStore` on SQLAlchemy: provider records as JSON, one row per record."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import asdict
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from lectern.adapters.catalog.tables import provider_records
from lectern.domain.books import SourceRecord

_TUPLES = ("authors", "categories", "extra_isbn13s", "dropped")


def record_to_json(record: SourceRecord) -> str:
    """A record as stored."""
    return json.dumps(asdict(record), ensure_ascii=False, sort_keys=True)


def record_from_json(text: str) -> SourceRecord:
    """A stored record back; fields a newer version added take their defaults."""
    data: dict[str, Any] = json.loads(text)
    known = set(SourceRecord.__dataclass_fields__)
    values = {k: v for k, v in data.items() if k in known}
    for name in _TUPLES:
        values[name] = tuple(values.get(name) or ())
    return SourceRecord(**values)


class SqlAlchemyProviderRecords:
    """Provider records in the catalog database (the catalog migrates the table)."""

    def __init__(
        self, engine: Engine, clock: Callable[[], datetime] = lambda: datetime.now(UTC)
    ) -> None:
        """Use the catalog's engine."""
        self.engine = engine
        self._clock = clock

    def save(self, records: Sequence[SourceRecord]) -> int:
        """Insert or replace by (source, source_id); how many were not stored before."""
        unique = {(r.source, r.source_id): r for r in records}
        if not unique:
            return 0
        now = self._clock()
        with self.engine.begin() as connection:
            known = {
                (row.source, row.source_id)
                for row in connection.execute(
                    sa.select(provider_records.c.source, provider_records.c.source_id)
                )
            }
            for source, source_id in unique.keys() & known:
                connection.execute(
                    sa.delete(provider_records).where(
                        provider_records.c.source == source,
                        provider_records.c.source_id == source_id,
                    )
                )
            connection.execute(
                sa.insert(provider_records),
                [
                    {
                        "source": source,
                        "source_id": source_id,
                        "record_json": record_to_json(record),
                        "fetched_at": now,
                    }
                    for (source, source_id), record in unique.items()
                ],
            )
        return len(unique.keys() - known)

    def records(self, source: str) -> list[SourceRecord]:
        """Every stored record of one provider, by source id."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                sa.select(provider_records.c.record_json)
                .where(provider_records.c.source == source)
                .order_by(provider_records.c.source_id)
            ).scalars()
            return [record_from_json(text) for text in rows]
