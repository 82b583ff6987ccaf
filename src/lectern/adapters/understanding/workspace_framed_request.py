"""A request whose object is in a pasted or framed message before it, said as the request.

The reader pastes or tells what someone else wrote, then asks in a few words that point
back at it; read whole, the pasted words were taken for the request. Each shape below says
the request with its object, and anything else is left as it was:

- a thing named, then a bare look-up: "git link following vuln doc. show" shows that
  document ("the hunt is done. show" tells something: no thing named alone, left);
- a spoken "did": "where'd someone mention the lab gateway" asks where someone did;
- a pile described, then "list them": "there's a pile of CVE write-ups on the VPN hardening
  project nobody has read. list them" lists that project's documents ("... close them" is
  no look-up, left);
- an ask pasted to a member, then their yes: 'from slack: "@bob can u take the netscaler
  review?" he said yes, make it official' assigns it to bob (no yes, or no "make it
  official", left);
- a new comment told of, then "what does it say": the task's details, where the comment is
  (no new comment added).
"""

from __future__ import annotations

import re

from lectern.adapters.understanding.mentions import Names, find_in

_BARE_LOOK = re.compile(
    r"^(?P<thing>[^.?!]{3,80}?)\s*[.!?:]+\s*(?:(?:pls|please)\s+)?(?:show(?:\s+(?:me|it|that))*|"
    r"open(?:\s+it)?|pull\s+(?:it\s+)?up|details)(?:\s+(?:pls|please))?\W*$",
    re.I,
)
_KIND = re.compile(r"\b(?:doc|docs|document|write-?up|task|ticket|advisory|page)\b", re.I)
_HAS_VERB = re.compile(
    r"\b(?:is|are|was|were|has|have|had|did|do|does|will|can|should|went|got|needs?|"
    r"done|closed|finished|blocked|i|we|you|he|she|they)\b",
    re.I,
)

_DID = re.compile(
    r"\b(?P<wh>where|what|how|when|why)['’]d\s+(?=(?:someone|somebody|anyone|anybody|we|you|"
    r"they|he|she|i|it|people)\b)",
    re.I,
)

_PILE = re.compile(
    r"\bthere(?:['’]s|\s+is|\s+are)\s+(?:a\s+|an\s+)?(?:whole\s+)?(?:pile|bunch|heap|stack|lot|"
    r"ton|load|few|couple|handful|list)\s+of\s+(?P<what>[^.?!]*?)\s+(?:on|in|under|for)\s+"
    r"(?P<where>(?:the\s+)?[^.?!,]+?\s+project)\b[^.?!]*[.?!,]+\s*"
    r"(?:(?:can|could)\s+(?:you|u)\s+|pls\s+|please\s+)?(?:list|show(?:\s+me)?)\s+"
    r"(?:them|those|em|'em)(?:\s+(?:all|pls|please))*\W*$",
    re.I,
)
_DOCUMENTS = re.compile(
    r"\b(?:docs?|documents?|write-?ups?|papers?|reports?|advisor(?:y|ies)|cves?)\b", re.I
)
_TASKS = re.compile(r"\b(?:tasks?|tickets?|todos?|to-dos?|items?)\b", re.I)

_ASK_PASTED = re.compile(
    r"[\"“]\s*@?(?P<who>[a-z]+)\s*,?\s+(?:can|could|would|will)\s+(?:u|you)\s+(?:please\s+)?"
    r"(?:take|grab|pick\s+up|own|handle|do)\s+(?P<task>[^?\"”]+?)\s*\??\W*[\"”]"
    r"[^\"“”]*?\b(?:said\s+(?:yes|ok(?:ay)?|sure)|agreed|accepted|is\s+in|said\s+he['’]?ll|"
    r"said\s+she['’]?ll|confirmed)\b[^\"“”]*?"
    r"\b(?:make\s+it\s+official|go\s+ahead|do\s+it|assign\s+it|make\s+it\s+so|put\s+it\s+through|"
    r"set\s+it\s+up|lock\s+it\s+in)\W*$",
    re.I,
)

_COMMENT_TOLD = re.compile(
    r"\bthere(?:['’]s|\s+is)\s+(?:a\s+)?(?:new\s+)?(?:comment|note|reply)\s+on\s+"
    r"(?P<task>[^.?!]+?)\W+(?:so\s+)?(?:what\s+does\s+it\s+say|what['’]?s\s+it\s+say|"
    r"what\s+did\s+(?:they|he|she|it)\s+(?:say|write)|what\s+is\s+it|read\s+it(?:\s+to\s+me)?)"
    r"\W*$",
    re.I,
)


def framed_request(text: str, names: Names) -> str:
    """`text` with a request pointing back at pasted or framed words said with its object."""
    text = _DID.sub(r"\g<wh> did ", text)
    look = _BARE_LOOK.match(text.strip())
    if look is not None and not _HAS_VERB.search(look.group("thing")):
        thing = look.group("thing")
        if _KIND.search(thing) or find_in(thing, names.of("task")).name:
            return f"show {thing}"
    pile = _PILE.search(text)
    if pile is not None:
        kind = (
            "documents"
            if _DOCUMENTS.search(pile.group("what"))
            else "tasks"
            if _TASKS.search(pile.group("what"))
            else None
        )
        if kind is not None:
            return f"list the {kind} in {pile.group('where')}"
    asked = _ASK_PASTED.search(text)
    if asked is not None:
        who = asked.group("who").casefold()
        members = {m.casefold() for m in names.of("member")}
        task = find_in(asked.group("task"), names.of("task")).name
        if who in members and task is not None:
            return f"give {asked.group('task')} to {who}"
    told = _COMMENT_TOLD.search(text)
    if told is not None and find_in(told.group("task"), names.of("task")).name:
        return f"show {told.group('task')}"
    return text
