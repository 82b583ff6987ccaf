"""Guardrails in code: what every reply passes before anyone sees it.

- tool-use check: a reply made without any tool is marked `no_retrieval` and says so;
- evidence check: retrieval that found nothing (after the relevance gate) gets the fixed
  refusal, never a guess;
- citation validation: every quoted snippet must be literal in a source this turn's tools
  returned (the literal rule of `domain/grounding.py`); others are cut and flagged
  `invalid_citations_dropped`;
- citation check: an answer from retrieved books without one valid citation is marked
  `missing_citations` and says so.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from lectern.domain.assistant import ChatCitation, GroundingFlag, validate_citations

REFUSAL_TEXT = (
    "I could not find evidence in the catalog for that, so I will not guess. "
    "Try a title, an author or a topic."
)
"""The fixed reply when evidence is missing."""
OFF_TOPIC_TEXT = (
    "I can only help with books in the catalog and with your reading lists, ratings and "
    "catalog corrections."
)
WORKSPACE_OFF_TOPIC_TEXT = (
    "I can only help with this workspace: its projects, tasks, blockers, documents and team, "
    "and changes to them for you to approve. (I read requests written in English.)"
)
"""The same on a workspace, where the catalog is not what the reader came for."""
OFF_TOPIC_TEXTS = frozenset((OFF_TOPIC_TEXT, WORKSPACE_OFF_TOPIC_TEXT))
CANNOT_APPROVE_TEXT = (
    "I cannot approve or reject changes from the chat. Each proposed change has an id: "
    "approve or reject it there (for example `lectern actions approve ID`)."
)
MODEL_FAILED_TEXT = "The assistant's model could not answer just now; please try again."
FIXED_REPLIES = frozenset((REFUSAL_TEXT, *OFF_TOPIC_TEXTS, CANNOT_APPROVE_TEXT, MODEL_FAILED_TEXT))
"""Replies written by the rules, not from evidence: no disclaimer is added to them."""
NO_RETRIEVAL_NOTE = "(Not checked against the catalog: no search was made for this reply.)"
MISSING_CITATIONS_NOTE = "(This reply quotes no catalog text: treat it as unverified.)"
STEP_LIMIT_TEXT = (
    "I stopped before finishing: the request needed more steps than I may take. "
    "Try asking for one thing at a time."
)


def off_topic_text(workspace: bool) -> str:
    """What is said to a request neither surface can do: the workspace's own on a workspace."""
    return WORKSPACE_OFF_TOPIC_TEXT if workspace else OFF_TOPIC_TEXT


@dataclass(frozen=True, slots=True)
class TurnFacts:
    """What the tools did in this turn, as the guardrails need it."""

    evidence: Mapping[str, str]
    tool_calls: int
    retrieval_calls: int
    gate_dropped: int = 0
    proposed_actions: int = 0


@dataclass(frozen=True, slots=True)
class GuardedReply:
    """A reply after the guardrails: text, the citations kept, and the flags raised."""

    text: str
    citations: tuple[ChatCitation, ...]
    flags: tuple[GroundingFlag, ...]


def guard(text: str, facts: TurnFacts) -> GuardedReply:
    """Apply the checks above, in order; the flags say which fired."""
    flags: list[GroundingFlag] = []
    if facts.gate_dropped:
        flags.append("low_relevance_dropped")
    if facts.retrieval_calls and not facts.evidence and not facts.proposed_actions:
        return GuardedReply(REFUSAL_TEXT, (), (*flags, "no_evidence"))
    checked = validate_citations(text, facts.evidence)
    text = checked.text
    if checked.dropped:
        flags.append("invalid_citations_dropped")
    refusal = text.strip() in FIXED_REPLIES
    if text.strip() in OFF_TOPIC_TEXTS:
        flags.append("off_topic")
    if facts.tool_calls == 0:
        flags.append("no_retrieval")
        if not refusal:
            text = f"{text}\n\n{NO_RETRIEVAL_NOTE}".strip()
    elif (
        facts.retrieval_calls
        and not checked.citations
        and not refusal
        and not facts.proposed_actions  # a turn that ends in previews answers with them
    ):
        flags.append("missing_citations")
        text = f"{text}\n\n{MISSING_CITATIONS_NOTE}" if text.strip() else REFUSAL_TEXT
    return GuardedReply(text, checked.citations, tuple(flags))
