"""Documents, passages, labels, snippets and metadata filters (domain/documents.py)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from lectern.domain.documents import (
    Block,
    Document,
    DocumentPassage,
    ExtractedDocument,
    LabelRef,
    Section,
    check_collection_name,
    document_id,
    is_valid_passage_citation,
    label_of,
    label_span,
    make_passages,
    parse_label,
    passage_id,
    passage_label,
)
from lectern.domain.grounding import is_valid_snippet
from lectern.domain.metadata_filters import FilterField, filter_matches, parse_where
from lectern.domain.snippets import best_snippet, locate_snippet

RFC_TEXT = "RFC body line one.\n\fRFC 7231   HTTP/1.1 Semantics   June 2014\n\nGET is safe.\n"


def test_ids_are_stable_and_change_with_content() -> None:
    assert document_id("rfc", "rfc7231.txt") == document_id("rfc", "rfc7231.txt")
    assert document_id("rfc", "rfc7231.txt") != document_id("kb", "rfc7231.txt")
    first = passage_id("rfc", "a.txt", 0, 10, "0123456789")
    assert first == passage_id("rfc", "a.txt", 0, 10, "0123456789")
    assert first != passage_id("rfc", "a.txt", 0, 10, "0123456780")
    assert first != passage_id("rfc", "a.txt", 1, 11, "0123456789")


@pytest.mark.parametrize("name", ["Rfc", "", "-x", "a/b", "x" * 64, "a b"])
def test_collection_names_are_checked(name: str) -> None:
    with pytest.raises(ValueError, match="invalid collection name"):
        check_collection_name(name)


def test_labels_render_as_the_issue_shows() -> None:
    assert label_of("RFC 7231", 12, None) == "[RFC 7231 p.12]"
    assert (
        label_of("kb:tutorial/query-params.md", None, "query-parameters")
        == "[kb:tutorial/query-params.md#query-parameters]"
    )
    assert label_of("CVE-2025-48384", None, None) == "[CVE-2025-48384]"
    assert label_of("T1136.002", None, None) == "[T1136.002]"


@pytest.mark.parametrize(
    ("label", "expected"),
    [
        ("[RFC 7231 p.12]", LabelRef("RFC 7231", page=12)),
        ("RFC 7231 p.3", LabelRef("RFC 7231", page=3)),
        (
            "[kb:tutorial/query-params.md#defaults]",
            LabelRef("kb:tutorial/query-params.md", anchor="defaults"),
        ),
        ("[T1136.002]", LabelRef("T1136.002")),
        ("[CVE-2025-48384]", LabelRef("CVE-2025-48384")),
    ],
)
def test_labels_parse_back(label: str, expected: LabelRef) -> None:
    assert parse_label(label) == expected


@pytest.mark.parametrize("label", ["", "[]", "[RFC 1 p.0]"])
def test_bad_labels_are_refused(label: str) -> None:
    with pytest.raises(ValueError):
        parse_label(label)


def _document() -> Document:
    section = Section("GET", 2, 20, 60, "section-4.3.1", ("4. Methods", "GET"), ("get",))
    return Document(
        "d1",
        "rfc",
        "HTTP",
        "rfc7231.txt",
        {},
        "text",
        "RFC 7231",
        text=RFC_TEXT,
        pages=((0, 19), (20, len(RFC_TEXT))),
        sections=(section,),
    )


def test_label_spans_are_pages_sections_or_the_whole_text() -> None:
    document = _document()
    assert label_span(document, LabelRef("RFC 7231", page=2)) == (20, len(RFC_TEXT))
    assert label_span(document, LabelRef("RFC 7231", page=3)) is None
    assert label_span(document, LabelRef("RFC 7231", anchor="section-4.3.1")) == (20, 60)
    assert label_span(document, LabelRef("RFC 7231", anchor="get")) == (20, 60)
    assert label_span(document, LabelRef("RFC 7231", anchor="nope")) is None
    assert label_span(document, LabelRef("RFC 7231")) == (0, len(RFC_TEXT))


def test_passages_are_slices_of_the_text_with_page_and_section() -> None:
    section = Section("GET", 2, 20, len(RFC_TEXT), "section-4.3.1", ("4. Methods", "GET"))
    extracted = ExtractedDocument(
        "rfc7231.txt",
        "HTTP",
        RFC_TEXT,
        "text",
        "RFC 7231",
        blocks=(Block(20, len(RFC_TEXT), page=2, section=section),),
    )
    start = RFC_TEXT.index("GET is")
    passages = make_passages("rfc", extracted, [(start, start + 12, extracted.blocks[0])])
    (passage,) = passages
    assert RFC_TEXT[passage.start : passage.end] == passage.text == "GET is safe."
    assert passage.page == 2
    assert passage.section == "4. Methods > GET"
    assert passage.anchor == "section-4.3.1"
    assert passage_label(_document(), passage) == "[RFC 7231 p.2]"


def test_the_validity_rule_is_the_books_rule() -> None:
    passage = DocumentPassage(
        "p", "d", "Memorized secrets SHALL be at least\n8 characters", 1, None, None, 0, 48
    )
    for snippet in ["memorized SECRETS shall", "at least 8 characters", "x" * 201, "at most 8"]:
        assert is_valid_passage_citation(snippet, passage) == is_valid_snippet(
            snippet, passage.text
        )
    assert is_valid_passage_citation("at least   8 CHARACTERS", passage)
    assert not is_valid_passage_citation("at least 9 characters", passage)


def test_snippets_are_located_under_the_same_folding() -> None:
    text = "Seasonality is a characteristic of a time series , in which\n  the data   CHANGE ."
    found = locate_snippet(text, "time series , in which the data change")
    assert found is not None
    start, end = found
    assert text[start:end] == "time series , in which\n  the data   CHANGE"
    assert locate_snippet(text, "not there") is None
    assert locate_snippet(text, "Seasonality", 5) is None
    assert locate_snippet("Straße", "STRASSE") == (0, 6)


def test_best_snippet_is_literal_and_highlights_query_words() -> None:
    text = (
        "HTTP is a protocol. The GET method requests transfer of a current selected "
        "representation for the target resource. POST is different."
    )
    snippet = best_snippet(text, "what does the GET method transfer")
    assert text[snippet.start : snippet.end] == snippet.text
    assert snippet.text.startswith("The GET method")
    words = {snippet.text[a:b] for a, b in snippet.highlights}
    assert {"GET", "method", "transfer"} <= words
    assert is_valid_snippet(snippet.text, text)


FIELDS = {
    "vendor": FilterField("vendor"),
    "cwe": FilterField("cwe"),
    "date_added": FilterField("date_added", "date"),
    "score": FilterField("score", "number"),
}


def test_where_expressions() -> None:
    assert parse_where("vendor=Microsoft", FIELDS).values == ("Microsoft",)
    assert parse_where("cwe=CWE-79, CWE-89", FIELDS).values == ("CWE-79", "CWE-89")
    ranged = parse_where("date_added=2024-01..2024-06-30", FIELDS)
    assert (ranged.low, ranged.high) == ("2024-01", "2024-06-30")
    assert parse_where("score>=7.5", FIELDS).low == 7.5
    assert parse_where("score<=3", FIELDS).high == 3.0


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        ("colour=red", "no filter 'colour'"),
        ("vendor>=a", "holds words"),
        ("date_added>=yesterday", "dates as YYYY"),
        ("score=high", "takes numbers"),
        ("vendor", "cannot read the filter"),
    ],
)
def test_bad_where_expressions_say_what_to_write(expression: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_where(expression, FIELDS)


def test_filters_match_values_lists_dates_and_numbers() -> None:
    assert filter_matches(parse_where("vendor=microsoft", FIELDS), "keyword", "Microsoft")
    assert not filter_matches(parse_where("vendor=Apple", FIELDS), "keyword", "Microsoft")
    cwe = parse_where("cwe=CWE-79,CWE-89", FIELDS)
    assert filter_matches(cwe, "keyword", ["CWE-20", "CWE-89"])
    assert not filter_matches(cwe, "keyword", ["CWE-20"])
    assert not filter_matches(cwe, "keyword", None)
    dates = parse_where("date_added=2024-01-01..2024", FIELDS)
    assert filter_matches(dates, "date", "2024-12-31")
    assert not filter_matches(dates, "date", "2025-01-01")
    assert not filter_matches(dates, "date", "2023-12-31")
    assert filter_matches(parse_where("score>=7", FIELDS), "number", "9.8")
    assert not filter_matches(parse_where("score>=7", FIELDS), "number", 6.9)


def test_a_document_read_with_another_layout_is_stored_again() -> None:
    text = "Balance Sheets\nCash 1 2"
    plain = ExtractedDocument("a.pdf", "A", text, "pdf", "A", (Block(0, len(text), page=1),))
    table = Section("columns: 2015 | 2014", 1, 0, len(text), None, ("columns: 2015 | 2014",))
    laid_out = replace(plain, blocks=(Block(0, len(text), page=1, section=table),))
    assert plain.content_hash == replace(plain).content_hash
    assert plain.content_hash != laid_out.content_hash
