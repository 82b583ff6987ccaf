"""A conversation's last turn as a standalone question, before retrieval (the KB reply).

Offline rules (`RuleStandaloneRewriter`): the thread's subject is the subject of its last
self-contained question; a later turn that leans on it (pronoun-led: "does it work with
websockets too?"; elliptical: "and in version 2?", "what about path parameters?") gets it
carried in; a turn that names its own subject is a topic switch and stays as written, and
becomes the thread's new subject. With a model, `LlmStandaloneRewriter` asks it
(prompt `kb-standalone-v1`) and falls back to the rules when it fails.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import structlog

from lectern.adapters.llm.schemas import StandaloneQuestionLLM
from lectern.application.ports import LLMClient
from lectern.domain.answering import ConversationMessage, classify_turn, content_terms
from lectern.domain.answering_words import QUESTION_WORDS, REQUEST_VERBS
from lectern.errors import LecternError

log = structlog.get_logger(__name__)

_PRONOUNS = frozenset(
    [
        "it",
        "its",
        "it's",
        "they",
        "them",
        "their",
        "theirs",
        "this",
        "that",
        "these",
        "those",
        "he",
        "she",
        "him",
        "his",
        "her",
        "one",
        "ones",
    ]
)
_FOLLOW_UP_START = re.compile(
    r"^(?:and|also|but|plus|what about|how about|same|what if|then|ok(?:ay)?(?:,)? and)\b", re.I
)
_ELLIPSIS_LEAD = re.compile(
    r"^(?:(?:and|also|but|plus|then|ok(?:ay)?)[\s,]+)*(?:(?:what|how)\s+about|what\s+if)?\s*",
    re.I,
)
_FRAME = re.compile(
    r"^(?:(?:hi|hey|hello|so|ok(?:ay)?|also|please)[\s,!]+)*"
    r"(?:(?:can|could|would) you\s+)?(?:tell me (?:about|more about)|explain|describe|"
    r"what (?:is|are|was|were)(?: an?| the)?|who (?:is|was|are|were)|"
    r"(?:how|why|when|where|what|which|who)(?:\s+\w+)?\s+(?:do|does|did|can|could|should|"
    r"would|will|is|are|was|were|has|have|had)\s+(?:i|we|you|one)?\s*(?:\w+)?|"
    r"(?:how|why|when|where|what|which|who)\s+(?:do|does|did|can|could|should|would|will|is|"
    r"are|was|were|has|have|had)|how to\s+\w+|(?:how|why|when|where|what|which|who))\b\s*",
    re.I,
)
_TRAILING = re.compile(r"[\s?.!]+$")
_TOO = re.compile(r"\s+(?:too|as well|also)(?=[\s?.!]*$)", re.I)
MIN_OWN_TERMS = 3
"""A turn naming more content words of its own than this (pronouns apart) stands on its own,
unless it holds a personal pronoun."""
_REFERRING = frozenset(["it", "its", "they", "them", "their", "he", "she", "him", "his", "her"])
"""Pronouns that point back wherever they stand ("where does it get its name from")."""
MAX_REFERRING_TERMS = 6
"""A turn holding one of them leans on the thread unless it names this many words itself."""


def _words(text: str) -> list[str]:
    return re.findall(r"[\w'-]+", text.casefold())


def leans_on_thread(turn: str) -> bool:
    """True for turns that need the earlier ones: pronoun-led, elliptical or "and ..."."""
    text = " ".join(turn.split())
    words = _words(text)
    if not words:
        return False
    own = [t for t in content_terms(text) if t not in _PRONOUNS]
    if _FOLLOW_UP_START.match(text) and len(own) <= MIN_OWN_TERMS:
        return True
    if any(w in _REFERRING for w in words) and len(own) < MAX_REFERRING_TERMS:
        return True
    if any(w in _PRONOUNS for w in words[:4]) and len(own) <= MIN_OWN_TERMS:
        return True
    framed = (
        words[0] in QUESTION_WORDS
        or words[0] in REQUEST_VERBS
        or text.casefold().startswith("tell me")
    )
    return not framed and len(own) < MIN_OWN_TERMS and len(words) <= 6


def subject_of(question: str) -> str:
    """The subject of a self-contained question: its words after the question frame."""
    text = _TRAILING.sub("", " ".join(question.split()))
    rest = _FRAME.sub("", text, count=1).strip()
    if len(content_terms(rest)) == 0:
        rest = text
    return rest


def _questions(earlier: Sequence[ConversationMessage], author: str | None) -> list[str]:
    asked = []
    for message in earlier:
        if author is not None and message.author != author:
            continue
        decision = classify_turn(message.text)
        if decision.decision == "question":
            asked.append(decision.question)
    return asked


class RuleStandaloneRewriter:
    """Carries the thread's subject into turns that lean on it; topic switches stay as written."""

    name = "rules"

    def rewrite(
        self, earlier: Sequence[ConversationMessage], turn: str, author: str | None = None
    ) -> str:
        """The standalone form of `turn` given the earlier messages (oldest first)."""
        text = " ".join(turn.split())
        if classify_turn(text).decision in ("empty", "chit_chat"):
            return text  # "thanks!" is not a question about the thread's subject
        previous = ""
        for question in _questions(earlier, author):
            if not previous or not leans_on_thread(question):
                previous = " ".join(question.split())
            else:
                previous = self._carry(previous, question)
        if not previous or not leans_on_thread(text):
            return text
        return self._carry(previous, text)

    @staticmethod
    def _carry(previous: str, turn: str) -> str:
        """`turn` with the subject of `previous` (a standalone question) carried in."""
        subject = subject_of(previous)
        words = turn.split()
        for position, word in enumerate(words):
            bare = word.casefold().strip("?.!,;:")
            if bare in _PRONOUNS:
                suffix = word[len(word.rstrip("?.!,;:")) :]
                possessive = bare in ("its", "their", "theirs", "his", "her")
                replacement = f"{subject}'s" if possessive else subject
                return " ".join([*words[:position], replacement + suffix, *words[position + 1 :]])
        rest = _TRAILING.sub("", _TOO.sub("", _ELLIPSIS_LEAD.sub("", turn, count=1))).strip()
        base = _TRAILING.sub("", previous)
        if not rest:
            return f"{base}?"
        if rest.split()[0].casefold() in _PREPOSITIONS or not content_terms(rest):
            return f"{base} {rest}?"
        if subject and subject in base:
            return f"{base[: base.rindex(subject)]}{rest}?"
        return f"{base} {rest}?"


_PREPOSITIONS = frozenset(
    [
        "in",
        "on",
        "at",
        "for",
        "with",
        "under",
        "from",
        "by",
        "to",
        "into",
        "over",
        "of",
        "since",
        "before",
        "after",
    ]
)


class LlmStandaloneRewriter:
    """The configured model writes the standalone question (`kb-standalone-v1`); rules back it."""

    name = "model"

    def __init__(self, llm: LLMClient, fallback: RuleStandaloneRewriter | None = None) -> None:
        """A model failure or an empty answer falls back to the rules."""
        self.llm = llm
        self.fallback = fallback or RuleStandaloneRewriter()

    def rewrite(
        self, earlier: Sequence[ConversationMessage], turn: str, author: str | None = None
    ) -> str:
        """The model's standalone question, or the rules' when it cannot give one."""
        lines = [f"{m.author}: {m.text.strip()[:600]}" for m in earlier if m.text.strip()]
        if not lines:
            return " ".join(turn.split())
        try:
            answer = self.llm.complete(
                "kb_standalone",
                {"history": "\n".join(lines[-8:]), "question": turn},
                StandaloneQuestionLLM,
            )
        except LecternError as error:
            log.warning("kb.standalone_rewrite_failed", error=str(error))
            return self.fallback.rewrite(earlier, turn, author)
        rewritten = " ".join(answer.question.split())
        return rewritten or self.fallback.rewrite(earlier, turn, author)
