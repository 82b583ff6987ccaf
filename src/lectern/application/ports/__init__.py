"""Ports: the Protocols that application services depend on and adapters implement.

One module per concern: `catalog` (book sources, providers, the catalog store), `indexes`
(embedders, rerankers, lexical and vector indexes), `llm` (the model client, tracer,
explanation cache, query understanding), `collections` (document sources, splitters, the
collection store and indexes, the upload inbox), `evaluation` (run artifacts) and
`progress`. Every name is re-exported here: `from lectern.application.ports import X`.
"""

from lectern.application.ports.catalog import (
    BookCatalog,
    BookFacts,
    BookNames,
    BookSource,
    ExternalBooksProvider,
    ProviderRecordStore,
    SourceFetcher,
    SourceFile,
    StoredEntry,
)
from lectern.application.ports.collections import (
    CollectionIndexes,
    CollectionRecord,
    CollectionStore,
    CollectionSummary,
    DocumentBatch,
    DocumentSource,
    IndexedPassage,
    LoadedIndexes,
    PassageSplitter,
    StoredDocument,
    UploadInbox,
)
from lectern.application.ports.evaluation import EvaluationRunStore
from lectern.application.ports.indexes import (
    Embedder,
    IndexReport,
    LexicalIndex,
    Reranker,
    SearchIndexBuilder,
    Vector,
    VectorIndex,
)
from lectern.application.ports.llm import (
    ExplanationCache,
    LLMClient,
    LLMTracer,
    QueryUnderstanding,
    SchemaT,
    Spelling,
    TitleMatcher,
)
from lectern.application.ports.progress import ProgressReporter

__all__ = [
    "BookCatalog",
    "BookFacts",
    "BookNames",
    "BookSource",
    "CollectionIndexes",
    "CollectionRecord",
    "CollectionStore",
    "CollectionSummary",
    "DocumentBatch",
    "DocumentSource",
    "Embedder",
    "EvaluationRunStore",
    "ExplanationCache",
    "ExternalBooksProvider",
    "IndexReport",
    "IndexedPassage",
    "LLMClient",
    "LLMTracer",
    "LexicalIndex",
    "LoadedIndexes",
    "PassageSplitter",
    "ProgressReporter",
    "ProviderRecordStore",
    "QueryUnderstanding",
    "Spelling",
    "TitleMatcher",
    "Reranker",
    "SchemaT",
    "SearchIndexBuilder",
    "SourceFetcher",
    "SourceFile",
    "StoredDocument",
    "StoredEntry",
    "UploadInbox",
    "Vector",
    "VectorIndex",
]
