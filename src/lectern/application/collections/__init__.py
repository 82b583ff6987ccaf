"""Collections: add files or records, search them with the books' engine, cite to the page.

`ingest` adds (files, records, uploads) and re-indexes, `search` ranks documents and
passages, `views` shows documents, passages and what a label names; `service` puts them
together as `CollectionService` over the shared adapters and state in `base`.
"""

from lectern.application.collections.base import CollectionBase, LoadedCollection
from lectern.application.collections.ingest import (
    CONTEXT_WORDS,
    FILE_FILTERS,
    TOO_LONG,
    AddReport,
    index_texts,
    to_index_passage,
)
from lectern.application.collections.search import (
    IMPLIED_STATEMENT_BONUS,
    MAX_RESULTS,
    NAMED_STATEMENT_BONUS,
    SIMILAR_QUERY_WORDS,
    CollectionSearchResponse,
    DocumentHit,
    PassageHit,
    statement_first,
)
from lectern.application.collections.service import CollectionService
from lectern.application.collections.views import DocumentView, PassageView, Resolution

__all__ = [
    "CONTEXT_WORDS",
    "FILE_FILTERS",
    "IMPLIED_STATEMENT_BONUS",
    "MAX_RESULTS",
    "NAMED_STATEMENT_BONUS",
    "SIMILAR_QUERY_WORDS",
    "TOO_LONG",
    "AddReport",
    "CollectionBase",
    "CollectionSearchResponse",
    "CollectionService",
    "DocumentHit",
    "DocumentView",
    "LoadedCollection",
    "PassageHit",
    "PassageView",
    "Resolution",
    "index_texts",
    "statement_first",
    "to_index_passage",
]
