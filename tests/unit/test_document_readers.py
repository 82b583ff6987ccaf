"""One test group per reader, on small excerpts of the real corpora."""

# ruff: noqa: E501 - the excerpts keep their real (long) lines

from __future__ import annotations

import gzip
import io
import json
from pathlib import Path

import pytest

from lectern.adapters.documents.common import UnreadableFileError
from lectern.adapters.documents.folder import FileDocumentSource
from lectern.adapters.documents.html import HtmlReader
from lectern.adapters.documents.markdown import MarkdownReader
from lectern.adapters.documents.pdf import PdfReader
from lectern.adapters.documents.plaintext import PlainTextReader
from lectern.adapters.documents.record_mappings import load_mapping, parse_mapping
from lectern.adapters.documents.records import RecordsReader
from lectern.adapters.documents.splitter import LangChainPassageSplitter
from lectern.adapters.documents.uploads import checked_name, kind_of
from lectern.domain.documents import ExtractedDocument, SkippedFile
from lectern.errors import CollectionInputError, MappingError, UploadRejectedError
from tests.collection_wiring import SHARED

FASTAPI_EXCERPT = """# Query Parameters { #query-parameters }

When you declare other function parameters that are not part of the path parameters, they are automatically interpreted as "query" parameters.

{* ../../docs_src/query_params/tutorial001_py310.py hl[9] *}

The query is the set of key-value pairs that go after the `?` in a URL, separated by `&` characters.

/// tip

Also notice that **FastAPI** is smart enough to notice that the path parameter `item_id` is a path parameter.

///

## Optional parameters { #optional-parameters }

The same way, you can declare optional query parameters, by setting their default to `None`:

{* ../../docs_src/missing/tutorial999.py hl[7] *}

{* ../../docs_src/query_params/tutorial001_py310.py ln[1:3] *}
"""

NIST_EXCERPT = """---
layout: page
title: "NIST Special Publication 800-63B"
---

<a name="sec5"></a>

## 5 <a name="AAL_SEC5"></a>Authenticator and Verifier Requirements

_This section is normative._

#### <a name="memsecret"></a> 5.1.1 Memorized Secrets

<div class="text-left" markdown="1">
<table style="width:100%">
  <tr>
    <td><img src="x.png" alt="authenticator"/></td>
    <td>A Memorized Secret authenticator &mdash; commonly referred to as a <i>password</i> &mdash; is a secret value.</td>
  </tr>
  </table>
  </div>

#### 5.1.1.1 Memorized Secret Authenticators

Memorized secrets SHALL be at least 8 characters in length if chosen by the subscriber.
"""


def _write(folder: Path, relative: str, text: str | bytes) -> Path:
    path = folder / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


# --- Markdown --------------------------------------------------------------------------------


def test_markdown_sections_anchors_and_includes(tmp_path: Path) -> None:
    page = _write(tmp_path, "docs/tutorial/query-params.md", FASTAPI_EXCERPT)
    _write(
        tmp_path,
        "docs_src/query_params/tutorial001_py310.py",
        "from fastapi import FastAPI\n\napp = FastAPI()\n\n@app.get('/items/')\nasync def read_item(skip: int = 0):\n    return skip\n",
    )
    document = MarkdownReader(tmp_path).read(
        page, "tutorial/query-params.md", "kb:tutorial/query-params.md"
    )
    assert document.title == "Query Parameters"
    assert [s.anchor for s in document.sections] == ["query-parameters", "optional-parameters"]
    assert document.sections[1].path == ("Query Parameters", "Optional parameters")
    assert "{ #" not in document.text and "///" not in document.text
    assert "async def read_item(skip: int = 0):" in document.text  # include resolved
    assert document.text.count("from fastapi import FastAPI") == 2  # ln[1:3] took lines 1-3
    assert document.notes == (
        "include ../../docs_src/missing/tutorial999.py dropped: no such file",
    )
    assert "`" not in document.text and "**" not in document.text
    first, second = document.blocks
    assert document.text[first.start : first.end].startswith("Query Parameters")
    assert document.text[second.start : second.end].startswith("Optional parameters")


def test_markdown_includes_outside_the_root_are_dropped(tmp_path: Path) -> None:
    page = _write(tmp_path, "kb/docs/a.md", "# A\n\n{* ../../../../etc/passwd *}\n")
    document = MarkdownReader(tmp_path / "kb").read(page, "a.md", "kb:a.md")
    assert "root:" not in document.text
    assert document.notes == (
        "include ../../../../etc/passwd dropped: outside the folder includes may read",
    )


def test_markdown_html_anchors_tables_and_front_matter(tmp_path: Path) -> None:
    page = _write(tmp_path, "sp800-63b/sec5.md", NIST_EXCERPT)
    document = MarkdownReader(None).read(page, "sp800-63b/sec5.md", "nist:sp800-63b/sec5.md")
    assert document.title == "NIST Special Publication 800-63B"
    top, memsecret, authenticators = document.sections
    assert (top.anchor, top.aliases) == ("AAL_SEC5", ("sec5",))
    assert top.title == "5 Authenticator and Verifier Requirements"
    assert memsecret.anchor == "memsecret"
    assert authenticators.anchor == "5111-memorized-secret-authenticators"
    assert (
        "authenticator | A Memorized Secret authenticator — commonly referred to as a password"
        in document.text
    )
    assert "<" not in document.text and "layout:" not in document.text
    assert top.end == len(document.text)  # h2 governs the h4s below it
    assert memsecret.end == authenticators.start


def test_real_nist_file_keeps_the_exact_numbers(tmp_path: Path) -> None:
    path = SHARED / "guidance/nist-sp800-63-3/sp800-63b/sec5_authenticators.md"
    document = MarkdownReader(None).read(path, "sp800-63b/sec5_authenticators.md", "nist:x")
    assert (
        "Verifiers SHALL require subscriber-chosen memorized secrets to be at least 8 characters in length."
        in document.text
    )
    anchors = {s.anchor for s in document.sections}
    assert {"memsecretver", "AAL_SEC5", "lookupsecrets"} <= anchors
    del tmp_path


# --- plain text --------------------------------------------------------------------------------

RFC_EXCERPT = (
    "Internet Engineering Task Force (IETF)                  R. Fielding, Ed.\n"
    "Request for Comments: 7231                                     June 2014\n\n"
    "   Hypertext Transfer Protocol (HTTP/1.1): Semantics and Content\n\n"
    "Fielding & Reschke           Standards Track                    [Page 1]\n"
    "\f\nRFC 7231             HTTP/1.1 Semantics and Content            June 2014\n\n"
    "4.3.1.  GET\n\n"
    "   The GET method requests transfer of a current selected representation\n"
    "   for the target resource.\n\n"
    "Fielding & Reschke           Standards Track                    [Page 2]\n"
    "\f\nRFC 7231             HTTP/1.1 Semantics and Content            June 2014\n\n"
    "4.3.2.  HEAD\n\n"
    "   The HEAD method is identical to GET.\n\n"
    "Fielding & Reschke           Standards Track                    [Page 4]\n"
    "\f"
)


def test_text_pages_footers_headers_and_sidecar(tmp_path: Path) -> None:
    path = _write(tmp_path, "rfc7231.txt", RFC_EXCERPT)
    _write(
        tmp_path,
        "rfc7231.json",
        json.dumps(
            {
                "doc_id": "RFC7231",
                "title": "HTTP/1.1 Semantics",
                "page_count": "3",
                "pub_status": "PROPOSED STANDARD",
                "obsoletes": ["RFC2616"],
            }
        ),
    )
    document = PlainTextReader().read(path, "rfc7231.txt")
    assert document.cite_as == "RFC 7231"
    assert document.title == "HTTP/1.1 Semantics"
    assert document.metadata["obsoletes"] == ["RFC2616"]
    assert len(document.pages) == 3
    assert document.notes == ("page 3 has the footer [Page 4]",)
    second = [b for b in document.blocks if b.page == 2]
    body = "".join(document.text[b.start : b.end] for b in second)
    assert "The GET method requests transfer" in body
    assert "[Page 2]" not in body and "June 2014" not in body
    assert second[0].section is not None and second[0].section.anchor == "section-4.3.1"
    page_two = document.text[document.pages[1][0] : document.pages[1][1]]
    assert "[Page 2]" in page_two  # the page itself is shown as published


def test_real_rfc_page_count_matches_its_metadata() -> None:
    document = PlainTextReader().read(SHARED / "guidance/rfc/rfc7231.txt", "rfc7231.txt")
    assert len(document.pages) == 101
    assert document.notes == ()
    old = PlainTextReader().read(SHARED / "guidance/rfc/rfc768.txt", "rfc768.txt")
    assert old.cite_as == "RFC 768"
    assert old.notes and "no [Page N] footer" in old.notes[0]


def test_text_without_form_feeds_has_no_pages(tmp_path: Path) -> None:
    document = PlainTextReader().read(_write(tmp_path, "notes.txt", "One.\n\nTwo.\n"), "notes.txt")
    assert document.pages == ()
    assert all(b.page is None for b in document.blocks)
    assert document.cite_as == "notes"


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary content"),
        ("Caf\u00e9 cr\u00e8me".encode("latin-1"), "not UTF-8"),
    ],
)
def test_binary_and_wrongly_encoded_text_is_refused(
    tmp_path: Path, data: bytes, reason: str
) -> None:
    path = _write(tmp_path, "bad.md", data)
    with pytest.raises(UnreadableFileError, match=reason):
        MarkdownReader(None).read(path, "bad.md", "kb:bad.md")


# --- HTML ----------------------------------------------------------------------------------------


def test_html_main_text_headings_and_anchors(tmp_path: Path) -> None:
    page = _write(
        tmp_path,
        "page.html",
        "<!doctype html><html><head><title>Cookies</title><script>x()</script></head><body>"
        "<nav>Home | About</nav><main><h1 id='cookies'>HTTP State Management</h1>"
        "<p>Cookies carry <b>state</b> between requests.</p>"
        "<a name='set-cookie'></a><h2>The Set-Cookie Header</h2><p>Servers send it.</p>"
        "<table><tr><td>Name</td><td>Value</td></tr></table></main><footer>(c)</footer></body></html>",
    )
    document = HtmlReader().read(page, "page.html", "kb:page.html")
    assert document.title == "HTTP State Management"
    assert [(s.anchor, s.aliases) for s in document.sections] == [
        ("cookies", ()),
        ("the-set-cookie-header", ("set-cookie",)),
    ]
    assert "Cookies carry state between requests." in document.text
    assert "Name | Value" in document.text
    assert "Home" not in document.text and "x()" not in document.text and "(c)" not in document.text


# --- PDF --------------------------------------------------------------------------------------------

FINANCE = SHARED / "pdf" / "financebench-dev"


def test_pdf_pages_are_one_based_and_hold_the_evidence() -> None:
    question = json.loads((FINANCE / "questions.jsonl").read_text().splitlines()[0])
    evidence = question["evidence"][0]
    document = PdfReader().read(FINANCE / f"{evidence['doc_name']}.pdf", "x.pdf")
    page = evidence["evidence_page_num"] + 1
    start, end = document.pages[page - 1]
    words = " ".join(evidence["evidence_text"].split()[:6]).casefold()
    assert words.split()[0] in document.text[start:end].casefold()
    assert all(b.page is not None and b.page >= 1 for b in document.blocks)
    assert document.text.count("\f") == len(document.pages) - 1


def test_encrypted_truncated_and_textless_pdfs_are_refused(tmp_path: Path) -> None:
    pypdf = pytest.importorskip("pypdf")
    source = FINANCE / "JOHNSON_JOHNSON_2023_8K_dated-2023-08-30.pdf"
    writer = pypdf.PdfWriter(clone_from=str(source))
    writer.encrypt("secret")
    buffer = io.BytesIO()
    writer.write(buffer)
    encrypted = _write(tmp_path, "enc.pdf", buffer.getvalue())
    with pytest.raises(UnreadableFileError, match="encrypted PDF"):
        PdfReader().read(encrypted, "enc.pdf")
    data = source.read_bytes()
    truncated = _write(tmp_path, "cut.pdf", data[: len(data) // 3])
    with pytest.raises(UnreadableFileError, match="unreadable PDF"):
        PdfReader().read(truncated, "cut.pdf")
    blank = pypdf.PdfWriter()
    blank.add_blank_page(200, 200)
    buffer = io.BytesIO()
    blank.write(buffer)
    scanned = _write(tmp_path, "scan.pdf", buffer.getvalue())
    with pytest.raises(UnreadableFileError, match="no text layer"):
        PdfReader().read(scanned, "scan.pdf")


# --- records ------------------------------------------------------------------------------------------

KEV_RECORDS = {
    "title": "CISA Catalog of Known Exploited Vulnerabilities",
    "vulnerabilities": [
        {
            "cveID": "CVE-2025-48384",
            "vendorProject": "Git",
            "product": "Git",
            "vulnerabilityName": "Git Link Following Vulnerability",
            "dateAdded": "2025-08-25",
            "shortDescription": "Git contains a link following vulnerability.",
            "requiredAction": "Apply mitigations per vendor instructions.",
            "dueDate": "2025-09-15",
            "knownRansomwareCampaignUse": "Unknown",
            "notes": "https://github.com/git/git/security/advisories/GHSA-vwqx-4fm8-6qc9 ; https://nvd.nist.gov/vuln/detail/CVE-2025-48384",
            "cwes": ["CWE-59", "CWE-436"],
        },
        {"vendorProject": "Nobody", "product": "Nothing", "vulnerabilityName": "No id"},
        {
            "cveID": "CVE-2025-0001",
            "vendorProject": "Citrix",
            "product": "NetScaler",
            "vulnerabilityName": "Memory Overflow",
            "dateAdded": "2025-01-02",
            "shortDescription": "An overflow.",
            "requiredAction": "Patch.",
            "dueDate": "2025-01-23",
            "knownRansomwareCampaignUse": "Known",
            "notes": "",
            "cwes": [],
        },
    ],
}


def test_kev_mapping_shapes_records(tmp_path: Path) -> None:
    path = _write(tmp_path, "known_exploited_vulnerabilities.json", json.dumps(KEV_RECORDS))
    mapping, _ = load_mapping("cisa-kev")
    items = list(RecordsReader(mapping).read(path))
    documents = [i for i in items if isinstance(i, ExtractedDocument)]
    skipped = [i for i in items if isinstance(i, SkippedFile)]
    assert [d.cite_as for d in documents] == ["CVE-2025-48384", "CVE-2025-0001"]
    assert skipped == [
        SkippedFile("known_exploited_vulnerabilities.json record 2", "no id (`cveID` is empty)")
    ]
    git = documents[0]
    assert git.title == "CVE-2025-48384: Git Link Following Vulnerability"
    assert git.metadata["cwe"] == ["CWE-59", "CWE-436"]
    assert git.metadata["date_added"] == "2025-08-25"
    assert git.metadata["references"] == [
        "https://github.com/git/git/security/advisories/GHSA-vwqx-4fm8-6qc9",
        "https://nvd.nist.gov/vuln/detail/CVE-2025-48384",
    ]
    assert "Weaknesses: CWE-59, CWE-436." in git.text
    assert "Weaknesses" not in documents[1].text  # a line whose fields are empty is left out
    assert git.metadata["source_type"] == "kev"  # the mapping's constant
    assert {f.name for f in mapping.filter_fields()} == {
        "source_type",
        "vendor",
        "product",
        "ransomware",
        "cwe",
        "date_added",
        "due_date",
    }


def test_a_mapping_naming_a_missing_field_is_an_error(tmp_path: Path) -> None:
    path = _write(tmp_path, "rows.jsonl", '{"id": "a", "body": "x"}\n{"id": "b", "body": "y"}\n')
    mapping = parse_mapping("id: id\ntitle: '{id}'\ntext: '{bdoy}'\n")
    with pytest.raises(MappingError, match="no record has: bdoy"):
        list(RecordsReader(mapping).read(path))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("title: x\ntext: y\n", "name the record id"),
        ("id: a\ntitle: x\n", "text: Field required"),
        ("id: a\ntitle: x\ntext: y\ncolour: red\n", "colour: Extra inputs"),
        ("- a\n- b\n", "expected a mapping"),
    ],
)
def test_malformed_mappings_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(MappingError, match=message):
        parse_mapping(text)


def test_csv_and_gzipped_jsonl_records(tmp_path: Path) -> None:
    csv_path = _write(tmp_path, "rows.csv", "code,name,score\nA1,Alpha,7.5\nB2,Beta,3\n")
    mapping = parse_mapping(
        "id: code\ntitle: '{name}'\ntext: '{name} scores {score}.'\n"
        "filters:\n  score: {field: score, type: number}\n"
    )
    documents = list(RecordsReader(mapping).read(csv_path))
    assert [d.text for d in documents if isinstance(d, ExtractedDocument)] == [
        "Alpha scores 7.5.",
        "Beta scores 3.",
    ]
    gz = tmp_path / "rows.jsonl.gz"
    gz.write_bytes(gzip.compress(b'{"code": "C3", "name": "Gamma", "score": 1}\n'))
    (only,) = list(RecordsReader(mapping).read(gz))
    assert isinstance(only, ExtractedDocument) and only.metadata["score"] == 1


def test_attack_mapping_skips_revoked_and_joins_mitigations_and_groups() -> None:
    mapping, _ = load_mapping("mitre-attack")
    folder = SHARED / "threat" / "mitre-attack"
    items = list(RecordsReader(mapping).read(folder))
    documents = {i.cite_as: i for i in items if isinstance(i, ExtractedDocument)}
    skipped = [i for i in items if isinstance(i, SkippedFile)]
    assert skipped and all("skipped by the mapping" in s.reason for s in skipped)
    assert len(documents) + len(skipped) == 835
    account = documents["T1136.002"]
    assert account.title == "T1136.002: Domain Account"
    assert "persistence" in account.metadata["tactic"]  # type: ignore[operator]
    assert account.metadata["mitigations"], "mitigations joined from relationships"
    assert "Mitigations:" in account.text
    assert any(d.metadata["groups"] for d in documents.values())


def test_clapnq_mapping_deduplicates_passages() -> None:
    mapping, _ = load_mapping("clapnq")
    items = list(RecordsReader(mapping).read(SHARED / "qa" / "clapnq-dev"))
    documents = [i for i in items if isinstance(i, ExtractedDocument)]
    assert len(documents) == 596  # distinct title and text; the README says 592
    assert all(isinstance(i, ExtractedDocument) or "duplicate id" in i.reason for i in items)


# --- splitting, folders, uploads ------------------------------------------------------------------------


def test_splitter_keeps_offsets_and_fits_the_window() -> None:
    text = (SHARED / "guidance/rfc/rfc7231.txt").read_text(encoding="utf-8").split("\f")[20]
    splitter = LangChainPassageSplitter(max_tokens=120)
    spans = splitter.split(text)
    assert len(spans) > 1
    for start, end in spans:
        piece = text[start:end]
        assert piece == piece.strip() and piece
        assert splitter._count(piece) <= 120
    assert [s for s, _ in spans] == sorted(s for s, _ in spans)
    covered = "".join(text[a:b] for a, b in spans)
    assert "".join(covered.split()) == "".join(text.split())


def test_folder_reading_skips_and_names_bad_files(tmp_path: Path) -> None:
    _write(tmp_path, "good.md", "# Good\n\nReadable text.\n")
    _write(tmp_path, "binary.md", b"\x00\x01\x02\x03" * 50)
    _write(tmp_path, "latin.txt", "Caf\u00e9".encode("latin-1"))
    _write(tmp_path, "code.py", "print(1)\n")
    _write(tmp_path, "data.json", "{}")
    _write(tmp_path, "sniffed.bin", b"%PDF-1.4 not really a pdf")
    batch = FileDocumentSource().read(tmp_path, "kb")
    items = list(batch.items)
    assert [i.uri for i in items if isinstance(i, ExtractedDocument)] == ["good.md"]
    reasons = {i.path: i.reason for i in items if isinstance(i, SkippedFile)}
    assert reasons["binary.md"].startswith("binary content")
    assert reasons["latin.txt"].startswith("not UTF-8")
    assert reasons["sniffed.bin"].startswith("unreadable PDF")
    assert reasons["*.py (1 files)"] == "not a document type"
    assert reasons["*.json (1 files)"] == "not a document type (records: pass --mapping)"


def test_missing_path_and_unknown_format_are_errors(tmp_path: Path) -> None:
    with pytest.raises(CollectionInputError, match="does not exist"):
        FileDocumentSource().read(tmp_path / "nope", "kb")
    with pytest.raises(CollectionInputError, match="unknown format"):
        FileDocumentSource().read(tmp_path, "kb", format="docx")
    with pytest.raises(CollectionInputError, match="records need a mapping"):
        FileDocumentSource().read(tmp_path, "kb", format="records")


@pytest.mark.parametrize(
    "name", ["../x.md", "a/b.md", "..", ".hidden.md", "a\\b.md", "x\x00.md", "", "x" * 300]
)
def test_upload_names_with_paths_are_refused(name: str) -> None:
    with pytest.raises(UploadRejectedError, match="invalid file name"):
        checked_name(name)


def test_upload_types_come_from_the_bytes() -> None:
    assert kind_of("report.md", b"%PDF-1.7\n...") == "pdf"
    assert kind_of("page.txt", b"<!DOCTYPE html><html></html>") == "html"
    assert kind_of("notes.md", b"# Notes\n") == "markdown"
    assert kind_of("notes.bin", b"plain words\n") == "text"
    with pytest.raises(UploadRejectedError, match="unsupported upload"):
        kind_of("image.md", b"\x89PNG\r\n\x1a\n\x00\x00")
