"""Build the catalog's search indexes from the books in the catalog."""

from __future__ import annotations

from lectern.application.ports import (
    BookCatalog,
    IndexReport,
    ProgressReporter,
    SearchIndexBuilder,
)
from lectern.domain.passages import book_passage
from lectern.domain.retrieval import Passage


class IndexingService:
    """Turns every book into a passage and syncs the lexical and vector indexes."""

    def __init__(self, catalog: BookCatalog, builder: SearchIndexBuilder) -> None:
        """The builder owns the index files; this service owns what goes in them."""
        self.catalog = catalog
        self.builder = builder

    def passages(self, progress: ProgressReporter | None = None) -> list[Passage]:
        """One passage per book, in id order."""
        if progress is not None:
            progress.start("reading the catalog", self.catalog.counts().books)
        passages: list[Passage] = []
        for batch in self.catalog.iter_batches(2_000):
            passages.extend(book_passage(book) for book in batch)
            if progress is not None:
                progress.advance(len(batch))
        return passages

    def index(
        self, *, rebuild: bool = False, progress: ProgressReporter | None = None
    ) -> IndexReport:
        """Sync the indexes with the catalog; only new or changed books are embedded."""
        return self.builder.sync(self.passages(progress), rebuild=rebuild, progress=progress)
