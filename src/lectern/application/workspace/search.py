"""Search over a workspace: its items by BM25, its documents through the collections."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from lectern.application.collections import CollectionService
from lectern.application.ports import LexicalIndex
from lectern.application.workspace.ports import WorkspaceStore
from lectern.domain.retrieval import Passage
from lectern.domain.snippets import best_snippet
from lectern.domain.workspace import Project, ProjectDocument
from lectern.errors import CollectionNotFoundError

TextIndexFactory = Callable[[Sequence[Passage]], LexicalIndex]
"""Builds the engine's lexical index over a few passages (bm25s in production)."""
ContentKind = Literal["project", "task", "comment", "blocker", "document"]


@dataclass(frozen=True, slots=True)
class ContentHit:
    """One thing `search_content` found, with a literal snippet of it."""

    kind: ContentKind
    id: str
    project_id: str
    title: str
    snippet: str
    score: float
    label: str | None = None
    """For document passages: the label a person follows (`[CVE-2025-48384]`)."""


def search_items(
    store: WorkspaceStore,
    text_index: TextIndexFactory | None,
    projects: Sequence[Project],
    query: str,
    limit: int,
) -> list[ContentHit]:
    """Projects, tasks, blockers and comments ranked by BM25 (the engine's lexical side)."""
    if text_index is None or not projects:
        return []
    ids = [p.id for p in projects]
    items: dict[str, tuple[ContentKind, str, str, str, str]] = {}
    for project in projects:
        items[f"project:{project.id}"] = (
            "project",
            project.id,
            project.id,
            project.name,
            f"{project.name}. {project.description}",
        )
    for task in store.tasks(ids):
        items[f"task:{task.id}"] = (
            "task",
            task.id,
            task.project_id,
            task.title,
            f"{task.title}. {task.description}",
        )
    for blocker in store.blockers(ids):
        items[f"blocker:{blocker.id}"] = (
            "blocker",
            blocker.id,
            blocker.project_id,
            blocker.description[:80],
            f"{blocker.description} {blocker.resolution or ''}",
        )
    for comment in store.project_comments(ids):
        items[f"comment:{comment.id}"] = (
            "comment",
            comment.id,
            comment.project_id,
            f"comment by {comment.author}",
            comment.text,
        )
    index = text_index([Passage(key, item[4], item[4], item[2]) for key, item in items.items()])
    scored = index.search(query, limit)
    if not scored:
        return []
    top = scored[0].score or 1.0
    hits: list[ContentHit] = []
    for hit in scored:
        kind, ident, project_id, title, text = items[hit.id]
        snippet = best_snippet(text, query).text
        hits.append(ContentHit(kind, ident, project_id, title, snippet, hit.score / top))
    return hits


def search_documents(
    links: Sequence[ProjectDocument],
    collections: CollectionService | None,
    query: str,
    limit: int,
) -> list[ContentHit]:
    """Passages of these linked documents, each collection's hybrid search kept to them."""
    if collections is None or not links:
        return []
    by_collection: dict[str, dict[str, list[ProjectDocument]]] = {}
    for link in links:
        by_collection.setdefault(link.collection, {}).setdefault(link.document_id, []).append(link)
    hits: list[ContentHit] = []
    for collection, documents in by_collection.items():
        try:
            found = collections.search(
                collection, query, k=limit, per_document=1, documents=documents.keys()
            )
        except CollectionNotFoundError:
            continue
        if not found.results:
            continue
        top = found.results[0].score or 1.0
        for result in found.results:
            passage = result.passages[0]
            if not passage.snippet.highlights:
                continue  # a neighbour by meaning alone, holding none of the query's words
            for link in documents.get(result.document.id, []):
                hits.append(
                    ContentHit(
                        "document",
                        link.id,
                        link.project_id,
                        link.title,
                        passage.snippet.text,
                        result.score / top,
                        passage.label,
                    )
                )
    return hits
