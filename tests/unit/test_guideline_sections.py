"""A retrieved section is read whole: its other passages join the one the search found.

NIST cuts §5.1.3.2 "Out-of-Band Verifiers" into passages; the one stating "In all cases, the
authentication SHALL be considered invalid if not completed within 10 minutes" names neither
the push notification nor the phone its section's first passage does, so the search finds the
first and not it. `SearchGuidelines` adds the section's other passages (`read_with`); the
policy reads such a passage with its section's words, and measures a word's rarity only among
what the search found, so answers the found passages gave stay as they were. Passages are
the real NIST SP 800-63B paragraphs (read from the shared data); no embedder.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime

from lectern.adapters.llm.guideline_policy import GuidelineRulePolicy
from lectern.adapters.llm.guideline_sentences import said_as_of, sentences_of
from lectern.application.assistant.guideline_search import (
    SearchGuidelines,
    SearchGuidelinesInput,
)
from lectern.application.collections import DocumentView
from lectern.domain.assistant import Message
from lectern.domain.documents import label_of
from tests.collection_wiring import SHARED
from tests.fakes import FakeEmbedder
from tests.guideline_world import FakeGuidelineSearch
from tests.unit.test_guideline_circumstances import LOOKUP, SALT, SESSION

NIST = SHARED / "guidance/nist-sp800-63-3"
SECTION_5 = NIST / "sp800-63b/sec5_authenticators.md"
REFUSED = "I cannot answer that from these documents."
OOB = "[NIST SP 800-63B §5.1.3.2]"
OOB_SECTION = "5.1.3.2 Out-of-Band Verifiers"


def _paragraph(holding: str) -> str:
    lines = SECTION_5.read_text(encoding="utf-8").splitlines()
    return next(line for line in lines if holding in line).strip().lstrip("- ")


PUSH = _paragraph("the verifier MAY send a push notification")
TEN_MINUTES = _paragraph("SHALL be considered invalid if not completed within 10 minutes")


def _results(*passages: tuple[str, str, str, bool]) -> list[Message]:
    shown = [
        {
            "label": label,
            "text": text,
            "section": section,
            "document": "SP 800-63B",
            **({"read_with": True} if read_with else {}),
        }
        for label, text, section, read_with in passages
    ]
    data = {"passages": shown, "terms": {"password": "memorized secret"}}
    return [Message(role="tool", content=json.dumps(data))]


def _ask(question: str, *passages: tuple[str, str, str, bool]) -> str:
    # An embedder close to nothing: words no passage uses are circumstances, as with MiniLM.
    policy = GuidelineRulePolicy(embedder=FakeEmbedder(["unrelated"]))
    return policy.answer(question, _results(*passages), REFUSED)


SECTION_READ = ((OOB, PUSH, OOB_SECTION, False), (OOB, TEN_MINUTES, OOB_SECTION, True))


def test_a_passage_read_with_its_section_answers_in_the_sections_words() -> None:
    for question in (
        # dev20's, then phrasings of our own
        "QA question: after we push a login approval / send the code to the phone, how long "
        "may the verifier wait before treating the authentication as invalid?",
        "how long may an out-of-band verifier wait before the authentication is invalid?",
        "how long can the verifier keep waiting on the push before the authentication is invalid?",
        "after the verifier sends a push to the phone, how long until the authentication counts "
        "as invalid?",
        "the app gets a push from the verifier; how many minutes until an uncompleted "
        "authentication is invalid?",
        "with push on a smart phone, how long may the authentication stay uncompleted before the "
        "verifier treats it as invalid?",
    ):
        answer = _ask(question, *SECTION_READ)
        assert "within 10 minutes" in answer and OOB in answer, question


def test_a_section_read_whole_does_not_answer_what_it_does_not_say() -> None:
    for question in (
        "how many bits of entropy must the push notification carry?",
        "how much randomness does the push notification need, in bits?",
    ):
        assert _ask(question, *SECTION_READ) == REFUSED, question


def test_only_a_passage_read_with_its_section_takes_the_sections_words() -> None:
    results = _results(*SECTION_READ)
    found = sentences_of(results, said_as_of(results))
    push = next(s for s in found if "push notification" in s.text)
    ten = next(s for s in found if "10 minutes" in s.text)
    assert "push" in ten.passage_words and ten.read_with
    assert "minutes" not in push.passage_words and not push.read_with


def test_a_joined_passage_does_not_change_what_the_found_ones_answer() -> None:
    # A question the found passages answer keeps its answer when another section's rest joins
    # (rarity is read among the found sentences only).
    question = "how much entropy does a session cookie value need"
    before = _ask(question, (*SESSION, False), (*LOOKUP, False))
    after = _ask(
        question, (*SESSION, False), (*LOOKUP, False), (LOOKUP[0], SALT[1], LOOKUP[2], True)
    )
    assert "64 bits of entropy" in before and after == before


@dataclass
class _SectionedSearch(FakeGuidelineSearch):
    """The fake collection, able to show a document's passages as the collection service does."""

    def document(self, name: str, doc_id: str) -> DocumentView:
        pairs = [(d, p) for d, p in self.collections[name] if d.id == doc_id]
        document = pairs[0][0]
        return DocumentView(
            document,
            tuple((p, label_of(document.cite_as, p.page, p.anchor)) for _, p in pairs),
        )


def _search(search: FakeGuidelineSearch) -> list[dict[str, object]]:
    from lectern.adapters.guidance.profiles import load_profiles
    from lectern.application.assistant.tools import ToolContext

    profile = next(p for p in load_profiles() if p.name == "nist")
    search.add(
        profile.collection,
        "sp800-63b.md",
        "SP 800-63B",
        "NIST SP 800-63B",
        [
            (OOB_SECTION, "sec5132", PUSH, None),
            (
                OOB_SECTION,
                "sec5132",
                "Depending on the type of out-of-band authenticator, one "
                "of the following SHALL take place: transfer of secret to primary channel.",
                None,
            ),
            (OOB_SECTION, "sec5132", TEN_MINUTES, None),
            ("5.1.3.3 Authentication using the PSTN", "sec5133", _paragraph("RESTRICTED"), None),
        ],
    )
    tool = SearchGuidelines(search, profile, min_similarity=0.0, min_share=0.0)
    output = tool.run(
        SearchGuidelinesInput(query="push notification smart phone verifier"),
        ToolContext(user="u", conversation="c", now=datetime(2026, 11, 28, tzinfo=UTC)),
    )
    data = output.data
    assert isinstance(data, dict) and isinstance(data["passages"], list)
    return [p for p in data["passages"] if isinstance(p, dict)]


def test_the_search_tool_adds_the_rest_of_a_found_section() -> None:
    shown = _search(_SectionedSearch())
    joined = [p for p in shown if p.get("read_with")]
    assert any("within 10 minutes" in str(p["text"]) for p in joined)
    assert all(p["section"] == OOB_SECTION for p in joined)
    assert not any("within 10 minutes" in str(p["text"]) for p in shown if not p.get("read_with"))


def test_without_a_section_reader_nothing_joins() -> None:
    shown = _search(FakeGuidelineSearch())
    assert not any(p.get("read_with") for p in shown)


ENTROPY = _paragraph("The verifier SHALL generate random authentication secrets with at least 20")


def test_a_passage_read_with_its_section_answers_only_with_the_number_asked() -> None:
    # The reviewer's: "how long" asks for a duration; the rest of the section states bits of
    # entropy, a number of another kind, so it does not answer in the section's words.
    passages = ((OOB, PUSH, OOB_SECTION, False), (OOB, ENTROPY, OOB_SECTION, True))
    for question in (
        "how long should the out-of-band secret be kept on the device?",
        "how long is the out-of-band code retained on the phone?",
        "for how long is the push secret kept on the device?",
    ):
        answer = _ask(question, *passages)
        assert "64 bits" not in answer and "20 bits" not in answer, (question, answer)
    # near-misses: a number of the kind asked still answers in the section's words
    both = (*passages, (OOB, TEN_MINUTES, OOB_SECTION, True))
    answer = _ask("how long may an out-of-band verifier wait before it is invalid?", *both)
    assert "within 10 minutes" in answer, answer
