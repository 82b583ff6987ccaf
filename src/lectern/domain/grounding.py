"""Citations and explanations: the evidence behind every sentence we show."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True, slots=True)
class Citation:
    """A literal snippet of one field (chunk) of one book."""

    book_id: uuid.UUID
    chunk_id: str
    snippet: str
    relevance_score: float


@dataclass(frozen=True, slots=True)
class Explanation:
    """Why a book answers a query, with the citations that support it."""

    book_id: uuid.UUID
    query_text: str
    text: str
    citations: tuple[Citation, ...]
    model: str
    created_at: datetime
    confidence: float
    grounded: bool
