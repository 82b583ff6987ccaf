"""Knowledge-base replies: conversations, the question gate, sources, cited answers.

A reply is made of sentences, each followed by the label of the source it comes from
(`[kb:tutorial/query-params.md]`). Offline, every sentence is a literal sentence of its
source; with a model, every sentence carries a quote that must be a literal piece of its
source (the citation rule of `domain/grounding.py`). `grounding_problems` is the one check
every reply passes before it is sent, whoever wrote it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from lectern.domain.answering_words import (
    ABBREVIATIONS,
    CHIT_CHAT,
    GREETING_TAILS,
    QUESTION_WORDS,
    REQUEST_PHRASES,
    REQUEST_VERBS,
    STOP_WORDS,
)
from lectern.domain.books import JSONValue
from lectern.domain.grounding import MAX_SNIPPET_CHARS, is_valid_snippet, match_form

GateKind = Literal["question", "not_a_question", "chit_chat", "off_topic", "empty"]
Outcome = Literal["success", "skip", "error"]

_WORD = re.compile(r"\w+", re.UNICODE)
_SENTENCE_BREAK = re.compile(
    r"(?<=[.!?])\s+(?=[\"'(\[]?[A-Z0-9])|\n\s*\n|\n(?=[ \t]*[-*#>|\"'(\[A-Z0-9])"
)
_LAST_WORD = re.compile(r"(\w+)\s*\.$")


# --- conversations --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ConversationMessage:
    """One message of a chat, from any platform."""

    author: str
    text: str
    time: datetime | None = None


@dataclass(frozen=True, slots=True)
class Conversation:
    """A platform-agnostic conversation, oldest message first."""

    messages: tuple[ConversationMessage, ...]
    id: str | None = None

    def last_turn(self) -> tuple[str, str]:
        """(author, text) of the last turn: the trailing messages of the last author, joined."""
        if not self.messages:
            return "", ""
        author = self.messages[-1].author
        parts: list[str] = []
        for message in reversed(self.messages):
            if message.author != author:
                break
            parts.append(message.text.strip())
        return author, "\n".join(p for p in reversed(parts) if p)


@dataclass(frozen=True, slots=True)
class RequestContext:
    """Where a conversation happens: the collection to answer from, the user and channel."""

    collection: str
    user: str = "anonymous"
    channel: str = "default"


# --- the knowledge-base index --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class KnowledgeSource:
    """One source of the knowledge base: `kb:<rel_path>`, `kb:<url>` or `team:<file>`."""

    source_id: str
    document_id: str
    title: str
    summary: str
    """One line, written at index time (offline: title, heading path and lead sentence)."""
    content_hash: str
    url: str | None = None

    def line(self) -> str:
        """The source's line of the index: `source_id: summary`."""
        return f"{self.source_id}: {self.summary}"


@dataclass(frozen=True, slots=True)
class KnowledgeIndex:
    """The plain-text index of a collection's sources, and its term statistics."""

    collection: str
    generation: int
    sources: tuple[KnowledgeSource, ...]
    document_frequency: Mapping[str, int]
    """Term key -> how many sources hold it (for the offline support score)."""
    summarizer: str
    """Who wrote the summaries (`lead-sentence` offline, else the model's id)."""

    def lines(self) -> str:
        """Every source as one `source_id: summary` line."""
        return "\n".join(source.line() for source in self.sources)

    def idf(self, term: str) -> float:
        """Inverse document frequency of a term key (unknown terms weigh most)."""
        count = self.document_frequency.get(term, 0)
        return math.log((len(self.sources) + 1) / (count + 0.5))

    def knows(self, term: str) -> bool:
        """True when some source holds this term key."""
        return term in self.document_frequency


def source_id_for(collection: str, uri: str, url: str | None) -> str:
    """`kb:<url>` for web sources, `team:<file>` under a `team/` folder, else `kb:<rel_path>`."""
    del collection
    if url:
        return f"kb:{url}"
    if uri.startswith("team/"):
        return f"team:{uri.removeprefix('team/')}"
    return f"kb:{uri}"


def lead_summary(title: str, heading_path: Sequence[str], text: str, limit: int = 240) -> str:
    """The offline summary: title, heading path and lead sentence, on one line."""
    parts = [title.strip()]
    for heading in heading_path:
        heading = heading.strip()
        if heading and heading.casefold() not in (p.casefold() for p in parts):
            parts.append(heading)
    lead = next(
        (text[s:e] for s, e in sentence_spans(text) if len(_WORD.findall(text[s:e])) >= 3), ""
    )
    line = " > ".join(p for p in parts if p)
    lead = " ".join(lead.split())
    summary = f"{line}. {lead}" if line and lead else line or lead
    return summary if len(summary) <= limit else summary[: limit - 1].rsplit(" ", 1)[0] + "…"


# --- terms ----------------------------------------------------------------------------------


def term_key(word: str) -> str:
    """A word folded to the key the term statistics use: case-folded, plural cut.

    Harman's S-stemmer (1991): -ies -> -y, -es -> -e, -s -> "" (not after u, s, or in
    -aes, -ees, -oes). Lossless enough to keep "service" and "services" together without
    merging words that differ in meaning.
    """
    word = word.casefold()
    if len(word) <= 3 or not word.isalpha():
        return word
    if word.endswith("ies") and not word.endswith(("eies", "aies")):
        return word[:-3] + "y"
    if word.endswith("es") and not word.endswith(("aes", "ees", "oes")):
        return word[:-1]
    if word.endswith("s") and not word.endswith(("us", "ss")):
        return word[:-1]
    return word


def content_terms(text: str) -> list[str]:
    """The term keys of a text's content words, in order, without repeats."""
    seen: dict[str, None] = {}
    for word in _WORD.findall(text):
        folded = word.casefold()
        if folded in STOP_WORDS or (len(folded) < 2 and not folded.isdigit()):
            continue
        seen.setdefault(term_key(folded), None)
    return list(seen)


def document_frequency(texts: Iterable[str]) -> dict[str, int]:
    """Term key -> number of texts holding it."""
    counts: dict[str, int] = {}
    for text in texts:
        for term in set(content_terms(text)):
            counts[term] = counts.get(term, 0) + 1
    return counts


MIN_SENTENCE_SHARE = 0.5
"""Sentences from other sources than the best sentence's must score at least this share of
it: a second source adds a sentence only when it covers the question nearly as well."""
TITLE_WEIGHT = 0.25
"""Inside one source, question words of its title weigh this much: every sentence of a page
about General Hospital is about General Hospital; the rest of the question picks the one."""


def coverage(
    question_terms: Sequence[str],
    text: str,
    index: KnowledgeIndex,
    discounted: frozenset[str] = frozenset(),
) -> float:
    """The IDF-weighted share of the question's terms that occur in the text, 0..1.

    Terms in `discounted` (the source's title, when choosing among its sentences) weigh
    `TITLE_WEIGHT` of their IDF.
    """
    if not question_terms:
        return 0.0
    present = set(content_terms(text))
    weights = {t: index.idf(t) * (TITLE_WEIGHT if t in discounted else 1.0) for t in question_terms}
    total = sum(weights.values())
    if total <= 0:
        return 0.0
    return sum(w for t, w in weights.items() if t in present) / total


# --- the question gate ----------------------------------------------------------------------

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
    return " ".join(re.sub(r"[^\w\s']", " ", text.casefold()).split())


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


def classify_turn(text: str) -> GateDecision:
    """The offline gate: empty, chit-chat, a question (or a request), or not a question."""
    stripped = " ".join(text.split())
    if not _WORD.search(stripped):
        return GateDecision("empty", "the message has no words")
    rest = _OPENERS.sub("", stripped).strip()
    question = rest or stripped
    lines = [line for line in text.splitlines() if _WORD.search(line)]
    if not rest or _is_small_talk(question) or all(_is_small_talk(line) for line in lines):
        return GateDecision("chit_chat", "a greeting, thanks or acknowledgement")
    for line in re.split(r"(?<=[.!?])\s+|\n", question):
        words = _plain(line).split()
        if not words:
            continue
        if line.rstrip().endswith("?"):
            return GateDecision("question", "it ends with a question mark", question)
        if words[0] in QUESTION_WORDS:
            return GateDecision("question", f"it starts with {words[0]!r}", question)
        if words[0] in REQUEST_VERBS:
            return GateDecision("question", f"a request ({words[0]!r})", question)
        joined = " ".join(words)
        if any(joined.startswith(p) for p in REQUEST_PHRASES):
            return GateDecision("question", "a request for information", question)
    if _THANKS.match(stripped):
        return GateDecision("chit_chat", "thanks, and no question after them")
    return GateDecision("not_a_question", "no question or request in the message")


# --- answers ---------------------------------------------------------------------------------


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence or list item of a text, whitespace trimmed."""
    spans = []
    start = 0
    for match in _SENTENCE_BREAK.finditer(text):
        before = _LAST_WORD.search(text, max(0, match.start() - 12), match.start())
        if before is not None and (
            before.group(1).casefold() in ABBREVIATIONS or len(before.group(1)) == 1
        ):
            continue  # "Dr. Monica", "J. K. Rowling", "e.g. this": not a sentence end
        spans.append((start, match.start()))
        start = match.end()
    spans.append((start, len(text)))
    trimmed = []
    for begin, end in spans:
        while begin < end and text[begin].isspace():
            begin += 1
        while end > begin and text[end - 1].isspace():
            end -= 1
        if end > begin:
            trimmed.append((begin, end))
    return trimmed


@dataclass(frozen=True, slots=True)
class SelectedSource:
    """A source chosen to answer from, with how relevant selection found it (0..1)."""

    source: KnowledgeSource
    relevance: float


@dataclass(frozen=True, slots=True)
class LoadedSource:
    """A selected source with its text."""

    source: KnowledgeSource
    text: str
    relevance: float


@dataclass(frozen=True, slots=True)
class AnswerSentence:
    """One sentence of an answer, the source it comes from, and the quote that supports it."""

    text: str
    source_id: str
    quote: str
    """A literal piece (at most 200 characters) of the source's text."""


@dataclass(frozen=True, slots=True)
class DraftAnswer:
    """An answer before it is checked: cited sentences and how well they cover the question."""

    sentences: tuple[AnswerSentence, ...]
    support: float
    """Offline: the best sentence's IDF-weighted coverage of the question; a model: 1."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """The verification step's judgement of a draft."""

    passed: bool
    reason: str


def quote_of(sentence: str, limit: int = MAX_SNIPPET_CHARS) -> str:
    """The sentence itself, or its first words up to `limit` characters (a literal prefix)."""
    text = " ".join(sentence.split())
    if len(text) <= limit:
        return text
    cut = text[:limit].rsplit(" ", 1)[0]
    return cut or text[:limit]


def extractive_answer(
    question: str,
    sources: Sequence[LoadedSource],
    index: KnowledgeIndex,
    max_chars: int,
    *,
    max_sentences: int = 3,
) -> DraftAnswer | None:
    """The best-covering sentences of the sources, within `max_chars` with their labels.

    A sentence's score is its IDF-weighted coverage of the question's terms, weighted down
    for lower-ranked sources (1, 0.8, 0.6, ...). None when no sentence holds a question term.
    """
    terms = content_terms(question)
    if not terms or not sources:
        return None
    candidates: list[tuple[float, float, int, int, str, str]] = []
    for rank, loaded in enumerate(sources):
        weight = max(0.2, 1.0 - 0.2 * rank)
        title = frozenset(content_terms(loaded.source.title))
        for position, (start, end) in enumerate(sentence_spans(loaded.text)):
            sentence = " ".join(loaded.text[start:end].split())
            covered = coverage(terms, sentence, index, title)
            if covered > 0 and len(_WORD.findall(sentence)) >= 3:
                candidates.append(
                    (covered * weight, covered, rank, position, sentence, loaded.source.source_id)
                )
    if not candidates:
        return None
    candidates.sort(key=lambda c: (-c[0], c[2], c[3]))
    best_source, floor = candidates[0][5], candidates[0][0] * MIN_SENTENCE_SHARE
    candidates = [c for c in candidates if c[5] == best_source or c[0] >= floor]
    chosen: list[tuple[float, float, int, int, str, str]] = []
    used = 0
    for candidate in candidates:
        if len(chosen) >= max_sentences:
            break
        sentence, source_id = candidate[4], candidate[5]
        cost = len(sentence) + len(source_id) + 4
        if used + cost > max_chars:
            if chosen:
                continue
            room = max_chars - len(source_id) - 4
            if room < 40:
                return None
            sentence = quote_of(sentence, room - 1) + "…"
            candidate = (*candidate[:4], sentence, source_id)
            cost = len(sentence) + len(source_id) + 4
        chosen.append(candidate)
        used += cost
    chosen.sort(key=lambda c: (c[2], c[3]))
    sentences = tuple(
        AnswerSentence(text=c[4], source_id=c[5], quote=quote_of(c[4].rstrip("…"))) for c in chosen
    )
    return DraftAnswer(sentences, support=max(c[1] for c in chosen))


@dataclass(frozen=True, slots=True)
class ReplyCitation:
    """A source a reply cites, and the quote that the code checked in its text."""

    source_id: str
    snippet: str
    title: str = ""
    url: str | None = None


@dataclass(frozen=True, slots=True)
class SourceRef:
    """A source the graph selected, with its relevance."""

    source_id: str
    title: str
    relevance: float
    url: str | None = None


@dataclass(frozen=True, slots=True)
class TokenCount:
    """Tokens a request spent on model calls (0 offline)."""

    input_tokens: int = 0
    output_tokens: int = 0
    calls: int = 0


@dataclass(frozen=True, slots=True)
class AIResult:
    """What the reply graph decided: reply or stay silent, and everything behind it."""

    should_reply: bool
    reply_text: str
    citations: tuple[ReplyCitation, ...]
    sources: tuple[SourceRef, ...]
    decision_path: tuple[str, ...]
    timings: Mapping[str, float]
    gate: str = ""
    """The gate's decision (`question`, `chit_chat`, ...), or "" when it never ran."""
    model: str = "rules"
    usage: TokenCount = field(default_factory=TokenCount)
    error: str | None = None
    reflection: str = ""
    """"" when the first draft stood; `rescued` or `failed` after the retry with feedback."""
    standalone_query: str = ""
    """The last turn rewritten to stand alone (what the graph answered); "" when unchanged."""


def render_reply(sentences: Sequence[AnswerSentence], sources: Sequence[KnowledgeSource]) -> str:
    """Sentences each followed by their label, then a Links section for web sources."""
    body = " ".join(f"{s.text} [{s.source_id}]" for s in sentences)
    by_id = {s.source_id: s for s in sources}
    links: list[str] = []
    for sentence in sentences:
        url = by_id[sentence.source_id].url if sentence.source_id in by_id else None
        if url and url not in links:
            links.append(url)
    if not links:
        return body
    return body + "\n\nLinks:\n" + "\n".join(f"- {url}" for url in links)


def grounding_problems(
    sentences: Sequence[AnswerSentence], sources: Sequence[LoadedSource], max_chars: int
) -> list[str]:
    """Why a draft may not be sent (empty list: it may).

    Every sentence names a loaded source, its quote is a literal piece of that source's
    text, and the sentences with their labels fit in `max_chars`.
    """
    if not sentences:
        return ["the answer has no sentence"]
    texts = {loaded.source.source_id: loaded.text for loaded in sources}
    problems = []
    for number, sentence in enumerate(sentences, start=1):
        text = texts.get(sentence.source_id)
        if text is None:
            problems.append(f"sentence {number} cites {sentence.source_id!r}, which was not loaded")
        elif not sentence.text.strip():
            problems.append(f"sentence {number} is empty")
        elif not is_valid_snippet(sentence.quote, text):
            problems.append(f"sentence {number}: its quote is not in {sentence.source_id}")
    length = sum(len(s.text) + len(s.source_id) + 3 for s in sentences) + len(sentences) - 1
    if length > max_chars:
        problems.append(f"the answer has {length} characters; at most {max_chars} are allowed")
    return problems


def verify_extractive(
    question: str, draft: DraftAnswer, sources: Sequence[LoadedSource]
) -> Verdict:
    """The deterministic verification: every sentence is its source's own words.

    Stricter than the quote rule: a sentence (not only its quote) must occur in the source,
    and the cited sentences together must hold a content word of the question.
    """
    texts = {loaded.source.source_id: match_form(loaded.text) for loaded in sources}
    for sentence in draft.sentences:
        own = match_form(sentence.text.rstrip("…"))
        if own not in texts.get(sentence.source_id, ""):
            return Verdict(False, f"a sentence is not in {sentence.source_id}")
    terms = set(content_terms(question))
    if not terms & {t for s in draft.sentences for t in content_terms(s.text)}:
        return Verdict(False, "no sentence holds a word of the question")
    return Verdict(True, "every sentence is a sentence of its source")


def ai_result_json(result: AIResult) -> dict[str, JSONValue]:
    """An `AIResult` as JSON (the CLI's `--json`, traces, evaluation records)."""
    return {
        "should_reply": result.should_reply,
        "reply_text": result.reply_text,
        "citations": [
            {"source_id": c.source_id, "snippet": c.snippet, "title": c.title, "url": c.url}
            for c in result.citations
        ],
        "sources": [
            {"source_id": s.source_id, "title": s.title, "relevance": s.relevance, "url": s.url}
            for s in result.sources
        ],
        "decision_path": list(result.decision_path),
        "gate": result.gate,
        "standalone_query": result.standalone_query or None,
        "timings": dict(result.timings),
        "model": result.model,
        "usage": {
            "input_tokens": result.usage.input_tokens,
            "output_tokens": result.usage.output_tokens,
            "calls": result.usage.calls,
        },
        "error": result.error,
    }


_SILENCE = (
    ("timeout", "the reply took too long"),
    ("grounding:failed", "a citation did not hold"),
    ("verify:failed", "verification refused the draft"),
    ("check:no_answer", "no retrieved sentence answers the question"),
    ("generate:none", "the sources do not answer it"),
    ("load:0", "the sources could not be loaded"),
    ("select:0", "no source is relevant enough"),
)


def silence_reason(result: AIResult) -> str:
    """Why a result stays silent, in words (empty when it replies)."""
    if result.should_reply:
        return ""
    if result.gate and result.gate != "question":
        return f"not a question for the knowledge base ({result.gate.replace('_', ' ')})"
    failed = [s for s in result.decision_path if s.endswith(":error") or s == "error"]
    if failed:
        return f"a step failed: {result.error or failed[0]}"
    for step, reason in _SILENCE:
        if any(s == step or s.startswith(f"{step}:") for s in result.decision_path):
            return reason
    return result.error or "no reply"
