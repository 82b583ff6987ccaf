"""The reader's own answer to what the last reply showed, said back before the request.

"no? ok then bung it on" after "is Wuthering Heights on my Classics list?": "no?" echoes
what the reply showed (it is not there), "ok then" joins, and the request is "bung it on".
Read whole, "no?" was taken for a question of its own and the request was lost. A short
answer said back as a question ("no?", "not there?", "it isn't?", "oh it's not?") and the
words that join what follows to it are read off; what follows is the request. A message that
is only the answer is left alone.
"""

from __future__ import annotations

import re

_ECHO = re.compile(
    r"^(?:(?:oh|ah|hmm+|right|ok(?:ay)?|huh)[\s,]+)*"
    r"(?:no|nope|yes|yeah|yep|not\s+(?:there|on\s+(?:it|there))|(?:it['’]?s|it\s+is)\s+not|"
    r"it\s+isn['’]?t|isn['’]?t\s+it|it['’]?s\s+not\s+there|it\s+is|is\s+it|really)\s*\?+[\s,.!]*"
    r"(?:(?:ok(?:ay)?|right|well|so|then|in\s+that\s+case|fine|alright|oh)\b[\s,.!]*)*"
    r"(?=\w)",
    re.I,
)


def echo_dropped(text: str) -> str:
    """`text` without an answer said back before its request ("no? ok then ..."), else `text`."""
    found = _ECHO.match(text.strip())
    return text.strip()[found.end() :] if found else text
