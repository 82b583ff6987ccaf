"""When a book search hands over to the fallback agent: only when the plan left something to fix.

The signals are facts about the result list and the plan, never fused-score thresholds (a
convex score and an RRF score of the same list differ by orders of magnitude, and neither
says whether the reader got what they asked for):

- `no_results`: nothing came back;
- `too_few_results`: fewer than 30% of the requested number;
- `no_lexical_or_vector_hits`: neither BM25 nor the vectors found a single candidate;
- `unknown_fit`: a page limit, and fewer than 30% of the requested number are known to fit
  it (the rest are of unknown length: the constraint is not shown to hold);
- `unresolved_like`: the reader asked for books like X and X is no book of the catalog;
- `exploration_request`: the reader asks to explore ("something like X but not Y",
  "surprise me"), which one search cannot do, unless the search's plan already did
  (`plan_did_explore`: X found and Y excluded).

`one_author` and `exploratory_intent` no longer fire: a list by one author, or a query that
reads as exploring a subject, is not something the plan failed at (measured: the fallback
fired on exploratory queries whose first results had P@5 = 1.0, and the cues that made a
query exploratory were the judged queries' own words). The names stay so that stored
reports and the agents' prompts still read.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from lectern.domain.books import JSONValue
from lectern.domain.normalize.text import fold

FallbackReason = Literal[
    "no_results",
    "too_few_results",
    "no_lexical_or_vector_hits",
    "unknown_fit",
    "unresolved_like",
    "one_author",
    "exploratory_intent",
    "exploration_request",
]
TOO_FEW_SHARE = 0.3
"""Fewer results than this share of the requested number is `too_few_results`."""
ONE_AUTHOR_SHARE = 0.5
"""More results than this share by one first author is `one_author`."""
MAX_FALLBACK_TOOL_CALLS = 3
"""The most tool calls one fallback run may make (the specification's bound)."""
_NAME_PART_MIN = 4
"""Parts of an author's name shorter than this ("de", "J.") are not looked for in a query."""

_LIKE_BUT_NOT = re.compile(
    r"\b(?:something|anything|books?|novels?|stories|reads?|more)\s+"
    r"(?:like|similar to|in the vein of|along the lines of)\s+(?P<like>.+?)\s*,?\s+"
    r"but\s+(?:(?:with\s+)?(?:not|no|without|less|fewer|nothing)\s+)?(?P<unlike>.+?)\W*$",
    re.I,
)
_OPEN_EXPLORATION = re.compile(
    r"\b(?:surprise me|something (?:completely |totally )?different|explore|exploring|"
    r"branch out|outside my comfort zone|broaden my)\b",
    re.I,
)
_BY = re.compile(r"^(?:by|from)\s+", re.I)


@dataclass(frozen=True, slots=True)
class ExplorationRequest:
    """What a reader asked to explore: more like `like`, and not `unlike` (either may be None)."""

    like: str | None = None
    unlike: str | None = None


def exploration_request(text: str) -> ExplorationRequest | None:
    """The exploration a query asks for ("something like X but not Y"), or None."""
    match = _LIKE_BUT_NOT.search(text)
    if match is not None:
        unlike = _BY.sub("", match.group("unlike").strip())
        return ExplorationRequest(match.group("like").strip(" \"'“”"), unlike or None)
    if _OPEN_EXPLORATION.search(text):
        return ExplorationRequest()
    return None


def plan_did_explore(
    exploration: ExplorationRequest, like_found: bool, excluded: Sequence[str]
) -> bool:
    """True when the search's plan already did what "like X but not Y" asks.

    That is: X is a catalog book (its neighbours joined the search) and Y one of the plan's
    exclusions (a filter held it out), so nothing is left for the agent to fix. Measured on
    the trigger set's dev split: such requests' first searches had nDCG@10 1.0, and the
    agent's answers scored lower. "But less dark" or an unknown X is still left open.
    """
    if exploration.like is None or exploration.unlike is None or not like_found:
        return False
    unlike = fold(exploration.unlike)
    return any(fold(label) and fold(label) in unlike for label in excluded)


_UNRESOLVED_LIKE = re.compile(r"^could not find (?P<q>['\"])(?P<x>.+)(?P=q) in the catalog")


def unresolved_like(notes: Sequence[str]) -> str | None:
    """The X of "books like X" that a plan's notes say is no catalog book, or None.

    The planners note it as "could not find 'X' in the catalog: searching for its words".
    """
    for note in notes:
        match = _UNRESOLVED_LIKE.match(note)
        if match is not None:
            return match.group("x")
    return None


@dataclass(frozen=True, slots=True)
class ResultSignals:
    """What a first search returned, as the triggers read it."""

    requested: int
    """How many results the reader asked for."""
    first_authors: tuple[str, ...]
    """The first author of each shown result, in order ("" when a book has none)."""
    lexical_candidates: int
    """Candidates BM25 found (before one edition per work and MMR)."""
    vector_candidates: int
    """Candidates the vectors found (0 when the vector side is missing)."""
    known_fits: int | None = None
    """Shown results known to fit a page limit; None when no page limit is set."""


def dominant_author(first_authors: Sequence[str]) -> str | None:
    """The first author of more than half the results, or None."""
    named = [a for a in first_authors if a]
    if not named:
        return None
    author, count = Counter(named).most_common(1)[0]
    return author if count > ONE_AUTHOR_SHARE * len(first_authors) else None


def names_author(query: str, author: str) -> bool:
    """True when the query contains a part of the author's name ("agatha", "christie")."""
    words = set(fold(query).split())
    return any(len(part) >= _NAME_PART_MIN and part in words for part in fold(author).split())


def fallback_reasons(
    signals: ResultSignals,
    *,
    exploration: ExplorationRequest | None = None,
    unresolved_like: str | None = None,
) -> tuple[FallbackReason, ...]:
    """Every reason this search should hand over to the fallback agent (empty: none).

    `unresolved_like`: the X of "books like X" when the plan found no such book.
    """
    reasons: list[FallbackReason] = []
    shown = len(signals.first_authors)
    if shown == 0:
        reasons.append("no_results")
    elif shown < TOO_FEW_SHARE * signals.requested:
        reasons.append("too_few_results")
    if signals.lexical_candidates == 0 and signals.vector_candidates == 0:
        reasons.append("no_lexical_or_vector_hits")
    if (
        shown
        and signals.known_fits is not None
        and signals.known_fits < TOO_FEW_SHARE * signals.requested
    ):
        reasons.append("unknown_fit")
    if unresolved_like:
        reasons.append("unresolved_like")
    if exploration is not None:
        reasons.append("exploration_request")
    return tuple(reasons)


@dataclass(frozen=True, slots=True)
class FallbackToolCall:
    """One tool call the fallback agent made: what it asked and how many books came back."""

    name: str
    arguments: Mapping[str, JSONValue]
    results: int
    error: str | None = None


@dataclass(frozen=True, slots=True)
class FallbackReport:
    """Whether a search handed over to the fallback agent, why, and what the agent did."""

    reasons: tuple[FallbackReason, ...] = ()
    """Empty: the first search's results stand and no agent ran."""
    model: str | None = None
    tool_calls: tuple[FallbackToolCall, ...] = ()
    refused_calls: int = 0
    """Calls the agent asked for beyond the limit, or with arguments the tool refused."""
    latency_ms: float = 0.0
    """Time the fallback added to the first search."""
    first_ids: tuple[str, ...] = ()
    """The first search's results, so a reader sees what the agent changed."""
    answer: str = ""
    """The agent's final message (it names the chosen books by id)."""
    error: str | None = None
    """Why the agent failed; the first search's results are returned then."""

    @property
    def triggered(self) -> bool:
        """True when at least one signal asked for the agent."""
        return bool(self.reasons)
