"""RustSec advisories in the threat collection: CVSS scores, source and severity filters, the
rules that read them from a question, and the research chain over the real advisories."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lectern.adapters.documents.record_mappings import load_mapping
from lectern.adapters.documents.records import RecordsReader
from lectern.application.answering.extractive_research import ExtractiveResearchWriter
from lectern.application.answering.research import ResearchService
from lectern.application.collections import CollectionService
from lectern.domain.documents import ExtractedDocument, SkippedFile
from lectern.domain.research import QueryRequest
from lectern.errors import InvalidQueryError
from tests.answering_world import threats_collection
from tests.collection_wiring import SHARED

RUSTSEC = SHARED / "threat/rustsec"
ACCEPTANCE = "critical Rust advisories about memory corruption since 2022"


def _vectors() -> dict[str, str]:
    """Every advisory's CVSS vector, read straight from the files (independent of the mapping)."""
    found = {}
    for path in RUSTSEC.glob("crates/*/RUSTSEC-*.md"):
        text = path.read_text(encoding="utf-8")
        if re.search(r"^withdrawn\s*=", text, re.M):
            continue
        match = re.search(r'^cvss\s*=\s*"([^"]+)"', text, re.M)
        if match:
            found[path.stem] = match.group(1)
    return found


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> ResearchService:
    root = tmp_path_factory.mktemp("rustsec")
    collections: CollectionService = threats_collection(root / "var", root)
    collections.add("threats", RUSTSEC, mapping="rustsec")
    return ResearchService(collections, ExtractiveResearchWriter())


def test_every_advisory_is_read_and_every_vector_scored_by_the_library() -> None:
    from cvss import CVSS3, CVSS4

    mapping, _ = load_mapping("rustsec")
    items = list(RecordsReader(mapping).read(RUSTSEC))
    documents = [i for i in items if isinstance(i, ExtractedDocument)]
    skipped = [i for i in items if isinstance(i, SkippedFile)]
    files = list(RUSTSEC.glob("crates/*/RUSTSEC-*.md"))
    assert len(documents) + len(skipped) == len(files)
    assert all("withdrawn" in s.reason for s in skipped)
    vectors = _vectors()
    scored = {d.uri: d.metadata for d in documents if d.metadata["cvss_score"] is not None}
    assert set(scored) == set(vectors)  # no vector lost, none invented
    for advisory_id, vector in vectors.items():
        meta = scored[advisory_id]
        if vector.startswith("CVSS:4.0/"):
            expected = CVSS4(vector)
            assert meta["cvss_score"] == float(expected.base_score)
            assert meta["severity"] == str(expected.severity).casefold()
        else:
            expected3 = CVSS3(vector)
            assert meta["cvss_score"] == float(expected3.scores()[0])
            assert meta["severity"] == str(expected3.severities()[0]).casefold()
        assert meta["source_type"] == "rustsec"
    assert not [n for d in documents for n in d.notes]  # the shipped vectors all parse


def test_malformed_and_old_vectors_are_noted_not_fatal(tmp_path: Path) -> None:
    crate = tmp_path / "crates" / "demo"
    crate.mkdir(parents=True)
    front = (
        '```toml\n[advisory]\nid = "{id}"\npackage = "demo"\ndate = "2023-01-02"\n{cvss}\n'
        'categories = ["memory-corruption"]\nkeywords = ["demo"]\naliases = ["CVE-2023-0001"]\n'
        'informational = "unsound"\nreferences = ["https://example.org/a"]\n'
        '[versions]\npatched = [">= 1.0"]\nunaffected = ["< 0.1"]\n```\n'
    )
    body = "\n# Demo flaw\n\nA demo advisory.\n"
    cases = {
        "RUSTSEC-2023-0001": 'cvss = "CVSS:3.1/AV:X/AC:L"',
        "RUSTSEC-2023-0002": 'cvss = "AV:N/AC:L/Au:N/C:P/I:P/A:P"',
        "RUSTSEC-2023-0003": "",
        "RUSTSEC-2023-0004": 'cvss = "CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H'
        '/SC:N/SI:N/SA:N"',
    }
    for advisory_id, cvss in cases.items():
        (crate / f"{advisory_id}.md").write_text(
            front.format(id=advisory_id, cvss=cvss) + body, encoding="utf-8"
        )
    (crate / "RUSTSEC-2023-0005.md").write_text("no front block here", encoding="utf-8")
    (crate / "RUSTSEC-2023-0006.md").write_text("```toml\nid = = broken\n```\n", encoding="utf-8")
    mapping, _ = load_mapping("rustsec")
    items = list(RecordsReader(mapping).read(tmp_path))
    docs = {i.uri: i for i in items if isinstance(i, ExtractedDocument)}
    skipped = {i.path: i.reason for i in items if isinstance(i, SkippedFile)}
    assert docs["RUSTSEC-2023-0001"].metadata["cvss_score"] is None
    assert "unreadable CVSS vector" in docs["RUSTSEC-2023-0001"].notes[0]
    assert "only CVSS:3.0, 3.1 and 4.0" in docs["RUSTSEC-2023-0002"].notes[0]
    assert (
        docs["RUSTSEC-2023-0003"].notes == ()
        and docs["RUSTSEC-2023-0003"].metadata["severity"] is None
    )
    assert docs["RUSTSEC-2023-0004"].metadata["cvss_score"] == 9.3
    assert docs["RUSTSEC-2023-0004"].metadata["severity"] == "critical"
    assert "no ```toml front block" in skipped["crates/demo/RUSTSEC-2023-0005.md"]
    assert "not an advisory" in skipped["crates/demo/RUSTSEC-2023-0006.md"]


@pytest.mark.slow
def test_the_acceptance_question_returns_only_critical_memory_corruption_advisories(
    service: ResearchService,
) -> None:
    response = service.query(QueryRequest(ACCEPTANCE, "threats", top_k=10))
    assert response.citations, response
    store = service.collections.store
    for source_id in {c.source_id for c in response.citations} | set(response.cited_sources):
        (document,) = [d for d in store.cited_as(source_id) if d.collection == "threats"]
        meta = document.metadata
        assert meta["source_type"] == "rustsec"
        assert isinstance(meta["cvss_score"], float) and meta["cvss_score"] >= 9.0
        assert "memory-corruption" in (meta["category"] or [])
        assert str(meta["date"]) >= "2022"
    assert set(response.cited_sources) == {c.source_id for c in response.citations}
    meta = response.metadata
    assert set(meta["filters"]) == {  # type: ignore[arg-type]
        "source_type=rustsec",
        "severity=critical",
        "category=memory-corruption",
        "date>=2022",
    }
    # What was retrieved at all is inside the set the files themselves say qualifies.
    retrieved = set(meta["sources_retrieved"])  # type: ignore[arg-type]
    assert retrieved and retrieved <= _qualifying()


def _qualifying() -> set[str]:
    """Advisories from 2022 on, memory-corruption, CVSS >= 9 by the library: from the files."""
    from cvss import CVSS3, CVSS4

    found = set()
    for advisory_id, vector in _vectors().items():
        path = next(RUSTSEC.glob(f"crates/*/{advisory_id}.md"))
        text = path.read_text(encoding="utf-8")
        date = re.search(r'^date\s*=\s*"(\d{4})', text, re.M)
        categories = re.search(r"^categories\s*=\s*\[([^\]]*)\]", text, re.M)
        if vector.startswith("CVSS:4.0/"):
            score = float(CVSS4(vector).base_score)
        else:
            score = float(CVSS3(vector).scores()[0])
        if (
            score >= 9.0
            and date is not None
            and date.group(1) >= "2022"
            and categories is not None
            and "memory-corruption" in categories.group(1)
        ):
            found.add(advisory_id)
    return found


@pytest.mark.slow
def test_explicit_filters_at_the_service(service: ResearchService) -> None:
    kev = service.query(QueryRequest("remote code execution", "threats", source_types=("kev",)))
    assert kev.citations and all(c.source_id.startswith("CVE-") for c in kev.citations)
    scored = service.query(
        QueryRequest("denial of service in a parser", "threats", severity="7.5", top_k=5)
    )
    store = service.collections.store
    for citation in scored.citations:
        (document,) = [d for d in store.cited_as(citation.source_id) if d.collection == "threats"]
        assert float(document.metadata["cvss_score"]) >= 7.5  # type: ignore[arg-type]
    assert scored.metadata["filters"] == ["cvss_score>=7.5"]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("source_types", "severity", "message"),
    [
        (("nvd",), None, "unknown source_type 'nvd'"),
        ((), "severe", "unknown severity 'severe'"),
        ((), "11", "between 0 and 10"),
        ((), "nan", "between 0 and 10"),
    ],
)
def test_bad_filter_values_are_clear_errors(
    service: ResearchService, source_types: tuple[str, ...], severity: str | None, message: str
) -> None:
    with pytest.raises(InvalidQueryError, match=message):
        service.query(
            QueryRequest("memory", "threats", source_types=source_types, severity=severity)
        )
