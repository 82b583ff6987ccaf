"""Which sentences of a message ask, and which tell the asker's circumstances.

"our fingerprint reader has liveness detection (PAD). how many consecutive failed scans may
we allow?", "what request-line length should servers support? our proxy cuts long urls": the
statements around the question say what the asker has, not what the guidance must say, so a
sentence that answers the question need not hold them too. Pure Python and standard library.
"""

from __future__ import annotations

import re

_SENTENCE_END = re.compile(r"(?<=[.?!])\s+(?=\S)")
_ASKING = re.compile(
    r"^(?:what|what's|whats|which|how|how's|hows|when|where|why|who|whom|whose|is|are|was|were"
    r"|can|could|do|does|did|should|must|may|might|will|would|shall|has|have)\b",
    re.I,
)
"""A sentence that opens as a question does, with or without its question mark."""
_POINTS_BACK = re.compile(r"\b(?:that|this|these|those|it|its|they|them|their|each|ones?)\b", re.I)
"""Words by which a question takes its subject from the statements ("how long can that code
stay valid?", "what entropy does each code need?"): those are then what is asked about."""


def told_around(message: str) -> tuple[str, str]:
    """(the sentences that ask, the statements around them) of a message.

    A sentence asks when it ends with a question mark or opens with a question word or an
    auxiliary. A message with no such sentence, or nothing else, or whose question points back
    at its statements, is read whole: ("", "") stands for "no statement to set apart".
    """
    sentences = [s.strip() for s in _SENTENCE_END.split(message.strip()) if s.strip()]
    asking = [s for s in sentences if s.endswith("?") or _ASKING.match(s)]
    if not asking or len(asking) == len(sentences) or any(map(_POINTS_BACK.search, asking)):
        return "", ""
    told = [s for s in sentences if s not in asking]
    return " ".join(asking), " ".join(told)
