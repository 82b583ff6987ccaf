"""Two tasks' due dates said with the verb left out: "runbook due 1 dec, and the hunt in 3 days".

"runbook due 1 dec please, and the vpn login hunt in 3 days" names a task and its new due
date, then a second task with its own date and no verb or "due" at all (the first part's
change is gapped). Read whole it was a question about one task. Each part is said as the
change it is: "set the runbook due 1 dec, and set the vpn login hunt due in 3 days". Only
when the two parts name two different stored tasks and each ends on a date; "the runbook
due 1 dec?" alone, or "the runbook due 1 dec and the hunt is next", stay as they were.
"""

from __future__ import annotations

import re

from lectern.adapters.understanding.mentions import Names, find_in

_DATE = (
    r"(?:in\s+(?:a|one|two|three|four|five|six|seven|\d+)\s+(?:days?|weeks?)|"
    r"(?:on\s+|by\s+|this\s+|next\s+)?(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)"
    r"(?:day)?|tomorrow|today|end\s+of\s+(?:the\s+)?(?:week|month)|"
    r"(?:on\s+|by\s+)?\d{1,2}(?:st|nd|rd|th)?\s+[a-z]{3,9}|(?:on\s+|by\s+)?[a-z]{3,9}\s+\d{1,2}"
    r"(?:st|nd|rd|th)?|\d{4}-\d{2}-\d{2})"
)
_GAPPED = re.compile(
    r"^(?:(?:set|make|have|put)\s+)?(?P<first>[^,]+?)\s+(?:due|deadline)\s+"
    rf"(?P<d1>{_DATE})(?:\s+(?:please|pls|plz))?\s*,?\s+(?:and|&)\s+"
    rf"(?P<second>[^,]+?)\s+(?:due\s+|deadline\s+)?(?P<d2>{_DATE})(?:\s+(?:please|pls|plz))?"
    r"[\s.!]*$",
    re.I,
)
_OWN_VERB = re.compile(r"\b(?:is|are|was|were|has|have|will|should|needs?|can)\b", re.I)


def gapped_due(text: str, names: Names) -> str:
    """`text` with two tasks' due dates, the second's verb left out, said as two changes."""
    said = _GAPPED.match(text.strip())
    if said is None or any(_OWN_VERB.search(said.group(p)) for p in ("first", "second")):
        return text
    tasks = names.of("task")
    first = find_in(said.group("first"), tasks).name
    second = find_in(said.group("second"), tasks).name
    if first is None or second is None or first == second:
        return text
    return (
        f"set {said.group('first')} due {said.group('d1')}, "
        f"and set {said.group('second')} due {said.group('d2')}"
    )
