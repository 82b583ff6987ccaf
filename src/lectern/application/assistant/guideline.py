"""The guideline agent (issue 20): the assistant's loop over one guidance collection.

One tool, `search_guidelines` over the profile's collection (`guideline_search.py`); the
profile's prompt; and guardrails of its own, in code, on the whole answer before anyone sees it:

- tool use: an answer given without searching in this turn is replaced by the refusal
  (`no_retrieval`);
- evidence: a search that found nothing relevant gets the refusal (`no_evidence`);
- citations: every label cited must name a passage retrieved in this turn; others are cut
  (`invalid_citations_dropped`); an answer left citing nothing is refused
  (`missing_citations`);
- numbers: every number, threshold, duration, age and version must appear in a passage
  retrieved in this turn; a sentence stating one that does not is removed
  (`unsupported_number`), and if nothing cited is left the answer is refused.

Follow-ups are rewritten into a standalone question before the loop runs (rules offline,
the model when configured); every turn searches afresh; sessions keep text turns only.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from typing import Protocol

import structlog

from lectern.application.assistant.guardrails import GuardedReply, TurnFacts
from lectern.application.assistant.guideline_search import (
    GUIDE_TOOL as GUIDE_TOOL,  # re-exported: adapters/llm/guideline_policy.py imports it from here
)
from lectern.application.assistant.guideline_search import (
    GuidelineSearch,
    RetrievedPassage,
    SearchGuidelines,
)
from lectern.application.assistant.ports import (
    AssistantObserver,
    ChatModel,
    PiiDetector,
    SessionStore,
    TurnListener,
)
from lectern.application.assistant.prompts import GUIDE_PROMPT_VERSION, guideline_prompt
from lectern.application.assistant.registry import ToolRegistry
from lectern.application.assistant.service import AssistantConfig, AssistantService, StepTrace
from lectern.application.ports import LLMTracer
from lectern.domain.assistant import ChatCitation, GroundingFlag, Message, ToolCall
from lectern.domain.evidence import Evidence, check_numbers, sentences
from lectern.domain.guidance import (
    DEFAULT_MIN_SIMILARITY,
    DEFAULT_TOP_K,
    GUIDE_LABEL,
    MAX_TOP_K,
    GuideProfile,
    normalise_label,
)
from lectern.domain.privacy import mask, masked_notice
from lectern.domain.snippets import best_snippet, locate_snippet
from lectern.errors import (
    CollectionNotFoundError,
    InvalidQueryError,
    LecternError,
    NotFoundError,
)

log = structlog.get_logger(__name__)

_QUOTE = re.compile(r"[\"“]([^\"”\n]{12,400})[\"”]")
SESSION_PREFIX = "guide:"
"""Guideline sessions live beside the assistant's conversations under their own keys."""


# --- guardrails ---------------------------------------------------------------------------


def is_refusal(text: str, refusal: str) -> bool:
    """True when the answer is (or contains) the profile's refusal sentence."""
    folded = " ".join(text.split()).casefold()
    return bool(folded) and " ".join(refusal.split()).casefold() in folded


def guard_guideline(text: str, facts: TurnFacts, *, profile: GuideProfile) -> GuardedReply:
    """The guideline agent's checks, in order (module docstring); flags say which fired."""
    flags: list[GroundingFlag] = []
    if facts.gate_dropped:
        flags.append("low_relevance_dropped")
    if facts.retrieval_calls == 0:
        return GuardedReply(profile.refusal, (), (*flags, "no_retrieval"))
    if not facts.evidence:
        return GuardedReply(profile.refusal, (), (*flags, "no_evidence"))
    if is_refusal(text, profile.refusal):
        return GuardedReply(profile.refusal, (), tuple(flags))
    known = {normalise_label(label): label for label in facts.evidence}
    dropped = 0

    def keep_known(match: re.Match[str]) -> str:
        nonlocal dropped
        label = known.get(normalise_label(match.group(0)))
        if label is None:
            dropped += 1
            return ""
        return str(label)

    text = GUIDE_LABEL.sub(keep_known, text)
    if dropped:
        flags.append("invalid_citations_dropped")
        text = re.sub(r"[ \t]+", " ", text)
        text = re.sub(r" +([.,;:])", r"\1", text).strip()
    checked = check_numbers(text, Evidence.of(facts.evidence.values()))
    if checked.removed:
        flags.append("unsupported_number")
        log.warning(
            "guideline answer: unsupported numbers removed",
            numbers=[m.text for m in checked.unsupported],
            sentences=len(checked.removed),
        )
    cited = list(dict.fromkeys(m.group(0) for m in GUIDE_LABEL.finditer(checked.text)))
    if not cited:
        return GuardedReply(profile.refusal, (), (*flags, "missing_citations"))
    return GuardedReply(checked.text, tuple(ChatCitation(c, "") for c in cited), tuple(flags))


# --- the agent ----------------------------------------------------------------------------


class FollowUpRewriter(Protocol):
    """Turns a follow-up ("and for AAL3?") into a standalone question, given the history."""

    def rewrite(self, history: Sequence[Message], question: str) -> str:
        """The question as it would be asked with no conversation before it."""
        ...


@dataclass(frozen=True, slots=True)
class GuideCitation:
    """A label an answer cites, and where a reader finds the quoted words."""

    label: str
    source_label: str
    """The collection's label of the passage (`GET /labels/resolve?label=...`)."""
    collection: str
    document: str
    uri: str
    page: int | None
    section: str | None
    snippet: str
    """A literal piece of the cited passage: the words the answer relies on."""


@dataclass(frozen=True, slots=True)
class GuideAnswer:
    """What one guideline question gives back."""

    session_id: str
    profile: str
    answer: str
    citations: tuple[GuideCitation, ...]
    grounding_flags: tuple[GroundingFlag, ...]
    standalone_query: str
    """The question after follow-up rewriting (the question itself for a first turn)."""
    tool_calls: tuple[ToolCall, ...]
    steps: tuple[StepTrace, ...]
    model: str


@dataclass(frozen=True, slots=True)
class GuideConfig:
    """The agent's knobs; bootstrap fills them from Settings."""

    default_profile: str = "nist"
    min_similarity: float = DEFAULT_MIN_SIMILARITY
    min_share: float = 0.3
    loop: AssistantConfig = field(default_factory=AssistantConfig)


class GuidelineAgent:
    """Answers questions from one guidance collection per profile, checked in code."""

    def __init__(
        self,
        model: ChatModel,
        search: GuidelineSearch,
        profiles: Sequence[GuideProfile],
        sessions: SessionStore,
        rewriter: FollowUpRewriter,
        *,
        config: GuideConfig | None = None,
        clock: Callable[[], datetime],
        tracer: LLMTracer | None = None,
        pii: PiiDetector | None = None,
        observer: AssistantObserver | None = None,
        new_id: Callable[[], str] = lambda: uuid.uuid4().hex,
    ) -> None:
        """Wire the parts (bootstrap does it)."""
        self.model = model
        self.search = search
        self.profiles: Mapping[str, GuideProfile] = {p.name: p for p in profiles}
        self.sessions = sessions
        self.rewriter = rewriter
        self.config = config or GuideConfig()
        self.clock = clock
        self.tracer = tracer
        self.pii = pii
        self.observer = observer
        self.new_id = new_id

    def profile(self, name: str | None = None) -> GuideProfile:
        """The named profile (the default one for None); NotFoundError names the others."""
        chosen = name or self.config.default_profile
        found = self.profiles.get(chosen)
        if found is None:
            known = ", ".join(sorted(self.profiles)) or "none"
            raise NotFoundError(f"no guideline profile {chosen!r}; the profiles are: {known}")
        return found

    def ready(self, name: str | None = None) -> GuideProfile:
        """The profile, once its collection exists (CollectionNotFoundError says how to add it)."""
        chosen = self.profile(name)
        try:
            self.search.filters(chosen.collection)
        except CollectionNotFoundError:
            raise CollectionNotFoundError(
                f"the guidance collection {chosen.collection!r} of profile {chosen.name!r} is "
                f"not there yet: `lectern collections add {chosen.collection} PATH` makes it"
            ) from None
        return chosen

    def ask(
        self,
        user: str,
        question: str,
        *,
        profile: str | None = None,
        session_id: str | None = None,
        top_k: int = DEFAULT_TOP_K,
        listener: TurnListener | None = None,
    ) -> GuideAnswer:
        """One question of a (new or continued) session, answered from the profile's collection."""
        chosen = self.profile(profile)
        if not 1 <= top_k <= MAX_TOP_K:
            raise InvalidQueryError(f"top_k must be between 1 and {MAX_TOP_K}, not {top_k}")
        session = session_id or self.new_id()
        key = f"{SESSION_PREFIX}{chosen.name}:{session}"
        cleaned = " ".join(question.split())
        if not cleaned:
            raise InvalidQueryError("the question is empty")
        masked_kinds: tuple[str, ...] = ()
        if self.config.loop.mask_pii and self.pii is not None:
            masked = mask(cleaned, self.pii.find(cleaned))
            cleaned, masked_kinds = masked.text, masked.kinds
        history = self.sessions.history(user, key)
        standalone = self._standalone(history, cleaned)
        tool = SearchGuidelines(
            self.search,
            chosen,
            top_k=top_k,
            min_similarity=self.config.min_similarity,
            min_share=self.config.min_share,
        )
        loop = AssistantService(
            self.model,
            ToolRegistry([tool]),
            None,
            self.sessions,
            config=self.config.loop,
            clock=self.clock,
            tracer=self.tracer,
            observer=self.observer,
            system=lambda _page: guideline_prompt(chosen),
            guardrail=partial(guard_guideline, profile=chosen),
            prompt_version=GUIDE_PROMPT_VERSION,
        )
        reply = loop.chat(user, standalone, conversation=key, history=history, listener=listener)
        text = reply.text
        flags = reply.grounding_flags
        if masked_kinds:
            text = f"{text}\n\n{masked_notice(masked_kinds)}"
            flags = (*flags, "pii_masked")
        citations = tuple(
            citation
            for c in reply.citations
            if (citation := self._citation(c, tool.retrieved, text)) is not None
        )
        self.sessions.append(user, key, [Message("user", cleaned), Message("assistant", text)])
        log.info(
            "guideline question",
            profile=chosen.name,
            session=session,
            rewritten=standalone != cleaned,
            searches=sum(1 for c in reply.tool_calls if c.name == GUIDE_TOOL),
            flags=list(flags),
        )
        return GuideAnswer(
            session_id=session,
            profile=chosen.name,
            answer=text,
            citations=citations,
            grounding_flags=tuple(dict.fromkeys(flags)),
            standalone_query=standalone,
            tool_calls=reply.tool_calls,
            steps=reply.steps,
            model=reply.model,
        )

    def _standalone(self, history: Sequence[Message], question: str) -> str:
        """The follow-up rewritten with the conversation; the question itself when alone."""
        if not any(m.role == "user" for m in history):
            return question
        try:
            rewritten = " ".join(self.rewriter.rewrite(history, question).split())
        except LecternError as error:
            log.warning("follow-up rewrite failed", error=str(error))
            return question
        return rewritten[:1000] or question

    @staticmethod
    def _citation(
        cited: ChatCitation, retrieved: Mapping[str, list[RetrievedPassage]], answer: str
    ) -> GuideCitation | None:
        """The passage behind a cited label, and the words of it the answer relies on."""
        passages = retrieved.get(cited.source)
        if not passages:
            return None
        claims = " ".join(s for s in sentences(answer) if cited.source in s) or answer
        best = max(passages, key=lambda p: _overlap(claims, p.text))
        snippet = _quoted_snippet(claims, best.text) or best_snippet(best.text, claims).text
        document = best.document
        return GuideCitation(
            label=cited.source,
            source_label=best.source_label,
            collection=document.collection,
            document=document.title,
            uri=document.uri,
            page=best.hit.passage.page,
            section=best.hit.passage.section,
            snippet=snippet,
        )


def _overlap(claims: str, text: str) -> int:
    words = {w for w in claims.casefold().split() if len(w) > 3}
    folded = text.casefold()
    return sum(1 for w in words if w in folded)


def _quoted_snippet(claims: str, text: str) -> str | None:
    """The longest quotation in the claims that is literal in the passage, if any."""
    quotes = [
        q.strip()
        for q in _QUOTE.findall(claims)
        if len(q.strip()) >= 12 and locate_snippet(text, q.strip()) is not None
    ]
    return max(quotes, key=len)[:200] if quotes else None
