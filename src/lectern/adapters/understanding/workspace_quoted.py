"""What someone else said, or a machine printed, beside the reader's request.

Incident responders forward a message and say what to do with it ('fwd from Bob: "I'm out
sick" -- give it to alice then', 'Fwd: "..." -- please change the priority', 're: onboarding
-- "what is X for?" from the new hire. can you show me ...'), or paste an alert or a log line
and ask on the next line ("WARN vpn-auth: 37 failed logins ...", a line break, "paste this as
a comment on the hunt"). What is quoted, forwarded or pasted is data: it may say which stored
thing the request is about, or be the words a comment records, but it is never the request,
and the person it quotes (the one it is from) is nobody the request names. Read whole, the quote's
words had been the request's: Bob, who forwarded that he was sick, was given the task.

`beside_the_quoted` splits such a message into what was quoted (`circumstances`) and what was
asked (`request`), so the request is read alone first (`llm/told_first.py`).
"""

from __future__ import annotations

import re

from lectern.adapters.understanding.mentions import Names
from lectern.adapters.understanding.request_sentence import Request

_HEADER = (
    r"(?:(?:fwd?|fw|forwarded(?:\s+(?:message|mail|email|e-mail))?|re|reply|quote|quoting)"
    r"(?:\s+from\s+[\w.@'-]+(?:\s+[\w.@'-]+)?)?\s*[:>-]+|"
    r"(?:from|via)\s+[\w.@'-]+(?:\s+[\w.@'-]+)?\s*:|"
    r"[\w.@'-]+(?:\s+[\w.@'-]+)?\s+(?:wrote|writes|said|says|asked|asks|messaged|pinged)"
    r"(?:\s+(?:me|us|in\s+\S+))?\s*:)"
)
"""A forwarded or replied message's header, or who wrote what follows ("bob wrote:")."""

_SUBJECT = r"(?:\s*[^\"“”\n]{1,60}?\s*(?:--+|—|–|:)\s*)?"
"""A subject line after the header ("re: onboarding -- ")."""

_QUOTE = r"[\"“](?P<quote>[^\"“”\n]{3,})[\"”]"

_ATTRIBUTION = (
    r"\s*,?\s*(?:from|by|says|said|wrote|writes|asks|asked|per|—|–|--+)\s+"
    r"(?:the\s+|our\s+|my\s+)?[\w.@'-]+(?:\s+[\w.@'-]+){0,2}?(?=\s*(?:--+|—|–|[.;:|,]|\n))"
)
"""Who said the quote, after it ('... " from the new hire.')."""

_JOINT = r"\s*(?:--+|—|–|[.;|]|\n|,\s*(?=(?:so|and|then|now)\b))\s*"
"""Where the quote ends and the reader's own words begin."""

_FORWARDED = re.compile(
    rf"^\s*(?:{_HEADER}){_SUBJECT}\s*{_QUOTE}(?:{_ATTRIBUTION})?{_JOINT}(?P<request>\S.*)$",
    re.I | re.S,
)
"""A quoted message after a forwarding header, and the reader's words after it."""

_ATTRIBUTED = re.compile(rf"^\s*{_QUOTE}{_ATTRIBUTION}{_JOINT}(?P<request>\S.*)$", re.I | re.S)
"""A quote followed by who said it, and the reader's words after it. A quote alone before a
request ('"Rotate the keys" - add that to the vpn project') may be the request's own words
(a new task's title), so it is not split."""

_FORWARDED_UNQUOTED = re.compile(
    rf"^\s*(?:{_HEADER})\s*(?P<quote>[^\"“”\n]{{3,}}?)\s*(?:--+|—|–|\n)\s*"
    r"(?P<request>\S.*)$",
    re.I | re.S,
)
"""A forwarded message said without quotes ("fwd from bob: I'm out sick -- give it to alice")."""

_LEVEL = (
    r"(?:EMERG(?:ENCY)?|ALERT|CRIT(?:ICAL)?|ERR(?:OR)?|WARN(?:ING)?|NOTICE|INFO|DEBUG|FATAL|"
    r"SEV(?:ERITY)?[\s-]?\d|P[0-4]|FIRING|RESOLVED|ALARM)"
)
_MACHINE_LINE = re.compile(
    r"^\s*(?:\[?\d{4}-\d\d-\d\d[T ][\d:.,]+Z?\]?\s+|[A-Z][a-z]{2}\s+\d{1,2}\s+\d\d:\d\d:\d\d\s+"
    r"(?:[\w.-]+\s+)?|\[?\d\d:\d\d:\d\d\]?\s+)?"
    rf"(?:\[?{_LEVEL}\]?(?=[\s:\]])|[\w./-]+\[\d+\]:|<\d+>)"
)
"""A line a machine printed: an alert's or a log's level in capitals, or a syslog program
with its process id ("sshd[2211]:"), after an optional timestamp. Case matters: "error" in a
person's sentence is no level."""


def _unquoted(text: str) -> str:
    return " ".join(text.strip(" \"“”'").split())


def _pasted(text: str) -> Request | None:
    lines = [line for line in text.splitlines() if line.strip()]
    pasted = 0
    while pasted < len(lines) and _MACHINE_LINE.match(lines[pasted]):
        pasted += 1
    if pasted == 0 or pasted == len(lines):
        return None
    asked = " ".join(" ".join(lines[pasted:]).split())
    return Request(" ".join(" ".join(lines[:pasted]).split()), asked)


def beside_the_quoted(text: str) -> Request | None:
    """The message as what was quoted, forwarded or pasted, and what the reader asks; or None.

    Only a message that opens with the quoted material (after a forwarding header, or as an
    alert's or log's lines) and asks after it; a quote inside a request ("comment 'X' on Y")
    is that request's words and is left alone.
    """
    pasted = _pasted(text)
    if pasted is not None:
        return pasted
    found = _FORWARDED.match(text) or _ATTRIBUTED.match(text) or _FORWARDED_UNQUOTED.match(text)
    if found is None:
        return None
    request = " ".join(found["request"].split())
    if len(request.split()) < 2:
        return None
    return Request(_unquoted(found["quote"]), request)


_QUOTED_SPAN = re.compile(r"[\"“](?P<d>[^\"”]+)[\"”]|(?<!\w)['‘](?P<s>[^'’]+)['’](?!\w)")


def names_unquoted(text: str, names: Names) -> str:
    """The message with the quotes taken off what is wholly a stored thing's name.

    Quotes around a task's, project's or document's name say which thing, not what to write.
    """
    stored = {
        n.casefold() for kind in ("task", "project", "document", "blocker") for n in names.of(kind)
    }

    def unquoted(found: re.Match[str]) -> str:
        said = found.group("d") or found.group("s") or ""
        return said if said.strip().casefold() in stored else found.group(0)

    return _QUOTED_SPAN.sub(unquoted, text)
