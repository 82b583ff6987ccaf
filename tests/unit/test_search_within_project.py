"""A workspace search kept to one project however the project is introduced (dev19).

"look up T1190 within the vpn project" had searched every project for "T1190 within the vpn
project": only "in the X project" closed the query.
"""

from __future__ import annotations

import pytest

from tests.unit.test_workspace_phrasings import _calls


@pytest.mark.parametrize(
    ("said", "query", "project"),
    [
        ("look up T1190 within the vpn project", "T1190", "VPN gateway hardening"),
        (
            "search for certificates inside the phishing project",
            "certificates",
            "Phishing awareness",
        ),
        (
            "find anything about MFA under the VPN gateway hardening project",
            "MFA",
            "VPN gateway hardening",
        ),
        (
            "look for session tokens within the vpn project",
            "session tokens",
            "VPN gateway hardening",
        ),
        ("search for clicks within the phishing project", "clicks", "Phishing awareness"),
        ("look up tokens in the vpn project", "tokens", "VPN gateway hardening"),
    ],
)
def test_the_project_closes_the_search(said: str, query: str, project: str) -> None:
    assert _calls(said) == [("search_content", {"query": query, "project_id": project})]


def test_a_search_naming_no_project_searches_them_all() -> None:
    assert _calls("search the workspace for T1190") == [("search_content", {"query": "T1190"})]
