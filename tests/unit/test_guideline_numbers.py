"""Numbers must be in the evidence: extraction, normal forms, units, and sentence removal."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lectern.domain.evidence import Evidence, check_numbers, numbers_in, sentences

EVIDENCE = Evidence.of(
    [
        "Verifiers SHALL require subscriber-chosen memorized secrets to be at least 8 "
        "characters in length. The salt SHALL be at least 32 bits in length. Reauthenticate "
        "at least once per 12 hours; after 30 minutes of inactivity. HTTP/1.1 and TLS 1.2 "
        "at AAL3 allow 100 attempts (1,000 in tests, 100% of them)."
    ]
)


def _values(text: str) -> list[tuple[str, str | None]]:
    return [(m.value, m.dimension) for m in numbers_in(text)]


def test_forms_are_normalised() -> None:
    assert _values("at least eight characters") == [("8", "char")]
    assert _values("an 8-char secret") == [("8", "char")]
    assert _values("a 64-bit salt") == [("64", "size")]
    assert _values("1,000 tries, 100% and twenty-four hours") == [
        ("1000", None),
        ("100", "percent"),
        ("24", "time"),
    ]
    assert _values("8 or more characters") == [("8", "char")]
    assert _values("between 8-64 chars") == [("8", "char"), ("64", "char")]
    assert _values("the 3rd attempt") == [("3", None)]


def test_versions_and_numbered_names_are_kept_as_written() -> None:
    found = numbers_in("TLS 1.3, HTTP/1.1, AAL3, SHA-256, SP 800-63B and section 5.1.1.2")
    assert [(m.value, m.identifier) for m in found] == [
        ("1.3", False),
        ("http/1.1", True),
        ("aal3", True),
        ("sha-256", True),
        ("800-63b", True),
        ("5.1.1.2", False),
    ]
    assert numbers_in("1.10")[0].value == "1.10"  # not the same version as 1.1


def test_one_is_a_number_only_where_it_counts() -> None:
    assert _values("one of the authenticators") == []
    assert _values("at least one authenticator") == [("1", None)]
    assert _values("a one-time password") == []


def test_citation_labels_are_not_claims() -> None:
    assert numbers_in("See [NIST SP 800-63B §5.1.1.2] and [RFC 7231 p.12].") == []


@pytest.mark.parametrize(
    "claim",
    [
        "Secrets must be at least eight characters long.",
        "An 8-character minimum applies.",
        "The salt is at least 4 bytes.",  # 32 bits
        "Reauthenticate every 720 minutes.",  # 12 hours
        "After half an hour idle: 30 minutes.",
        "Use HTTP/1.1 or TLS 1.2 at AAL3.",
        "Up to 100 attempts.",
        "That is 1000 tests.",
    ],
)
def test_supported_claims_stay(claim: str) -> None:
    checked = check_numbers(claim, EVIDENCE)
    assert checked.text == claim and checked.removed == ()


@pytest.mark.parametrize(
    ("claim", "culprit"),
    [
        ("Secrets must be at least 12 characters long.", "12"),
        ("Secrets must be at least 8 hours old.", "8"),  # 8 is characters in the evidence
        ("The salt is at least 64 bits.", "64"),
        ("Use TLS 1.3.", "1.3"),
        ("At AAL4 the rules differ.", "AAL4"),
        ("Ten attempts are allowed.", "Ten"),
    ],
)
def test_invented_numbers_are_caught(claim: str, culprit: str) -> None:
    checked = check_numbers(claim, EVIDENCE)
    assert checked.text == "" and checked.removed == (claim,)
    assert [m.text for m in checked.unsupported] == [culprit]


def test_only_the_sentences_with_invented_numbers_go() -> None:
    answer = (
        "Memorized secrets SHALL be at least 8 characters [NIST SP 800-63B §5.1.1.2]. "
        "They expire after 90 days [NIST SP 800-63B §5.1.1.2]. "
        "The salt SHALL be at least 32 bits.\n- one line with 12 hours\n- one with 13 hours"
    )
    checked = check_numbers(answer, EVIDENCE)
    assert checked.removed == (
        "They expire after 90 days [NIST SP 800-63B §5.1.1.2].",
        "- one with 13 hours",
    )
    assert checked.text == (
        "Memorized secrets SHALL be at least 8 characters [NIST SP 800-63B §5.1.1.2]. "
        "The salt SHALL be at least 32 bits.\n- one line with 12 hours"
    )


def test_sentences_keep_labels_with_their_sentence() -> None:
    assert sentences("A is 8 [RFC 7231 p.12]. B is e.g. fine. C [X §5.1].\nD") == [
        "A is 8 [RFC 7231 p.12].",
        "B is e.g. fine.",
        "C [X §5.1].",
        "D",
    ]


_WORDS = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def _spelled(n: int) -> str:
    if n < 20:
        return _WORDS[n]
    tens, units = divmod(n, 10)
    return _TENS[tens] + (f"-{_WORDS[units]}" if units else "")


@given(st.integers(min_value=2, max_value=99), st.sampled_from(["characters", "minutes", "bits"]))
def test_a_number_in_words_is_the_number_in_digits(n: int, unit: str) -> None:
    evidence = Evidence.of([f"It SHALL be at least {n} {unit} long."])
    assert check_numbers(f"At least {_spelled(n)} {unit}.", evidence).removed == ()
    other = Evidence.of([f"It SHALL be at least {n + 1} {unit} long."])
    assert check_numbers(f"At least {_spelled(n)} {unit}.", other).removed != ()
