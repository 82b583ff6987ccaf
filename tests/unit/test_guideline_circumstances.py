"""Guideline questions wrapped in their circumstances answer what they ask (issue 26, item 3).

People write "is it ok if we let users ...", "the frontend team wants to keep ...", "when we
rebind a forgotten password using ... how many characters ...". The policy reads what is
asked (a rule, a kind of quantity, a count) and lets the words around it be circumstances;
a question the passages do not answer is still refused. Passages are the real NIST SP
800-63 paragraphs (read from the shared data, never copied); no embedder.
"""

from __future__ import annotations

import json
from pathlib import Path

from lectern.adapters.llm.guideline_policy import GuidelineRulePolicy
from lectern.adapters.understanding.permission import asks_permission
from lectern.adapters.understanding.quantity import wanted_dimensions
from lectern.domain.assistant import Message
from tests.collection_wiring import SHARED
from tests.fakes import FakeEmbedder

NIST = SHARED / "guidance/nist-sp800-63-3"
REFUSED = "I cannot answer that from these documents."


def _paragraph(path: Path, holding: str) -> str:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(line for line in lines if holding in line).strip().lstrip("- ")


def _session_list() -> str:
    text = (NIST / "sp800-63b/sec7_session.md").read_text(encoding="utf-8")
    start = text.index("Secrets used for session binding:")
    return text[start : text.index("7. SHALL time out", start)]


def _results(*passages: tuple[str, str, str]) -> list[Message]:
    shown = [
        {"label": label, "text": text, "section": section, "document": "SP 800-63"}
        for label, text, section in passages
    ]
    # As `search_guidelines` says it: the guidance calls a password a memorized secret.
    data = {"passages": shown, "terms": {"password": "memorized secret"}}
    return [Message(role="tool", content=json.dumps(data))]


def _ask(question: str, *passages: tuple[str, str, str]) -> str:
    return GuidelineRulePolicy().answer(question, _results(*passages), REFUSED)


SECTION_5 = NIST / "sp800-63b/sec5_authenticators.md"
HINTS = ("[NIST SP 800-63B §5.1.1.2]", _paragraph(SECTION_5, 'store a "hint"'), "Verifiers")
SESSION = ("[NIST SP 800-63B §7.1]", _session_list(), "Session Bindings")
LOOKUP = (
    "[NIST SP 800-63B §5.1.2.2]",
    _paragraph(SECTION_5, "Verifiers SHALL store look-up secrets"),
    "Look-Up Secret Verifiers",
)
SALT = (
    "[NIST SP 800-63B §5.1.1.2]",
    _paragraph(SECTION_5, "using a salt value that is secret"),
    "Memorized Secret Verifiers",
)
STRENGTH = (
    "[NIST SP 800-63B §A.2]",
    _paragraph(NIST / "sp800-63b/appA_memorized.md", "The minimum password length"),
    "Length",
)


def test_a_question_of_permission_is_answered_by_the_rule_on_it() -> None:
    answer = _ask(
        "frontend team wants to keep the session token in html5 localstorage, is that acceptable?",
        SESSION,
        SALT,
    )
    assert "SHOULD NOT be placed in insecure locations" in answer and "§7.1" in answer


def test_chat_words_do_not_count_against_the_rule() -> None:
    answer = _ask("is it ok if we let users store a password hint?", HINTS, STRENGTH)
    assert 'store a "hint"' in answer


def test_a_permission_question_the_passages_do_not_rule_on_is_refused() -> None:
    assert _ask("can we let users pick an emoji avatar for their profile page?", HINTS) == REFUSED


def test_entropy_and_randomness_ask_for_bits_of_the_thing_asked_about() -> None:
    for question in (
        "how much entropy does the session cookie need",
        "entropy of the session cookie?",
        "how random does a session cookie need to be",
    ):
        answer = _ask(question, LOOKUP, SESSION)
        assert "64 bits" in answer and "§7.1]" in answer, question


def test_a_generic_word_does_not_make_a_number_the_things() -> None:
    # "The salt value SHALL be at least 32 bits": "value" does not make it the cookie's.
    answer = _ask("how much entropy does a session cookie value need", LOOKUP, SESSION, SALT)
    assert "32" not in answer


def test_a_count_is_not_answered_by_a_sentence_without_a_number() -> None:
    throttling = ("[NIST SP 800-63B §5.2.2]", _paragraph(SECTION_5, "online guessing"), "Rate")
    answer = _ask(
        "how many wrong guesses before the account gets rate limited?", STRENGTH, throttling
    )
    assert "100" in answer and "§5.2.2" in answer


def test_the_number_of_the_thing_asked_answers_under_long_circumstances() -> None:
    rebinding = (
        "[NIST SP 800-63B §6.1.2.3]",
        _paragraph(NIST / "sp800-63b/sec6_lifecycle.md", "As an alternative to the above re-"),
        "Replacement",
    )
    question = (
        "when we rebind a forgotten password using two physical authenticators plus a "
        "confirmation code sent to the user, how many characters does that code need at least?"
    )
    # An embedder close to nothing for "rebind", "forgotten" and "plus": no passage says them
    # otherwise, so they are the question's circumstances.
    policy = GuidelineRulePolicy(embedder=FakeEmbedder(["rebind", "forgotten", "plus"]))
    answer = policy.answer(question, _results(rebinding, LOOKUP), REFUSED)
    assert "at least 6 random alphanumeric characters" in answer
    # Without one they might be the thing asked: words alone do not answer.
    assert _ask(question, rebinding, LOOKUP) == REFUSED


def test_a_number_the_question_states_is_not_the_quantity_it_asks_for() -> None:
    assert (
        wanted_dimensions("do we have to force users to change passwords every 90 days?") == set()
    )
    assert wanted_dimensions("how many days can the code stay valid?") == {"time"}
    assert asks_permission("do we have to force users to change passwords every 90 days?")
    assert asks_permission("the team keeps tokens in localStorage, is that acceptable?")
    assert not asks_permission("what's the minimum length of a look-up secret?")


def test_what_the_question_sets_aside_does_not_answer_it() -> None:
    rebinding = (
        "[NIST SP 800-63B §6.1.2.3]",
        _paragraph(NIST / "sp800-63b/sec6_lifecycle.md", "As an alternative to the above re-"),
        "Replacement",
    )
    policy = GuidelineRulePolicy(embedder=FakeEmbedder(["email", "posting"]))
    answer = policy.answer(
        "if we email the confirmation code instead of posting it, how long does it stay valid?",
        _results(rebinding, LOOKUP),
        REFUSED,
    )
    assert "10 minutes" in answer and "postal" not in answer


def test_how_long_it_stays_valid_asks_for_a_duration_only() -> None:
    assert wanted_dimensions("how long can that code stay valid before it is rejected?") == {"time"}
    assert "char" in wanted_dimensions("how long must a memorized secret be?")


def test_a_status_name_is_not_a_question_of_permission() -> None:
    assert asks_permission("are password hints allowed?")
    assert not asks_permission("my api returns method not allowed - which header goes with it?")


def test_a_pronoun_one_is_not_the_number_asked_for() -> None:
    scope = (
        "[RFC 6749 p.23]",
        "If the issued access token scope is different from the one requested by the client, "
        "the authorization server MUST include the scope response parameter to inform the "
        "client of the actual scope granted.",
        "Access Token Scope",
    )
    answer = _ask("maximum number of scopes a client can request in one request?", scope)
    assert answer == REFUSED


def test_a_sentence_that_sets_aside_what_the_question_does_answers_it() -> None:
    rebinding = (
        "[NIST SP 800-63B §6.1.2.3]",
        _paragraph(NIST / "sp800-63b/sec6_lifecycle.md", "As an alternative to the above re-"),
        "Replacement",
    )
    answer = _ask(
        "How long are confirmation codes sent by means other than physical mail valid?",
        rebinding,
        LOOKUP,
    )
    assert "10 minutes" in answer


def test_an_identifier_is_named_whole() -> None:
    settings = (
        "[RFC 7540 p.39]",
        "SETTINGS_INITIAL_WINDOW_SIZE (0x4): Indicates the sender's initial window size (in "
        "octets) for stream-level flow control. The initial value is 2^16-1 (65,535) octets.",
        "6.5.2. Defined SETTINGS Parameters",
    )
    answer = _ask("SETTINGS_MAX_FRAME_SIZE initial value in octets?", settings)
    assert answer == REFUSED


def test_a_reference_entry_answers_nothing() -> None:
    references = (
        "[RFC 5646 p.77]",
        '[RFC3339]\n   Klyne, G., Ed. and C. Newman, "Date and Time on the Internet: '
        'Timestamps", RFC 3339, July 2002.',
        "References",
    )
    answer = _ask("date and time on the internet timestamps rfc 3339?", references)
    assert answer == REFUSED


def test_what_leads_the_colon_tells_the_case_and_what_follows_asks() -> None:
    # "<the case>: <the question>?" (a ticket quoted, or a follow-up searched with the question
    # before it): the case's words count only where the passage holds them.
    led = (
        "ticket from the helpdesk about the rollout of printed cards for the audit next month: "
        "how should the verifier store look-up secrets?"
    )
    assert "§5.1.2.2" in _ask(led, LOOKUP, SALT)
    follow_up = (
        "we are rolling out printed cards with codes for everyone before the audit: "
        "and how must verifiers store the look-up secrets?"
    )
    assert "§5.1.2.2" in _ask(follow_up, LOOKUP, SALT)
    # What follows the colon must still be answered: the case does not answer it.
    assert _ask(led.replace("how should the verifier store", "what colour are"), LOOKUP) == (
        REFUSED
    )
