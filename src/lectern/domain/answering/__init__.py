"""Knowledge-base replies: conversations, the question gate, sources, cited answers.

A reply is made of sentences, each followed by the label of the source it comes from
(`[kb:tutorial/query-params.md]`). Offline, every sentence is a literal sentence of its
source; with a model, every sentence carries a quote that must be a literal piece of its
source (the citation rule of `domain/grounding.py`). `grounding_problems` is the one check
every reply passes before it is sent, whoever wrote it.

One module per concept: `conversations` (messages, the request's context), `terms` (content
terms and their folding), `sources` (the knowledge-base index),
`gate` (is this turn a question?), `replies` (scoring sentences, extractive drafts, rendering,
the grounding check) and `results` (`AIResult`, its JSON, silence reasons). Every public name
is re-exported here: `from lectern.domain.answering import X`.
"""

from lectern.domain.answering.conversations import Conversation, ConversationMessage, RequestContext
from lectern.domain.answering.gate import (
    MAX_SUBJECT_TERMS,
    GateDecision,
    GateKind,
    classify_turn,
    requested_subject,
    title_share,
)
from lectern.domain.answering.replies import (
    MIN_SENTENCE_SHARE,
    TITLE_WEIGHT,
    AnswerSentence,
    DraftAnswer,
    LoadedSource,
    SelectedSource,
    Verdict,
    coverage,
    extractive_answer,
    grounding_problems,
    is_change_log,
    quote_of,
    render_reply,
    verify_extractive,
)
from lectern.domain.answering.results import (
    AIResult,
    Outcome,
    ReplyCitation,
    SourceRef,
    TokenCount,
    ai_result_json,
    silence_reason,
)
from lectern.domain.answering.sources import (
    KnowledgeIndex,
    KnowledgeSource,
    lead_summary,
    source_id_for,
)
from lectern.domain.answering.terms import (
    WORD,
    bare_numbers,
    content_terms,
    document_frequency,
    number_names,
    term_key,
)

__all__ = [
    "AIResult",
    "AnswerSentence",
    "Conversation",
    "ConversationMessage",
    "DraftAnswer",
    "GateDecision",
    "GateKind",
    "KnowledgeIndex",
    "KnowledgeSource",
    "LoadedSource",
    "MAX_SUBJECT_TERMS",
    "MIN_SENTENCE_SHARE",
    "Outcome",
    "ReplyCitation",
    "RequestContext",
    "SelectedSource",
    "SourceRef",
    "TITLE_WEIGHT",
    "TokenCount",
    "Verdict",
    "WORD",
    "ai_result_json",
    "classify_turn",
    "content_terms",
    "coverage",
    "document_frequency",
    "extractive_answer",
    "is_change_log",
    "grounding_problems",
    "lead_summary",
    "quote_of",
    "render_reply",
    "requested_subject",
    "silence_reason",
    "source_id_for",
    "term_key",
    "title_share",
    "verify_extractive",
    "bare_numbers",
    "number_names",
]
