"""A list named by a word two of the reader's lists share: either, so asked.

"shelve Red Queen on my fantasy shelf" for a reader with "fantasy-ya" and "fantasy-adult":
fuzzy matching scored the shorter name higher ("fantasy" is more of "fantasy ya") and the
book went on the YA list unasked. When every word said is a whole word of two or more of
the reader's lists, and none is said whole, the name fits each of them: the candidates are
returned and which one is asked.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rapidfuzz import utils

from lectern.adapters.understanding.mentions import CUTOFF, Resolution
from lectern.adapters.understanding.mentions import resolve as _resolve

_FILLER = frozenset({"my", "the", "our", "a", "an", "list", "lists", "reading", "shelf", "called"})


def _words(name: str) -> set[str]:
    return set(utils.default_process(re.sub(r"[-_/]", " ", name)).split())


def resolve(mention: str, names: Sequence[str], *, cutoff: float = CUTOFF) -> Resolution:
    """The reader's list `mention` means, as `mentions.resolve`; a shared word is either."""
    found = _resolve(mention, names, cutoff=cutoff)
    if found.name is None or utils.default_process(found.name) == utils.default_process(mention):
        return found
    said = _words(mention) - _FILLER
    sharing = tuple(n for n in names if said and said <= _words(n))
    return Resolution(None, sharing) if len(sharing) > 1 else found
