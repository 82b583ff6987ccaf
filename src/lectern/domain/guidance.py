"""Guideline agents: a profile per guidance collection, and the labels its answers cite.

A profile says what the agent is (role), what it answers (scope), how it cites
(`[RFC 7231 p.12]` by page, `[NIST SP 800-63B §5.1.1.2]` by section) and the one sentence
it refuses with. Labels are built from a passage's document and position, so the code can
check that every label an answer cites names a passage retrieved in that turn.
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass
from typing import Literal

CitationStyle = Literal["page", "section"]
DEFAULT_TOP_K = 5
"""Passages a guideline question retrieves when the request names no `top_k`."""
MAX_TOP_K = 20
DEFAULT_MIN_SIMILARITY = 0.3
"""A guideline search whose best passage's cosine to the question is under this found
nothing (`LECTERN_GUIDE_MIN_SIMILARITY`)."""

_SECTION_NUMBER = re.compile(
    r"^\s*(?P<number>(?:[A-Z]\.)?\d+(?:\.\d+)*|[A-Z](?:\.\d+)+|Appendix\s+[A-Z])\b"
)
GUIDE_LABEL = re.compile(
    r"\[(?P<name>[^\[\]\n]{1,80}?)\s(?:p\.\s?(?P<page>\d+)|§\s?(?P<section>[A-Za-z0-9][\w.\-]*?))\]"
)
"""A guideline citation in an answer: `[RFC 7231 p.12]`, `[NIST SP 800-63B §5.1.1.2]`."""


@dataclass(frozen=True, slots=True)
class ShortName:
    """Documents whose uri matches `pattern` (shell-style) are cited as `name`."""

    pattern: str
    name: str


@dataclass(frozen=True, slots=True)
class GuideProfile:
    """One guideline agent: its collection, role, scope, citation style and refusal."""

    name: str
    collection: str
    title: str
    """What the collection is, for people: "NIST SP 800-63-3 Digital Identity Guidelines"."""
    role: str
    scope: str
    refusal: str
    """The fixed sentence the agent answers with when the evidence is missing."""
    citation: CitationStyle = "page"
    short_names: tuple[ShortName, ...] = ()
    """How documents are named in labels; documents matching none use their own key."""
    examples: tuple[str, ...] = ()
    """Questions the page offers as a start."""
    vocabulary: tuple[tuple[str, str], ...] = ()
    """(everyday name, the documents' own term): "backup code" -> "look-up secret", from the
    profile's entry in `adapters/guidance/vocabulary.yaml`; a question using the name also
    searches for the term."""

    def short_name(self, uri: str, cite_as: str, *, configured: bool = True) -> str:
        """The name a document is cited by.

        The profile's names go to the documents the operator added (`configured`) only: an
        uploaded file keeps its own key whatever its name, so no upload earns an official label.
        """
        for rule in self.short_names if configured else ():
            if fnmatch.fnmatch(uri, rule.pattern):
                return rule.name
        return cite_as.split(":", 1)[-1] if cite_as.startswith(f"{self.collection}:") else cite_as


def section_number(section: str | None) -> str | None:
    """The number of the innermost numbered heading of a section path (`5.1.1.2`, `A.2`)."""
    if not section:
        return None
    for title in reversed(section.split(" > ")):
        match = _SECTION_NUMBER.match(title)
        if match:
            return match.group("number").removeprefix("Appendix").strip()
    return None


def guide_label(
    profile: GuideProfile,
    *,
    uri: str,
    cite_as: str,
    page: int | None,
    section: str | None,
    configured: bool = True,
) -> str:
    """The label a passage is cited by under this profile.

    By section: the innermost numbered heading, else the page; by page: the page, else the
    section. A passage with neither is cited by its document alone.
    """
    name = profile.short_name(uri, cite_as, configured=configured)
    number = section_number(section)
    if profile.citation == "section" and number:
        return f"[{name} §{number}]"
    if page is not None:
        return f"[{name} p.{page}]"
    if number:
        return f"[{name} §{number}]"
    return f"[{name}]"


def cited_labels(text: str) -> list[str]:
    """Every guideline label in a text, in order, as written."""
    return [match.group(0) for match in GUIDE_LABEL.finditer(text)]


def normalise_label(label: str) -> str:
    """One form for comparing labels: single spaces, `p.12`, `§5.1`."""
    match = GUIDE_LABEL.fullmatch(label.strip())
    if not match:
        return " ".join(label.split())
    name = " ".join(match.group("name").split())
    if match.group("page"):
        return f"[{name} p.{match.group('page')}]"
    return f"[{name} §{match.group('section')}]"
