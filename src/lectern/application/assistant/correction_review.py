"""The automatic review of a proposed catalog correction, attached to its pending action.

For each corrected field, the book's other source records (those it was merged from that
are still stored: the providers' records) are read and sorted into those that state the old
value, the new value, or something else. Each record's value is quoted with a citation that
is checked against the record's own field text (the literal rule of `domain/grounding.py`,
through the workspace reviews' `quote`). The review is data for the person who approves: it
goes to no model, and what a record says can change no action.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from lectern.application.assistant.ports import SourceRecordLookup
from lectern.application.ports import BookCatalog
from lectern.application.workspace.reviews import quote
from lectern.domain.assistant import ActionPreview
from lectern.domain.books import CatalogEntry, JSONValue, SourceRecord
from lectern.domain.workspace import CommentCitation

REVIEW_KIND = "correction_review"


def _record_value(record: SourceRecord, name: str) -> JSONValue:
    if name == "language":
        return record.language
    if name == "published_year":
        return record.published_year
    if name == "authors":
        return list(record.authors)
    if name == "categories":
        return list(record.categories)
    return None


def _text(value: JSONValue) -> str:
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return "" if value is None else str(value)


def _folded(value: JSONValue) -> set[str]:
    items = value if isinstance(value, list) else [value]
    return {" ".join(str(v).casefold().split()) for v in items if v is not None}


def _states(record_value: JSONValue, value: JSONValue) -> bool:
    """True when the record states every part of `value` (one value, or each list item)."""
    wanted = _folded(value)
    return bool(wanted) and wanted <= _folded(record_value)


@dataclass(frozen=True, slots=True)
class _FieldReview:
    name: str
    old: JSONValue
    new: JSONValue
    old_by: list[str]
    new_by: list[str]
    other_by: list[str]
    line: str

    @property
    def verdict(self) -> str:
        if not (self.old_by or self.new_by or self.other_by):
            return "no_records"
        if self.new_by and not self.old_by:
            return "new"
        if self.old_by and not self.new_by:
            return "old"
        return "mixed"


class CorrectionReviewer:
    """Reviews a `propose_correction` preview against the book's stored source records."""

    tool_name = "propose_correction"

    def __init__(self, catalog: BookCatalog, records: SourceRecordLookup) -> None:
        """Read books from `catalog` and their source records from `records`."""
        self.catalog = catalog
        self.records = records

    def __call__(self, preview: ActionPreview) -> JSONValue:
        """The review as JSON: a verdict per field, a cited text, the citations."""
        changes = preview.tool_input.get("changes")
        old_state = preview.old_state
        if not isinstance(changes, dict) or not isinstance(old_state, dict):
            raise ValueError("a correction preview holds its changes and old values")
        entry = self.catalog.get_entry(uuid.UUID(preview.entity_id))
        if entry is None:
            raise ValueError(f"book {preview.entity_id} is not in the catalog")
        others = list(entry.sources)
        records = self.records.records_of(others)
        citations: list[CommentCitation] = []
        fields = [
            self._field(entry, records, name, old_state.get(name), new, citations)
            for name, new in changes.items()
        ]
        read = {(r.source, r.source_id) for r in records}
        unread = [
            f"{r.source} {r.source_id}" for r in others if (r.source, r.source_id) not in read
        ]
        lines = [
            f"Automatic review of this correction against the book's source records "
            f"({len(records)} stored record{'s' if len(records) != 1 else ''} read"
            + (f"; not stored, so not read back: {', '.join(unread)}" if unread else "")
            + ")."
        ]
        lines.extend(f.line for f in fields)
        return {
            "kind": REVIEW_KIND,
            "status": "done",
            "records": len(records),
            "not_read": list[JSONValue](unread),
            "fields": [
                {
                    "field": f.name,
                    "old": f.old,
                    "new": f.new,
                    "verdict": f.verdict,
                    "old_by": list[JSONValue](f.old_by),
                    "new_by": list[JSONValue](f.new_by),
                    "other_by": list[JSONValue](f.other_by),
                }
                for f in fields
            ],
            "text": "\n".join(lines),
            "citations": [
                {"source": c.source, "label": c.label, "snippet": c.snippet} for c in citations
            ],
        }

    @staticmethod
    def _field(
        entry: CatalogEntry,
        records: Sequence[SourceRecord],
        name: str,
        old: JSONValue,
        new: JSONValue,
        citations: list[CommentCitation],
    ) -> _FieldReview:
        old_by: list[str] = []
        new_by: list[str] = []
        other_by: list[str] = []
        quoted: dict[str, list[str]] = {"old": [], "new": [], "other": []}
        for record in records:
            value = _record_value(record, name)
            if value is None or value == []:
                continue
            label = f"[{record.source} {record.source_id}]"
            text = _text(value)
            cited = quote(
                f"record:{record.source}:{record.source_id}#{name}", label, text, text, citations
            )
            if _states(value, new) and not _states(value, old):
                side = "new"
                new_by.append(label)
            elif _states(value, old) and not _states(value, new):
                side = "old"
                old_by.append(label)
            else:
                side = "other"
                other_by.append(label)
            quoted[side].append(cited)
        parts = []
        if quoted["new"]:
            parts.append(f"the new value {_text(new)!r} is stated by {'; '.join(quoted['new'])}")
        if quoted["old"]:
            parts.append(f"the old value {_text(old)!r} by {'; '.join(quoted['old'])}")
        if quoted["other"]:
            parts.append(f"other values by {'; '.join(quoted['other'])}")
        if not parts:
            origin = next((p for p in entry.provenance if p.field == name), None)
            parts.append(
                "no stored source record states it"
                + (
                    f"; the current value came from {origin.source} {origin.source_id}"
                    if origin
                    else ""
                )
            )
        return _FieldReview(
            name, old, new, old_by, new_by, other_by, f"- {name}: " + "; ".join(parts) + "."
        )
