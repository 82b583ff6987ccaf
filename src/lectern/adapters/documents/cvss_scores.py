"""CVSS base scores and severities from vector strings, by the `cvss` library (RedHat's).

CVSS 3.0/3.1 and 4.0 vectors are read; CVSS 2 and anything malformed give no score and a
reason, never an exception, so one bad record does not stop an ingest.
"""

from __future__ import annotations

from dataclasses import dataclass

from cvss import CVSS3, CVSS4, CVSSError


@dataclass(frozen=True, slots=True)
class CvssScore:
    """A vector's base score and severity (`critical`, `high`, `medium`, `low`, `none`)."""

    vector: str
    version: str
    score: float
    severity: str


def score_vector(vector: str) -> CvssScore | str:
    """The vector's base score, or why there is none (a sentence for the ingest notes)."""
    text = vector.strip()
    try:
        if text.startswith("CVSS:4.0/"):
            v4 = CVSS4(text)
            return CvssScore(text, "4.0", float(v4.base_score), str(v4.severity).casefold())
        if text.startswith(("CVSS:3.0/", "CVSS:3.1/")):
            v3 = CVSS3(text)
            return CvssScore(
                text, text[5:8], float(v3.scores()[0]), str(v3.severities()[0]).casefold()
            )
    except (CVSSError, ValueError, KeyError, IndexError) as error:
        return f"unreadable CVSS vector {text[:80]!r}: {error}"
    return f"unreadable CVSS vector {text[:80]!r}: only CVSS:3.0, 3.1 and 4.0 vectors are scored"
