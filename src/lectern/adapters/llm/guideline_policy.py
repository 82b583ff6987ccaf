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

import math
import re
import uuid
from collections.abc import Sequence

from lectern.adapters.llm.guideline_sentences import (
    WORD,
    SaidAs,
    Sentence,
    quote,
    said_as_of,
    sentences_of,
    states_number,
    with_everyday_names,
    words_of,
)
from lectern.adapters.llm.guideline_sentences import candidates as pair_candidates
from lectern.adapters.llm.guideline_sentences import covers as covers_term
from lectern.adapters.understanding.circumstances import told_around
from lectern.adapters.understanding.permission import asks_permission
from lectern.adapters.understanding.quantity import (
    BOUND,
    DIMENSION_WORDS,
    MEASURE_WORDS,
    asks_unit,
    wanted_dimensions,
    wants_number,
)
from lectern.adapters.understanding.question import analyse
from lectern.application.assistant.guideline import GUIDE_TOOL
from lectern.application.assistant.prompts import REFUSAL_RULE
from lectern.application.ports.indexes import Embedder, Vector
from lectern.domain.assistant import AIResponse, Message, ToolCall, ToolSpec
from lectern.domain.evidence import numbers_in, unit_dimension

MODEL_ID = "guideline-rules-v1"
MIN_COVERAGE = 0.55
"""A quoted sentence must cover this share of the question's weighted words."""
SECOND_QUOTE = 0.85
"""A second sentence is quoted when it scores this share of the best and adds words."""
SENTENCE_SHARE = 0.75
"""Coverage counts the sentence's own words this much, its passage's the rest."""
PAIR_COST = 0.03
LENGTH_COST = 0.0002
"""Of two sentences that cover the question alike, the shorter (more direct) one wins."""
"""Two sentences quoted together must cover that much more to beat one."""
_REFUSAL = re.compile(re.escape(REFUSAL_RULE) + r'"(?P<text>[^"]+)"')
_NUMBER = re.compile(
    r"\b\d+\b|\b(one|two|three|four|five|six|seven|eight|nine|ten|twelve|twenty|thirty|"
    r"sixty|hundred|thousand)\b",
    re.I,
)
_ASKS_MEANING = re.compile(
    r"\bwhat (does|do|is|are)\b.*\b(mean|means|stand for)\b|^what is\b", re.I
)
_DEFINES = re.compile(r"\b(indicates|means|is defined as|refers to|specifies|denotes)\b", re.I)
_IDENTIFIER = re.compile(r"\b[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+\b")
"""A name written as an identifier (SETTINGS_MAX_FRAME_SIZE, code_verifier): one thing, named
whole, not the words it is made of (SETTINGS_INITIAL_WINDOW_SIZE shares three of them)."""
_NORMATIVE = re.compile(r"\b(SHALL|MUST|REQUIRED|SHOULD)\b")
SUBJECT_WEIGHT = 0.1
"""Bonus, times the question's weighted words the sentence's own text holds (not its section
title's): "the minimum length of a memorized secret" is the sentence that says "memorized"."""
HOLDER_COST = 0.15
"""Cost when a sentence's number belongs to something else: the words before its modal verb
name none of the question's thing (its words that are neither a bound nor a dimension). The
number of "The salt value SHALL be at least 32 bits" is the salt's, not the look-up secret's
its section is about."""
MEANING_WEIGHT = 0.3
"""With an embedder: bonus, times the cosine of question and sentence (MiniLM), so a sentence
that says it in other words ("log in again" / "authentication ... SHALL be repeated") counts."""
MEANING_FLOOR = 0.75
"""With an embedder: a sentence this close in meaning answers though it shares too few words
(a question that wants a number still needs a sentence that states one)."""
JOINT_MEANING = 0.58
JOINT_SHARE = 0.35
"""With an embedder: a sentence this close in meaning that also holds this share of the
question's words answers it. Measured on the guideline dev splits (NIST, 118 questions): no
declined question's best sentence reaches both (the closest declined at 0.35 of the words was
0.52 in meaning); answers in everyday words ("fingerprint reader ... failed scans") did."""
MEANING_DEPTH = 8
"""How many of the best candidates by words are re-scored by meaning (8 and 16 gave the same
answers on the guideline sets; 8 embeds half as much)."""
VECTOR_CACHE = 4096
"""Sentence vectors kept (about 6 MB); the cache starts afresh when full."""
SYNONYM_FLOOR = 0.6
"""With an embedder: a passage word this close to a question word no passage uses stands for
it ("idle" / "inactivity" 0.65, "email" / "mail" 0.85; "pepper" / "salt" 0.53 is not)."""
SYNONYM_DEPTH = 12
"""The best sentences by words whose words are compared with a question word no passage uses
(a word only matters if it can lift one of them; all passages' words cost 4 times as much)."""
MAX_VOCABULARY = 300
"""At most this many distinct words of those sentences are embedded for one question."""
KIND_FLOOR = 0.4
"""A sentence that states a number of the kind asked (a duration for "how long", bits for
"what strength"), of the thing asked about, answers at this share of the question's words."""
NUMBERLESS_SHARE = 0.95
"""A question that asks for a number caps a sentence stating none below the floor (at this
share of it): it may rank, and be quoted beside a sentence that answers, but never alone."""
_GENERIC = "value values data information item items number amount field setting option part"
GENERIC_NOUNS = frozenset(_GENERIC.split())
"""Words too general to say whose number it is: "The salt value SHALL be at least 32 bits"
is not about "a session cookie value"; a clause's subject names the question's thing by
its other words."""
_SET_ASIDE = re.compile(
    r"\b(?:instead of|rather than|other than|except(?: for)?|not by)\s+"
    r"([^,.;?!]+?)(?=\s+(?:shall|must|should|may|required|recommended)\b|[,.;?!]|$)",
    re.I,
)
"""What a question sets aside ("if we email it instead of posting it"): a clause naming it is
about something else."""
_CHANNEL = re.compile(r"\b(?:over|via|through)\s+(\w+)", re.I)
"""The way a quantity is carried ("a DNS reply over UDP"): a sentence stating the kind asked
without naming it states another way's ("the DNS message ... 65535 bytes" of DNS over HTTPS)."""
_CLAUSE_END = re.compile(r"(?<=[.;])\s+")
HELD_FLOOR = 0.25
"""A sentence that states the kind of quantity asked in a clause whose subject names the
question's thing ("The confirmation code SHALL consist of at least 6 ... characters") answers
at this share: the rest of a long question is its circumstances ("when we rebind a forgotten
password using two physical authenticators plus a confirmation code ..."). Without an
embedder to read a word no passage uses as a passage's word, such words weighing more than
those the sentence meets may be the thing itself ("AAL2: the idle limit?" is not answered by
the 12 hours "regardless of user activity"), and the sentence does not answer."""
RULE_FLOOR = 0.3
"""A question that asks whether something is allowed or required (`asks_permission`) is
answered at this share by a sentence that states a rule (a modal: SHALL, SHOULD, MAY, ...)."""
_SECOND_QUESTION = re.compile(
    r",?\s+and\s+(?=(?:what|which|how|when|where|why|can|could|may|must|should|is|are|does|do)"
    r"\b)",
    re.I,
)
_MODAL = re.compile(r"\b(SHALL|MUST|SHOULD|MAY|REQUIRED|RECOMMENDED)\b")
_STOP_WORDS = """
    a an the and or of to in on at for by with from as is are was were be been being it its
    this that these those there their they them what which who whom whose when where why how
    do does did can could should would may might must shall will not no yes than then so if
    about into over under per any all each every some such other more most less least also
    i me my we our you your please tell explain describe say says said according give list
    nist rfc rfcs guideline guidelines guidance document documents publication sp special
    requirement requirements required require requires specify specifies specified define
    defines defined mean means meaning allowed allow permitted need needs support supports
    supported kind type many much
    long often after before ever still exactly just only like regarding use used using have
    has had"""
_CHAT_WORDS = """
    ok okay hi hey hello thanks thx pls plz u ur ya whats hows thats
    let lets want wants wanted wanting get gets got getting keep keeps kept
    someone somebody anyone anybody everyone everybody guys folks stuff thing things"""
CHAT_WORDS = frozenset(_CHAT_WORDS.split())
"""Words people add to a question that name no thing the guidance could say ("is it ok if we
let users ...", "the frontend team wants to keep ...", "how many tries can an applicant get"):
they are not sought in the sentences, so they no longer count against every one alike."""
_STOP = frozenset(_STOP_WORDS.split()) | CHAT_WORDS


_Scored = tuple[float, float, float, frozenset[str], Sentence]
"""(score, share of the question covered, the sentence's own share, terms met, sentence)."""


def question_parts(question: str) -> list[str]:
    """The two questions of "what does X mean and can I do Y", else the question alone.

    The part after "and" must open as a question does (a question word or an auxiliary) and
    each part must name a thing in at least two words ("the minimum length and the maximum
    length of X" is one question about X).
    """
    match = _SECOND_QUESTION.search(question)
    if match is None:
        return [question]
    first, second = question[: match.start()].strip(" ,;"), question[match.end() :].strip()
    if min(len(_subject_terms(first)), len(_subject_terms(second))) < 2:
        return [question]
    return [first, second]


def _subject_terms(question: str) -> list[str]:
    """The question's content words that name a thing, not a bound or a kind of quantity."""
    return [t for t in question_terms(question) if t not in MEASURE_WORDS | DIMENSION_WORDS.keys()]


def question_terms(question: str) -> list[str]:
    """The question's content words, folded, in order, without repeats."""
    words = WORD.findall(question.casefold())
    return list(dict.fromkeys(w for w in words if w not in _STOP and (len(w) >= 3 or w.isdigit())))


class GuidelineRulePolicy:
    """Search first, then quote the best-covering sentences with their labels, or refuse."""

    model_id = MODEL_ID

    def __init__(
        self, min_coverage: float = MIN_COVERAGE, embedder: Embedder | None = None
    ) -> None:
        """`min_coverage`: below it the answer is the refusal, unless `embedder` finds one.

        `embedder` (the packaged MiniLM) lets a sentence close in meaning count.
        """
        self.min_coverage = min_coverage
        self.embedder = embedder
        self._vectors: dict[str, Vector] = {}
        """Sentence vectors by text: the same passages come back question after question."""
        self._word_vectors: dict[str, Vector] = {}
        """Single words' vectors (`_synonyms`), kept as the sentences' are."""

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
        """Quotes of the sentences that answer the question, or the refusal.

        Two questions in one ("what does 429 mean and can I send Retry-After with it") get a
        quote each when each part is answered; otherwise the question is read whole.
        """
        parts = question_parts(question)
        if len(parts) == 2:
            bests = [self.ranked(part, results) for part in parts]
            if all(b and b[0][1] >= self.min_coverage for b in bests):
                first, second = bests[0][0][4], bests[1][0][4]
                chosen = [first] if second.text in first.text else [first, second]
                if first.text in second.text:
                    chosen = [second]
                return "\n".join(f"{quote(c.text)} {c.label}" for c in chosen)
        scored = self.ranked(question, results)
        if not scored:
            return refusal
        best_score, best_share, _, best_terms, best = scored[0]
        if best_share < self.min_coverage:
            return refusal
        chosen = [best]
        for score, _, own, matched, candidate in scored[1:8]:
            if (
                score >= SECOND_QUOTE * best_score
                and own >= self.min_coverage
                and not matched <= best_terms
                and candidate.text not in best.text
                and best.text not in candidate.text
            ):
                chosen.append(candidate)
                break
        return "\n".join(f"{quote(c.text)} {c.label}" for c in chosen)

    def ranked(self, question: str, results: Sequence[Message]) -> list[_Scored]:
        """The candidate sentences, best first: (score, share, own share, terms met, sentence)."""
        said_as = said_as_of(results)
        every = pair_candidates(sentences_of(results, said_as))
        candidates = [c for c in every if not c.read_with]  # the search found these
        joined = len(every) - len(candidates)
        asked = analyse(question)
        terms = question_terms(question)
        if asked.measure is not None:
            # "the minimum length of X": the bound is what is asked, X is what must match.
            terms = [t for t in terms if t not in MEASURE_WORDS] or terms
        if not candidates or not terms:
            return []
        scored = self._scored(question, candidates, terms, said_as, {})
        # A question word the passages never use may be one of the best sentences' words said
        # otherwise ("idle" / "inactivity"): it is read as theirs and the sentences scored again.
        synonyms = self._synonyms(terms, candidates, [item[4] for item in scored[:SYNONYM_DEPTH]])
        if synonyms:
            scored = self._scored(question, candidates, terms, said_as, synonyms)
        circumstantial = _circumstantial(question, terms)
        if circumstantial:
            # The order stays the whole message's (its statements say which thing is meant);
            # whether the first answers is read without the statements it does not hold.
            apart = self._scored(question, candidates, terms, said_as, synonyms, circumstantial)
            share_of = {id(item[4]): item[1] for item in apart}
            scored = [
                (score, max(share, share_of[id(c)]), own, matched, c)
                for score, share, own, matched, c in scored
            ]
        if scored[0][1] < self.min_coverage:
            # Still refused: meaning may find the sentence that says it otherwise.
            scored = self._by_meaning(question, scored, wants_number(question))
        if joined:
            # What the search found is read as without the rest of its sections, and
            # answers first; only when it does not may a passage read with its section.
            rest = self._scored(
                question,
                every,
                terms,
                said_as,
                synonyms,
                circumstantial,
                judged=[c for c in every if c.read_with],
            )
            if scored[0][1] >= self.min_coverage:
                return scored + rest
            return sorted(scored + rest, key=lambda item: -item[0])
        return scored

    def _scored(
        self,
        question: str,
        candidates: Sequence[Sentence],
        terms: Sequence[str],
        said_as: SaidAs,
        synonyms: dict[str, frozenset[str]],
        circumstantial: frozenset[str] = frozenset(),
        *,
        judged: Sequence[Sentence] | None = None,
    ) -> list[_Scored]:
        """Every candidate scored by the question's words it and its passage cover, best first.

        `synonyms`: question word -> the passages' words that stand for it; `circumstantial`:
        words of the asker's statements, counted only where the passage holds them. `judged`:
        only these are scored (the words' rarity is still read among all `candidates`).
        """

        def covers(words: frozenset[str], term: str) -> bool:
            return covers_term(words, term) or bool(synonyms.get(term, frozenset()) & words)

        asked = analyse(question)
        # A word's rarity is read among the sentences the search found, not `read_with` ones.
        found = [c for c in candidates if not c.read_with] or list(candidates)
        count = len(found)
        weight = {
            t: math.log(1 + count / (1 + sum(covers(c.words, t) for c in found))) for t in terms
        }
        total = sum(weight.values()) or 1.0
        # Words no passage uses: circumstances, or the very thing asked ("the idle limit").
        # With an embedder they were looked up among the best sentences' words (`_synonyms`),
        # and those still unmet are circumstances; without one they cannot be told apart.
        unknown = 0.0
        if self.embedder is None:
            unknown = sum(
                weight[t] for t in terms if not any(covers(c.passage_words, t) for c in candidates)
            )
        defining = bool(_ASKS_MEANING.search(question))
        wanted = wanted_dimensions(question)
        number_wanted = wants_number(question)
        unit_asked = asks_unit(question)
        permission = asks_permission(question) and not number_wanted

        dimensional = {t: DIMENSION_WORDS[t] & wanted for t in terms if t in DIMENSION_WORDS}
        dimensional = {t: kinds for t, kinds in dimensional.items() if kinds}
        thing = [t for t in terms if t not in dimensional]
        identifiers = {found.casefold() for found in _IDENTIFIER.findall(question)}
        set_aside = frozenset(
            t for found in _SET_ASIDE.finditer(question) for t in question_terms(found.group(1))
        )
        channel = frozenset(
            t for found in _CHANNEL.finditer(question) for t in question_terms(found.group(1))
        )

        scored: list[_Scored] = []
        for candidate in candidates if judged is None else judged:
            # Only a question that asks for a kind of quantity reads the sentence's numbers.
            measured = {m.dimension for m in numbers_in(candidate.text)} if wanted else set()
            if unit_asked:
                # "in what unit?": the unit named is the answer, with or without a number.
                measured |= {unit_dimension(w) for w in WORD.findall(candidate.text)} - {None}
            met = frozenset(t for t, kinds in dimensional.items() if kinds & measured)
            matched = frozenset(t for t in thing if covers(candidate.words, t)) | met
            # The asker's circumstances count where the passage holds them, never against it.
            counted = total - sum(
                weight[t]
                for t in circumstantial
                if t not in matched and not covers(candidate.passage_words, t)
            )
            own = sum(weight[t] for t in matched) / counted
            context = sum(weight[t] for t in thing if covers(candidate.passage_words, t))
            context = (context + sum(weight[t] for t in met)) / counted
            share = SENTENCE_SHARE * own + (1 - SENTENCE_SHARE) * context
            bonus = 0.0
            if number_wanted and _NUMBER.search(candidate.text):
                bonus += 0.1
            if number_wanted and not states_number(candidate.text):
                # "how many wrong guesses ...?" is not answered by a sentence with no number,
                # however many of the question's words it holds.
                share = min(share, NUMBERLESS_SHARE * self.min_coverage)
            if wanted and wanted & measured:
                bonus += 0.15
                holder = _holder(candidate.text, said_as) - GENERIC_NOUNS
                named = any(covers(holder, t) for t in thing if t not in GENERIC_NOUNS)
                # The clause that states the kind asked must name the thing, and not what the
                # question sets aside ("if we email it instead of posting it").
                stating = _holder(_own_case(_clause_stating(candidate.text, wanted)), said_as)
                # Named by its own words: a word read as a passage's (`synonyms`) may say
                # what the question is like, not which thing it is.
                held_here = any(
                    covers_term(stating, t) for t in thing if t not in GENERIC_NOUNS | set_aside
                ) and not any(covers_term(stating, t) for t in set_aside)
                if holder and thing and not named:
                    bonus -= HOLDER_COST
                elif all(covers(candidate.words, t) for t in channel) and (
                    (share >= KIND_FLOOR and met)
                    or (held_here and share >= HELD_FLOOR and unknown <= own * counted)
                ):
                    # It states the kind of quantity asked, of the thing asked about: it
                    # answers though the question's other words are not all its own.
                    share = max(share, self.min_coverage)
            if set_aside and any(
                covers_term(_holder(_own_case(clause), said_as), t)
                for clause in _CLAUSE_END.split(candidate.text)
                for t in set_aside
            ):
                # "if we email it instead of posting it": the rule on posted codes is not it.
                share = min(share, NUMBERLESS_SHARE * self.min_coverage)
                bonus -= HOLDER_COST
            if (
                candidate.read_with
                and own < self.min_coverage
                and not (
                    number_wanted
                    and states_number(candidate.text)
                    and (not wanted or bool(wanted & measured))
                )
            ):
                # A passage read with its section lends it its words for the number it states
                # (the push's 10 minutes), of the kind asked when a kind is ("how long" is not
                # answered by bits of entropy); anything else answers in its own words.
                share = min(share, NUMBERLESS_SHARE * self.min_coverage)
            if identifiers and not any(i in candidate.text.casefold() for i in identifiers):
                share = min(share, NUMBERLESS_SHARE * self.min_coverage)
            if _NORMATIVE.search(candidate.text):
                bonus += 0.05
            if permission and _MODAL.search(candidate.text) and share >= RULE_FLOOR:
                # "is it ok if we ...?" is answered by a rule (SHALL NOT, MAY, ...) on what the
                # question does; the words around it are circumstances.
                share = max(share, self.min_coverage)
            if defining and _DEFINES.search(candidate.text):
                bonus += 0.1
            if asked.measure is not None and BOUND[asked.measure].search(candidate.text):
                bonus += 0.05
            # The subject named in the sentence itself, not only in its section's title.
            said = frozenset(WORD.findall(candidate.text.casefold()))
            bonus += SUBJECT_WEIGHT * sum(weight[t] for t in terms if covers(said, t)) / total
            if candidate.pair:
                bonus -= PAIR_COST
            score = share + bonus - 0.01 * candidate.rank - LENGTH_COST * len(candidate.text)
            scored.append((score, share, own, matched, candidate))
        scored.sort(key=lambda item: -item[0])
        return scored

    def _synonyms(
        self, terms: Sequence[str], candidates: Sequence[Sentence], head: Sequence[Sentence]
    ) -> dict[str, frozenset[str]]:
        """Question words no passage uses -> the `head` sentences' words closest in meaning.

        Single words embedded with the packaged MiniLM (cached by word); a word at
        SYNONYM_FLOOR or closer stands for the question's word. Nothing without an embedder.
        """
        if self.embedder is None:
            return {}
        seen = frozenset().union(*(c.passage_words for c in candidates))
        missing = [t for t in terms if t.isalpha() and not covers_term(seen, t)]
        if not missing:
            return {}
        vocabulary = sorted(
            w
            for c in head
            for w in WORD.findall(c.text.casefold())
            if len(w) >= 4 and w not in _STOP and not any(ch.isdigit() for ch in w)
        )
        vocabulary = list(dict.fromkeys(vocabulary))[:MAX_VOCABULARY]
        new = [w for w in dict.fromkeys([*missing, *vocabulary]) if w not in self._word_vectors]
        if new:
            if len(self._word_vectors) + len(new) > VECTOR_CACHE:
                self._word_vectors.clear()
            self._word_vectors.update(zip(new, self.embedder.embed(new), strict=True))
        found: dict[str, frozenset[str]] = {}
        for term in missing:
            asked = self._word_vectors[term]
            close = frozenset(
                w
                for w in vocabulary
                if sum(a * b for a, b in zip(asked, self._word_vectors[w], strict=True))
                >= SYNONYM_FLOOR
            )
            if close:
                found[term] = close
        return found

    def _by_meaning(
        self,
        question: str,
        scored: list[_Scored],
        number_wanted: bool,
    ) -> list[_Scored]:
        """The word scores' head re-scored with each sentence's closeness in meaning.

        Only the first MEANING_DEPTH are embedded (MiniLM costs a few ms a sentence on a CPU);
        the rest keep their word scores, which are below the head's and only the head gains.
        """
        if self.embedder is None:
            return scored
        head = scored[:MEANING_DEPTH]
        closeness = self._closeness(question, [item[4] for item in head])
        rescored = []
        for (score, share, own, matched, candidate), close in zip(head, closeness, strict=True):
            near = close >= MEANING_FLOOR or (close >= JOINT_MEANING and share >= JOINT_SHARE)
            if near and (not number_wanted or _NUMBER.search(candidate.text)):
                share = max(share, self.min_coverage)
            rescored.append((score + MEANING_WEIGHT * close, share, own, matched, candidate))
        rescored.sort(key=lambda item: -item[0])
        return rescored + scored[MEANING_DEPTH:]

    def _closeness(self, question: str, candidates: Sequence[Sentence]) -> list[float]:
        """Each candidate's cosine to the question (`_by_meaning` calls it with an embedder).

        A pair's is its two sentences' mean (a close second sentence must not carry a first
        that is not), so only single sentences are embedded.
        """
        assert self.embedder is not None
        singles = list(dict.fromkeys(t for c in candidates for t in (c.halves or (c.text,))))
        new = [t for t in singles if t not in self._vectors]
        vectors = self.embedder.embed([question, *new])
        asked = vectors[0]
        if len(self._vectors) + len(new) > VECTOR_CACHE:
            self._vectors.clear()
        self._vectors.update(zip(new, vectors[1:], strict=True))
        by_text = {
            text: sum(a * b for a, b in zip(asked, self._vectors[text], strict=True))
            for text in singles
        }
        return [
            sum(by_text.get(t, 0.0) for t in c.halves) / 2 if c.pair else by_text.get(c.text, 0.0)
            for c in candidates
        ]


_LED_BY = re.compile(r"^(?P<told>.{8,}):\s+(?P<asking>[^:]+\?)\s*$", re.S)
"""A question led by its case and a colon ("<what happened>: <what is asked>?")."""


def _circumstantial(question: str, terms: Sequence[str]) -> frozenset[str]:
    """The question's words that only its statements hold (`told_around`), not its asking.

    None when the asking sentences name no thing of their own in words ("401 or 403?" asks
    which of two codes fits the case the statements tell).
    """
    asking, told = told_around(question)
    led = _LED_BY.match(asking or question)
    if led is not None and len(question_terms(led.group("asking"))) >= 2:
        # "support case: user lost both keys. what do we do?", and a follow-up searched with
        # the question before it ("...sensor have to meet: how many failed scans ...?"): what
        # leads the colon tells the case, what follows it asks.
        asking, told = led.group("asking"), f"{told} {led.group('told')}".strip()
    if all(t.isdigit() for t in _subject_terms(asking)):
        return frozenset()
    return frozenset(question_terms(told)) & frozenset(terms) - frozenset(question_terms(asking))


def _holder(text: str, said_as: SaidAs = ()) -> frozenset[str]:
    """The words before the modal of the sentence's first normative clause, else none.

    They say what its number is about ("The salt value SHALL be ..."). A pair's first
    sentence holds its number, so its clause is the one read.
    """
    modal = _MODAL.search(text)
    if modal is None:
        return frozenset()
    start = max(text.rfind(". ", 0, modal.start()), text.rfind("; ", 0, modal.start())) + 1
    return with_everyday_names(words_of(text[start : modal.start()], {}), said_as) - _STOP


def _own_case(clause: str) -> str:
    """The clause without what it sets aside itself.

    "Codes sent by means other than physical mail" are the codes not posted that a question
    setting posting aside asks about.
    """
    return _SET_ASIDE.sub(" ", clause)


def _clause_stating(text: str, wanted: set[str | None]) -> str:
    """The first clause of `text` that states a number of a kind in `wanted`, else `text`."""
    for clause in _CLAUSE_END.split(text):
        if wanted & {m.dimension for m in numbers_in(clause)}:
            return clause
    return text


def _refusal(system: str) -> str:
    found = _REFUSAL.search(system)
    return found.group("text") if found else "I cannot answer that from these documents."
