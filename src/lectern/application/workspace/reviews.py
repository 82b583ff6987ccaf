"""Automatic reviews: a comment on a new or changed document (or a task sent to review).

A review reads its target (a project document's text through the collections, or a task's
title and description), and posts one comment by `lectern-review` with:
- a summary: the target's leading sentences, each quoted with its label;
- personal data found (kinds and counts, never the values);
- the target's statements checked against the project's other documents: each statement is
  searched for with the collections' hybrid search (within the project's documents), and the
  configured model judges whether the passages found support it (offline: the extractive
  judge, shared words). Supported statements cite their evidence; the rest are listed as
  having no support in the project's documents.
Every quote is checked against the text it names before the comment is posted (the literal
rule of `domain/grounding.py`); a quote that fails is left out. A review never changes its
target; a failure raises, and the queue retries it a limited number of times.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import structlog

from lectern.application.assistant.ports import PiiDetector
from lectern.application.ports import LLMClient
from lectern.application.workspace.ports import ReviewJob
from lectern.application.workspace.service import WorkspaceService
from lectern.domain.grounding import MAX_SNIPPET_CHARS, is_valid_snippet
from lectern.domain.privacy import KIND_WORDS, mask
from lectern.domain.sentences import LINES, sentence_spans
from lectern.domain.snippets import best_snippet
from lectern.domain.workspace import Comment, CommentCitation, ProjectDocument
from lectern.errors import CollectionNotFoundError, WorkspaceNotFoundError

log = structlog.get_logger(__name__)

TRIGGER_WORDS = {
    "document_created": "document added",
    "document_updated": "document updated",
    "task_in_review": "task moved to review",
}
MIN_CLAIM_WORDS = 6
REVIEW_TEXT_CHARS = 20_000
"""A long document is reviewed on its first 20,000 characters."""


@dataclass(frozen=True, slots=True)
class ReviewTarget:
    """What a review reads: a source key, how a person follows it, its title and text."""

    source: str
    label: str
    title: str
    text: str
    exclude: str | None
    """The project document under review (not evidence for itself)."""


@dataclass(frozen=True, slots=True)
class _Evidence:
    source: str
    label: str
    text: str


def sentences(text: str) -> list[str]:
    """The text's sentences (and lines without a full stop), stripped, in order.

    A sentence ends at . ! or ? before a space (not inside ops@acme.example), or at a line end;
    a line's heading or bullet marks are not part of it.
    """
    found = []
    for start, end in sentence_spans(text, LINES):
        sentence = text[start:end].strip("#*-> ").strip()
        if sentence:
            found.append(sentence)
    return found


def quotable(sentence: str) -> str:
    """A quote of at most the snippet limit, cut at a word, without double quotes."""
    cut = sentence.replace('"', "")
    if len(cut) > MAX_SNIPPET_CHARS:
        cut = cut[:MAX_SNIPPET_CHARS].rsplit(" ", 1)[0]
    return cut.strip()


def quote(
    source: str, label: str, sentence: str, text: str, citations: list[CommentCitation]
) -> str:
    """A sentence quoted with its label when it is literal in `text`, else said as is.

    A kept quote is `"snippet" label` and is recorded in `citations`.
    """
    snippet = quotable(sentence)
    if not snippet or not is_valid_snippet(snippet, text):
        return sentence
    citations.append(CommentCitation(source, label, snippet))
    return f'"{snippet}" {label}'


def pii_line(pii: PiiDetector | None, text: str) -> str:
    """The kinds of personal data in `text` with their counts, never the values."""
    if pii is None:
        return "Personal data: not checked (no detector configured)."
    found = Counter(f.kind for f in pii.find(text))
    if not found:
        return "Personal data: none found."
    listed = ", ".join(
        f"{KIND_WORDS.get(kind, kind.lower()).split(' ', 1)[-1]}: {count}"
        for kind, count in sorted(found.items())
    )
    return f"Personal data found: {listed} (the values are not repeated here)."


def summary_sentences(text: str, pii: PiiDetector | None, limit: int = 3) -> list[str]:
    """The leading sentences of four words or more that hold no personal data."""
    parts = [s for s in sentences(text) if pii is None or not pii.find(s)]
    return [s for s in parts if len(s.split()) >= 4][:limit]


class ReviewService:
    """Runs one review job: reads, checks, and posts the cited comment."""

    def __init__(
        self,
        workspace: WorkspaceService,
        llm: LLMClient,
        pii: PiiDetector | None = None,
        *,
        mask_pii: bool = False,
        max_claims: int = 8,
    ) -> None:
        """`mask_pii`: the model is hosted, so text sent to it is masked first."""
        self.workspace = workspace
        self.llm = llm
        self.pii = pii
        self.mask_pii = mask_pii
        self.max_claims = max_claims

    def run(self, job: ReviewJob) -> Comment | None:
        """Review the target and post the comment; None when the target is gone."""
        target = self._target(job)
        if target is None:
            log.info("review skipped: target gone", target=job.target)
            return None
        lines = [f'Automatic review of "{target.title}" ({TRIGGER_WORDS[job.trigger]}).']
        citations: list[CommentCitation] = []
        # Sentences holding personal data are never quoted: the comment must not spread it.
        parts = [s for s in sentences(target.text) if not self._personal(s)]
        summary = summary_sentences(target.text, self.pii)
        if summary:
            lines.append("Summary:")
            for sentence in summary:
                lines.append(
                    "- "
                    + self._quote(target.source, target.label, sentence, target.text, citations)
                )
        lines.append(self._pii_line(target.text))
        lines.extend(self._claims(job, target, parts, citations))
        comment = self.workspace.post_review(
            job.target, job.project_id, "\n".join(lines), citations
        )
        log.info(
            "review posted",
            target=job.target,
            trigger=job.trigger,
            comment=comment.id,
            citations=len(citations),
        )
        return comment

    # --- reading ------------------------------------------------------------------------

    def _target(self, job: ReviewJob) -> ReviewTarget | None:
        kind, _, ident = job.target.partition(":")
        store = self.workspace.store
        if kind == "document":
            link = store.document(ident)
            if link is None:
                return None
            try:
                view = self.workspace.collection_document(link)
            except WorkspaceNotFoundError:
                return None
            document = view.document
            return ReviewTarget(
                f"document:{link.id}",
                f"[{document.cite_as or document.uri}]",
                link.title,
                document.text[:REVIEW_TEXT_CHARS],
                link.id,
            )
        if kind == "task":
            task = store.task(ident)
            if task is None:
                return None
            text = f"{task.title}. {task.description}".strip()
            return ReviewTarget(f"task:{task.id}", f"[task: {task.title}]", task.title, text, None)
        raise ValueError(f"a review target is document:<id> or task:<id>, not {job.target!r}")

    # --- parts of the comment -------------------------------------------------------------

    _quote = staticmethod(quote)

    def _pii_line(self, text: str) -> str:
        return pii_line(self.pii, text)

    def _claims(
        self,
        job: ReviewJob,
        target: ReviewTarget,
        parts: Sequence[str],
        citations: list[CommentCitation],
    ) -> list[str]:
        claims = [s for s in parts if len(s.split()) >= MIN_CLAIM_WORDS][: self.max_claims]
        if not claims:
            return ["No statements to check."]
        documents = [
            d for d in self.workspace.store.documents([job.project_id]) if d.id != target.exclude
        ]
        supported: list[str] = []
        unsupported: list[str] = []
        for claim in claims:
            evidence = self._evidence(documents, claim)
            verdict = "unsupported"
            if evidence:
                judged = self.llm.judge(
                    "Does the evidence support this statement?",
                    self._masked(claim),
                    [self._masked(e.text) for e in evidence],
                )
                verdict = judged.verdict
            quoted = self._quote(target.source, target.label, claim, target.text, citations)
            if verdict == "supported":
                best = evidence[0]
                snippet = best_snippet(best.text, claim).text
                cited = self._quote(best.source, best.label, snippet, best.text, citations)
                supported.append(f"- {quoted}: supported by {cited}")
            else:
                unsupported.append(f"- {quoted}")
        lines = [
            f"Statements checked against the project's documents: {len(claims)}; "
            f"supported {len(supported)}, without support {len(unsupported)}."
        ]
        if supported:
            lines.append("Supported:")
            lines.extend(supported)
        if unsupported:
            lines.append("No support found in the project's documents:")
            lines.extend(unsupported)
        return lines

    def _evidence(self, documents: Sequence[ProjectDocument], claim: str) -> list[_Evidence]:
        collections = self.workspace.collections
        if collections is None or not documents:
            return []
        by_collection: dict[str, dict[str, ProjectDocument]] = {}
        for link in documents:
            by_collection.setdefault(link.collection, {})[link.document_id] = link
        found: list[tuple[float, _Evidence]] = []
        for collection, links in by_collection.items():
            try:
                response = collections.search(
                    collection, claim[:1000], k=3, per_document=1, documents=links.keys()
                )
            except CollectionNotFoundError:
                continue
            for hit in response.results:
                passage = hit.passages[0]
                if not passage.snippet.highlights:
                    continue
                link = links[hit.document.id]
                found.append(
                    (
                        hit.score,
                        _Evidence(f"document:{link.id}", passage.label, passage.passage.text),
                    )
                )
        found.sort(key=lambda pair: -pair[0])
        return [evidence for _, evidence in found[:3]]

    def _personal(self, text: str) -> bool:
        return self.pii is not None and bool(self.pii.find(text))

    def _masked(self, text: str) -> str:
        if not self.mask_pii or self.pii is None:
            return text
        return mask(text, self.pii.find(text)).text
