"""The knowledge-base index: sources, their ids and their one-line summaries."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from lectern.domain.answering.terms import WORD
from lectern.domain.sentences import KB, sentence_spans


@dataclass(frozen=True, slots=True)
class KnowledgeSource:
    """One source of the knowledge base: `kb:<rel_path>`, `kb:<url>` or `team:<file>`."""

    source_id: str
    document_id: str
    title: str
    summary: str
    """One line, written at index time (offline: title, heading path and lead sentence)."""
    content_hash: str
    url: str | None = None

    def line(self) -> str:
        """The source's line of the index: `source_id: summary`."""
        return f"{self.source_id}: {self.summary}"


@dataclass(frozen=True, slots=True)
class KnowledgeIndex:
    """The plain-text index of a collection's sources, and its term statistics."""

    collection: str
    generation: int
    sources: tuple[KnowledgeSource, ...]
    document_frequency: Mapping[str, int]
    """Term key -> how many sources hold it (for the offline support score)."""
    summarizer: str
    """Who wrote the summaries (`lead-sentence` offline, else the model's id)."""
    built_for: str = ""
    """When the collection it indexes was created: a collection removed and added again
    starts at generation 1 again, and an index of the old one must not pass for it."""

    def lines(self) -> str:
        """Every source as one `source_id: summary` line."""
        return "\n".join(source.line() for source in self.sources)

    def idf(self, term: str) -> float:
        """Inverse document frequency of a term key (unknown terms weigh most)."""
        count = self.document_frequency.get(term, 0)
        return math.log((len(self.sources) + 1) / (count + 0.5))

    def knows(self, term: str) -> bool:
        """True when some source holds this term key."""
        return term in self.document_frequency


def source_id_for(collection: str, uri: str, url: str | None) -> str:
    """`kb:<url>` for web sources, `team:<file>` under a `team/` folder, else `kb:<rel_path>`."""
    del collection
    if url:
        return f"kb:{url}"
    if uri.startswith("team/"):
        return f"team:{uri.removeprefix('team/')}"
    return f"kb:{uri}"


def lead_summary(title: str, heading_path: Sequence[str], text: str, limit: int = 240) -> str:
    """The offline summary: title, heading path and lead sentence, on one line."""
    parts = [title.strip()]
    for heading in heading_path:
        heading = heading.strip()
        if heading and heading.casefold() not in (p.casefold() for p in parts):
            parts.append(heading)
    lead = next(
        (text[s:e] for s, e in sentence_spans(text, KB) if len(WORD.findall(text[s:e])) >= 3), ""
    )
    line = " > ".join(p for p in parts if p)
    lead = " ".join(lead.split())
    summary = f"{line}. {lead}" if line and lead else line or lead
    return summary if len(summary) <= limit else summary[: limit - 1].rsplit(" ", 1)[0] + "…"
