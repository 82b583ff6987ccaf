"""`GuidelineRulePolicy`: the guideline agent with no model (the offline default).

It behaves as the prompt asks a model to: the question goes to `search_guidelines` first;
from the passages it quotes the sentences that cover most of the question (rarer words
weigh more; a sentence with a number scores higher when the question asks for one) with
their labels; when no sentence covers enough of the question, it answers with the
profile's refusal sentence, which it reads from the system prompt like a model would.
Its answers are literal quotes, so every number in them is in the evidence by
construction; the guardrails check them anyway.
"""

from __future__ import annotations

import json
import math
import re
import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from lectern.application.assistant.guideline import GUIDE_TOOL
from lectern.application.assistant.prompts import REFUSAL_RULE
from lectern.domain.assistant import AIResponse, Message, ToolCall, ToolSpec

MODEL_ID = "guideline-rules-v1"
MIN_COVERAGE = 0.55
"""A quoted sentence must cover this share of the question's weighted words."""
SECOND_QUOTE = 0.85
"""A second sentence is quoted when it scores this share of the best and adds words."""
MAX_QUOTE_CHARS = 400
SENTENCE_SHARE = 0.75
"""Coverage counts the sentence's own words this much, its passage's the rest."""
_REFUSAL = re.compile(re.escape(REFUSAL_RULE) + r'"(?P<text>[^"]+)"')
_WORD = re.compile(r"[a-z0-9]+(?:[-/.][a-z0-9]+)*")
_SENTENCE = re.compile(r"(?<=[.!?;])\s+(?=[A-Z0-9\"(])|\n+")
_WANTS_NUMBER = re.compile(
    r"\b(how (many|long|much|often|old|large|big|short|soon|frequently)|minimum|maximum|"
    r"at (least|most)|length|limit|number of|timeout|duration|age|size|lifetime|expire|"
    r"version|which (code|status)|what (code|status|port|value))\b",
    re.I,
)
_NUMBER = re.compile(
    r"\b\d+\b|\b(one|two|three|four|five|six|seven|eight|nine|ten|twelve|twenty|thirty|"
    r"sixty|hundred|thousand)\b",
    re.I,
)
_NORMATIVE = re.compile(r"\b(SHALL|MUST|REQUIRED|SHOULD)\b")
_STOP_WORDS = """
    a an the and or of to in on at for by with from as is are was were be been being it its
    this that these those there their they them what which who whom whose when where why how
    do does did can could should would may might must shall will not no yes than then so if
    about into over under per any all each every some such other more most less least also
    i me my we our you your please tell explain describe say says said according give list
    nist rfc rfcs guideline guidelines guidance document documents publication sp special
    requirement requirements required require requires specify specifies specified define
    defines defined mean means meaning allowed allow permitted need needs kind type many much
    long often after before ever still exactly just only like regarding"""
_STOP = frozenset(_STOP_WORDS.split())


@dataclass(frozen=True, slots=True)
class _Sentence:
    text: str
    label: str
    rank: int
    words: frozenset[str]
    passage_words: frozenset[str]
    """Every word of the passage the sentence is in (its context)."""


def question_terms(question: str) -> list[str]:
    """The question's content words, folded, in order, without repeats."""
    words = _WORD.findall(question.casefold())
    return list(dict.fromkeys(w for w in words if w not in _STOP and (len(w) >= 3 or w.isdigit())))


def _same_word(word: str, term: str) -> bool:
    """Forms of one word share a head ("reauthenticate", "reauthentication")."""
    if word == term:
        return True
    if len(word) < 4 or len(term) < 4 or any(c.isdigit() for c in term):
        return False
    head = max(4, min(len(term), len(word)) - 3)
    return word[:head] == term[:head]


def _covers(words: frozenset[str], term: str) -> bool:
    return term in words or any(_same_word(w, term) for w in words)


class GuidelineRulePolicy:
    """Search first, then quote the best-covering sentences with their labels, or refuse."""

    model_id = MODEL_ID

    def __init__(self, min_coverage: float = MIN_COVERAGE) -> None:
        """`min_coverage`: below it the answer is the refusal."""
        self.min_coverage = min_coverage

    def complete_with_tools(
        self,
        messages: Sequence[Message],
        tools: Sequence[ToolSpec],
        *,
        system: str,
        temperature: float = 0.0,
        max_tokens: int = 1024,
    ) -> AIResponse:
        """The next step: a search for a new question, else an answer from its results."""
        del temperature, max_tokens
        refusal = _refusal(system)
        last_user = max((i for i, m in enumerate(messages) if m.role == "user"), default=-1)
        if last_user < 0:
            return AIResponse(refusal, model=MODEL_ID)
        question = messages[last_user].content
        results = [m for m in messages[last_user + 1 :] if m.role == "tool"]
        if not results:
            if not any(t.name == GUIDE_TOOL for t in tools):
                return AIResponse(refusal, model=MODEL_ID)
            call = ToolCall(f"gr-{uuid.uuid4().hex[:12]}", GUIDE_TOOL, {"query": question})
            return AIResponse("", (call,), MODEL_ID)
        return AIResponse(self.answer(question, results, refusal), model=MODEL_ID)

    def answer(self, question: str, results: Sequence[Message], refusal: str) -> str:
        """Quotes of the sentences that answer the question, or the refusal."""
        candidates = _sentences(results)
        terms = question_terms(question)
        if not candidates or not terms:
            return refusal
        documents = len(candidates)
        weight = {
            t: math.log(1 + documents / (1 + sum(_covers(s.words, t) for s in candidates)))
            for t in terms
        }
        total = sum(weight.values()) or 1.0
        wants_number = bool(_WANTS_NUMBER.search(question))

        def coverage(sentence: _Sentence) -> tuple[float, frozenset[str]]:
            matched = frozenset(t for t in terms if _covers(sentence.words, t))
            around = [t for t in terms if _covers(sentence.passage_words, t)]
            own = sum(weight[t] for t in matched) / total
            context = sum(weight[t] for t in around) / total
            return SENTENCE_SHARE * own + (1 - SENTENCE_SHARE) * context, matched

        scored = []
        for sentence in candidates:
            share, matched = coverage(sentence)
            bonus = 0.0
            if wants_number and _NUMBER.search(sentence.text):
                bonus += 0.15
            if _NORMATIVE.search(sentence.text):
                bonus += 0.05
            scored.append((share + bonus - 0.01 * sentence.rank, share, matched, sentence))
        scored.sort(key=lambda item: -item[0])
        best_score, best_share, best_terms, best = scored[0]
        if best_share < self.min_coverage:
            return refusal
        chosen = [best]
        for score, share, matched, sentence in scored[1:6]:
            if (
                score >= SECOND_QUOTE * best_score
                and share >= self.min_coverage
                and not matched <= best_terms
                and sentence.text != best.text
            ):
                chosen.append(sentence)
                break
        return "\n".join(f"{_quote(s.text)} {s.label}" for s in chosen)


def _refusal(system: str) -> str:
    found = _REFUSAL.search(system)
    return found.group("text") if found else "I cannot answer that from these documents."


def _sentences(results: Sequence[Message]) -> list[_Sentence]:
    """Every sentence of every passage the searches returned, with its label and rank."""
    found: list[_Sentence] = []
    seen: set[str] = set()
    rank = 0
    for message in results:
        try:
            data = json.loads(message.content)
        except ValueError:
            continue
        passages = data.get("passages") if isinstance(data, dict) else None
        for passage in passages if isinstance(passages, list) else []:
            if not isinstance(passage, dict):
                continue
            label, text = passage.get("label"), passage.get("text")
            if not isinstance(label, str) or not isinstance(text, str):
                continue
            context = " ".join(str(passage.get(k) or "") for k in ("section", "document"))
            around = frozenset(_WORD.findall(f"{text} {context}".casefold()))
            for piece in _SENTENCE.split(text):
                sentence = " ".join(piece.split()).strip(" *-|")
                key = sentence.casefold()
                if len(sentence) < 20 or key in seen:
                    continue
                seen.add(key)
                words = frozenset(_WORD.findall(f"{sentence} {context}".casefold()))
                found.append(_Sentence(sentence, label, rank, words, around))
            rank += 1
    return found


def _quote(sentence: str) -> str:
    """The sentence in quotes, cut at a word boundary when long (a literal piece either way)."""
    if len(sentence) <= MAX_QUOTE_CHARS:
        return f'"{sentence}"'
    return f'"{sentence[:MAX_QUOTE_CHARS].rsplit(" ", 1)[0]}" (…)'
