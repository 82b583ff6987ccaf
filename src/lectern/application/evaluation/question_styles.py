"""Questions rewritten in the terse style of a support channel, to train the answer check on.

ClapNQ's questions are whole search-engine questions ("how do you make a query parameter
optional"); people in a help channel write "make a query param optional?". A model trained
on the first style learns its shape (wh-word, length, the words the passage repeats) as a
sign of an answerable question. `terse_variant` rewrites a question by rule, with a seed:
- the wh-frame goes ("how do i", "what is the", "who has"): its wh-word, then an auxiliary
  and a subject pronoun after it;
- articles go;
- one longer word may lose a letter or swap two (a typo);
- it ends with "?" (a terse request still reads as a question to the gate).
The variant keeps its source's label, gold sentences and split (the split is the passage's),
so no passage is on both sides of training and testing. Generated at run time from the
shared files, never stored.
"""

from __future__ import annotations

import random
import re

SEED = 26
"""The styles' seed (issue 26: terse requests)."""

_WH = ("how", "what", "which", "who", "whom", "whose", "where", "when", "why")
_AUXILIARIES = frozenset({
    "is", "are", "was", "were", "do", "does", "did", "can", "could", "should", "would", "will",
    "shall", "has", "have", "had", "may", "might", "must", "am",
})  # fmt: skip
_SUBJECTS = frozenset({"i", "you", "we", "one", "u"})
_ARTICLES = frozenset({"the", "a", "an"})
_KEEP_AFTER_HOW = frozenset({"many", "much", "long", "old", "far", "big", "often", "tall"})
_TYPO_SHARE = 0.3


def _typo(word: str, rng: random.Random) -> str:
    """One letter dropped or two neighbours swapped, inside the word."""
    at = rng.randrange(1, len(word) - 2)
    if rng.random() < 0.5:
        return word[:at] + word[at + 1 :]
    return word[:at] + word[at + 1] + word[at] + word[at + 2 :]


def terse_variant(question: str, rng: random.Random) -> str:
    """The question as a terse request: no wh-frame, no articles, maybe a typo, a '?'."""
    words = re.sub(r"[?!.]+$", "", " ".join(question.casefold().split())).split()
    if (
        words
        and words[0] in _WH
        and not (words[0] == "how" and len(words) > 1 and words[1] in _KEEP_AFTER_HOW)
    ):
        words = words[1:]
        if words and words[0] == "to":
            words = words[1:]
        if words and words[0] in _AUXILIARIES:
            words = words[1:]
            if words and words[0] in _SUBJECTS:
                words = words[1:]
    words = [w for w in words if w not in _ARTICLES]
    if rng.random() < _TYPO_SHARE:
        candidates = [i for i, w in enumerate(words) if len(w) >= 6 and w.isalpha()]
        if candidates:
            index = rng.choice(candidates)
            words[index] = _typo(words[index], rng)
    return " ".join(words) + "?" if words else question


def terse_variants(questions: dict[str, str], seed: int = SEED) -> dict[str, str]:
    """Question id -> its terse variant, for the questions the rules change (deterministic)."""
    variants: dict[str, str] = {}
    for identifier in sorted(questions):
        rng = random.Random(f"{seed}:{identifier}")
        original = questions[identifier]
        variant = terse_variant(original, rng)
        if variant.rstrip("?") != original.casefold().rstrip("?"):
            variants[identifier] = variant
    return variants
