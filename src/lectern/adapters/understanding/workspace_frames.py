"""A workspace change asked as whether it can be done, read as the change itself.

"Would it be possible to add a description to the runbook: X", "any chance you could close
the drill?": the frame asks for the change; what follows it is the request the rules read.
How-to questions ("how do I assign tasks?") are no frame: they ask what can be done.
"""

from __future__ import annotations

import re

_FRAME = re.compile(
    r"^(?:(?:hey|hi|so|um+|quick\s+question)\W+)*"
    r"(?:(?:would|will)\s+it\s+be\s+possible|is\s+it\s+possible)\s+(?:for\s+(?:me|you)\s+)?to\s+|"
    r"^(?:is\s+there\s+(?:a|any)\s+way\s+(?:for\s+(?:me|you)\s+)?to|any\s+chance\s+(?:you\s+"
    r"could|to)|do\s+you\s+think\s+you\s+could|would\s+you\s+mind)\s+"
    r"(?=(?:please\s+)?(?:add|set|change|update|give|assign|close|mark|create|move|put|resolve|"
    r"rename|complete|log|comment|describe|edit|write|make|hand|take|push|bump)\b)",
    re.I,
)


def unframed_change(text: str) -> str:
    """The change a framed request asks for, without a question mark; others as typed."""
    plain = _FRAME.sub("", text, count=1)
    if plain == text:
        return text
    return plain[:-1] if plain.endswith("?") else plain
