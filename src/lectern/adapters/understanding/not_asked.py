"""Messages that speak of a change without asking for it now (issue 26, wrong actions).

People mention a change they do not want made: they rule it out ("don't add The Hobbit",
"I'd rather not rename TBR"), report it as done or as a fact ("bob closed the drill
yesterday", "Rebecca is already on Travel", "my friend gave it 5 stars"), ask whether to make
it ("should I give it 5 stars?", "do I need to close the patch task?"), plan or suppose it
("if I finish it I'll add it to Read", "maybe close the runbook later"), pass on someone
else's wish ("my sister wants it on her list", "alice asked me to close it") or recall an
earlier request ("yesterday I asked you to add Dune"). The matchers read the verb and the
book or task and propose the change anyway: a wrong action, the worst thing the rules do.

`not_asked(text)` reads the message clause by clause. A clause is *unasked* when it has one
of those constructs; it is *asked* when it names a change plainly (an imperative, "please",
"can you", "I'd like", or a value said as it should be) without one. The message is not
asked when some clause is unasked and none is asked, so "don't add Kindred, add Beloved
instead" and "Rebecca is already on Travel, so please add Dracula to it" still make their
one change. Another's future ("alice will do this") is an assignment, so not here. The
(`rule_policy.py`) then asks whether the change is wanted instead of proposing it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lectern.adapters.understanding.compound import ACTION_VERB
from lectern.adapters.understanding.layer import Clarification
from lectern.adapters.understanding.workspace_cleared_told import CLEARED
from lectern.domain.assistant import ToolCall

_CHANGE = (
    # The lexicon's verbs of a change (ACTION_VERB: "pull Dune off", "chuck it on", "bin the
    # list"), the workspace's, and the -ing forms a plan or a denial takes ("I won't be adding").
    rf"(?:{ACTION_VERB}|adding|putting|removing|deleting|renaming|rating|giving|creating|"
    r"making|starting|closing|assigning|include|close|complete|assign|reassign|comment|block|"
    r"resolve|set|update|bump|push|reopen|finish|note|lower|raise)"
)
_CHANGE_WORD = re.compile(rf"\b{_CHANGE}\b", re.I)

_PAST = (
    r"(?:added|renamed|rated|gave|deleted|removed|created|assigned|reassigned|"
    r"commented|put|took|closed|resolved|started|moved|changed|set|marked|dropped|asked|told)"
)

_UNASKED = [
    # A change ruled out: "don't add ...", "no need to rate ...", "I won't be adding ...".
    re.compile(
        rf"^(?:(?:no|nope|ok|okay|please|pls|but|and|actually|so)\s+)*"
        rf"(?:don'?t|dont|do\s+not|never|no\s+need\s+to|hold\s+off(?:\s+on)?|stop)\s+"
        rf"(?!forget\b|hesitate\b)(?:\w+\s+){{0,1}}{_CHANGE}",
        re.I,
    ),
    re.compile(
        rf"\b(?:i|we)\s+(?:won'?t|will\s+not|wouldn'?t|would\s+not|(?:'d|would)\s+rather\s+not|"
        rf"never|didn'?t|did\s+not|haven'?t|have\s+not)\s+(?:\w+\s+){{0,2}}?{_CHANGE}",
        re.I,
    ),
    re.compile(rf"\bi\s+never\s+{_PAST}\b", re.I),
    # A change kept from happening: "leave the hunt open", "keep Travel as it is".
    re.compile(
        r"^(?:please\s+)?(?:leave|keep)\b.*\b(?:open|as\s+it\s+is|as\s+is|alone|unchanged|"
        r"where\s+it\s+is|for\s+now)\b",
        re.I,
    ),
    # Whether to make it: "should I ...", "do you think I should ...", "do I need to ...".
    re.compile(
        r"^(?:(?:so|and|but|remind\s+me)\s+)?(?:should\s+(?:i|we)|shall\s+we|"
        # "would it be possible that Dune goes on TBR?" asks for the change, as "... to add" does
        r"do\s+you\s+think|would\s+(?!you\b|u\b|ya\b|it\s+be\s+\w+\s+to\b|"
        r"it\s+be\s+possible\s+(?:that|for)\b)\w+|"
        r"is\s+it\s+(?:a\s+good\s+idea|worth|wise|ok|okay)|what\s+would\s+happen|"
        r"do\s+(?:i|we)\s+(?:need|have)\s+to|did\s+(?:i|we|you|anyone)|"
        r"have\s+(?:i|we|you)\b)",
        re.I,
    ),
    re.compile(r"\btell\s+me\s+(?:if|whether)\b|\bnot\s+sure\b", re.I),
    # Planned or supposed: "if I finish it ...", "maybe I'll ...", "I'm going to ... tomorrow".
    re.compile(
        r"\b(?:i|we)(?:\s+(?:might|may|could|plan\s+to|intend\s+to|was\s+going\s+to|"
        r"were\s+going\s+to)|(?:'m|\s+am|'re|\s+are)\s+(?:going\s+to|gonna|thinking|planning))"
        r"\b(?!\s+(?:need|want|ask)\s+you\b)",
        re.I,
    ),
    re.compile(r"\bmaybe\b.*\b(?:later|tomorrow|next\s+\w+|some\s*day|at\s+some\s+point)\b", re.I),
    # Someone else's wish: "my sister wants ...", "alice asked me to close the drill". A
    # book "says" or "said" a stored value (a correction), so a bare name does not say.
    re.compile(
        r"^(?:my|our|his|her|their)\s+\w+(?:\s+\w+)?\s+(?:wants?|asked\s+(?:me|us)|said|"
        r"says|thinks?|told\s+(?:me|us)|would\s+like|suggested)\b",
        re.I,
    ),
    re.compile(
        r"^(?!i\b|we\b|you\b|please\b|pls\b|just\b|also\b|now\b|then\b|and\b|so\b)[a-z]+\s+"
        r"(?:wants?|asked\s+(?:me|us)|thinks?|told\s+(?:me|us)|would\s+like|suggested)\b",
        re.I,
    ),
    # Done before, or already so: "... yesterday", "Rebecca is already on Travel".
    re.compile(
        r"\b(?:already|yesterday|last\s+(?:week|month|night|time|year)|ago|earlier|"
        r"the\s+other\s+day)\b",
        re.I,
    ),
    re.compile(r"\b(?:i|we)\s+(?:asked|told)\s+you\s+to\b", re.I),
    re.compile(
        rf"^(?:(?:my|our|his|her|their)\s+\w+|he|she|they|someone|somebody|i|we)\s+{_PAST}\b",
        re.I,
    ),
    # A grade someone else gave: "Dune got 4 stars in the paper", "... from the Guardian",
    # "has 4 stars on Goodreads" ("gets 4 stars from me" is the reader's own, and asks).
    re.compile(
        r"\b(?:got|gets|received|earned|has|had|scored)\s+(?:a\s+)?\w+(?:[\s-]+stars?|/\d+)\s+"
        r"(?:in|on|from|by|at|with)\s+(?!me\b|us\b|myself\b)",
        re.I,
    ),
    # A rating denied: "The Hobbit isn't a 2 star book", "I don't think it deserves 5 stars".
    re.compile(r"\b(?:isn'?t|is\s+not|not)\s+(?:a\s+)?\w+[\s-]+stars?\b", re.I),
    re.compile(r"\b(?:don'?t|do\s+not)\s+think\b", re.I),
]

_ASKED = re.compile(
    rf"^(?:(?:ok|okay|so|and|then|but|now|just|also|instead|pls|please|kindly|"
    # "um so like remove ...": spoken fillers lead the change without being a report
    rf"um+|uh+|erm+|hmm+|like|well|right|oh|yeah|yep|"
    # "could u take ...": the polite lead as typed in a hurry
    rf"(?:can|could|would|will)\s+(?:you|u|ya)|plz|"
    rf"(?:is|would)\s+it\s+be\s+(?:possible|ok|okay|alright|fine)\s+to|is\s+it\s+possible\s+to|"
    rf"i(?:'d|\s+would)\s+(?:like|love)\s+(?:you\s+)?to|i\s+want\s+(?:you\s+)?to)\s+)*{_CHANGE}\b",
    re.I,
)
"""A clause that opens with the change asked ("take gilead out, we already did it")."""
_ASKED_IF_YOU = re.compile(
    r"^(?:(?:is|would|will)\s+it\s+be|is\s+it|would\s+you\s+mind)\s+(?:ok|okay|alright|"
    r"all\s+right|fine|possible)?\s*if\s+(?:you|u)\s+(?:could\s+)?[a-z]+",
    re.I,
)
"""A change asked as a wish in the past tense ("would it be ok if you took me off the drill"):
the verb's past is the mood of the wish, not a report of what was done."""

_ASKED_ANYWHERE = re.compile(
    # a value said as it should be ("the list 'Horor' should be 'Horror'") is a correction;
    # "could it go on ...", "so it can come off ...", "X shouldn't be on Read": a wish for it
    r"\bshould\s+(?:be|say|read)\b|"
    r"\b(?:could|can|may)\s+(?:it|this|that|they)\s+(?:go|come\s+(?:off|out)|be\s+\w+ed)\b|"
    r"\b(?:it|this|that|they)\s+(?:could|can|may)\s+(?:go|come\s+(?:off|out))\b|"
    # "..., which means that one can be completed": the task the report names, to close
    r"\b(?:this|that)\s+one\s+(?:can|could|may)\s+(?:now\s+)?be\s+(?:closed|completed|resolved|"
    r"marked|ticked|finished|wrapped)\b|"
    r"\b(?:shouldn'?t|should\s+not)\s+be\s+(?:on|in)\b|\bdoesn'?t\s+belong\b",
    re.I,
)
_CLEARED_NOW = CLEARED
"""A blocker said to be cleared now ("blocker's cleared, hotfix went in last night"): the
record is still open, so the news asks for it to say so (`workspace_cleared_told`)."""

_CONDITION = re.compile(
    r"^(?:if|once|when|whenever|as\s+soon\s+as|in\s+case|after)\s+"
    r"(?!you\b|u\b|possible\b|poss\b|convenient\b|so\b|that\b|this\b|that'?s\s+ok)",
    re.I,
)
"""A condition put first ("once the gateways are patched, close the task") holds the rest."""

_CLAUSES = re.compile(r"\s*(?:[,;.!?:]|\s-\s|\s(?:but|so|and\s+then)\s)\s*", re.I)


def _unasked(clause: str) -> bool:
    return any(pattern.search(clause) for pattern in _UNASKED)


def not_asked(text: str) -> bool:
    """Whether the message speaks of a change without asking for one now.

    True when some clause rules a change out, reports it, asks whether to make it, plans
    or supposes it, passes on another's wish or recalls an earlier request, and no clause
    asks for a change plainly.
    """
    if _CONDITION.search(text.strip()):
        return True
    clauses = [c for c in _CLAUSES.split(text.strip()) if c]
    unasked = [c for c in clauses if _unasked(c)]
    if not unasked:
        return False
    if any(_ASKED.search(c) or _ASKED_IF_YOU.search(c) for c in clauses):
        return False
    return not any(
        (_ASKED_ANYWHERE.search(c) or _CLEARED_NOW.search(c)) and not _unasked(c) for c in clauses
    )


_SAID_AS = {
    "add_to_list": "add {book} to {list}",
    "remove_from_list": "remove {book} from {list}",
    "rate_book": "rate {book} {stars} stars",
    "delete_list": "delete the list {list}",
    "rename_list": "rename the list {list} to {new_name}",
    "create_list": "create a list called {name}",
    "complete_task": "mark {task_id} done",
    "assign_task": "assign {task_id} to {assignee_id}",
    "add_comment": "comment on {task_id}",
    "create_blocker": "record a blocker on {task_id}",
}
"""How a change is said back as the request that would make it (the others are not named)."""


_RULED_OUT = (*_UNASKED[:4], *_UNASKED[-2:])
"""The constructs that say the change is not wanted ("don't add", "leave it open", "isn't a
2 star book"): the reply says nothing was changed and asks nothing back."""


def asked_whether(text: str, calls: Sequence[ToolCall] = ()) -> Clarification:
    """The reply instead of a change the message did not ask for.

    A change ruled out is left undone and said so. Otherwise, with one change the rules
    read, it is named and saying it as a request is offered: "my wife wants Rebecca on Cosy
    reads" -> "Do you want me to add Rebecca to Cosy reads?".
    """
    said = [_said(c) for c in calls]
    clauses = [c for c in _CLAUSES.split(text.strip()) if c]
    if any(p.search(c) for p in _RULED_OUT for c in clauses):
        if len(said) == 1 and said[0]:
            return Clarification(f"All right, I won't {said[0]}: nothing has changed.", ())
        return Clarification("All right: I haven't changed anything.", ())
    if len(said) == 1 and said[0] is not None:
        return Clarification(
            "I haven't changed anything: that reads as something told or wondered about, not asked "
            "for now. "
            f"Do you want me to {said[0]}?",
            (said[0][:1].upper() + said[0][1:], "No, leave it"),
        )
    return Clarification(
        "I haven't changed anything: that reads as something told or wondered about, not asked "
        "for now. "
        "Do you want me to make a change? If so, tell me which.",
        (),
    )


def _said(call: ToolCall) -> str | None:
    template = _SAID_AS.get(call.name)
    if template is None:
        return None
    try:
        return template.format(**{k: str(v) for k, v in call.arguments.items()})
    except KeyError:
        return None
