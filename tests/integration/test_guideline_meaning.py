"""The guideline policy with the packaged MiniLM answers what is said in other words (issue 26).

"how often do users have to log in again?" shares almost no word with "authentication of the
subscriber SHALL be repeated at least once per 12 hours": word coverage alone refuses it,
meaning finds it. Passages are the real NIST SP 800-63B paragraphs, read from the shared
data (never copied), handed to the policy as `search_guidelines` returns them.
"""

from __future__ import annotations

import json

import pytest

from lectern.adapters.embeddings.onnx_minilm import OnnxMiniLMEmbedder
from lectern.adapters.llm.guideline_policy import GuidelineRulePolicy
from lectern.domain.assistant import Message
from tests.collection_wiring import SHARED

SP800_63B = SHARED / "guidance/nist-sp800-63-3/sp800-63b"
REFUSED = "I cannot answer that from these documents."


def _paragraph(name: str, holding: str) -> str:
    lines = (SP800_63B / name).read_text(encoding="utf-8").splitlines()
    return next(line for line in lines if holding in line)


@pytest.fixture(scope="module")
def results() -> list[Message]:
    passages = [
        ("§4.2.3", "AAL2 Reauthentication", "sec4_aal.md", "At AAL2, authentication of"),
        ("§5.2.3", "Use of Biometrics", "sec5_authenticators.md", "The biometric system SHALL"),
        ("§5.1.1.2", "Memorized Secret Verifiers", "sec5_authenticators.md", "The salt SHALL"),
    ]
    data = {
        "passages": [
            {
                "label": f"[NIST SP 800-63B {section}]",
                "text": _paragraph(name, holding),
                "section": title,
                "document": "SP 800-63B",
            }
            for section, title, name, holding in passages
        ]
    }
    return [Message(role="tool", content=json.dumps(data))]


@pytest.fixture(scope="module")
def embedder() -> OnnxMiniLMEmbedder:
    return OnnxMiniLMEmbedder(threads=1)


QUESTION = "at AAL2 how often do users have to log in again?"


def test_words_alone_refuse_a_question_put_in_other_words(results: list[Message]) -> None:
    assert GuidelineRulePolicy().answer(QUESTION, results, REFUSED) == REFUSED


def test_meaning_answers_it_from_the_sentence_that_says_it(
    results: list[Message], embedder: OnnxMiniLMEmbedder
) -> None:
    answer = GuidelineRulePolicy(embedder=embedder).answer(QUESTION, results, REFUSED)
    assert "once per 12 hours" in answer and "[NIST SP 800-63B §4.2.3]" in answer


def test_meaning_does_not_answer_what_the_passages_do_not_say(
    results: list[Message], embedder: OnnxMiniLMEmbedder
) -> None:
    policy = GuidelineRulePolicy(embedder=embedder)
    assert policy.answer("which vendor's hardware token should we buy?", results, REFUSED) == (
        REFUSED
    )


IDLE = "AAL2: the idle limit?"


def test_a_word_the_guidance_never_uses_is_read_as_its_closest_word(
    results: list[Message], embedder: OnnxMiniLMEmbedder
) -> None:
    """NIST never says "idle"; it says "inactivity". Words alone refuse; with MiniLM the
    question's "idle" is read as the passage's "inactivity", and the inactivity limit (not the
    12-hour one that holds regardless of activity) is quoted."""
    assert GuidelineRulePolicy().answer(IDLE, results, REFUSED) == REFUSED
    answer = GuidelineRulePolicy(embedder=embedder).answer(IDLE, results, REFUSED)
    assert answer.startswith('"Reauthentication of the subscriber SHALL be repeated following')
    assert "30 minutes" in answer


def test_a_close_word_does_not_make_an_unrelated_question_answerable(
    results: list[Message], embedder: OnnxMiniLMEmbedder
) -> None:
    policy = GuidelineRulePolicy(embedder=embedder)
    assert policy.answer("how long is the AAL2 warranty on a laptop?", results, REFUSED) == (
        REFUSED
    )
