"""The shelf benchmark: queries and graded relevance from the shelves readers put books on.

Labels come from goodbooks-10k's reader shelves (`book_tags_reduced.csv`: a shelf, a book and
how many readers put the book there, 100 or more), never from the project's own labeller.
Everything is decided by rule, before any tuning:

- *Which shelves*: topical ones (`is_topical_shelf`) written in plain ASCII words, that do
  not name the books they hold (`names_the_book` true for half or more of them: an author's,
  a series' or a title's shelf, `terry-pratchett`, `dresden-files`), carried by
  `MIN_BOOKS`..`MAX_BOOKS` catalog works. At least 10, the catalog's own threshold for a
  shelf that is not rare; at most 100, so the whole relevant set fits in the 100 results
  Recall@100 reads.
- *Which of them*: `SAMPLE` drawn with `random.Random(SEED)` from the sorted eligible names.
- *The query*: `books about <the shelf's words>` ("time-travel" -> "books about time travel").
- *The split*: the sample's order is random, so its first half is dev and the rest test;
  the split is by shelf, so no query is tuned on and tested on. The drawn names and the
  seed are written to `lectern/evaluation/shelf_split.json` (`tools/shelf_split.py`), and
  every run reads the split from there.
- *Grades*: how many readers shelved the book there (`grade_of`): 1 under 200, 2 under 500,
  3 from 500.

Relevance is per work: a ranking is read as its works in order (one edition per work, as
search shows them), and a work is relevant when its goodbooks book is.
"""

from __future__ import annotations

import csv
import json
import random
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from types import EllipsisType
from typing import Literal

from lectern.application.evaluation.metrics import (
    mean,
    ndcg_at_k,
    recall_at_k,
    reciprocal_rank_at_k,
)
from lectern.application.hybrid_retrieval import HybridRetriever
from lectern.application.ports import ProgressReporter, QueryUnderstanding
from lectern.application.search import BookSearchService
from lectern.domain.books import Book
from lectern.domain.normalize import is_topical_shelf, names_the_book
from lectern.domain.search import SearchQuery
from lectern.errors import SourceError

SEED = 28
"""The sample's seed (the issue number); fixed so every run draws the same shelves."""
SAMPLE = 120
"""Shelves drawn: 60 dev, 60 test."""
MIN_BOOKS = 10
MAX_BOOKS = 100
DEPTH = 100
Split = Literal["dev", "test"]
SPLITS: tuple[Split, ...] = ("dev", "test")
SPLIT_FILE = "shelf_split.json"
"""The drawn shelves, in the `lectern.evaluation` package (`tools/shelf_split.py` writes it)."""


@dataclass(frozen=True, slots=True)
class ShelfQuery:
    """One benchmark query: the shelf it came from, its words, its split and judgments."""

    shelf: str
    text: str
    split: Split
    qrels: Mapping[str, int]
    """Work key -> grade (1..3)."""


def grade_of(readers: int) -> int:
    """The grade of a book on a shelf, from how many readers put it there (100 or more)."""
    if readers >= 500:
        return 3
    return 2 if readers >= 200 else 1


def query_text(shelf: str) -> str:
    """A shelf name in plain words: `time-travel` -> `books about time travel`."""
    words = " ".join(re.split(r"[-_\s]+", shelf.strip())).strip()
    return f"books about {words}"


def read_shelves(folder: Path) -> dict[str, dict[str, int]]:
    """Shelf name -> goodreads book id -> readers, from the two goodbooks tag files."""
    names: dict[str, str] = {}
    tags, book_tags = folder / "tags_reduced.csv", folder / "book_tags_reduced.csv"
    for path in (tags, book_tags):
        if not path.is_file():
            raise SourceError(f"{path} is missing: --tags names the goodbooks-10k-tags folder")
    with tags.open(encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle):
            names[row["tag_id"]] = row["tag_name"]
    shelves: dict[str, dict[str, int]] = {}
    with book_tags.open(encoding="utf-8", newline="") as handle:
        for line, row in enumerate(csv.DictReader(handle), start=2):
            try:
                name = names[row["tag_id"]]
                readers = int(row["count"])
                book = row["goodreads_book_id"].strip()
            except (KeyError, ValueError) as error:
                raise SourceError(f"{book_tags}:{line}: unreadable row ({error})") from error
            shelves.setdefault(name, {})[book] = readers
    return shelves


_PLAIN = re.compile(r"^[a-z0-9]+(?:[-_][a-z0-9]+)*$")


@dataclass(frozen=True, slots=True)
class ShelfSplit:
    """The drawn shelves and the seed that drew them: dev first, then test."""

    seed: int
    dev: tuple[str, ...]
    test: tuple[str, ...]

    def to_json(self) -> str:
        """The split as the repository stores it (`lectern/evaluation/shelf_split.json`)."""
        body = {"seed": self.seed, "sample": len(self.dev) + len(self.test)}
        return json.dumps({**body, "dev": self.dev, "test": self.test}, indent=1) + "\n"


def packaged_split() -> ShelfSplit:
    """The split fixed before any tuning, as written to the repository.

    Relevance is still read from the shelf files at run time; only the names are stored,
    so a re-ingest that maps a shelf's books differently cannot move a shelf between splits.
    """
    raw = json.loads(resources.files("lectern.evaluation").joinpath(SPLIT_FILE).read_text())
    return ShelfSplit(int(raw["seed"]), tuple(raw["dev"]), tuple(raw["test"]))


def draw_split(
    shelves: Mapping[str, Mapping[str, int]],
    work_of: Callable[[str], str | None],
    words_of: Callable[[str], Sequence[str]] = lambda _book: (),
    *,
    seed: int = SEED,
    sample: int = SAMPLE,
) -> ShelfSplit:
    """The rules: eligible shelves, a seeded draw, its first half dev and the rest test.

    `work_of` maps a goodreads book id to the catalog work holding it (None: not in it);
    `words_of` to its title, series and authors (what a shelf naming the book repeats).
    """
    eligible: list[str] = []
    for name, books in shelves.items():
        if not _PLAIN.match(name) or not is_topical_shelf(name):
            continue
        named = sum(1 for book in books if names_the_book(name, words_of(book)))
        if 2 * named >= len(books):
            continue
        if MIN_BOOKS <= len(_graded(books, work_of)) <= MAX_BOOKS:
            eligible.append(name)
    drawn = random.Random(seed).sample(sorted(eligible), min(sample, len(eligible)))
    half = len(drawn) // 2
    return ShelfSplit(seed, tuple(drawn[:half]), tuple(drawn[half:]))


def _graded(books: Mapping[str, int], work_of: Callable[[str], str | None]) -> dict[str, int]:
    """Work -> the best grade any of its editions has on the shelf."""
    qrels: dict[str, int] = {}
    for book, readers in books.items():
        work = work_of(book)
        if work is not None:
            qrels[work] = max(qrels.get(work, 0), grade_of(readers))
    return qrels


def judge(
    shelves: Mapping[str, Mapping[str, int]],
    work_of: Callable[[str], str | None],
    split: ShelfSplit,
) -> list[ShelfQuery]:
    """The split's shelves as queries, each with its catalog works graded."""
    named: list[tuple[str, Split]] = [(name, "dev") for name in split.dev]
    named += [(name, "test") for name in split.test]
    missing = [name for name, _ in named if name not in shelves]
    if missing:
        raise SourceError(f"shelves of the split are not in the shelf files: {missing[:5]}")
    return [
        ShelfQuery(name, query_text(name), part, _graded(shelves[name], work_of))
        for name, part in named
    ]


def build_queries(
    shelves: Mapping[str, Mapping[str, int]],
    work_of: Callable[[str], str | None],
    words_of: Callable[[str], Sequence[str]] = lambda _book: (),
    *,
    seed: int = SEED,
    sample: int = SAMPLE,
) -> list[ShelfQuery]:
    """The benchmark drawn afresh by the rules (`draw_split`), each shelf judged."""
    split = draw_split(shelves, work_of, words_of, seed=seed, sample=sample)
    return judge(shelves, work_of, split)


@dataclass(frozen=True, slots=True)
class ShelfScores:
    """Mean metrics of one method on one split."""

    method: str
    split: Split
    queries: int
    ndcg_at_10: float
    recall_at_100: float
    mrr_at_10: float


def works_in_order(ids: Sequence[str], work_of_id: Callable[[str], str]) -> list[str]:
    """The works of a ranking of passage ids, each once, in first-seen order."""
    return list(dict.fromkeys(work_of_id(i) for i in ids))


def score(
    queries: Sequence[ShelfQuery],
    rankings: Mapping[str, Mapping[str, Sequence[str]]],
) -> list[ShelfScores]:
    """nDCG@10, Recall@100 and MRR@10 per method and split.

    `rankings`: method -> shelf -> the works in ranked order.
    """
    results = []
    for method, by_shelf in rankings.items():
        for split in SPLITS:
            ndcg, recall, mrr = [], [], []
            for query in queries:
                if query.split != split:
                    continue
                ranking = by_shelf[query.shelf]
                ndcg.append(ndcg_at_k(ranking, query.qrels, 10))
                recall.append(recall_at_k(ranking, query.qrels, DEPTH))
                mrr.append(reciprocal_rank_at_k(ranking, query.qrels, 10))
            if not ndcg:  # a run over one split only
                continue
            results.append(
                ShelfScores(method, split, len(ndcg), mean(ndcg), mean(recall), mean(mrr))
            )
    return results


Ranker = Callable[[str], Sequence[str]]
"""A method under test: query text -> passage ids, best first."""


@dataclass(frozen=True, slots=True)
class CatalogWorks:
    """Goodreads book id -> catalog work, and -> the book's title, series and authors."""

    works: dict[str, str]
    words: dict[str, tuple[str, ...]]

    def add(self, books: Iterable[Book], work_of_id: Callable[[str], str]) -> None:
        """Add every book that has a goodreads id."""
        for book in books:
            goodreads = book.metadata.get("goodreads_id")
            if isinstance(goodreads, str) and goodreads and goodreads not in self.works:
                self.works[goodreads] = work_of_id(str(book.id))
                series = book.metadata.get("series")
                self.words[goodreads] = (
                    book.title,
                    series if isinstance(series, str) else "",
                    *book.authors,
                )

    def words_of(self, goodreads: str) -> tuple[str, ...]:
        """The book's title, series and authors (empty when not in the catalog)."""
        return self.words.get(goodreads, ())


def catalog_works(
    batches: Iterable[Sequence[Book]], work_of_id: Callable[[str], str]
) -> CatalogWorks:
    """The goodreads ids of the catalog's books, with their works and names."""
    found = CatalogWorks({}, {})
    for batch in batches:
        found.add(batch, work_of_id)
    return found


def run(
    queries: Sequence[ShelfQuery],
    methods: Mapping[str, Ranker],
    work_of_id: Callable[[str], str],
    *,
    progress: ProgressReporter | None = None,
) -> list[ShelfScores]:
    """Rank every query with every method and score the works each put first."""
    rankings: dict[str, dict[str, Sequence[str]]] = {}
    for method, ranker in methods.items():
        if progress is not None:
            progress.start(f"shelves: {method}", len(queries))
        by_shelf: dict[str, Sequence[str]] = {}
        for query in queries:
            by_shelf[query.shelf] = works_in_order(ranker(query.text), work_of_id)[:DEPTH]
            if progress is not None:
                progress.advance()
        rankings[method] = by_shelf
    return score(queries, rankings)


def search_ranker(
    search: BookSearchService,
    understanding: QueryUnderstanding | None,
    *,
    mmr_lambda: float | None | EllipsisType = ...,
) -> Ranker:
    """The product's search: the reader's words planned, the first page, then the pool."""

    def ranker(text: str) -> Sequence[str]:
        plan = understanding.plan(text) if understanding is not None else None
        response = search.search(
            SearchQuery(text=text), plan=plan, depth=DEPTH, mmr_lambda=mmr_lambda
        )
        return response.ranked_ids

    return ranker


def baseline_rankers(retriever: HybridRetriever) -> dict[str, Ranker]:
    """Plain BM25 and plain dense retrieval over the same indexes, on the reader's words.

    Each asks for three times the depth, so that one work per edition still leaves 100.
    """
    rankers: dict[str, Ranker] = {
        "bm25": lambda text: [h.id for h in retriever.lexical_only(text, 3 * DEPTH)]
    }
    if retriever.has_vectors:
        rankers["dense"] = lambda text: [h.id for h in retriever.vector_only(text, 3 * DEPTH)]
    return rankers
