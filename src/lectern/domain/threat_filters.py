"""Threat research filters as `--where` expressions, and rules that read them from a question.

`source_type` is one of kev, attack, rustsec (the mappings' constant field); `severity` is a
CVSS band (critical, high, medium, low, none: the CVSS v3/v4 qualitative ratings) or a
minimum base score ("7", "9.0"). Only RustSec records carry a score, so a severity filter
keeps RustSec records only.

The rules take what a question says outright ("critical Rust advisories about memory
corruption since 2022"): a source named by its name, and, for RustSec, a severity word, a
category and a year. They never guess: a question that names no source gets no filter.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

SOURCE_TYPES = ("kev", "attack", "rustsec")
SEVERITIES = ("critical", "high", "medium", "low", "none")
RUSTSEC_CATEGORIES = (
    "code-execution",
    "crypto-failure",
    "denial-of-service",
    "file-disclosure",
    "format-injection",
    "memory-corruption",
    "memory-exposure",
    "privilege-escalation",
    "thread-safety",
)
DATE_FIELDS = {"rustsec": "date", "kev": "date_added", "attack": "modified"}


def source_type_filter(source_types: Sequence[str]) -> str | None:
    """`source_type=kev,rustsec`; ValueError naming the accepted values for anything else."""
    chosen = [s.strip().casefold() for s in source_types if s.strip()]
    unknown = [s for s in chosen if s not in SOURCE_TYPES]
    if unknown:
        raise ValueError(
            f"unknown source_type {unknown[0]!r}: use one or more of {', '.join(SOURCE_TYPES)}"
        )
    return "source_type=" + ",".join(dict.fromkeys(chosen)) if chosen else None


def severity_filter(severity: str | float | None) -> str | None:
    """`severity=critical` for a band, `cvss_score>=7.5` for a minimum score; ValueError else."""
    if severity is None:
        return None
    text = str(severity).strip().casefold()
    if not text:
        return None
    if text in SEVERITIES:
        return f"severity={text}"
    try:
        score = float(text)
    except ValueError:
        raise ValueError(
            f"unknown severity {severity!r}: use {', '.join(SEVERITIES)} or a minimum CVSS "
            "base score from 0 to 10"
        ) from None
    if not 0.0 <= score <= 10.0 or score != score:  # NaN is not a score
        raise ValueError(f"a minimum CVSS base score is between 0 and 10, not {severity!r}")
    return f"cvss_score>={score:g}"


def threat_filters(source_types: Sequence[str], severity: str | float | None) -> tuple[str, ...]:
    """The `--where` expressions of a research request's threat filters."""
    return tuple(
        f for f in (source_type_filter(source_types), severity_filter(severity)) if f is not None
    )


@dataclass(frozen=True, slots=True)
class UnderstoodThreatQuery:
    """Filters the rules read from a question, and the words that earned each."""

    source_types: tuple[str, ...] = ()
    severity: str | None = None
    categories: tuple[str, ...] = ()
    since: str | None = None
    evidence: tuple[str, ...] = ()

    def filters(self) -> tuple[str, ...]:
        """As `--where` expressions (a category and a year only for a single source)."""
        out = list(threat_filters(self.source_types, self.severity))
        if self.categories:
            out.append("category=" + ",".join(self.categories))
        if self.since and len(self.source_types) == 1:
            out.append(f"{DATE_FIELDS[self.source_types[0]]}>={self.since}")
        return tuple(out)


_SOURCES = (
    ("rustsec", re.compile(r"\b(rustsec|rust|crates?(?:\.io)?|cargo)\b", re.I)),
    ("kev", re.compile(r"\b(kev|known[- ]exploited)\b", re.I)),
    ("attack", re.compile(r"\b(att&ck|mitre)\b", re.I)),
)
_SEVERITY = re.compile(
    r"\b(?P<band>critical|high|medium|moderate|low)(?:[- ]severity)?\b"
    r"(?=[\w\s-]{0,40}\b(advisor(?:y|ies)|vulnerabilit(?:y|ies)|bugs?|issues?|flaws?|cves?)\b)",
    re.I,
)
_SINCE = re.compile(r"\b(?:since|after|from|in or after)\s+(?P<year>(?:19|20)\d{2})\b", re.I)


def understand_threat_question(question: str) -> UnderstoodThreatQuery:
    """Source, severity, category and year filters that the question states in words."""
    evidence: list[str] = []
    sources: list[str] = []
    for name, pattern in _SOURCES:
        match = pattern.search(question)
        if match:
            sources.append(name)
            evidence.append(f"source_type={name} from {match.group(0)!r}")
    if sources != ["rustsec"]:
        # Severity, category and year filters are RustSec's fields; elsewhere they would
        # empty the result, so they are read only when the question is about RustSec alone.
        return UnderstoodThreatQuery(tuple(sources), evidence=tuple(evidence))
    severity = None
    band = _SEVERITY.search(question)
    if band:
        severity = "medium" if band.group("band").casefold() == "moderate" else band.group("band")
        severity = severity.casefold()
        evidence.append(f"severity={severity} from {band.group(0)!r}")
    categories = []
    spaced = re.sub(r"[\s_]+", " ", question.casefold())
    for category in RUSTSEC_CATEGORIES:
        words = category.replace("-", " ")
        if re.search(rf"\b{re.escape(words)}\b", spaced.replace("-", " ")):
            categories.append(category)
            evidence.append(f"category={category} from {words!r}")
    since = _SINCE.search(question)
    year = since.group("year") if since else None
    if since:
        evidence.append(f"date>={year} from {since.group(0)!r}")
    return UnderstoodThreatQuery(tuple(sources), severity, tuple(categories), year, tuple(evidence))
