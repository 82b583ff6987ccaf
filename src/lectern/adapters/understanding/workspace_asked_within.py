"""A workspace question asked inside a frame: "can you tell me which blockers are open".

"Can you say me which blockers are open, and then add one ...", "could you let me know
what's overdue", "I'd like to know who is on the team", "do you know which tasks bob has?":
the frame asks to be told, and the question after it (led by which, what, who, whether ...)
is the request. Read as that question, the patterns that know it read it, and a request
joined after it is a part of its own (the whole had gone to the meaning reader, which
answered the question and dropped the rest). Only before a question word: "tell me about
the drill" keeps its frame.
"""

from __future__ import annotations

import re

_FRAME = re.compile(
    r"^(?:(?:hi|hey|hello|sorry|ok|okay|so)\W+)*"
    r"(?:(?:can|could|would|will)\s+(?:you|u)\s+(?:please\s+)?|please\s+|pls\s+)?"
    r"(?:(?:tell|say|show|remind)\s+(?:to\s+)?(?:me|us)|let\s+(?:me|us)\s+know|"
    r"i(?:['’]d|\s+would)\s+like\s+to\s+know|i\s+(?:want|need)\s+to\s+know|"
    r"do\s+you\s+know|any\s+idea)\s*,?\s+"
    r"(?=(?:which|what|who|whose|whether|if|how\s+many|what['’]s|whats|who['’]s)\b)",
    re.I,
)


def asked_within(text: str) -> str:
    """`text` with a frame that asks to be told dropped before its question."""
    found = _FRAME.match(text)
    return text[found.end() :] if found else text
