"""A guideline of the user's own, end to end: a clinical guideline PDF (a small NG12-like
one generated here) added as a collection, a profile for it in LECTERN_GUIDE_PROFILES, and
the guideline chat answering from it with page citations, refusing outside it.

The steps are the ones docs/guidelines.md tells a user to take.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from lectern.bootstrap import bootstrap
from lectern.entrypoints.http.app import create_app
from lectern.settings import Settings
from tests.collection_wiring import collection_service

pytestmark = pytest.mark.slow

PAGES = [
    [
        "Suspected cancer: recognition and referral",
        "This guideline covers identifying children, young people and adults with symptoms",
        "that could be caused by cancer. It outlines appropriate investigations in primary care.",
    ],
    [
        "1.3 Lower gastrointestinal tract cancers",
        "Colorectal cancer",
        "Refer adults using a suspected cancer pathway referral for colorectal cancer if they",
        "are aged 40 and over with unexplained weight loss and abdominal pain.",
        "Refer adults aged 60 and over with iron-deficiency anaemia or changes in their bowel",
        "habit using a suspected cancer pathway referral for colorectal cancer.",
    ],
    [
        "1.4 Breast cancer",
        "Refer people using a suspected cancer pathway referral for breast cancer if they are",
        "aged 30 and over and have an unexplained breast lump with or without pain.",
    ],
]
PROFILES = """\
profiles:
  - name: ng12
    collection: ng12
    title: NICE NG12 Suspected cancer, recognition and referral
    role: >-
      You are a clinical guideline assistant. You answer questions about NICE guideline NG12
      on recognising suspected cancer and referring people for investigation.
    scope: >-
      The symptoms, ages and findings for which NG12 recommends a suspected cancer pathway
      referral or an investigation in primary care. Nothing else: no diagnosis, no treatment.
    refusal: >-
      I cannot answer that from NICE NG12: the passages I found do not say it.
    citation: page
    short_names:
      - {pattern: "*", name: NICE NG12}
    examples:
      - When should an adult with weight loss and abdominal pain be referred?
"""
REFUSAL = "I cannot answer that from NICE NG12: the passages I found do not say it."


def text_pdf(pages: list[list[str]]) -> bytes:
    """A PDF with a text layer: one page per list of lines (Helvetica, no dependencies)."""
    objects: list[bytes] = [b"<< /Type /Catalog /Pages 2 0 R >>", b""]
    kids = []
    font_id = 3
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    for lines in pages:
        stream = (
            b"BT /F1 11 Tf 14 TL 56 780 Td "
            + b" ".join(
                b"("
                + line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)").encode()
                + b") Tj T*"
                for line in lines
            )
            + b" ET"
        )
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
        content_id = len(objects)
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents %d 0 R "
            b"/Resources << /Font << /F1 %d 0 R >> >> >>" % (content_id, font_id)
        )
        kids.append(len(objects))
    objects[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (
        b" ".join(b"%d 0 R" % k for k in kids),
        len(kids),
    )
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def test_a_clinical_guideline_pdf_becomes_a_profile_with_page_citations(tmp_path: Path) -> None:
    folder = tmp_path / "ng12"
    folder.mkdir()
    (folder / "ng12.pdf").write_bytes(text_pdf(PAGES))
    service = collection_service(tmp_path / "var")
    service.add("ng12", folder)  # `lectern collections add ng12 ./ng12`
    profiles = tmp_path / "profiles.yaml"
    profiles.write_text(PROFILES, encoding="utf-8")
    settings = Settings(
        data_dir=tmp_path / "var",
        guide_profiles=profiles,
        guide_default_profile="ng12",
        guide_min_similarity=0.05,  # the test collection's hashed vectors: low cosines
    )
    app = create_app(bootstrap(settings, collections=service), load_indexes=False)
    with TestClient(app) as client:
        listed = {p["name"]: p for p in client.get("/chat/profiles").json()}
        assert set(listed) == {"ng12"} and listed["ng12"]["available"]
        body = client.post(
            "/chat",
            json={
                "message": "When should an adult aged 40 and over with unexplained weight loss "
                "and abdominal pain be referred for colorectal cancer?"
            },
        ).json()
        assert "[NICE NG12 p.2]" in body["answer"], body
        assert "aged 40 and over" in body["answer"]
        [citation] = body["citations"]
        assert citation["page"] == 2 and citation["collection"] == "ng12"
        assert body["grounding_flags"] == []
        off = client.post("/chat", json={"message": "What is the capital of France?"}).json()
        assert off["answer"] == REFUSAL and off["citations"] == []


def test_lectern_guide_ask_prints_the_cited_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import structlog
    from typer.testing import CliRunner

    from lectern.entrypoints.cli import guide
    from lectern.entrypoints.cli.main import app

    folder = tmp_path / "ng12"
    folder.mkdir()
    (folder / "ng12.pdf").write_bytes(text_pdf(PAGES))
    service = collection_service(tmp_path / "var")
    service.add("ng12", folder)
    profiles = tmp_path / "profiles.yaml"
    profiles.write_text(PROFILES, encoding="utf-8")
    settings = Settings(
        data_dir=tmp_path / "var",
        guide_profiles=profiles,
        guide_default_profile="ng12",
        guide_min_similarity=0.05,
    )
    monkeypatch.setattr(guide, "_services", lambda: bootstrap(settings, collections=service))
    monkeypatch.setenv("COLUMNS", "200")
    saved = structlog.get_config()
    try:
        result = CliRunner().invoke(
            app,
            [
                "guide",
                "ask",
                "When should an adult aged 40 and over with unexplained weight loss and "
                "abdominal pain be referred for colorectal cancer?",
            ],
        )
    finally:
        structlog.configure(**saved)
    assert result.exit_code == 0, result.output
    assert "aged 40 and over" in result.output and "[NICE NG12 p.2]" in result.output
