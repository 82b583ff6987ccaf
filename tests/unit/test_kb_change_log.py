"""A change log names tasks without saying how to do them: it answers nothing.

The FastAPI release notes hold "Add article to External Links: How to continuously deploy a
FastAPI to AWS Lambda with AWS SAM. PR #1234 by @someone.": quoted, that line reads as an
answer to "how do I deploy to AWS Lambda?", which the documentation does not give.
"""

from __future__ import annotations

import pytest

from lectern.application.answering.knowledge import KnowledgeBase
from lectern.domain.answering import (
    KnowledgeIndex,
    KnowledgeSource,
    LoadedSource,
    document_frequency,
    extractive_answer,
    is_change_log,
)
from tests.answering_world import kb_collection, knowledge_bases

CHANGE_LOG = """# Release Notes

## 0.110.0

### Docs

- Add External Link: How to declare optional query parameters. PR #1234 by @someone.
- Add External Link: Optional query parameters with defaults explained. PR #1240 by @other.
- Update internal dependency pytest-cov requirement. PR #5539 by @dependabot.

### Fixes

- Fix declaring query parameters with a default of None. PR #1301 by @someone.

## 0.109.0

This release declares query parameters of every kind faster.

"""
CHANGE_LOG += "".join(f"- Bump a dependency. PR #{n}.\n" for n in range(2000, 2008))

PAGE = "Declare optional query parameters by setting their default to None."


def test_a_text_crediting_pull_requests_is_a_change_log() -> None:
    assert is_change_log(CHANGE_LOG)
    assert not is_change_log(PAGE)
    # An advisory names the pull requests of its fix; that is no change log.
    assert not is_change_log("Corrected in PR #95. The fix was merged in PR #103 and released.")


def test_the_extractive_answer_quotes_no_change_log() -> None:
    texts = (CHANGE_LOG, PAGE)
    sources = tuple(
        KnowledgeSource(f"kb:{n}.md", f"d{n}", f"Doc {n}", f"summary {n}", f"h{n}")
        for n in range(len(texts))
    )
    index = KnowledgeIndex("kb", 1, sources, document_frequency(texts), "lead-sentence")
    loaded = [LoadedSource(s, t, 0.9) for s, t in zip(sources, texts, strict=True)]
    draft = extractive_answer("declare optional query parameters", loaded, index, 600)
    assert draft is not None
    assert {s.source_id for s in draft.sentences} == {"kb:1.md"}
    assert extractive_answer("declare optional query parameters", loaded[:1], index, 600) is None


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory) -> KnowledgeBase:
    root = tmp_path_factory.mktemp("kb-change-log")
    service = kb_collection(root / "var", root)
    notes = root / "notes"
    notes.mkdir()
    (notes / "release-notes.md").write_text(CHANGE_LOG, encoding="utf-8")
    service.add("kb", notes)
    return knowledge_bases(service, root / "kb-index").get("kb")


def test_the_knowledge_base_selects_no_change_log(kb: KnowledgeBase) -> None:
    assert any("release-notes" in s.source_id for s in kb.index.sources)
    found, _ = kb.candidates("How do I declare optional query parameters?", 5)
    assert found, "the tutorial page is still found"
    assert not any("release-notes" in c.selected.source.source_id for c in found)


def test_the_search_itself_finds_the_change_log(kb: KnowledgeBase) -> None:
    """The guard above means something: without the rule the change log is a candidate."""
    notes = next(s for s in kb.index.sources if "release-notes" in s.source_id)
    response = kb.collections.search("kb", "optional query parameters", k=10, per_document=3)
    assert notes.document_id in {hit.document.id for hit in response.results}
