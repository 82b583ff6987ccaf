"""The guideline policy reads what kind of quantity a question asks for (issue 26, item 3).

A sentence that states a number of the kind asked (bits for a strength, a count for a cap,
a unit for "in what unit"), about the thing asked, answers though the question's other words
are not its own; an acronym one passage defines reads the same in the others. Passages are
the real NIST SP 800-63B paragraphs and RFC pages (read from the shared data, never copied),
handed to the policy as `search_guidelines` returns them; no embedder.
"""

from __future__ import annotations

import json

from lectern.adapters.llm.guideline_policy import GuidelineRulePolicy
from lectern.domain.assistant import Message
from tests.collection_wiring import SHARED

SECTION_5 = SHARED / "guidance/nist-sp800-63-3/sp800-63b/sec5_authenticators.md"
RFC_6265 = SHARED / "guidance/rfc/rfc6265.txt"
REFUSED = "I cannot answer that from these documents."


def _line(holding: str) -> str:
    lines = SECTION_5.read_text(encoding="utf-8").splitlines()
    return next(line for line in lines if holding in line).lstrip("- ")


def _results(*passages: tuple[str, str, str]) -> list[Message]:
    shown = [
        {"label": label, "text": text, "section": section, "document": "SP 800-63B"}
        for label, text, section in passages
    ]
    return [Message(role="tool", content=json.dumps({"passages": shown}))]


def test_a_strength_is_met_by_bits_of_the_thing_asked_about() -> None:
    results = _results(
        ("[NIST SP 800-63B §5.1.1.2]", _line("using a salt value that is secret"), "Verifiers"),
        ("[NIST SP 800-63B §5.1.2.2]", _line("Verifiers SHALL store look-up secrets"), "Look-Up"),
    )
    answer = GuidelineRulePolicy().answer(
        "a pepper, that is a secret salt: strength?", results, REFUSED
    )
    assert "112 bits" in answer and "§5.1.1.2" in answer


def test_a_cap_asks_for_the_largest_count() -> None:
    results = _results(
        ("[NIST SP 800-63B §5.2.2]", _line("limit consecutive failed"), "Rate Limiting"),
    )
    answer = GuidelineRulePolicy().answer(
        "what's the cap on failed attempts for a single account?", results, REFUSED
    )
    assert "100" in answer


def test_in_what_unit_is_met_by_the_unit_named() -> None:
    text = RFC_6265.read_text(encoding="utf-8")
    start = text.index("4.1.2.2.  The Max-Age Attribute")
    page = text[start : start + 600]
    shown = [{"label": "[RFC 6265 p.11]", "text": page, "section": "4.1.2.2. Max-Age"}]
    results = [Message(role="tool", content=json.dumps({"passages": shown}))]
    answer = GuidelineRulePolicy().answer(
        "cookie Max-Age is counted in which unit?", results, REFUSED
    )
    assert "number of seconds" in answer


def test_an_acronym_defined_in_one_passage_reads_the_same_in_another() -> None:
    """§5.2.3 defines "False Match Rate (FMR)" in one paragraph and gives its bound, "an FMR
    ... of 1 in 1000", in another: the bound is about the false match rate too."""
    results = _results(
        ("[NIST SP 800-63B §5.2.3]", _line("The biometric False Match Rate (FMR)"), "Biometrics"),
        ("[NIST SP 800-63B §5.2.3]", _line("The biometric system SHALL operate"), "Biometrics"),
    )
    answer = GuidelineRulePolicy().answer(
        "what false match rate must biometric systems operate at?", results, REFUSED
    )
    assert "1 in 1000" in answer


def test_a_kind_of_quantity_alone_does_not_answer_another_subject() -> None:
    results = _results(
        ("[NIST SP 800-63B §5.1.1.2]", _line("using a salt value that is secret"), "Verifiers"),
    )
    answer = GuidelineRulePolicy().answer(
        "what battery strength must a hardware token's cell have?", results, REFUSED
    )
    assert answer == REFUSED


def _rfc_page(name: str, start: str, length: int) -> str:
    text = (SHARED / f"guidance/rfc/{name}").read_text(encoding="utf-8")
    index = text.index(start)
    return text[index : index + length]


def test_two_questions_in_one_get_a_quote_each() -> None:
    shown = [
        {
            "label": "[RFC 6585 p.3]",
            "text": _rfc_page("rfc6585.txt", "4.  429 Too Many Requests", 420),
            "section": "4. 429 Too Many Requests",
        },
        {
            "label": "[RFC 7231 p.69]",
            "text": _rfc_page("rfc7231.txt", "7.1.3.  Retry-After", 500),
            "section": "7.1.3. Retry-After",
        },
    ]
    results = [Message(role="tool", content=json.dumps({"passages": shown}))]
    answer = GuidelineRulePolicy().answer(
        "what is status 429 for, and may servers send Retry-After?", results, REFUSED
    )
    assert "The 429 status code indicates" in answer and "[RFC 6585 p.3]" in answer
    assert "Retry-After" in answer.split("\n")[1]
