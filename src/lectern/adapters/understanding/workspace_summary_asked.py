"""A project's summary asked politely, with its task counts: the project's details.

"Could you please give me a summary of the VPN gateway hardening project, including how many
tasks are done?", "show me the description of the VPN project and its task counts": the
details of a project hold its description and its tasks counted by state, so the counts
asked beside the summary are part of it (not a listing of the done tasks).
"""

from __future__ import annotations

import re

_SUMMARY = re.compile(
    r"^(?:(?:hi|hey|hello)\W+)?(?:(?:could|can|would|will)\s+(?:you|u)\s+(?:please\s+)?|"
    r"please\s+)?(?:give|show|tell|send|get)\s+me\s+(?:a\s+|an\s+|the\s+)?(?:short\s+|quick\s+|"
    r"brief\s+)?(?:summary|description|overview|rundown|status|details)\s+(?:of|on|for|about)\s+"
    r"(?:the\s+)?(?P<p>[^,?:;]+?)\s+project"
    r"(?:(?:\s*,\s*|\s+)(?:including|incl\.?|with|and|plus|along\s+with)\s+(?:its|the|their)?\s*"
    r"(?:task\s+counts?|counts?(?:\s+of\s+(?:its\s+|the\s+)?tasks)?|numbers?\s+of\s+tasks|"
    r"how\s+many\s+(?:of\s+(?:its|the)\s+)?tasks\b[^?]*))?"
    r"(?:\s*,?\s*(?:please|thanks|thank\s+you))?[\s?.!]*$",
    re.I,
)


def summary_asked(text: str) -> str | None:
    """The project whose summary (with its counts) is asked, as said, or None."""
    found = _SUMMARY.match(text.strip())
    return found.group("p") if found else None
