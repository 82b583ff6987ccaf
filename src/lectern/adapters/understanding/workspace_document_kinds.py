"""The words that call a thing a document: "the citrix netscaler kev entry" is no task.

A linked document is an advisory, a KEV (Known Exploited Vulnerabilities) entry, a CVE
record, an ATT&CK technique or a write-up. "open the citrix netscaler kev entry" shares its
words with the task "Review NetScaler session tokens", and the task look-up took it; the
kind said last is what the reader asks for. A kind word a stored task's name holds ("open
the incident record" when a task is called "... record") says nothing of the kind.
"""

from __future__ import annotations

import re

from lectern.adapters.understanding.mentions import Names

_SOURCE = r"(?:kev|cve|cisa|nvd|att&?ck|mitre|vendor|security)"
DOCUMENT_KIND = (
    rf"(?:(?:{_SOURCE}\s+)?(?:advisory\s+)?(?:document|doc|advisory|write-?up|record|entry|"
    rf"bulletin|notice|technique|listing)|{_SOURCE}\s+(?:page|item)|kev|cve)"
)
"""A document's kind, said after its title's words ("... kev entry", "... advisory")."""

_ENDS_WITH_KIND = re.compile(rf"\s+{DOCUMENT_KIND}\W*$", re.I)


def called_a_document(target: str, names: Names) -> bool:
    """Whether the words end by calling their thing a document no task's name is."""
    found = _ENDS_WITH_KIND.search(target)
    if found is None:
        return False
    kind = set(found.group(0).casefold().split())
    task_words = {w.casefold() for name in names.of("task") for w in name.split()}
    return not kind & task_words


def only_a_source(target: str) -> bool:
    """Whether the words name only where documents come from ("the ATT&CK technique")."""
    return re.fullmatch(rf"(?:the\s+)?{_SOURCE}", target.strip(), re.I) is not None


def without_kind(target: str) -> str:
    """The title's words without the kind said after them."""
    return _ENDS_WITH_KIND.sub("", target).strip() or target
