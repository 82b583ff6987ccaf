"""The guideline policy quotes the sentence that answers what the question asks (issue 26, 3).

Passages are the real NIST SP 800-63B paragraphs (read from the shared data, never copied),
handed to the policy as one search result, as `search_guidelines` returns them.
"""

from __future__ import annotations

import json

import pytest

from lectern.adapters.llm.guideline_policy import GuidelineRulePolicy
from lectern.domain.assistant import Message
from tests.collection_wiring import SHARED

SECTION_5 = SHARED / "guidance/nist-sp800-63-3/sp800-63b/sec5_authenticators.md"
REFUSED = "I cannot answer that from these documents."


def _paragraph(start: str) -> str:
    lines = SECTION_5.read_text(encoding="utf-8").splitlines()
    return next(line for line in lines if line.startswith(start))


@pytest.fixture(scope="module")
def results() -> list[Message]:
    passages = [
        ("§5.1.1.2", "Memorized Secret Verifiers", "The salt SHALL be at least 32 bits"),
        ("§5.1.1.1", "Memorized Secret Authenticators", "Verifiers SHALL require subscriber"),
        ("§5.1.2.1", "Look-Up Secret Authenticators", "CSPs creating look-up secret"),
        # The look-up secret verifiers' paragraph: its salt rule sits among look-up words.
        ("§5.1.2.2", "Look-Up Secret Verifiers", "Verifiers SHALL store look-up secrets"),
    ]
    data = {
        "passages": [
            {
                "label": f"[NIST SP 800-63B {section}]",
                "text": _paragraph(start),
                "section": title,
                "document": "SP 800-63B",
            }
            for section, title, start in passages
        ]
    }
    return [Message(role="tool", content=json.dumps(data))]


def test_the_look_up_secret_question_does_not_quote_the_salt_rule(
    results: list[Message],
) -> None:
    answer = GuidelineRulePolicy().answer(
        "what's the minimum length for a look-up secret?", results, REFUSED
    )
    assert "Look-up secrets SHALL have at least 20 bits of entropy." in answer
    assert "salt" not in answer.casefold()


def test_the_maximum_a_verifier_must_allow_is_answered_not_refused(
    results: list[Message],
) -> None:
    answer = GuidelineRulePolicy().answer(
        "the maximum length a verifier must allow for memorized secrets", results, REFUSED
    )
    assert answer != REFUSED
    assert "at least 64 characters" in answer and "§5.1.1.1" in answer


def test_a_question_about_the_salt_still_gets_the_salt_rule(results: list[Message]) -> None:
    answer = GuidelineRulePolicy().answer("How long must a salt be?", results, REFUSED)
    assert "The salt SHALL be at least 32 bits in length" in answer


def test_a_number_that_belongs_to_something_else_is_not_the_answer(
    results: list[Message],
) -> None:
    """§5.1.2.2's "The salt value SHALL be at least 32 in bits in length ... for each look-up
    secret" names every word of the question, but its number is the salt's: the words before
    its SHALL name no look-up secret, and "length" is the kind of number asked for, which "20
    bits" is, not a word the answer must repeat."""
    answer = GuidelineRulePolicy().answer(
        "what's the minimum length for a look-up secret?", results, REFUSED
    )
    assert answer.startswith('"Look-up secrets SHALL have at least 20 bits of entropy."')
    assert "32" not in answer


def test_an_everyday_name_the_guidance_gives_meets_its_own_term() -> None:
    """The search tool says the guidance calls a password a memorized secret (`terms`, from
    its own "commonly referred to as"); a sentence on memorized secrets is then a sentence
    on passwords, and its "SHALL" holder is the thing asked about, not something else."""
    usability = (SHARED / "guidance/nist-sp800-63-3/sp800-63b/sec10_usability.md").read_text(
        encoding="utf-8"
    )
    allow = next(line for line in usability.splitlines() if "Allow at least 64" in line)
    passages = [
        ("[NIST SP 800-63B §10.2.1]", allow.strip(" *"), "Memorized Secrets"),
        ("[NIST SP 800-63B §5.1.1.1]", _paragraph("Memorized secrets SHALL be at least 8"), ""),
    ]
    shown = [
        {"label": lb, "text": t, "section": s, "document": "SP 800-63B"} for lb, t, s in passages
    ]
    data = {"passages": shown, "terms": {"password": "memorized secret"}}
    told = [Message(role="tool", content=json.dumps(data))]
    untold = [Message(role="tool", content=json.dumps({"passages": shown}))]
    answer = GuidelineRulePolicy().answer("min password length?", told, REFUSED)
    assert answer.startswith('"Memorized secrets SHALL be at least 8 characters')
    assert "§5.1.1.1" in GuidelineRulePolicy().answer("min password length?", told, REFUSED)
    assert "§5.1.1.1" not in GuidelineRulePolicy().answer("min password length?", untold, REFUSED)


def test_an_iteration_count_is_a_number_asked_for() -> None:
    lines = SECTION_5.read_text(encoding="utf-8").splitlines()
    pbkdf2 = next(line for line in lines if line.startswith("For PBKDF2, the cost factor"))
    data = {"passages": [{"label": "[NIST SP 800-63B §5.1.1.2]", "text": pbkdf2}]}
    told = [Message(role="tool", content=json.dumps(data))]
    assert "10,000 iterations" in GuidelineRulePolicy().answer(
        "pbkdf2 iteration count?", told, REFUSED
    )
