"""Bring a knowledge base's web and team sources up to date (`lectern kb sync`).

Web pages (`kb:<url>` lines of `sources.txt`) are fetched, or confirmed unchanged with a
conditional request, and stored; team topic files (`team:<file>`, or the whole `team/`
folder when no line names one) are staged. Both are then added to the collection, each as
its own source, so a page or file that left the list leaves the collection too. A page that
cannot be fetched now keeps its stored copy; nothing here raises for one bad source.
"""

from __future__ import annotations

from pathlib import Path

from lectern.application.answering.ports import KbSourceStore, WebPageFetcher
from lectern.application.collections import CollectionService
from lectern.domain.kb_sources import SourceSyncReport, parse_source_list
from lectern.errors import CollectionInputError, ConfigurationError

WEB_MAPPING = "kb-web"
WEB_SOURCE = "kb-web"
TEAM_SOURCE = "kb-team"


class KnowledgeSourceSync:
    """`sources_dir` -> the collection's web and team documents."""

    def __init__(
        self, collections: CollectionService, fetcher: WebPageFetcher, store: KbSourceStore
    ) -> None:
        """Fetch with `fetcher`, keep copies in `store`, add to `collections`."""
        self.collections = collections
        self.fetcher = fetcher
        self.store = store

    def sync(self, collection: str, sources_dir: Path | None) -> SourceSyncReport:
        """Fetch, stage and add every listed source; the report names each failure."""
        if sources_dir is None:
            raise ConfigurationError(
                "no sources folder: set kb.sources_dir in LECTERN_CONFIG_FILE "
                "(or LECTERN_KB_SOURCES_DIR)"
            )
        if not sources_dir.is_dir():
            raise CollectionInputError(f"the sources folder {sources_dir} does not exist")
        listed = parse_source_list(self.store.read_source_list(sources_dir) or "")
        problems = list(listed.problems)
        stored = self.store.pages(collection)
        fetches = [self.fetcher.fetch(url, stored.get(url)) for url in listed.urls]
        pages = {f.url: f.page for f in fetches if f.page is not None}
        documents = 0
        if pages:
            folder = self.store.save_pages(collection, pages)
            report = self.collections.add(
                collection, folder, mapping=WEB_MAPPING, source=WEB_SOURCE
            )
            documents = report.documents
        stage, team, refused = self.store.stage_team(collection, sources_dir, listed.team_files)
        problems += refused
        if team:
            report = self.collections.add(collection, stage, source=TEAM_SOURCE)
            documents = report.documents
        return SourceSyncReport(collection, tuple(fetches), tuple(team), tuple(problems), documents)
