"""Collections of filings: a question that names a company searches that company's filing."""

from __future__ import annotations

from pathlib import Path

import pytest

from lectern.application.collections import CollectionService
from lectern.domain.documents import is_valid_passage_citation
from tests.collection_wiring import collection_service
from tests.pdf_maker import text_pdf


def _cover(company: str, year: int) -> list[str | tuple[str, ...]]:
    return [
        "UNITED STATES SECURITIES AND EXCHANGE COMMISSION",
        "FORM 10-K",
        f"For the fiscal year ended December 31, {year}",
        company,
        "(Exact name of registrant as specified in its charter)",
    ]


@pytest.fixture
def filings(tmp_path: Path) -> Path:
    folder = tmp_path / "filings"
    folder.mkdir()
    acme = [
        _cover("Acme Widgets, Inc.", 2021),
        [
            "Item 1. Business",
            "Acme designs and sells garden tools to hardware stores across North America.",
        ],
    ]
    globex = [
        _cover("Globex Corporation", 2022),
        [
            "Item 1. Business",
            "Globex operates in the widget industry: its segments are Widget Industry "
            "Services and Industry Consulting, and it operates in Europe.",
        ],
    ]
    (folder / "ACME_2021_10K.pdf").write_bytes(text_pdf(acme))
    (folder / "GLOBEX_2022_10K.pdf").write_bytes(text_pdf(globex))
    return folder


@pytest.fixture
def service(tmp_path: Path) -> CollectionService:
    return collection_service(tmp_path / "data")


def test_a_question_naming_a_company_searches_its_filing_first_and_says_so(
    filings: Path, service: CollectionService
) -> None:
    service.add("filings", filings)
    question = "What industry does Acme Widgets operate in?"
    response = service.search("filings", question)
    assert response.scope is not None
    assert "Acme Widgets" in response.scope and "1 of 2 documents" in response.scope
    assert [h.document.uri for h in response.results] == ["ACME_2021_10K.pdf"]
    for hit in response.results:
        for passage in hit.passages:
            assert is_valid_passage_citation(passage.snippet.text, passage.passage)


def test_a_question_naming_no_company_searches_the_whole_collection(
    filings: Path, service: CollectionService
) -> None:
    service.add("filings", filings)
    response = service.search("filings", "which companies operate in the widget industry?")
    assert response.scope is None
    assert {h.document.uri for h in response.results} == {
        "ACME_2021_10K.pdf",
        "GLOBEX_2022_10K.pdf",
    }


def test_a_year_picks_the_filing_among_one_companys(
    tmp_path: Path, service: CollectionService
) -> None:
    folder = tmp_path / "years"
    folder.mkdir()
    for year in (2021, 2022):
        pages = [_cover("Acme Widgets, Inc.", year), [f"Acme sold tools in {year}."]]
        (folder / f"ACME_{year}_10K.pdf").write_bytes(text_pdf(pages))
    service.add("filings", folder)
    response = service.search("filings", "How much did Acme Widgets pay in FY2021 and 2030?")
    assert response.scope is not None and "2021" in response.scope
    assert [h.document.uri for h in response.results] == ["ACME_2021_10K.pdf"]


def test_a_measure_adds_its_statement_lines_only_for_filings(
    filings: Path, tmp_path: Path, service: CollectionService
) -> None:
    service.add("filings", filings)
    response = service.search("filings", "What is the FY2021 capex of Acme Widgets?")
    assert response.expansion is not None
    assert "purchases of property, plant and equipment" in response.expansion
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "memo.md").write_text("# Memo\n\nOur capex plan for the new shop.\n")
    service.add("notes", notes)
    plain = service.search("notes", "What is the FY2021 capex of Acme Widgets?")
    assert plain.expansion is None and plain.scope is None


def test_a_two_page_table_is_read_as_labelled_rows_under_its_title(
    tmp_path: Path, service: CollectionService
) -> None:
    from lectern.application.collections import index_texts

    rows = [
        ("Net income", "5,363", "4,869"),
        ("Depreciation and amortization", "1,488", "1,544"),
        ("Accounts receivable", "(305)", "(245)"),
        ("Inventories", "(509)", "(387)"),
        ("Accounts payable", "408", "24"),
        ("Net cash provided by operating activities", "6,439", "6,240"),
        ("Proceeds from sale of PP&E", "262", "49"),
    ]
    more = [
        ("Purchases of property, plant and equipment", "1,749", "1,603"),
        ("Dividends paid to shareholders", "(3,193)", "(2,803)"),
        ("Repayment of debt", "(1,034)", "(962)"),
        ("Proceeds from debt", "2,251", "1,987"),
        ("Purchases of treasury stock", "(4,870)", "(2,068)"),
        ("Net increase in cash", "(200)", "655"),
    ]
    first: list[str | tuple[str, ...]] = [
        "Acme Widgets, Inc.",
        "Consolidated Statements of Cash Flows",
        ("(In millions)", "2022", "2021"),
        *rows,
    ]
    second: list[str | tuple[str, ...]] = [*more, "See the accompanying notes."]
    folder = tmp_path / "tables"
    folder.mkdir()
    (folder / "ACME_2022_10K.pdf").write_bytes(
        text_pdf([_cover("Acme Widgets, Inc.", 2022), first, second])
    )
    service.add("filings", folder)
    passages = [ip for ip in service.store.indexed_passages("filings") if ip.passage.page in (2, 3)]
    assert {ip.passage.page for ip in passages} == {2, 3}
    sections = {ip.passage.section for ip in passages}
    assert sections == {"Consolidated Statements of Cash Flows > columns: 2022 | 2021"}
    indexed = "\n".join(index_texts(ip.title, ip.passage)[0] for ip in passages)
    assert "Purchases of property, plant and equipment | 2022: 1,749 | 2021: 1,603" in indexed
    assert "Depreciation and amortization | 2022: 1,488 | 2021: 1,544" in indexed
    document = service.document("filings", passages[0].passage.document_id)
    for ip in passages:
        # The citation stays the page's own words; the labelled rows are the index's reading.
        assert document.document.text[ip.passage.start : ip.passage.end] == ip.passage.text
        assert "| 2022:" not in ip.passage.text
    response = service.search("filings", "What was Acme Widgets' FY2022 capital expenditure?")
    assert 3 in {p.passage.page for p in response.results[0].passages}
