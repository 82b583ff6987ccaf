"""Follow-ups to standalone questions: rules offline, the configured model when there is one.

"And for AAL3?" after "How often must a subscriber reauthenticate at AAL2?" becomes "How
often must a subscriber reauthenticate at AAL3?": a named thing of the same kind (an
assurance level, an RFC, a status code, a header field) replaces its counterpart in the
previous question. A follow-up that names nothing of a known kind is searched together with
the previous question. A question that stands on its own is left as it is.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import structlog

from lectern.adapters.llm.guideline_policy import question_terms
from lectern.adapters.llm.schemas import StandaloneQuestionLLM
from lectern.application.ports import LLMClient
from lectern.domain.assistant import Message
from lectern.errors import LecternError

log = structlog.get_logger(__name__)

_KINDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("aal", re.compile(r"\bAAL\s?[1-3]\b", re.I)),
    ("ial", re.compile(r"\bIAL\s?[1-3]\b", re.I)),
    ("fal", re.compile(r"\bFAL\s?[1-3]\b", re.I)),
    ("rfc", re.compile(r"\bRFC\s?\d{3,5}\b", re.I)),
    ("status", re.compile(r"\b[1-5]\d\d\b")),
    ("http", re.compile(r"\bHTTP/\d(?:\.\d)?\b", re.I)),
    ("tls", re.compile(r"\bTLS\s?1\.[0-3]\b", re.I)),
    ("header", re.compile(r"\b[A-Z][a-z]+(?:-[A-Z][a-z]+)+\b")),
)
_LEAD = re.compile(
    r"^(?:and|also|but|so|ok(?:ay)?|then)?\s*(?:(?:what|how)\s+(?:about|abt)\b)?\s*"
    r"(?:for|at|in|with|under|on)?\s+",
    re.I,
)
"""What leads a follow-up's own words ("and what about for ...", "ok for ..."): "what" and "how"
only before "about" ("how many failed scans ..." keeps its "how many")."""
_LEVEL = re.compile(
    r"\b(?P<which>highest|top|strongest|maximum|max|lowest|bottom|weakest|minimum|min|next|"
    r"higher|lower)\s+(?:one|level|assurance\s+level|tier)\b",
    re.I,
)
"""An assurance level named by its place ("the highest level", "the lowest one", "the next
level"): the previous question's AAL, IAL or FAL says which kind and from where."""
_LEVELLED = ("aal", "ial", "fal")
_FOLLOW_UP_START = re.compile(
    r"^(?:(?:ok(?:ay)?|so|right|alright)\W+(?=and\b))?"
    r"(?:and\b|also\b|what about\b|how about\b|same\b|what if\b|for\b|at\b|in\b|with\b)",
    re.I,
)
"""How a follow-up starts; "ok and ..." is a follow-up as "and ..." is."""
_OWN_QUESTION = re.compile(
    r"\b(?:how|what|which|when|where|who|why|can|could|must|should|is|are|does|do)\b", re.I
)
OWN_WORDS = 2
"""A follow-up with a question word and this many content words besides the named thing
("and at AAL3, how long can the user be idle?") asks its own question: its words stay."""
_BACK_REFERENCE = re.compile(r"\b(?:it|its|they|them|their|that|this|those|these|one)\b", re.I)
_STARTER = re.compile(r"^(?:(?:ok(?:ay)?|so|right|alright)\W+)?(?:and|also|but)\b\W*", re.I)
SHORT_WORDS = 6
"""A question this short that refers back ("is that required?") is a follow-up."""


def is_follow_up(question: str) -> bool:
    """True for questions that lean on the one before ("and for AAL3?", "is it required?")."""
    text = question.strip()
    if _FOLLOW_UP_START.match(text):
        return True
    return len(text.split()) <= SHORT_WORDS and bool(_BACK_REFERENCE.search(text))


def _previous_question(history: Sequence[Message]) -> str | None:
    """The last question before this one, standalone.

    A follow-up of a follow-up leans on what the one before it meant ("and if they walk away,
    after how much idle time?" after "what about the highest level?" after a question on AAL2
    sessions), not on its words.
    """
    users = [i for i, m in enumerate(history) if m.role == "user" and m.content.strip()]
    if not users:
        return None
    last = users[-1]
    said = " ".join(history[last].content.split())
    if len(users) == 1 or not is_follow_up(said):
        return said
    return RuleFollowUpRewriter().rewrite(history[:last], said)


def _by_place(text: str, previous: str) -> str | None:
    """The previous question with its level moved to the one the follow-up names by place."""
    place = _LEVEL.search(text)
    if place is None:
        return None
    for kind, pattern in _KINDS:
        old = pattern.search(previous) if kind in _LEVELLED else None
        if old is None:
            continue
        level = int(old.group(0)[-1])
        which = place.group("which").casefold()
        if which in ("highest", "top", "strongest", "maximum", "max"):
            level = 3
        elif which in ("lowest", "bottom", "weakest", "minimum", "min"):
            level = 1
        else:
            level = level + 1 if which in ("next", "higher") else level - 1
        if not 1 <= level <= 3:
            return None
        named = f"{kind.upper()}{level}"
        return previous[: old.start()] + named + previous[old.end() :]
    return None


class RuleFollowUpRewriter:
    """Replaces the named thing a follow-up changes; else searches it with the last question."""

    def rewrite(self, history: Sequence[Message], question: str) -> str:
        """The standalone form of the question."""
        previous = _previous_question(history)
        text = " ".join(question.split())
        if previous is None or not is_follow_up(text):
            return text
        for _, pattern in _KINDS:
            new = pattern.search(text)
            old = pattern.search(previous)
            if new and old:
                rest = text[: new.start()] + " " + text[new.end() :]
                if _OWN_QUESTION.search(rest) and len(question_terms(rest)) >= OWN_WORDS:
                    return _STARTER.sub("", text).strip() or text
                return previous[: old.start()] + new.group(0) + previous[old.end() :]
        placed = _by_place(text, previous)
        if placed is not None:
            # "what about the highest level, same numbers?": the level moved, the rest kept
            return placed
        rest = _LEAD.sub("", _STARTER.sub("", text)).strip(" ?.!")
        if not rest:
            return previous
        return f"{previous.rstrip(' ?.!')}: {rest}?"


class LlmFollowUpRewriter:
    """The configured model rewrites follow-ups (prompt `guide-rewrite-v1`); rules back it."""

    def __init__(self, llm: LLMClient, fallback: RuleFollowUpRewriter | None = None) -> None:
        """A model failure or an empty answer falls back to the rules."""
        self.llm = llm
        self.fallback = fallback or RuleFollowUpRewriter()

    def rewrite(self, history: Sequence[Message], question: str) -> str:
        """The model's standalone question, or the rules' when it cannot give one."""
        turns = [m for m in history if m.role in ("user", "assistant") and m.content.strip()]
        if not any(m.role == "user" for m in turns):
            return question
        conversation = "\n".join(f"{m.role}: {m.content.strip()[:600]}" for m in turns[-6:])
        try:
            answer = self.llm.complete(
                "guide_rewrite",
                {"history": conversation, "question": question},
                StandaloneQuestionLLM,
            )
        except LecternError as error:
            log.warning("follow-up rewrite by the model failed", error=str(error))
            return self.fallback.rewrite(history, question)
        rewritten = " ".join(answer.question.split())
        return rewritten or self.fallback.rewrite(history, question)
