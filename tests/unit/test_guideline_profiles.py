"""Guideline profiles, the labels answers cite, and follow-ups made standalone."""

from __future__ import annotations

from pathlib import Path

import pytest

from lectern.adapters.guidance.profiles import load_profiles
from lectern.adapters.llm.followups import (
    LlmFollowUpRewriter,
    RuleFollowUpRewriter,
    is_follow_up,
)
from lectern.domain.assistant import Message
from lectern.domain.guidance import (
    GuideProfile,
    ShortName,
    cited_labels,
    guide_label,
    normalise_label,
    section_number,
)
from lectern.errors import ConfigurationError, LLMError

NIST = GuideProfile(
    "nist",
    "nist",
    "NIST",
    "role",
    "scope",
    "No.",
    citation="section",
    short_names=(ShortName("sp800-63b*", "NIST SP 800-63B"),),
)
RFC = GuideProfile("rfc", "rfc", "RFCs", "role", "scope", "No.", citation="page")


def test_section_numbers_come_from_the_innermost_numbered_heading() -> None:
    assert section_number("5 Authenticators > 5.1 Types > 5.1.1.2 Verifiers") == "5.1.1.2"
    assert section_number("Appendix A—Strength > A.2 Length") == "A.2"
    assert section_number("Appendix A—Strength of Memorized Secrets") == "A"
    assert section_number("Abstract > Keywords") is None
    assert section_number(None) is None


def test_labels_by_section_or_page_with_short_names() -> None:
    section = "5 Authenticators > 5.1.1.2 Memorized Secret Verifiers"
    label = guide_label(
        NIST,
        uri="sp800-63b/sec5.md",
        cite_as="nist:sp800-63b/sec5.md",
        page=None,
        section=section,
    )
    assert label == "[NIST SP 800-63B §5.1.1.2]"
    other = guide_label(NIST, uri="other.md", cite_as="nist:other.md", page=None, section=None)
    assert other == "[other.md]"
    assert guide_label(RFC, uri="rfc7231.txt", cite_as="RFC 7231", page=12, section=None) == (
        "[RFC 7231 p.12]"
    )
    assert guide_label(RFC, uri="x.md", cite_as="X", page=None, section="3.1 Intro") == "[X §3.1]"


def test_labels_in_answers_are_found_and_compared_in_one_form() -> None:
    text = "Yes [RFC 7231 p.12], see [NIST SP 800-63B § 5.1.1.2] and [not a label]."
    assert cited_labels(text) == ["[RFC 7231 p.12]", "[NIST SP 800-63B § 5.1.1.2]"]
    assert normalise_label("[NIST  SP 800-63B § 5.1.1.2]") == "[NIST SP 800-63B §5.1.1.2]"
    assert normalise_label("[RFC 7231 p. 12]") == "[RFC 7231 p.12]"


def test_the_packaged_profiles_load() -> None:
    profiles = {p.name: p for p in load_profiles()}
    assert set(profiles) == {"nist", "rfc"}
    assert profiles["nist"].citation == "section" and profiles["rfc"].citation == "page"
    assert profiles["nist"].short_name("sp800-63b/sec5_authenticators.md", "x") == (
        "NIST SP 800-63B"
    )
    assert profiles["rfc"].short_name("rfc7231.txt", "RFC 7231") == "RFC 7231"
    assert profiles["nist"].refusal.startswith("I cannot answer that")


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("profiles: []", "not valid"),
        ("profiles:\n  - {name: a, collection: a, title: t, role: r, scope: s}", "not valid"),
        (
            "profiles:\n  - {name: a, collection: 'Bad Name', title: t, role: r, scope: s, "
            "refusal: n}",
            "invalid collection name",
        ),
        (
            "profiles:\n  - {name: a, collection: a, title: t, role: r, scope: s, refusal: n}\n"
            "  - {name: a, collection: b, title: t, role: r, scope: s, refusal: n}",
            "share a name",
        ),
        ("profiles: [", "not valid"),
    ],
)
def test_bad_profile_files_are_refused_with_the_setting_named(
    tmp_path: Path, text: str, problem: str
) -> None:
    path = tmp_path / "profiles.yaml"
    path.write_text(text)
    with pytest.raises(ConfigurationError, match="LECTERN_GUIDE_PROFILES") as caught:
        load_profiles(path)
    assert problem in str(caught.value)


HISTORY = [
    Message("user", "How often must the subscriber reauthenticate at AAL2?"),
    Message("assistant", "At least once per 12 hours [NIST SP 800-63B §4.2.3]."),
]


@pytest.mark.parametrize(
    ("question", "standalone"),
    [
        ("and for AAL3?", "How often must the subscriber reauthenticate at AAL3?"),
        ("What about AAL 1?", "How often must the subscriber reauthenticate at AAL 1?"),
        (
            "and after inactivity?",
            "How often must the subscriber reauthenticate at AAL2: after inactivity?",
        ),
        (
            "Is it required?",
            "How often must the subscriber reauthenticate at AAL2: Is it required?",
        ),
        ("What does status code 429 mean?", "What does status code 429 mean?"),
        # A follow-up that asks its own question keeps its words, not the last question's.
        (
            "and for AAL1, after what stretch without activity must it end?",
            "for AAL1, after what stretch without activity must it end?",
        ),
        ("okay and for AAL3?", "How often must the subscriber reauthenticate at AAL3?"),
        (
            "ok and with a hardware token?",
            "How often must the subscriber reauthenticate at AAL2: a hardware token?",
        ),
    ],
)
def test_rules_make_follow_ups_standalone(question: str, standalone: str) -> None:
    assert RuleFollowUpRewriter().rewrite(HISTORY, question) == standalone


def test_a_first_question_is_never_rewritten() -> None:
    assert RuleFollowUpRewriter().rewrite([], "and for AAL3?") == "and for AAL3?"
    assert is_follow_up("and for AAL3?") and not is_follow_up("How long is a secret?")


class _Model:
    model_id = "fake"

    def __init__(self, answer: str | Exception) -> None:
        self.answer = answer
        self.prompts: list[tuple[str, dict[str, str]]] = []

    def complete(self, prompt_id, variables, schema, *, run_id=None):  # type: ignore[no-untyped-def]
        del run_id
        self.prompts.append((prompt_id, dict(variables)))
        if isinstance(self.answer, Exception):
            raise self.answer
        return schema(question=self.answer)


def test_the_model_rewrites_when_configured_and_the_rules_back_it() -> None:
    model = _Model("How often must a subscriber at AAL3 reauthenticate?")
    rewriter = LlmFollowUpRewriter(model)  # type: ignore[arg-type]
    assert rewriter.rewrite(HISTORY, "and for AAL3?") == (
        "How often must a subscriber at AAL3 reauthenticate?"
    )
    prompt_id, variables = model.prompts[0]
    assert prompt_id == "guide_rewrite" and "user: How often" in variables["history"]
    failing = LlmFollowUpRewriter(_Model(LLMError("down")))  # type: ignore[arg-type]
    assert failing.rewrite(HISTORY, "and for AAL3?") == (
        "How often must the subscriber reauthenticate at AAL3?"
    )


@pytest.mark.parametrize(
    ("question", "standalone"),
    [
        # A level named by its place moves the previous question's level there.
        ("what about the highest level, same numbers?", "How long may a session last at AAL3?"),
        ("and at the lowest one?", "How long may a session last at AAL1?"),
        ("and for the next level up?", "How long may a session last at AAL3?"),
        ("ok and the strongest level", "How long may a session last at AAL3?"),
        # "how many" / "how long" asked in the follow-up stay its words.
        (
            "ok and how many times may they retry",
            "How long may a session last at AAL2: how many times may they retry?",
        ),
        (
            "and how long can the code stay valid?",
            "How long may a session last at AAL2: how long can the code stay valid?",
        ),
    ],
)
def test_a_follow_up_names_a_level_by_its_place_and_keeps_its_how(
    question: str, standalone: str
) -> None:
    history = [Message("user", "How long may a session last at AAL2?"), Message("assistant", "x")]
    assert RuleFollowUpRewriter().rewrite(history, question) == standalone


def test_a_follow_up_of_a_follow_up_leans_on_what_the_one_before_meant() -> None:
    history = [
        Message("user", "How long may a session last at AAL2?"),
        Message("assistant", "12 hours"),
        Message("user", "and for AAL3?"),
        Message("assistant", "12 hours"),
    ]
    assert RuleFollowUpRewriter().rewrite(history, "and after how much idle time?") == (
        "How long may a session last at AAL3: after how much idle time?"
    )
    history += [Message("user", "what about the lowest level?"), Message("assistant", "30 days")]
    assert RuleFollowUpRewriter().rewrite(history, "and for IAL2?") == (
        "How long may a session last at AAL1: IAL2?"
    )
    # A level that would fall off the scale is left as the words say.
    top = [Message("user", "What is required at AAL3?"), Message("assistant", "x")]
    assert RuleFollowUpRewriter().rewrite(top, "and the next level up?") == (
        "What is required at AAL3: the next level up?"
    )
