"""A new task's quoted title followed by its details typed bare, without their little words.

'create task "Update the VPN client" vpn project urgent': after the closing quote, a
project's words with "project" and a priority word said alone are the place and the
priority. They are spelt out ("in the ... project, urgent priority") for the creation's
reading; words inside the quotes are the title's, never a place.
"""

from __future__ import annotations

import re

_QUOTED_THEN_BARE = re.compile(
    r"^(?P<head>.*?(?P<q>[\"“][^\"”]+[\"”]|(?<!\w)['‘][^'’]+['’](?!\w)))\s*,?\s*"
    r"(?:(?:in|into|to|under|for)\s+)?(?:the\s+)?(?P<p>[\w-]+(?:\s+[\w-]+){0,2}?)\s+project"
    r"(?:\s*,?\s*(?:(?:with\s+)?(?P<level>low|medium|high|urgent)(?:\s+priority)?|"
    r"(?:priority\s+)(?P<level2>low|medium|high|urgent)))?\W*$",
    re.I,
)


def details_spelt_out(text: str) -> str:
    """The creation with bare details after a quoted title said in full; others as typed."""
    found = _QUOTED_THEN_BARE.match(text)
    if found is None:
        return text
    said = f"{found.group('head')} in the {found.group('p')} project"
    level = found.group("level") or found.group("level2")
    return f"{said}, {level.lower()} priority" if level else said
