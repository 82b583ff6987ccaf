"""The offline research writer: cited sentences grouped by source, lead sentences, fields.

Nothing here is a claim of its own: answers and summaries are sentences copied from the
context blocks, each behind its `[SOURCE_ID]`; comparisons name metadata values the records
hold (vendor, weaknesses, tactics, platforms, groups, mitigations) and which records hold them.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence

from lectern.domain.answering import content_terms, quote_of, term_key
from lectern.domain.books import JSONValue
from lectern.domain.research import ContextBlock, ResearchDraft, ResearchTemplate
from lectern.domain.sentences import KB, sentence_spans

MAX_CITED_SOURCES = 4
RELATIVE_FLOOR = 0.6
"""Sources scoring under this share of the best block's relevance are not cited."""
SENTENCES_PER_SOURCE = 2
MITIGATION_PREFIXES = ("required action",)
"""Sentences that say what to do (KEV's required action): mitigations, not findings."""
LEAD_SENTENCES = 2
"""Key findings per summarized source: its first informative sentences."""
COMPARED_FIELDS = (
    "vendor",
    "product",
    "cwe",
    "ransomware",
    "tactic",
    "platform",
    "groups",
    "mitigations",
)
SYSTEM_FIELDS = ("vendor", "product", "platform")
KINDS = {
    "vulnerability": "vulnerabilities",
    "flaw": "flaws",
    "bug": "bugs",
    "weakness": "weaknesses",
    "cve": "cves",
    "advisory": "advisories",
    "technique": "techniques",
    "sub-technique": "sub-techniques",
    "tactic": "tactics",
}
"""The kinds of record a question asks for, singular and plural. "Which vulnerability ..."
asks for one record, "which vulnerabilities ..." for all that hold what is asked; the kind
word itself is not the question's subject (every record of the kind holds it)."""
KIND_TERMS = frozenset(term_key(w) for pair in KINDS.items() for w in pair)
_KIND_WORD = re.compile(r"[\w-]+")
SIBLING_SHARE = 0.9
"""Sources this close to the best relevance are siblings the search cannot tell apart: the
one holding most of the question is cited first."""
TOPIC_FIELDS = ("tactic", "cwe", "vendor", "platform")


def _values(value: JSONValue) -> list[str]:
    if isinstance(value, list):
        return [str(v) for v in value if isinstance(v, str | int | float) and str(v).strip()]
    if isinstance(value, str | int | float) and not isinstance(value, bool) and str(value).strip():
        return [str(value)]
    return []


def _sentences(text: str) -> list[str]:
    return [" ".join(text[s:e].split()) for s, e in sentence_spans(text, KB)]


def _by_source(blocks: Sequence[ContextBlock]) -> list[tuple[str, list[ContextBlock]]]:
    grouped: dict[str, list[ContextBlock]] = {}
    for block in blocks:
        grouped.setdefault(block.source_id, []).append(block)
    return sorted(grouped.items(), key=lambda item: -max(b.relevance for b in item[1]))


def _informative(sentence: str, title: str) -> bool:
    """Three words or more, and more than a restatement of the record's title."""
    words = set(content_terms(sentence))
    return len(sentence.split()) >= 3 and not words <= set(content_terms(title))


def _lead(block: ContextBlock, count: int = 1) -> list[str]:
    """The first informative sentences of a block."""
    return [
        s
        for s in _sentences(block.text)
        if _informative(s, block.title) and not s.casefold().startswith(MITIGATION_PREFIXES)
    ][:count]


_FIELD = re.compile(r"[A-Z][A-Za-z ]{1,40}: ")
"""A record's field line ("Known ransomware campaign use: Unknown.", "Platforms: Linux."): a
value every record of its source has, not a finding about the question."""


def _covering(question: str, blocks: Sequence[ContextBlock], limit: int) -> list[str]:
    """The sentences of a source's blocks holding most question words, in text order."""
    terms = set(content_terms(question))
    scored = []
    for block_number, block in enumerate(blocks):
        for position, sentence in enumerate(_sentences(block.text)):
            overlap = len(terms & set(content_terms(sentence)))
            if overlap and _informative(sentence, block.title) and not _FIELD.match(sentence):
                scored.append((overlap, block_number, position, sentence))
    best = sorted(scored, key=lambda s: (-s[0], s[1], s[2]))[:limit]
    return [s[3] for s in sorted(best, key=lambda s: (s[1], s[2]))]


def _topics(question: str, blocks: Sequence[ContextBlock]) -> tuple[str, ...]:
    asked = question.casefold()
    counts: Counter[str] = Counter()
    for block in {b.source_id: b for b in blocks}.values():
        for name in TOPIC_FIELDS:
            for value in _values(block.metadata.get(name)):
                if value.casefold() not in asked:
                    counts[value] += 1
    return tuple(value for value, _ in counts.most_common(5))


def asks_for(question: str) -> str | None:
    """`one` or `several` when the question names the kind of record it wants, else None."""
    singular, plural = set(KINDS), set(KINDS.values())
    for word in _KIND_WORD.findall(question.casefold()):
        if word in singular:
            return "one"
        if word in plural:
            return "several"
    return None


def named_terms(question: str) -> set[str]:
    """The question's names (kind words apart).

    Words written capitalised after its first word, or with a digit or an inner capital
    (ProxyNotShell, SMBv1, vBulletin); a hyphenated name names each of its words
    ("USB-audio": usb and audio).
    """
    words = _KIND_WORD.findall(question)
    names: set[str] = set()
    for position, w in enumerate(words):
        if (position and w[:1].isupper()) or any(c.isdigit() for c in w) or w[1:] != w[1:].lower():
            names.add(term_key(w))
            names.update(term_key(part) for part in w.split("-") if part.isalpha())
    return names & set(content_terms(question)) - KIND_TERMS


def _names(text: str, source: str) -> bool:
    """True when `text` names the record `source`.

    `T1496/001` (ATT&CK's link to a sub-technique) and `T1496.001` name the sub-technique, not
    its parent `T1496`.
    """
    return re.search(rf"(?<![\w-]){re.escape(source)}(?![\w-]|[./]\d)", text, re.I) is not None


def _family(source: str, other: str) -> bool:
    """True when one record is a sub-technique of the other (`T1543.001` and `T1543`)."""
    return source.startswith(f"{other}.") or other.startswith(f"{source}.")


def _same_parent(source: str, other: str) -> bool:
    """True when both records are sub-techniques of one technique (`T1574.010`, `T1574.011`)."""
    parent, dot, _ = source.partition(".")
    return bool(dot) and source != other and other.startswith(f"{parent}.")


class ExtractiveResearchWriter:
    """`ResearchWriter` without a model."""

    model_id = "extractive"

    def prompt_version(self, template: ResearchTemplate) -> str:
        """The extractive writer's own versions."""
        return f"{template}-extractive-v1"

    def write(
        self,
        template: ResearchTemplate,
        question: str,
        blocks: Sequence[ContextBlock],
        *,
        run_id: str,
        feedback: str | None = None,
    ) -> ResearchDraft:
        """The template's draft from the blocks' own sentences and fields (feedback unused).

        Its snippets are copied from the blocks, so validation never drops one to retry.
        """
        del run_id, feedback
        if template == "summarize":
            return self._summarize(question, blocks)
        if template == "compare":
            return self._compare(question, blocks)
        return self._research(question, blocks)

    def _cited_sources(
        self, blocks: Sequence[ContextBlock]
    ) -> list[tuple[str, list[ContextBlock]]]:
        grouped = _by_source(blocks)
        if not grouped:
            return []
        top = max(b.relevance for b in blocks)
        return [
            (source, group)
            for source, group in grouped
            if top <= 0 or max(b.relevance for b in group) >= RELATIVE_FLOOR * top
        ][:MAX_CITED_SOURCES]

    def _research(self, question: str, blocks: Sequence[ContextBlock]) -> ResearchDraft:
        terms = set(content_terms(question))
        subject = terms - KIND_TERMS
        wanted = asks_for(question)
        found: list[tuple[str, float, list[str], set[str], set[str]]] = []
        title_terms: dict[str, set[str]] = {}
        record_names: dict[str, str] = {}
        strong = {source for source, _ in self._cited_sources(blocks)}
        for source, group in _by_source(blocks):
            sentences = _covering(question, group, SENTENCES_PER_SOURCE)
            if sentences:
                held = subject & {t for s in sentences for t in content_terms(s)}
                title_terms[source] = subject & set(content_terms(group[0].title))
                record_names[source] = group[0].title.removeprefix(f"{source}: ").casefold()
                titled = held | title_terms[source]
                found.append((source, max(b.relevance for b in group), sentences, held, titled))
        if found and found[0][0] not in strong:
            # No source over the floor holds a question word: nothing to answer from (the
            # ones under it are only ever cited beside a first one).
            found = []
        if found:
            # Siblings at the top (the search scores them alike): the one whose name (its
            # title: technique name, product and kind of flaw) holds most of the question's
            # words leads, then the one whose sentences hold most of it ("Web Protocols"
            # before "Protocol or Service Impersonation" for C2 over HTTP).
            # A sibling holding, in its name and sentences, every question word the leader
            # holds and more leads instead: the leader's extra title words are ones it shares
            # ("FortiOS SSL VPN Path Traversal" against an "Improper Authorization" record whose
            # sentences hold SSL VPN and also the password the question asks about).
            near = [f for f in found if f[1] >= SIBLING_SHARE * found[0][1] and f[0] in strong]
            first = max(near, key=lambda f: (len(title_terms[f[0]]), len(f[3]), f[1]))
            while wider := [f for f in near if f[4] > first[4]]:
                first = max(wider, key=lambda f: (len(title_terms[f[0]]), len(f[3]), f[1]))
            found.remove(first)
            found.insert(0, first)
        names = named_terms(question)
        # What a later source must stay on: the question's names, or, when it writes none
        # (lower-case shorthand: "clfs driver use-after-free ... which CVEs?"), the question's
        # words in the first source's name (its product and kind of flaw, or technique name).
        anchors = names or (title_terms[found[0][0]] if found else set())
        chosen: list[tuple[str, list[str]]] = []
        covered: set[str] = set()
        for number, (source, relevance, sentences, held, titled) in enumerate(found):
            weak = source not in strong
            if weak and len(chosen) >= MAX_CITED_SOURCES:
                continue
            twin = (
                number > 0
                and not weak
                and relevance >= SIBLING_SHARE * found[0][1]
                and record_names[source] == record_names[found[0][0]]
                and held == found[0][3]
            )
            # A twin (the same record name, scored alike, holding the same question words):
            # nothing in the question or the texts tells the two apart, so both are cited
            # even when one record is asked for.
            if number and not twin and not _names(question, source):
                if wanted == "one":
                    # One record asked for: a later source is cited only when the question
                    # or the answer's sentences name it (below).
                    continue
                adds = held - covered
                # A sub-technique of the first's parent is the other half of the question
                # ("on service binaries and on service registry keys": Services File and
                # Services Registry Permissions Weakness) when each holds a part the other
                # lacks: it adds a question word the answer lacks, and the first's name holds
                # a question word it does not. Whatever kind of record the question names.
                half = (
                    _same_parent(source, found[0][0])
                    and bool(adds)
                    and bool(title_terms[found[0][0]] - titled)
                )
                if (
                    wanted is None
                    and not half
                    and (not adds & names or _family(source, found[0][0]))
                ):
                    # No kind of record named ("how do adversaries ..."): the question asks
                    # for one behaviour or product; a later source is used only when it adds
                    # one of the question's names the answer lacks, else it is related. The
                    # parent of the answer's technique (or its sub-technique) is its family.
                    continue
                first_held, first_titled = found[0][3], found[0][4]
                same_entity = anchors & first_titled <= titled
                # A sibling: the same named thing, and all but one of the question's words
                # that the first source holds ("which vulnerabilities make up X").
                # Or a record of the very same name (product and kind of flaw: "Zyxel Multiple
                # Firewalls Buffer Overflow Vulnerability") holding a question word the answer
                # lacks ("the notification and ID processing functions").
                same_name = record_names[source] == record_names[found[0][0]]
                sibling = half or (
                    wanted == "several"
                    and (
                        (same_entity and len(first_held - held) <= 1) or (same_name and bool(adds))
                    )
                )
                if weak and not (
                    (half and bool(adds & title_terms[source]))
                    or (wanted == "several" and names <= titled and len(first_held - held) <= 1)
                ):
                    # Under the relevance floor (or past the first few sources), a record is
                    # cited only as a sibling the texts show: the other half of the question
                    # when its own name holds what it adds ("winlogon helper dlls and active
                    # setup": Active Setup), or, asked for several, one holding every name the
                    # question writes ("Linux kernel OverlayFS vulnerabilities": the one whose
                    # name is "Improper Ownership Management" scores half the other).
                    continue
                # A later source adding question words is used when it adds a name the
                # question asks about or stays on every name the answer holds; else it is
                # related (another product's record that shares a common word), not used.
                if not sibling and not (adds and (adds & names or anchors & covered <= titled)):
                    continue
            chosen.append((source, sentences))
            covered.update(held)
        said = " ".join(s for _, sentences in chosen for s in sentences)
        cited_ids = {source for source, _ in chosen}
        for source, _, sentences, held, _ in found:
            if source in strong and source not in cited_ids and _names(said, source):
                # The answer names this record ("chainable with CVE-..."): its own
                # sentences back that claim.
                chosen.append((source, sentences))
                covered.update(held)
        lines = [f"[{source}] " + " ".join(sentences) for source, sentences in chosen]
        cited = [(source, quote_of(s)) for source, sentences in chosen for s in sentences]
        said_terms = {t for _, sentences in chosen for s in sentences for t in content_terms(s)}
        confidence = round(len(terms & said_terms) / len(terms), 3) if terms else 0.0
        return ResearchDraft(
            answer="\n".join(lines),
            cited=tuple(cited),
            confidence=confidence,
            related_topics=_topics(question, blocks),
        )

    def _summarize(self, question: str, blocks: Sequence[ContextBlock]) -> ResearchDraft:
        findings: list[str] = []
        firsts: list[str] = []
        mitigations: list[str] = []
        systems: list[str] = []
        cited: list[tuple[str, str]] = []
        for source, group in self._cited_sources(blocks):
            sentences = _sentences(group[0].text)
            for number, lead in enumerate(_lead(group[0], LEAD_SENTENCES)):
                findings.append(f"[{source}] {lead}")
                cited.append((source, quote_of(lead)))
                if number == 0:
                    firsts.append(f"[{source}] {lead}")
            for sentence in sentences:
                if sentence.casefold().startswith(MITIGATION_PREFIXES):
                    mitigations.append(f"[{source}] {sentence}")
                    cited.append((source, quote_of(sentence)))
            for name in SYSTEM_FIELDS:
                for value in _values(group[0].metadata.get(name)):
                    if value not in systems:
                        systems.append(value)
            for value in _values(group[0].metadata.get("mitigations")):
                mitigations.append(f"[{source}] {value}")
        summary = " ".join(firsts)
        sections: dict[str, JSONValue] = {
            "summary": summary,
            "key_findings": list(findings),
            "affected_systems": list(systems),
            "mitigations": list(mitigations),
        }
        return ResearchDraft(
            answer=summary,
            cited=tuple(cited),
            confidence=1.0 if findings else 0.0,
            related_topics=_topics(question, blocks),
            sections=sections,
        )

    def _compare(self, question: str, blocks: Sequence[ContextBlock]) -> ResearchDraft:
        sources = _by_source(blocks)[:MAX_CITED_SOURCES]
        fields: dict[str, dict[str, list[str]]] = {}
        for source, group in sources:
            metadata: Mapping[str, JSONValue] = group[0].metadata
            for name in COMPARED_FIELDS:
                fields.setdefault(name, {})[source] = _values(metadata.get(name))
        ids = [source for source, _ in sources]
        labels = " ".join(f"[{s}]" for s in ids)
        patterns: list[str] = []
        differences: list[str] = []
        connections: list[str] = []
        for name, by_source in fields.items():
            held = [set(v) for v in by_source.values()]
            if not any(held):
                continue
            shared = set.intersection(*held) if len(held) == len(ids) and held else set()
            target = connections if name in ("groups", "mitigations") else patterns
            if shared and len(ids) > 1:
                target.append(f"{name}: {', '.join(sorted(shared)[:8])} {labels}")
            distinct = {s: sorted(set(v) - shared) for s, v in by_source.items()}
            if len(ids) > 1 and any(distinct.values()):
                differences.append(
                    f"{name}: "
                    + "; ".join(f"[{s}] {', '.join(v[:6]) or '-'}" for s, v in distinct.items())
                )
        leads: list[str] = []
        cited: list[tuple[str, str]] = []
        for source, group in sources:
            for lead in _lead(group[0]):
                leads.append(f"[{source}] {lead}")
                cited.append((source, quote_of(lead)))
        assessment = " ".join(leads)
        sections: dict[str, JSONValue] = {
            "patterns": list(patterns),
            "differences": list(differences),
            "connections": list(connections),
            "assessment": assessment,
        }
        return ResearchDraft(
            answer=assessment,
            cited=tuple(cited),
            confidence=1.0 if len(leads) > 1 else 0.5 if leads else 0.0,
            related_topics=_topics(question, blocks),
            sections=sections,
        )
