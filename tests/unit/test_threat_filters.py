"""Threat filters: values checked with clear messages, and the rules that read a question."""

from __future__ import annotations

import pytest

from lectern.domain.threat_filters import (
    severity_filter,
    source_type_filter,
    threat_filters,
    understand_threat_question,
)


def test_filters_become_where_expressions() -> None:
    assert threat_filters(("KEV", "rustsec", "kev"), "Critical") == (
        "source_type=kev,rustsec",
        "severity=critical",
    )
    assert severity_filter(7) == "cvss_score>=7"
    assert severity_filter("9.0") == "cvss_score>=9"
    assert threat_filters((), None) == () and severity_filter("  ") is None


@pytest.mark.parametrize("value", ["nvd", "attack;drop", "KEV2"])
def test_unknown_source_types_name_the_accepted_ones(value: str) -> None:
    with pytest.raises(ValueError, match="use one or more of kev, attack, rustsec"):
        source_type_filter([value])


@pytest.mark.parametrize("value", ["severe", "-1", "10.5", "nan", "inf", "9..10"])
def test_bad_severities_are_refused(value: str) -> None:
    with pytest.raises(ValueError, match="severity|between 0 and 10"):
        severity_filter(value)


def test_the_acceptance_question_is_read_into_four_filters() -> None:
    understood = understand_threat_question(
        "critical Rust advisories about memory corruption since 2022"
    )
    assert understood.filters() == (
        "source_type=rustsec",
        "severity=critical",
        "category=memory-corruption",
        "date>=2022",
    )
    assert any("'Rust'" in e for e in understood.evidence)


def test_no_source_named_means_no_filter() -> None:
    for question in (
        "Which F5 BIG-IP vulnerability is a missing authentication in a critical function?",
        "How do adversaries dump credentials from LSASS process memory?",
        "high severity memory corruption bugs since 2021",
    ):
        assert understand_threat_question(question).filters() == ()


def test_severity_and_category_are_read_only_for_rustsec_alone() -> None:
    assert understand_threat_question("critical KEV vulnerabilities since 2023").filters() == (
        "source_type=kev",
    )
    moderate = understand_threat_question("moderate severity advisories in crates about DoS")
    assert moderate.filters() == ("source_type=rustsec", "severity=medium")
    both = understand_threat_question("Rust crates or KEV entries with thread safety issues")
    assert both.filters() == ("source_type=rustsec,kev",)
