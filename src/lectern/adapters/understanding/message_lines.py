"""A message whose structure is in its lines: an e-mail's frame, a list of requests, a thread.

The assistant service keeps a message's line breaks, and people use them:

- an e-mail: a greeting line ("Hi,", "Hello team,", "Dear Lectern,"), the request, then a
  sign-off ("Thanks,", "Best,", "Kind regards,"), a name ("Alice", "A."), perhaps a signature
  after "--" or a confidentiality notice. The frame is no part of the request: read whole,
  "Best, Alice" had been the resolution a blocker was closed with. `unframed_mail` drops it.
- a list: requests one a line, numbered ("1.", "2)") or bulleted ("-", "*", "•"), often under
  a heading line ("Admin bits for the new term:"). Read as one sentence the items ran
  together (three lines became one blocker; a list was named "Spring Picks 2"). `listed`
  gives each item as a request of its own, in order; the heading asks nothing.
- a pasted chat thread: lines led by a time and a speaker ("[14:02] vera: HR wants ..."),
  then the reader's request. The thread is data beside the request; "vera's point" in the
  request is what vera's lines said (`with_points_said`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lectern.adapters.understanding.request_sentence import Request

_GREETING = re.compile(
    r"^\s*(?:hi|hello|hey|hiya|dear|greetings|good\s+(?:morning|afternoon|evening|day)|"
    r"morning|afternoon|evening|howdy)(?:\s+(?!(?:add|put|rate|make|create|delete|remove|"
    r"take|close|mark|set|can|could|would|please|pls)\b)[\w'’.&-]+){0,3}\s*[,!.:]?\s*$",
    re.I,
)
"""A greeting alone on the first line ("Hi,", "Hello team,", "Dear Lectern,")."""

_SIGN_OFF = re.compile(
    r"^\s*(?:(?:many|much|big)\s+)?(?:thanks|thank\s+you|thx|ta|cheers|best|regards|"
    r"(?:kind|best|warm|warmest|kindest|many)\s+(?:regards|wishes|thanks)|best\s+wishes|"
    r"all\s+the\s+best|sincerely|yours(?:\s+(?:truly|sincerely|faithfully))?|"
    r"speak\s+soon|talk\s+soon|take\s+care|with\s+thanks|rgds|br)"
    r"(?:\s+(?:again|so|much|a|lot|in|advance|all|everyone|team|very|you|for\s+now))*"
    r"\s*[,!.]*\s*$",
    re.I,
)
"""A sign-off alone on its line ("Thanks,", "Best,", "Kind regards,")."""

_NAME_LINE = re.compile(r"^\s*[-–—~]*\s*[A-Z][\w.'’-]*(?:\s+[A-Z][\w.'’-]*){0,3}\s*[.,]?\s*$")
"""A name signed under a sign-off ("Alice", "A.", "Alice Analyst", "- Raj")."""

_AFTER_NAME = re.compile(
    r"^\s*(?:--+|__+|sent\s+from\s+my\b|this\s+(?:e-?mail|message)\b|confidential|"
    r"disclaimer\b)",
    re.I,
)
"""Where a signature, a phone's line or a confidentiality notice starts."""


def _lines(text: str) -> list[str]:
    return text.splitlines()


def unframed_mail(text: str) -> str:
    """`text` without an e-mail's greeting line and its sign-off, name and signature.

    Only a frame said on lines of its own: the greeting as the first line with more after
    it, the sign-off as a line of its own with nothing after it but a name, a signature or
    a notice. The lines between keep their breaks. A message that is all frame is kept.
    """
    lines = _lines(text)
    if len(lines) < 2:
        return text
    start = 0
    while start < len(lines) and not lines[start].strip():
        start += 1
    if start < len(lines) and _GREETING.match(lines[start]):
        start += 1
    end = len(lines)
    for at in range(start, len(lines)):
        if not _SIGN_OFF.match(lines[at]):
            continue
        after = [line for line in lines[at + 1 :] if line.strip()]
        if _signed_only(after):
            end = at
            break
    if end == len(lines):
        end = _signature_start(lines, start)
    body = "\n".join(lines[start:end]).strip()
    return body if body and (start or end < len(lines)) else text


def _signed_only(after: list[str]) -> bool:
    """Whether the lines after a sign-off are only a name, a signature or a notice."""
    if not after:
        return True
    if _AFTER_NAME.match(after[0]):
        return True
    if not _NAME_LINE.match(after[0]) or len(after[0].split()) > 4:
        return False
    rest = after[1:]
    return not rest or any(_AFTER_NAME.match(line) for line in rest[:2]) or len(rest) <= 2


def _signature_start(lines: list[str], start: int) -> int:
    """Where a "--" signature starts with no sign-off before it, or the end."""
    for at in range(start + 1, len(lines)):
        if re.match(r"^\s*--\s*$", lines[at]):
            return at
    return len(lines)


_ITEM = re.compile(r"^\s*(?:[-*•·‣▪◦–—]|\(?\d{1,2}[.)]|\(?[a-h][.)])\s+(?P<item>\S.*)$")
"""A line that is an item: after a bullet or a number ("- ", "* ", "• ", "1. ", "2) ")."""

_ASIDE = re.compile(r"\s*\((?P<aside>[^()]{2,80})\)\s*(?=$|[,.;!])")
"""A bracketed aside in an item ("Delete Autumn 2025 (we've finished it)")."""

_LABELLED = re.compile(r"^\s*new\s+(?P<kind>list|task|project)\s*[:–—-]\s*(?P<name>\S.*)$", re.I)
"""An item said as a label and a name ("New list: Winter 2026"): a thing to make."""


@dataclass(frozen=True)
class Listed:
    """A message's requests, one a line, with the lines around them."""

    heading: str
    """What came before the first item ("Admin bits for the new term:"), or ""."""
    items: tuple[str, ...]
    """Each item's words, in order, without its bullet or number."""
    after: str
    """What came after the last item ("That's all for now, thanks!"), or ""."""


def _item_words(item: str) -> str:
    item = _ASIDE.sub("", item).strip()
    labelled = _LABELLED.match(item)
    if labelled is not None:
        kind = labelled["kind"].casefold()
        return f"create a {kind} called {labelled['name'].strip(' .')}"
    return item.strip()


def listed(text: str) -> Listed | None:
    """The requests of a message said one a line, or None when fewer than two are.

    The items must follow one another (blank lines between them are fine); a line that is
    no item inside the run means the message is not a list of requests.
    """
    lines = [line for line in _lines(text) if line.strip()]
    marked = [i for i, line in enumerate(lines) if _ITEM.match(line)]
    if len(marked) < 2 or marked != list(range(marked[0], marked[-1] + 1)):
        return None
    items = []
    for at in marked:
        found = _ITEM.match(lines[at])
        assert found is not None
        words = _item_words(found["item"])
        if words:
            items.append(words)
    if len(items) < 2:
        return None
    heading = " ".join(lines[: marked[0]]).strip()
    after = " ".join(lines[marked[-1] + 1 :]).strip()
    return Listed(heading, tuple(items), after)


_CHAT_LINE = re.compile(
    r"^\s*(?:\[\s*(?:\d{4}-\d\d-\d\d[ T])?\d{1,2}:\d\d(?::\d\d)?\s*(?:[ap]\.?m\.?)?\s*\]|"
    r"(?:\d{4}-\d\d-\d\d[ T])?\d{1,2}:\d\d(?::\d\d)?\s*(?:[ap]\.?m\.?)?)\s*[-–—]?\s*"
    r"(?:<@?(?P<nick>[\w.'’-]{1,30})>\s*:?|@?(?P<who>[\w.'’-]{1,30})\s*:)\s*(?P<said>\S.*)$",
    re.I,
)
"""A chat line: a time, a speaker and what they said ("[14:02] vera: HR wants ...")."""


@dataclass(frozen=True)
class Thread:
    """A pasted chat thread and the reader's request after it."""

    said: tuple[tuple[str, str], ...]
    """Each line's speaker and words, in order."""
    request: str
    """The reader's own words after the thread."""


def thread(text: str) -> Thread | None:
    """The chat thread a message opens with and the request after it, or None.

    Only a thread of lines each led by a time and a speaker, with the reader's words after
    the last of them.
    """
    lines = [line for line in _lines(text) if line.strip()]
    said: list[tuple[str, str]] = []
    at = 0
    while at < len(lines) and (found := _CHAT_LINE.match(lines[at])) is not None:
        said.append((found["who"] or found["nick"], found["said"].strip()))
        at += 1
    if not said or at == len(lines):
        return None
    request = " ".join(" ".join(lines[at:]).split())
    if len(request.split()) < 2:
        return None
    return Thread(tuple(said), request)


_POINT = (
    r"(?:point|note|message|msg|comment|words?|update|line|reply|answer|ask|request|concern|"
    r"suggestion|remark|news|info|summary|take|status|thing|bit)"
)


@dataclass(frozen=True)
class Pointed:
    """A request pointing at what a speaker of the thread said ("vera's point")."""

    words: str
    """What the speaker said."""
    request: str
    start: int
    end: int
    """Where the request points at it."""

    def _with(self, said: str) -> str:
        return " ".join(f"{self.request[: self.start]}{said}{self.request[self.end :]}".split())

    @property
    def quoted(self) -> str:
        """The request with the words quoted in place ('resolve it with "..."')."""
        return self._with('"' + self.words.replace('"', "'") + '"')

    @property
    def said_after(self) -> str:
        """The request with the words after it ("put as a comment on the drill: ...")."""
        return f"{self._with('').rstrip(' .!?')}: {self.words}"

    @property
    def as_told(self) -> Request:
        """The words told before the request, which points at them as "that"."""
        return Request(self.words, self._with("that"))


def with_points_said(found: Thread) -> Pointed | None:
    """The request pointing at what a speaker said, or None when it names none.

    "put vera's point as a comment on the drill task": only a speaker of the thread, named
    with a word for what they said ("bob's note", "what vera said").
    """
    speakers = {who.casefold() for who, _ in found.said}
    for match in _POINTED.finditer(found.request):
        who = (match["who"] or match["who2"]).casefold()
        if who not in speakers:
            continue
        words = " ".join(line for speaker, line in found.said if speaker.casefold() == who)
        return Pointed(words.rstrip(" ."), found.request, match.start(), match.end())
    return None


_POINTED = re.compile(
    rf"\b(?:(?P<who>[\w.'-]+)['’]s\s+{_POINT}s?|what\s+(?P<who2>[\w.'-]+)\s+"
    r"(?:said|says|wrote|writes|mentioned|asked|posted|told\s+us))\b",
    re.I,
)
"""What a speaker said, pointed at ("vera's point", "bob's note", "what dana said")."""


_HOLD = re.compile(r"\b(?:don['’]?t|do\s+not|never|not\s+yet|hold\s+off|ignore)\b", re.I)
"""A heading that takes its items back ("Don't do these yet:")."""


def one_line(said: str) -> str:
    """The message as one line: a list's items joined ("a; b"), its heading left out.

    After a chat thread, the request with a speaker's point as their words.

    A heading says when or why ("After last night:"), not what: read with the items it had
    made the message a telling ("after last night ..." is no request). A heading that holds
    its items back ("not yet:") is kept.
    """
    items = listed(said)
    found = thread(said) if items is None else None
    pointed = with_points_said(found) if found is not None else None
    if pointed is not None:
        return pointed.quoted  # "[14:02] vera: ...\n\nput vera's point as a comment ..."
    if items is None:
        return " ".join(said.split())
    joined = "; ".join(items.items)
    return f"{items.heading} {joined}" if _HOLD.search(items.heading) else joined


_VERB = re.compile(
    r"^(?:(?:and|then|also|plus|oh|pls|please)\s+)*(?:add|put|pop|stick|place|include|rate|"
    r"give|score|remove|take|drop|delete|scrap|get|create|make|start|open|rename|call|move|"
    r"show|find|search|list|tell|recommend|suggest|correct|fix|change|set|mark|close|"
    r"complete|assign|comment|log|record|resolve|new)\b",
    re.I,
)
"""A line that starts with a verb of its own (after "and", "then", "please")."""
_LEAD = re.compile(r"^(?:(?:and|then|also|plus|oh)\s+)+", re.I)


def with_verbs_carried(items: tuple[str, ...]) -> tuple[str, ...]:
    """The items with a verbless line ("Gilead too", "and Dune") read as an addition.

    Only after a line that made or filled a list: "- make a list Deserts", "- put Dune on
    it", "- Gilead too": the last line adds, as the lines before it were about. Else the
    items as they were.
    """
    carried = list(items)
    for at in range(1, len(items)):
        if _VERB.match(items[at]) is not None:
            continue
        before = carried[at - 1]
        if not re.match(r"^(?:create|make|start|add|put|pop|stick|include)\b", before, re.I):
            return items
        carried[at] = f"add {_LEAD.sub('', items[at])}"
    return tuple(carried)
