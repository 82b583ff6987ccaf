"""The support bot's source list: `kb:<url>` and `team:<file>` lines, hostile names refused."""

from __future__ import annotations

import pytest

from lectern.domain.kb_sources import check_team_name, check_url, parse_source_list


def test_a_source_list_with_comments_duplicates_and_bad_lines() -> None:
    listed = parse_source_list(
        "# the support bot's sources\n"
        "kb:https://docs.example.org/faq#limits\n"
        "kb: https://docs.example.org/faq#limits\n"
        "team:deploy/notes.md\n"
        "\n"
        "team:../../etc/passwd.md\n"
        "kb:ftp://example.org/file\n"
        "https://example.org/no-prefix\n"
    )
    assert listed.urls == ("https://docs.example.org/faq#limits",)
    assert listed.team_files == ("deploy/notes.md",)
    assert len(listed.problems) == 3
    assert listed.problems[0].startswith("sources.txt line 6: team file")
    assert "not an http(s) URL" in listed.problems[1]
    assert "neither kb:<url> nor team:<file>" in listed.problems[2]


@pytest.mark.parametrize(
    "name",
    [
        "../secret.md",
        "a/../../secret.md",
        "/etc/passwd.md",
        "..\\..\\windows.md",
        "C:/boot.md",
        "~/notes.md",
        ".hidden.md",
        "notes/.git/config.md",
        "notes.sh",
        "",
        "a\x00.md",
    ],
)
def test_hostile_team_names_are_refused(name: str) -> None:
    with pytest.raises(ValueError, match="team file|empty"):
        check_team_name(name)


def test_good_team_names_pass() -> None:
    assert check_team_name(" topics/deploy.md ") == "topics/deploy.md"
    assert check_team_name("faq.txt") == "faq.txt"


@pytest.mark.parametrize(
    "url", ["javascript:alert(1)", "file:///etc/passwd", "http://", "https://a b.org/"]
)
def test_bad_urls_are_refused(url: str) -> None:
    with pytest.raises(ValueError):
        check_url(url)
