"""Every shipped collection added whole (hashed-word vectors keep it fast); labels resolve."""

from __future__ import annotations

from pathlib import Path

import pytest

from lectern.application.collections import CollectionService
from lectern.domain.documents import is_valid_passage_citation, label_span, parse_label
from tests.collection_wiring import SHARED, collection_service

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> CollectionService:
    return collection_service(tmp_path_factory.mktemp("shipped"))


def _every_label_resolves(service: CollectionService, name: str) -> int:
    """Each passage's label names a page or section holding the passage at its offsets."""
    checked = 0
    documents = service.store.list_documents(name, limit=10_000)
    for light in documents:
        view = service.document(name, light.id)
        document = view.document
        for passage, label in view.passages:
            ref = parse_label(label)
            assert ref.key == document.cite_as
            span = label_span(document, ref)
            assert span is not None, label
            assert span[0] <= passage.start < passage.end <= span[1], label
            assert document.text[passage.start : passage.end] == passage.text
            snippet = passage.text.strip()[:150]
            assert is_valid_passage_citation(snippet, passage)
            checked += 1
        sample = view.passages[len(view.passages) // 2][0]
        resolution = service.resolve(
            view.passages[len(view.passages) // 2][1], " ".join(sample.text.split()[:12])
        )
        assert (
            resolution.document.id == document.id or resolution.document.cite_as == document.cite_as
        )
        assert resolution.snippet_at is not None
    return checked


def test_rfc_collection_pages_and_labels(service: CollectionService) -> None:
    report = service.add("rfc", SHARED / "guidance" / "rfc", pattern="rfc[0-9]*.txt")
    assert report.documents == 59
    assert not [s for s in report.skipped if not s.path.startswith("*")]
    checked = _every_label_resolves(service, "rfc")
    assert checked == report.passages
    hit = service.search("rfc", "GET method requests transfer of a current selected representation")
    assert hit.results[0].passages[0].label.startswith("[RFC 7231 p.")
    resolution = service.resolve("[RFC 7231 p.24]")
    assert "[Page 24]" in resolution.text


def test_nist_collection_sections_and_labels(service: CollectionService) -> None:
    report = service.add("nist", SHARED / "guidance" / "nist-sp800-63-3")
    assert report.documents >= 40
    _every_label_resolves(service, "nist")
    hit = service.search("nist", "memorized secrets at least 8 characters length")
    labels = [p.label for h in hit.results for p in h.passages]
    assert any("sp800-63b/sec5_authenticators.md#" in label for label in labels)
    section = service.resolve("[nist:sp800-63b/sec5_authenticators.md#memsecretver]")
    assert "at least 8 characters in length" in section.text


def test_kb_collection(service: CollectionService) -> None:
    report = service.add("kb", SHARED / "kb" / "fastapi-docs" / "docs")
    assert report.documents == 155
    assert all("dropped" in note for _, note in report.notes)
    hit = service.search("kb", "query parameters default values optional")
    assert hit.results[0].document.uri.startswith("tutorial/query-param")
    resolution = service.resolve("[kb:tutorial/query-params.md#query-parameters]")
    assert resolution.text.startswith("Query Parameters")


def test_pdf_collection(service: CollectionService) -> None:
    report = service.add("filings", SHARED / "pdf" / "financebench-dev")
    assert report.documents == 5
    assert any("no text layer" in note for _, note in report.notes)
    hit = service.search("filings", "Pfizer revenues second quarter 2023")
    assert any(p.label.startswith("[Pfizer_2023Q2_10Q p.") for h in hit.results for p in h.passages)


def test_threat_collections(service: CollectionService) -> None:
    kev = service.add(
        "kev",
        SHARED / "threat" / "cisa-kev" / "known_exploited_vulnerabilities.json",
        mapping="cisa-kev",
    )
    assert kev.documents == 1404
    git = service.resolve("[CVE-2025-48384]")
    assert "Git" in git.text
    ransomware = service.search("kev", "remote code execution", where=["ransomware=Known"], k=30)
    assert ransomware.results
    assert all(h.document.metadata["ransomware"] == "Known" for h in ransomware.results)
    attack = service.add("attack", SHARED / "threat" / "mitre-attack", mapping="mitre-attack")
    assert 600 < attack.documents < 835
    domain_account = service.resolve("[T1136.002]")
    assert domain_account.document.title == "T1136.002: Domain Account"
    windows = service.search("attack", "create account", where=["platform=Windows"], k=10)
    assert all("Windows" in h.document.metadata["platform"] for h in windows.results)  # type: ignore[operator]


def test_clapnq_and_scifact_records(service: CollectionService, tmp_path: Path) -> None:
    clapnq = service.add("clapnq", SHARED / "qa" / "clapnq-dev", mapping="clapnq")
    assert clapnq.documents == 596
    assert {s.reason.split(" ")[0] for s in clapnq.skipped} == {"duplicate"}
    scifact = service.add(
        "scifact", SHARED / "beir-scifact-dev" / "corpus.jsonl.gz", mapping="beir"
    )
    assert scifact.documents == scifact.passages == 5183
    del tmp_path
