"""`RapidfuzzSpelling`: a typed title against a search's candidate titles, with rapidfuzz.

The `Spelling` port for known-item search (`application/known_item.py`): rapidfuzz's
normalised edit similarity (`fuzz.ratio`, 0-100) over the few hundred titles one search
retrieved, never the whole catalog (that is `RapidfuzzTitleMatcher`'s job, for "like X").
"""

from __future__ import annotations

from collections.abc import Sequence

from rapidfuzz import fuzz, process


class RapidfuzzSpelling:
    """Similarity by spelling (the `Spelling` port)."""

    def similarities(self, text: str, choices: Sequence[str], cutoff: float) -> dict[int, float]:
        """Index and `fuzz.ratio` of each choice at least `cutoff` like `text`."""
        found = process.extract(
            text, choices, scorer=fuzz.ratio, score_cutoff=cutoff, limit=len(choices) or 1
        )
        return {index: float(score) for _, score, index in found}
