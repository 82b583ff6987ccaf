"""Known-item search: catalog titles typed as readers type them, with and without the boost.

    LECTERN_DATA_DIR=var PYTHONPATH=src python bench/known_item.py [--titles 300] [--seed 11]

Samples `--titles` books of the built catalog with a fixed seed and searches each title as
typed four ways: exactly as the catalog spells it, lower-case, without its leading article
(only titles that have one) and with one slip (a letter dropped, doubled, swapped or
replaced in one word of four letters or more). Each query runs through the search service
the CLI uses (`bootstrap(...).search()`, default MMR lambda, ten results) twice in the
same process: with known-item search (LECTERN_KNOWN_ITEM_FIRST, the default) and without
it, in alternating order so both see the same machine state.

A result is a hit when its title is the sampled title (folded, a leading article and the
subtitle aside): another edition, or another book of the same name, counts; the search
cannot tell them apart from the words either. Printed per kind of query and overall:
hit@1, hit@3, MRR@10, and p95 latency with the ratio new / old. Also printed: what the
first search pays to build the title table (once per process), and the same new / old
latency on the latency bench's ordinary queries (`search_latency.bench_queries`, twice each).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from lectern.application.evaluation.metrics import percentile
from lectern.application.indexing import IndexingService
from lectern.application.search import BookSearchService
from lectern.application.understanding import ARTICLES, key_of
from lectern.bootstrap import bootstrap
from lectern.domain.retrieval import Passage
from lectern.domain.search import SearchQuery
from lectern.settings import Settings

KINDS = ("exact", "lower", "no article", "one slip")
HERE = Path(__file__).resolve().parent
DEPTH = 10


@dataclass(frozen=True)
class Case:
    """One query and the title keys that count as the book it names."""

    kind: str
    text: str
    wanted: frozenset[tuple[str, ...]]


def _bare(key: tuple[str, ...]) -> tuple[str, ...]:
    return key[1:] if key[:1] and key[0] in ARTICLES and len(key) > 1 else key


def _keys(title: str) -> frozenset[tuple[str, ...]]:
    """The keys a result's title is compared by: whole and before its colon, no article."""
    keys = {_bare(key_of(title))}
    if ":" in title:
        keys.add(_bare(key_of(title.split(":", 1)[0])))
    return frozenset(k for k in keys if k)


def _slip(title: str, rng: random.Random) -> str | None:
    """The title with one typing slip in one of its longer words, or None when it has none."""
    words = title.split(" ")
    long_words = [i for i, w in enumerate(words) if sum(c.isalpha() for c in w) >= 4]
    if not long_words:
        return None
    index = rng.choice(long_words)
    word = words[index]
    letters = [i for i, c in enumerate(word) if c.isalpha()]
    at = rng.choice(letters[1:])  # readers rarely slip on a word's first letter
    kind = rng.choice(("drop", "double", "swap", "replace"))
    if kind == "drop":
        word = word[:at] + word[at + 1 :]
    elif kind == "double":
        word = word[:at] + word[at] + word[at:]
    elif kind == "swap" and at + 1 < len(word):
        word = word[:at] + word[at + 1] + word[at] + word[at + 2 :]
    else:
        others = [c for c in "aeiourstnlm" if c != word[at].lower()]
        word = word[:at] + rng.choice(others) + word[at + 1 :]
    words[index] = word
    return " ".join(words)


def cases(titles: Sequence[str], count: int, seed: int) -> list[Case]:
    """Queries for `count` sampled titles: exact, lower-case, without article, one slip."""
    rng = random.Random(seed)
    found: list[Case] = []
    for title in rng.sample(list(titles), min(count, len(titles))):
        wanted = _keys(title)
        if not wanted:
            continue
        found += [Case("exact", title, wanted), Case("lower", title.lower(), wanted)]
        first, _, rest = title.partition(" ")
        if first.lower() in ARTICLES and rest:
            found.append(Case("no article", rest, wanted))
        slipped = _slip(title, rng)
        if slipped is not None:
            found.append(Case("one slip", slipped, wanted))
    return found


def _rank(service: BookSearchService, case: Case) -> tuple[int | None, float]:
    """The first hit's rank (1-based) in the top ten, or None, and the milliseconds taken."""
    start = time.perf_counter()
    response = service.search(SearchQuery(case.text, max_results=DEPTH))
    elapsed = (time.perf_counter() - start) * 1000
    for result in response.results:
        if _keys(result.book.title) & case.wanted:
            return result.rank, elapsed
    return None, elapsed


def _scores(ranks: Sequence[int | None]) -> tuple[float, float, float]:
    n = len(ranks) or 1
    hit1 = sum(r == 1 for r in ranks) / n
    hit3 = sum(r is not None and r <= 3 for r in ranks) / n
    mrr = sum(1 / r for r in ranks if r is not None) / n
    return hit1, hit3, mrr


def main() -> None:
    """Sample, search both ways, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--titles", type=int, default=300)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    services = bootstrap(Settings())
    service = services.search()
    known = service.known_items
    if known is None:
        raise SystemExit("LECTERN_KNOWN_ITEM_FIRST is off: nothing to compare")
    start = time.perf_counter()
    known.titled("warm-up")  # builds the title table, as the first search does
    table_ms = (time.perf_counter() - start) * 1000
    named = (service.filters.title_of(i) for i in service.filters.all_ids)
    titles = sorted({n[0] for n in named if n is not None})
    sample = cases(titles, args.titles, args.seed)
    for case in sample[:20]:  # warm caches and the embedder on both paths
        for switch in (known, None):
            service.known_items = switch
            _rank(service, case)
    ranks: dict[str, dict[str, list[int | None]]] = {"new": {}, "old": {}}
    times: dict[str, list[float]] = {"new": [], "old": []}
    for number, case in enumerate(sample):
        order = ("new", "old") if number % 2 == 0 else ("old", "new")
        for name in order:
            service.known_items = known if name == "new" else None
            rank, elapsed = _rank(service, case)
            ranks[name].setdefault(case.kind, []).append(rank)
            times[name].append(elapsed)
    service.known_items = known
    print(
        f"{len(sample)} queries from {args.titles} sampled titles (seed {args.seed}) of "
        f"{len(titles)}; title table built once, on the first search, in {table_ms:.0f} ms"
    )
    print(
        f"{'kind':<12}{'n':>5}  {'hit@1 old -> new':>18}  {'hit@3 old -> new':>18}  "
        f"{'MRR old -> new':>16}"
    )
    for kind in (*KINDS, "all"):
        got = {
            name: (
                [r for values in ranks[name].values() for r in values]
                if kind == "all"
                else ranks[name].get(kind, [])
            )
            for name in ranks
        }
        old, new = _scores(got["old"]), _scores(got["new"])
        print(
            f"{kind:<12}{len(got['new']):>5}  {old[0]:>7.3f} -> {new[0]:.3f}   "
            f"{old[1]:>7.3f} -> {new[1]:.3f}   {old[2]:>6.3f} -> {new[2]:.3f}"
        )
    p95 = {name: percentile(values, 0.95) for name, values in times.items()}
    p50 = {name: percentile(values, 0.5) for name, values in times.items()}
    print(
        f"latency old: p50 {p50['old']:.1f} ms, p95 {p95['old']:.1f} ms; new: p50 "
        f"{p50['new']:.1f} ms, p95 {p95['new']:.1f} ms; p95 new / old {p95['new'] / p95['old']:.3f}"
    )

    _topical(service, IndexingService(services.catalog, services.catalog_indexes()).passages())


def _topical(service: BookSearchService, passages: Sequence[Passage]) -> None:
    """New / old latency on the latency bench's queries (needs, titles, authors, shelves)."""
    sys.path.insert(0, str(HERE))
    from search_latency import bench_queries

    known = service.known_items
    queries = [str(getattr(q, "text", q)) for q in bench_queries(passages, service)]
    times: dict[str, list[float]] = {"new": [], "old": []}
    for number, text in enumerate([*queries, *queries]):
        order = ("new", "old") if number % 2 == 0 else ("old", "new")
        for name in order:
            service.known_items = known if name == "new" else None
            start = time.perf_counter()
            service.search(SearchQuery(text, max_results=DEPTH))
            times[name].append((time.perf_counter() - start) * 1000)
    service.known_items = known
    p95 = {name: percentile(values, 0.95) for name, values in times.items()}
    print(
        f"ordinary queries ({len(queries)}, twice): p95 old {p95['old']:.1f} ms, new "
        f"{p95['new']:.1f} ms; p95 new / old {p95['new'] / p95['old']:.3f}"
    )


if __name__ == "__main__":
    main()
