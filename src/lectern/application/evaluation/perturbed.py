"""Hard negatives from ClapNQ: each answerable question's twin that its passages cannot answer.

The SQuAD 2.0 recipe, by rules and checked by script: in an answerable question, one key
term is swapped for one the corpus does not support beside the question's other words:
- a year or number -> another one that the question's passage does not hold;
- an entity (question words that the passage writes capitalised: "general hospital",
  "canada") -> a capitalised name of the same length from another passage;
- else a negation ("who played ..." -> "who never played ...") over a passage without one.
A twin is kept only when no passage of the corpus holds the new term together with at least
half of the question's other content words (`unsupported`), so it is unanswerable here.

Deterministic (a seed): generated at run time from the shared files, never copied into the
repository. Splits are by passage (a hash of the passage title): `train` 60%, `dev` 20%,
`test` 20%, so no passage is on both sides of training and testing.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from lectern.domain.answering import content_terms
from lectern.errors import DatasetError

SEED = 27
ANSWERABLE_FILE = "clapnq_dev_answerable.jsonl"
UNANSWERABLE_FILE = "clapnq_dev_unanswerable.jsonl"
_YEAR = re.compile(r"\b(1[0-9]{3}|20[0-9]{2})\b")
_NUMBER = re.compile(r"\b\d+\b")
_NAME = re.compile(r"(?<=[a-z,;] )[A-Z][a-z]+(?:\s+(?:of\s+|the\s+)?[A-Z][a-z]+)*")
"""A capitalised name inside a sentence (sentence-initial words are not names)."""
_AUXILIARIES = ("did", "does", "do", "is", "was", "are", "were", "can", "could", "has", "have")
_NUMBER_WORDS = {
    "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
    "eight": "8", "nine": "9", "ten": "10", "first": "1st", "second": "2nd", "third": "3rd",
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Passage:
    """One ClapNQ passage (title and text)."""

    title: str
    text: str


@dataclass(frozen=True, slots=True)
class PerturbedCase:
    """A twin of an answerable question that its corpus does not answer."""

    id: str
    original_id: str
    original: str
    question: str
    swap: str
    """`year`, `number`, `entity` or `negation`."""
    removed: str
    added: str
    split: str
    """`train`, `dev` or `test`, by the passage's title."""


def passage_split(title: str) -> str:
    """Train (60%), dev (20%) or test (20%), from a hash of the passage title."""
    bucket = int(hashlib.sha256(title.casefold().encode()).hexdigest(), 16) % 10
    return "train" if bucket < 6 else "dev" if bucket < 8 else "test"


def read_rows(folder: Path) -> list[tuple[dict[str, object], bool]]:
    """Every ClapNQ dev row with whether it is answerable."""
    rows: list[tuple[dict[str, object], bool]] = []
    for name, answerable in ((ANSWERABLE_FILE, True), (UNANSWERABLE_FILE, False)):
        path = folder / name
        try:
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    rows.append((json.loads(line), answerable))
        except (OSError, ValueError) as error:
            raise DatasetError(f"cannot read {path}: {error}") from None
    return rows


def _passage(row: dict[str, object]) -> Passage:
    passages = row.get("passages")
    if not isinstance(passages, list) or not passages or not isinstance(passages[0], dict):
        raise DatasetError(f"ClapNQ row {row.get('id')} has no passage")
    return Passage(str(passages[0].get("title", "")), str(passages[0].get("text", "")))


class Corpus:
    """The passages as sets of content terms, to check what the corpus supports."""

    def __init__(self, passages: Iterable[Passage]) -> None:
        """Index the passages' words (title and text)."""
        self.passages = list({(p.title, p.text): p for p in passages}.values())
        self.words = [
            set(content_terms(f"{p.title} {p.text}")) | set(_plain(f"{p.title} {p.text}").split())
            for p in self.passages
        ]
        self.plain = [_plain(f"{p.title} {p.text}") for p in self.passages]

    def unsupported(self, added: str, others: Sequence[str]) -> bool:
        """True when no passage holds `added` with at least half of the other words."""
        phrase = _plain(added)
        need = max(1, (len(others) + 1) // 2)
        for words, text in zip(self.words, self.plain, strict=True):
            if f" {phrase} " not in f" {text} ":
                continue
            if sum(1 for o in others if o in words) >= need:
                return False
        return True


def _plain(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", text.casefold()).split())


def _entity_spans(question: str, passage: Passage) -> list[str]:
    """Runs of question words that the passage writes as a capitalised name."""
    names = {_plain(m.group(0)) for m in _NAME.finditer(passage.text)}
    names.add(_plain(passage.title))
    names.discard("")
    words = _plain(question).split()
    spans: list[str] = []
    for size in (3, 2, 1):
        for start in range(len(words) - size + 1):
            span = " ".join(words[start : start + size])
            if span in names and not any(span in s for s in spans):
                if size == 1 and (not content_terms(span) or span in _AUXILIARIES):
                    continue
                spans.append(span)
    return spans


def _replace(question: str, old: str, new: str) -> str:
    return re.sub(rf"\b{re.escape(old)}\b", new, question, count=1, flags=re.I)


def make_twins(folder: Path, seed: int = SEED) -> list[PerturbedCase]:
    """One checked twin per answerable question where a swap is found (deterministic)."""
    rows = read_rows(folder)
    corpus = Corpus(_passage(row) for row, _ in rows)
    names_by_size: dict[int, list[str]] = {}
    for passage in corpus.passages:
        for match in _NAME.finditer(passage.text):
            name = _plain(match.group(0))
            if name and len(name) > 3:
                names_by_size.setdefault(len(name.split()), []).append(name)
    pools = {size: sorted(set(names)) for size, names in names_by_size.items()}
    rng = random.Random(seed)
    twins: list[PerturbedCase] = []
    for row, answerable in rows:
        if not answerable:
            continue
        question = str(row["input"])
        passage = _passage(row)
        passage_plain = f" {_plain(passage.title + ' ' + passage.text)} "
        swaps: list[tuple[str, str, str]] = []
        for year in _YEAR.findall(question):
            for delta in rng.sample([-7, -5, -3, 3, 5, 9, 11, 13], 8):
                new = str(int(year) + delta)
                if f" {new} " not in passage_plain:
                    swaps.append(("year", year, new))
                    break
        for number in _NUMBER.findall(question):
            if _YEAR.fullmatch(number):
                continue
            new = str(int(number) + rng.choice([2, 3, 4, 7]))
            if f" {new} " not in passage_plain:
                swaps.append(("number", number, new))
        for word in _NUMBER_WORDS:
            if re.search(rf"\b{word}\b", question, re.I):
                choices = [w for w in _NUMBER_WORDS if w != word and f" {w} " not in passage_plain]
                if choices:
                    swaps.append(("number", word, rng.choice(choices)))
        for span in _entity_spans(question, passage):
            pool = pools.get(len(span.split()), [])
            for _ in range(25):
                if not pool:
                    break
                new = rng.choice(pool)
                if f" {new} " not in passage_plain and new not in _plain(question):
                    swaps.append(("entity", span, new))
                    break
        words = _plain(question).split()
        negatable = (
            len(words) > 3
            and words[0] in ("who", "what", "which", "when", "where")
            and " not " not in passage_plain
            and " never " not in passage_plain
        )
        if negatable and words[1] in _AUXILIARIES and words[2].endswith("ed"):
            swaps.append(("negation", words[2], f"never {words[2]}"))
        elif negatable and words[1] not in _AUXILIARIES and words[1].endswith(("ed", "s")):
            swaps.append(("negation", words[1], f"never {words[1]}"))
        rng.shuffle(swaps)
        order = {"entity": 0, "year": 1, "number": 2, "negation": 3}
        swaps.sort(key=lambda s: order[s[0]])
        for kind, old, new in swaps:
            twin = _replace(question, old, new)
            if twin == question:
                continue
            others = [t for t in content_terms(question) if t not in content_terms(old)]
            if kind == "negation" or corpus.unsupported(new, others):
                identifier = str(row["id"])
                twins.append(
                    PerturbedCase(
                        id=f"{identifier}-twin",
                        original_id=identifier,
                        original=question,
                        question=twin,
                        swap=kind,
                        removed=old,
                        added=new,
                        split=passage_split(passage.title),
                    )
                )
                break
    return twins


def original_splits(folder: Path) -> dict[str, str]:
    """ClapNQ question id -> the passage split of its passage (train, dev or test)."""
    return {str(row["id"]): passage_split(_passage(row).title) for row, _ in read_rows(folder)}
