"""A stored task or project called by everyday words, read as its stored name.

A new hire says "the fake-email test task" for *Schedule the phishing drill* and "the
network tunnel project" for *VPN gateway hardening*: no word of the name is said, so the
spelling matchers (`mentions.py`) find nothing and the request was asked back or lost its
project. The words before "task" or "project" are read by meaning instead: the packaged
MiniLM embeds them and the stored names of that kind, and the words stand for the one name
clearly nearest (`FLOOR`, `MARGIN`); anything less plain is left as written, so the rules
still ask ("the firewall audit task", "the firewall migration project" name nothing stored).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from lectern.adapters.understanding.layer import Understanding
from lectern.adapters.understanding.mentions import Names, _same_word, _tokens

MEASURED_ON = "sentence-transformers/all-MiniLM-L6-v2"
"""The embedding the floor and margin were measured on; another embedder's cosines differ."""
FLOOR = 0.32
"""The least cosine the nearest name needs. On every dev split the words meant a stored
thing scored 0.33 to 0.44 ("network tunnel", "fake-email test"), and words naming nothing
stored at most 0.30 ("firewall audit", "firewall migration": 0.29)."""
MARGIN = 0.15
"""The least lead over the next name of the same kind (meant: 0.25 or more; "firewall audit"
leads the hunt by 0.04)."""

Vector = npt.NDArray[np.float32]

_DESCRIBED = re.compile(
    r"\b(?P<lead>the|our|my|that|this)\s+"
    r"(?P<words>[A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*){0,2})\s+"
    r"(?P<kind>task|to-?do|project)\b",
    re.I,
)
"""Up to three words between a determiner and the kind ("the fake-email test task")."""

_NOT_A_NAME = frozenset(
    re.split(
        r"\s+",
        """
    a an the of on in at to for from with by and or but is are was be it its this that these
    those my our your his her their one ones new old other same next last first second
    current whole entire main big small open closed done finished overdue late blocked
    stuck unassigned assigned urgent high low medium priority todo review progress active
    pending existing remaining previous latest earliest oldest newest every each any some
    another which what whose right wrong only own last week today
    """.strip(),
    )
)
"""Words that say which task by its state, order or place, never by what it is about."""


class EverydayNames:
    """Reads everyday words for a stored task or project by meaning (MiniLM cosines)."""

    def __init__(self, vector: Callable[[str], Vector]) -> None:
        """`vector`: a text's unit vector from the embedding the floor was measured on."""
        self.vector = vector

    def nearest(self, words: str, names: Sequence[str]) -> str | None:
        """The one name clearly nearest `words` in meaning, or None when none is."""
        if not names:
            return None
        said = self.vector(words)
        scores = sorted(
            ((float(np.dot(self.vector(name), said)), name) for name in names), reverse=True
        )
        best, name = scores[0]
        runner_up = scores[1][0] if len(scores) > 1 else -1.0
        if best < FLOOR or best - runner_up < MARGIN:
            return None
        return name

    def named(self, text: str, names: Names) -> str:
        """`text` with each everyday description of a stored task or project as its name."""
        stored = [n for kind in ("task", "project", "blocker", "document") for n in names.of(kind)]
        if not stored:
            return text
        stored_words = {w for name in stored for w in _tokens(name)}
        people = {m.casefold() for m in names.of("member")} | {
            w.casefold() for d in names.display.values() for w in d.split()
        }

        def spelt_as(found: re.Match[str]) -> str:
            words = found.group("words")
            said = words.casefold().split()
            if (
                any(w in _NOT_A_NAME or w in people or "'" in w for w in said)
                or any(c.isdigit() for c in words)
                # a word of a stored name is read by spelling ("the vpn login hunt task")
                or any(_same_word(w, s) for w in _tokens(words) for s in stored_words)
            ):
                return found.group(0)
            kind = "project" if found.group("kind").casefold() == "project" else "task"
            name = self.nearest(words, names.of(kind))
            if name is None:
                return found.group(0)
            return f"{found.group('lead')} {name} {found.group('kind')}"

        return _DESCRIBED.sub(spelt_as, text)


def by_everyday_names(layer: Understanding | None, text: str, names: Names) -> str:
    """`text` with everyday words for a stored task or project as its name.

    Only over the embedding the floor was measured on: without the layer, or with another
    embedder (a test's fake), the words stay as written.
    """
    if layer is None or layer.classifier.embedder.model_id != MEASURED_ON:
        return text
    return EverydayNames(layer.classifier.vector).named(text, names)
