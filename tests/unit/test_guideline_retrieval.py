"""What `search_guidelines` returns: everyday names searched as the documents' terms, the
document a question names, superseded RFCs giving way, and pages that state nothing skipped.

Real RFC and NIST wording over the word-overlap fake search of `tests/guideline_world.py`.
"""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

from lectern.adapters.guidance.profiles import load_profiles, load_vocabulary
from lectern.adapters.llm.guideline_policy import GuidelineRulePolicy
from lectern.application.assistant.guideline_search import (
    SearchGuidelines,
    SearchGuidelinesInput,
    states_nothing,
)
from lectern.application.assistant.tools import ToolContext
from lectern.domain.aliases import named_in
from lectern.domain.assistant import Message
from lectern.domain.guidance import GuideProfile
from lectern.errors import ConfigurationError
from tests.collection_wiring import SHARED
from tests.guideline_world import FakeGuidelineSearch, guidance_search

RFC_DIR = SHARED / "guidance/rfc"
CONTEXT = ToolContext("u", "c", datetime(2026, 11, 1, tzinfo=UTC))
REFUSED = "I cannot answer that from these documents."

ALLOW_7231 = (
    "An origin server MUST generate an Allow field in a 405 (Method Not Allowed) response and "
    "MAY do so in any other response."
)
ALLOW_2616 = (
    "The Allow entity-header field lists the set of methods supported by the resource "
    "identified by the Request-URI. An Allow header field MUST be present in a 405 (Method "
    "Not Allowed) response."
)
CONTENTS = (
    "Table of Contents\n\n   1. Introduction ......................................2\n"
    "      1.1. Notational Conventions .....................................3\n"
    "      1.2. Terminology ................................................3\n"
    "   2. Authenticated Requests ..........................................4"
)
REFERENCES = (
    "9.2.  Informative References\n\n"
    '   [RFC3339]  Klyne, G. and C. Newman, "Date and Time on the Internet:\n'
    '              Timestamps", RFC 3339, July 2002.\n\n'
    '   [RFC7159]  Bray, T., Ed., "The JavaScript Object Notation (JSON) Data\n'
    '              Interchange Format", RFC 7159, March 2014.'
)


def _rfc3339_page_8() -> str:
    text = (RFC_DIR / "rfc3339.txt").read_text(encoding="utf-8")
    start = text.index("      This date/time format may be used in some environments")
    return text[start : text.index("upper case letters.", start) + len("upper case letters.")]


def _rfc_profile() -> GuideProfile:
    return next(p for p in load_profiles() if p.name == "rfc")


def _nist_profile() -> GuideProfile:
    return next(p for p in load_profiles() if p.name == "nist")


def _run(search: FakeGuidelineSearch, profile: GuideProfile, question: str) -> list[str]:
    tool = SearchGuidelines(search, profile, min_similarity=0.0, min_share=0.0)
    output = tool.run(SearchGuidelinesInput(query=question), CONTEXT)
    passages = output.data["passages"]
    assert isinstance(passages, list)
    return [str(p["label"]) for p in passages if isinstance(p, dict)]


def _http_rfcs() -> FakeGuidelineSearch:
    search = FakeGuidelineSearch()
    search.add(
        "rfc",
        "rfc2616.txt",
        "Hypertext Transfer Protocol -- HTTP/1.1",
        "RFC 2616",
        [(None, None, ALLOW_2616, 106)],
        metadata={"doc_id": "RFC2616", "obsoleted_by": ["RFC7230", "RFC7231"]},
    )
    search.add(
        "rfc",
        "rfc7231.txt",
        "Hypertext Transfer Protocol (HTTP/1.1): Semantics and Content",
        "RFC 7231",
        [(None, None, ALLOW_7231, 72)],
        metadata={"doc_id": "RFC7231", "obsoleted_by": [], "obsoletes": ["RFC2616"]},
    )
    return search


def test_the_vocabulary_gives_the_documents_terms_their_everyday_names() -> None:
    nist = dict(_nist_profile().vocabulary)
    assert nist["backup code"] == "look-up secret"
    assert nist["sms"] == "pstn"
    assert nist["lowest assurance level"] == "aal1"
    assert nist["re-login"] == "reauthentication"


def test_an_entry_without_its_source_in_the_document_does_not_load(tmp_path: Path) -> None:
    path = tmp_path / "vocabulary.yaml"
    path.write_text("vocabulary:\n  nist:\n    - {term: look-up secret, names: [backup code]}\n")
    with pytest.raises(ConfigurationError, match="source"):
        load_vocabulary(path)


def test_a_name_with_a_gap_is_a_verb_and_its_object() -> None:
    table = {"text … code": "out-of-band", "2fa": "multi-factor"}
    assert named_in("we text people a one time code as a second factor", table) == {
        "text … code": "out-of-band"
    }
    assert named_in("text the codes", table) == {"text … code": "out-of-band"}
    assert named_in("text about the weather, the pollen and the code", table) == {}
    assert named_in("is sms still permitted for 2fa?", table) == {"2fa": "multi-factor"}


def test_a_question_in_everyday_names_searches_the_documents_terms() -> None:
    search = guidance_search()
    profile = _nist_profile()
    tool = SearchGuidelines(search, profile, min_similarity=0.0, min_share=0.0)
    output = tool.run(
        SearchGuidelinesInput(query="printed backup codes: minimum entropy?"), CONTEXT
    )
    assert output.data["terms"] == {"backup code": "look-up secret"}
    assert search.queries[-1][1].endswith("look-up secret")
    gapped = tool.run(
        SearchGuidelinesInput(query="we text people a code, valid how long?"), CONTEXT
    )
    assert gapped.data["terms"] == {"text code": "out-of-band"}


def test_a_superseded_rfc_gives_way_to_the_one_that_obsoletes_it() -> None:
    labels = _run(_http_rfcs(), _rfc_profile(), "which header must a 405 method response include?")
    assert labels == ["[RFC 7231 p.72]"]


def test_a_superseded_rfc_the_question_names_stays() -> None:
    labels = _run(
        _http_rfcs(), _rfc_profile(), "in RFC 2616, which header must a 405 response include?"
    )
    assert "[RFC 2616 p.106]" in labels


def test_a_superseded_rfc_alone_still_answers() -> None:
    search = _http_rfcs()
    search.collections["rfc"] = [d for d in search.collections["rfc"] if d[0].uri == "rfc2616.txt"]
    labels = _run(search, _rfc_profile(), "which header must a 405 method response include?")
    assert labels == ["[RFC 2616 p.106]"]


def test_a_question_that_names_an_rfc_is_answered_from_it_not_from_pages_citing_it() -> None:
    search = FakeGuidelineSearch()
    search.add(
        "rfc",
        "rfc3339.txt",
        "Date and Time on the Internet: Timestamps",
        "RFC 3339",
        [(None, None, _rfc3339_page_8(), 8)],
        metadata={"doc_id": "RFC3339"},
    )
    search.add(
        "rfc",
        "rfc7519.txt",
        "JSON Web Token (JWT)",
        "RFC 7519",
        [(None, None, "NumericDate values and RFC 3339 date time timestamps in JWT.", 24)],
        metadata={"doc_id": "RFC7519"},
    )
    question = "in an rfc 3339 timestamp can the T and Z be written lowercase?"
    assert _run(search, _rfc_profile(), question) == ["[RFC 3339 p.8]"]


def test_contents_and_reference_lists_state_nothing() -> None:
    assert states_nothing(CONTENTS)
    assert states_nothing(REFERENCES)
    assert states_nothing("Table of Contents")
    assert not states_nothing(ALLOW_7231)
    # A paragraph that cites a work among its sentences still states something.
    cited = (
        "Look-up secrets SHALL have at least 20 bits of entropy. CSPs SHALL use an approved\n"
        "random bit generator:\n[SP 800-90Ar1] Recommendation for Random Number Generation."
    )
    assert not states_nothing(cited)


def test_a_contents_page_takes_no_place_among_the_passages() -> None:
    search = _http_rfcs()
    search.add(
        "rfc",
        "rfc6750.txt",
        "Bearer Token Usage: header method response",
        "RFC 6750",
        [(None, None, CONTENTS + " header method response", 2)],
        metadata={"doc_id": "RFC6750"},
    )
    labels = _run(search, _rfc_profile(), "which header must a 405 method response include?")
    assert "[RFC 6750 p.2]" not in labels


def test_a_question_that_names_the_rfc_is_met_by_its_label() -> None:
    passage = {
        "label": "[RFC 3339 p.8]",
        "text": _rfc3339_page_8(),
        "section": None,
        "document": "Date and Time on the Internet: Timestamps",
    }
    results = [Message(role="tool", content=json.dumps({"passages": [passage]}))]
    question = "in an rfc 3339 timestamp can the T and Z be written lowercase?"
    answer = GuidelineRulePolicy().answer(question, results, REFUSED)
    assert answer.endswith("[RFC 3339 p.8]")
    assert "lower-case" in answer


def test_a_profile_without_a_vocabulary_entry_has_none() -> None:
    rfc = replace(_rfc_profile(), vocabulary=())
    assert _rfc_profile().vocabulary == rfc.vocabulary == ()
