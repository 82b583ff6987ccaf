"""A rename of a stored list said in another language's order, or with why after the name.

Non-native writers carry their language's preposition into the rename ("change the name of my
list Da Leggere in To Read": Italian *in*, French *en*) and courteous ones say why after the
new name ("..., because my husband doesn't understand Italian"). Read by the patterns, "to"
inside the new name ("To Read") was taken for the rename's own, and the reason became part of
the new name: a wrong rename. The stored list's name, said whole after the verb, decides
where the old name ends; the new name is what follows the preposition ("to", "in", "into",
"as"), up to a reason. A rename of no stored list is left to the other rules.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lectern.adapters.understanding.self_corrected import settled_name

_LEAD = (
    r"^(?:please\s+)?(?:(?:i|we)\s*(?:['’]d|would|should)?\s*(?:like|love|want|wish|need)\s+"
    r"(?:you\s+)?to\s+)?"
)
_VERB = (
    r"(?:(?:change|modify|update|alter|switch|edit)\s+(?:the\s+)?name\s+of|rename|re-name|"
    r"retitle)\s+(?:my\s+|the\s+|our\s+)?(?:(?:reading\s+)?list\s+)?"
)
_TO = r"\s+(?:list\s+)?(?:to|in|into|as|for)\s+"
_WHY = re.compile(
    r"\s*(?:[,;(]\s*|\s+)(?:because|since|cause|cos|coz|bc|as|so\s+that|so|given\s+that)\b.*$"
    r"|\s*[,;(]\s*(?:i|we|he|she|they|my|our)\b.*$",
    re.I,
)
"""Why, said after the new name ("..., because my husband don't understand Italian")."""
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
"""A new name ends with its sentence ("to Archive? sorry, silly request")."""


def stored_renamed(text: str, lists: Sequence[str]) -> str | None:
    """The plain "rename A to B" a message asks of the stored list A, or None."""
    for name in sorted(lists, key=len, reverse=True):
        found = re.match(rf"{_LEAD}{_VERB}{re.escape(name)}{_TO}(?P<new>.+)$", text.strip(), re.I)
        if found is None:
            continue
        settled = settled_name(found["new"])
        if settled is None:
            return None  # "... to abandoned... no actually, keep it": nothing is renamed
        if settled != found["new"]:
            # "rename Someday to Later, no wait, to Eventually maybe": the name settled on
            return f"rename {name} to {settled}"
        new = _WHY.sub("", _SENTENCE_END.split(found["new"])[0]).strip(" .!?,;\"'“”‘’")
        if not new or new.casefold() == name.casefold():
            return None
        return f"rename {name} to {new}"
    return None
