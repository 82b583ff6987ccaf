"""The question gate: is a turn a question the knowledge base should answer?"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from lectern.domain.answering.terms import WORD, content_terms
from lectern.domain.answering_words import (
    ADVICE_LEADS,
    CHIT_CHAT,
    FAILING,
    FEATURE_NOUNS,
    GREETING_TAILS,
    LATER_QUESTION_WORDS,
    LEADING_ADVERBS,
    NEGATED_ABILITY,
    NEVER_DONE,
    NEVER_PASSIVE,
    NOT_A_FAILURE,
    QUALIFIERS,
    QUESTION_WORDS,
    REQUEST_PHRASES,
    REQUEST_VERBS,
    SOCIAL_VERBS,
    STATEMENT_WORDS,
    TASK_VERBS,
    WISH_PHRASES,
    WORKING,
)

GateKind = Literal["question", "not_a_question", "chit_chat", "off_topic", "empty"]


_OPENERS = re.compile(
    r"^(?:(?:hi|hello|hey|yo|ok|okay|so|also|please|quick question|question|thanks|"
    r"thank you|@\w+)[\s,!.:;-]*)+",
    re.I,
)


_THANKS = re.compile(r"^(?:thanks|thank you|thx|ty|cheers|much appreciated)\b", re.I)


@dataclass(frozen=True, slots=True)
class GateDecision:
    """What the gate made of a turn, and why."""

    decision: GateKind
    reason: str
    question: str = ""
    """The turn without greetings: what the rest of the graph answers."""


def _plain(text: str) -> str:
    words = re.sub(r"[^\w\s']", " ", text.casefold().replace("\u2019", "'")).split()
    return " ".join(_apostrophe(w) for w in words)


def _apostrophe(word: str) -> str:
    """A negated contraction typed without its apostrophe, written with it ("doesnt").

    Chat writes "doesnt", "cant", "wont", "isnt": a word ending in "nt" whose form with
    "n't" is a contraction the gate knows (`STATEMENT_WORDS`) is that contraction.
    """
    if len(word) < 4 or not word.endswith("nt") or "'" in word:
        return word
    contracted = f"{word[:-2]}n't"
    return contracted if contracted in STATEMENT_WORDS else word


def _is_small_talk(text: str) -> bool:
    words = _plain(text).split()
    while len(words) > 1 and words[-1] in GREETING_TAILS:
        words.pop()
    return not words or " ".join(words) in CHIT_CHAT


_SUBJECT_REQUEST = re.compile(
    r"^(?:(?:can|could|would) you\s+)?(?:please\s+)?"
    r"(?:tell me(?: more)? about|what (?:is|are|was|were)|who (?:is|was|are|were)|describe|"
    r"explain)\s+(?P<subject>[^?.!]+?)[\s?.!]*$",
    re.I,
)
MAX_SUBJECT_TERMS = 3
"""A request naming more words than this asks something of its subject, not for its page."""


def requested_subject(question: str) -> str | None:
    """The subject of a request that names a subject and nothing else, else None.

    "tell me about the horse latitudes" and "who is Chad DiMera?" ask for a page about their
    subject (a topic switch in a thread is often one); "who has played Chad DiMera on Days
    of our Lives" asks something of it, and "what is the function of insulin and where is
    it produced" names more than a subject.
    """
    match = _SUBJECT_REQUEST.match(" ".join(question.split()))
    if match is None:
        return None
    subject = match.group("subject").strip()
    if any(word in QUESTION_WORDS for word in _plain(subject).split()):
        return None  # a second question inside: "... and where is it produced"
    terms = content_terms(subject)
    return subject if 0 < len(terms) <= MAX_SUBJECT_TERMS else None


def title_share(subject: str, title: str) -> float:
    """The share of a title's words that a requested subject names (1.0: the page's name).

    0 unless the title holds every word of the subject: "london" names a fifth of "London
    Bridge (Lake Havasu City)", "the bronx" all of "The Bronx", "the role in canada" none
    of "Prime Minister of Canada".
    """
    named, titled = set(content_terms(subject)), content_terms(title)
    if not titled or not named <= set(titled):
        return 0.0
    return round(len(named) / len(titled), 4)


MIN_TASK_WORDS = 3
"""A task verb leads a request when the message names what it acts on ("set a cookie"), not
a bare word ("test", "log")."""


def _task_request(words: list[str]) -> bool:
    """Whether a line is led by a task verb, or its -ing form ("serving css from a folder")."""
    while words and words[0] in LEADING_ADVERBS:
        words = words[1:]
    joined = " ".join(words)
    if len(words) < MIN_TASK_WORDS or any(joined.startswith(lead) for lead in ADVICE_LEADS):
        return False
    first = words[0]
    if first in TASK_VERBS:
        return True
    if not first.endswith("ing") or len(first) < 6:
        return False
    stem = first[:-3]
    # serving -> serve, sending -> send, setting -> set (a doubled last letter)
    return bool({stem, stem + "e", stem[:-1] if stem[-1:] == stem[-2:-1] else stem} & TASK_VERBS)


MAX_WISHED_HEAD = 3
"""At most this many words between the article and the part wished for ("a middleware")."""


def _task_verb(words: list[str]) -> bool:
    """Whether the first of some words is a task verb ("return", "measure")."""
    return bool(words) and words[0] in TASK_VERBS


def _wishes_a_task(joined: str) -> bool:
    """Whether a line wishes for a task or for a part of a web service.

    "I want to" + a verb + what it acts on; the same with its subject dropped at the start of
    a line, as notes are written ("want to measure how long every request takes"); or a wish
    for a part, then what it does ("I'd like a middleware that times every request").
    """
    padded = f" {joined} "
    for phrase in WISH_PHRASES:
        at = padded.find(f" {phrase} ")
        length = len(phrase)
        if at < 0:
            dropped = phrase.split(" ", 1)[1]  # "i want to" -> "want to"
            if not joined.startswith(f"{dropped} ") or dropped.startswith("like"):
                continue
            at, length = -1, len(dropped)
            if not _task_verb(padded[length + 1 :].split()[:1]):
                continue  # "want to go home early": no task asked without its subject
        after = padded[at + length + 2 :].split()
        if len(after) >= 2 and after[0] not in SOCIAL_VERBS:
            return True
    for phrase in {p.removesuffix(" to") for p in WISH_PHRASES}:
        at = padded.find(f" {phrase} ")
        if at >= 0 and _wished_part(padded[at + len(phrase) + 2 :].split()):
            return True
    return False


def _wished_part(after: list[str]) -> bool:
    """Whether words after "I want" are a part of a web service and what it should do."""
    if len(after) < 3 or after[0] not in ("a", "an", "some"):
        return False
    head = after[1 : 1 + MAX_WISHED_HEAD]
    at = next((i for i, w in enumerate(head) if w.removesuffix("s") in FEATURE_NOUNS), None)
    return at is not None and len(after) > at + 2


def _asks_later(line: str) -> bool:
    """Whether a clause after the first (after a comma, a semicolon or a dash) is a question."""
    for clause in re.split(r"[,;]\s+|\s+-+\s+", line)[1:]:
        words = _plain(clause).split()
        if len(words) >= 3 and words[0] in LATER_QUESTION_WORDS and words[1] not in ("a", "an"):
            return True
    return False


def _tasks_later(line: str) -> bool:
    """Whether a clause after the first (after a comma, colon, semicolon or dash) is a task.

    A topic named first and the task after it ("partial update: only change the fields the
    client sent", "basic auth, protect every route with a password") asks how to do it.
    """
    for clause in re.split(r"[,:;]\s+|\s+-+\s+", line)[1:]:
        words = _plain(clause).split()
        if _task_request(words):
            return True
    return False


MIN_FEATURE_WORDS = 4
"""A named feature asks when it is qualified ("cookie with the httponly flag"), not bare."""
MAX_FEATURE_HEAD = 4
"""At most this many words before the preposition: a name, not a clause."""


def _names_a_feature(words: list[str]) -> bool:
    """Whether a line names a feature of a web service and what qualifies it, and says nothing.

    "custom exception handler for my own error class": a few words ending in a kind of part
    (`FEATURE_NOUNS`), then a preposition and its qualifier. A subject, a finite verb or a
    past tense makes it a statement ("the session handler crashed on startup").
    """
    if len(words) < MIN_FEATURE_WORDS or any(w in STATEMENT_WORDS for w in words):
        return False
    if any(w.endswith("ed") and len(w) > 4 for w in words):
        return False
    joint = next((at for at, w in enumerate(words) if w in QUALIFIERS), None)
    if joint is None or not 0 < joint <= MAX_FEATURE_HEAD or joint == len(words) - 1:
        return False
    return any(w in FEATURE_NOUNS or w.removesuffix("s") in FEATURE_NOUNS for w in words[:joint])


_PROMISERS = frozenset({"i", "we", "you"})


def _never_done(after: list[str]) -> bool:
    """Whether the words after "never" say what should have happened ("runs", "gets called")."""
    if after[0] in NEVER_PASSIVE:
        return len(after) > 1 and after[1].endswith(("ed", "en"))
    return after[0] in NEVER_DONE


def _a_feeling(words: list[str]) -> bool:
    """Whether a line opens with a negation and a feeling or a stance ("doesn't matter").

    "cant complain" or "won't happen again" asks nothing, as "it doesn't matter" does not.
    """
    return len(words) > 1 and words[0] in NEGATED_ABILITY and words[1] in NOT_A_FAILURE


def _states_a_failure(words: list[str]) -> bool:
    """Whether a line reports that something fails ("the /docs page can't find openapi.json").

    A negated ability between what fails and the verb it fails at ("uvicorn won't start",
    "the shutdown hook never runs"); a feeling ("I can't wait") or a promise or a habit ("I
    won't ...", "we never ...") is not a failure. Something that works in one place "but" not
    in another ("works fine locally, but in prod ...") is one too.
    """
    for at, word in enumerate(words[1:-1], start=1):
        if word not in NEGATED_ABILITY or words[at + 1] in NOT_A_FAILURE:
            continue
        if word in ("won't", "never") and words[at - 1] in _PROMISERS:
            continue
        if word == "never" and not _never_done(words[at + 1 :]):
            continue  # "the docs never lie", "it never rains": no report of a failure
        return True
    works = next((at for at, w in enumerate(words) if w in WORKING), None)
    if works is None or works == 0 or "but" not in words[works + 1 :]:
        return False
    after = words[words.index("but", works + 1) + 1 :]
    # "works locally but not with gunicorn", "... but returns 502"; not "but thanks anyway"
    return any(w in FAILING or w.endswith("n't") or re.fullmatch(r"[45]\d\d", w) for w in after)


_RAISED = re.compile(r"\b[A-Z][A-Za-z]*(?:Error|Exception)\b|\bTraceback\b")
"""An exception class as Python names it ("RuntimeError", "HTTPException") or a traceback."""


def _quotes_an_error(line: str) -> bool:
    """Whether a line quotes a raised error ("... -> RuntimeError: Task attached to ...").

    In a support channel a pasted error asks what causes it; the name must be written as
    Python writes it (capitalised, ending in "Error" or "Exception"), then a colon; not one
    said to be settled after it ("thanks, the KeyError: was my typo, all good now").
    """
    return any(
        line[m.end() : m.end() + 1] == ":" and not _RESOLVED.search(line[m.end() :])
        for m in _RAISED.finditer(line)
    )


_RESOLVED = re.compile(
    r"\b(?:was|were) (?:my|our|a) (?:typo|bad|mistake|fault)|\bmy bad\b|\ball good\b|"
    r"\b(?:solved|resolved|fixed|sorted)\b",
    re.I,
)
"""An error said to be settled after it ("the KeyError: was my typo, all good now")."""


def classify_turn(text: str) -> GateDecision:
    """The offline gate: empty, chit-chat, a question (or a request), or not a question."""
    stripped = " ".join(text.split())
    if not WORD.search(stripped):
        return GateDecision("empty", "the message has no words")
    rest = _OPENERS.sub("", stripped).strip()
    question = rest or stripped
    lines = [line for line in text.splitlines() if WORD.search(line)]
    if not rest or _is_small_talk(question) or all(_is_small_talk(line) for line in lines):
        return GateDecision("chit_chat", "a greeting, thanks or acknowledgement")
    for line in re.split(r"(?<=[.!?])\s+|\n", question):
        words = _plain(line).split()
        if not words:
            continue
        if line.rstrip().endswith("?"):
            return GateDecision("question", "it ends with a question mark", question)
        if words[0] in QUESTION_WORDS and not _a_feeling(words):
            return GateDecision("question", f"it starts with {words[0]!r}", question)
        if words[0] in REQUEST_VERBS:
            return GateDecision("question", f"a request ({words[0]!r})", question)
        joined = " ".join(words)
        if any(joined.startswith(p) for p in REQUEST_PHRASES):
            return GateDecision("question", "a request for information", question)
        if _task_request(words):
            return GateDecision("question", f"a how-to request ({words[0]!r})", question)
        if _wishes_a_task(joined):
            return GateDecision("question", "a wish for a task (a how-to request)", question)
        if _asks_later(line):
            return GateDecision("question", "a question in a later clause", question)
        if _tasks_later(line):
            return GateDecision("question", "a task in a later clause (a how-to request)", question)
        if _names_a_feature(words):
            return GateDecision("question", "a feature named with its qualifier", question)
        if _states_a_failure(words):
            return GateDecision("question", "a failure stated (a request for help)", question)
        if _quotes_an_error(line):
            return GateDecision("question", "an error quoted (a request for help)", question)
    if _THANKS.match(stripped):
        return GateDecision("chit_chat", "thanks, and no question after them")
    return GateDecision("not_a_question", "no question or request in the message")
