"""The shelf benchmark's rules: which shelves, what query, which split, which grades."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lectern.application.evaluation import shelves as bench
from lectern.domain.normalize import is_topical_shelf
from lectern.errors import SourceError


def _shelves(count: int, books: int) -> dict[str, dict[str, int]]:
    return {
        f"topic-{n:03d}": {f"{n}-{b}": 100 + 50 * b for b in range(books)} for n in range(count)
    }


def test_a_shelf_becomes_a_query_in_plain_words() -> None:
    assert bench.query_text("time-travel") == "books about time travel"
    assert bench.query_text("world_war_ii") == "books about world war ii"


def test_grades_follow_how_many_readers_shelved_the_book() -> None:
    assert [bench.grade_of(n) for n in (100, 199, 200, 499, 500, 4000)] == [1, 1, 2, 2, 3, 3]


def test_the_sample_is_fixed_by_the_seed_and_split_by_shelf() -> None:
    shelves = _shelves(300, 12)
    first = bench.build_queries(shelves, lambda book: f"work-{book}")
    again = bench.build_queries(shelves, lambda book: f"work-{book}")
    assert [q.shelf for q in first] == [q.shelf for q in again]
    assert len(first) == bench.SAMPLE
    dev = {q.shelf for q in first if q.split == "dev"}
    test = {q.shelf for q in first if q.split == "test"}
    assert len(dev) == len(test) == bench.SAMPLE // 2
    assert not dev & test
    # Not the first names in order: a random draw.
    assert sorted(q.shelf for q in first) != sorted(shelves)[: bench.SAMPLE]
    other = bench.build_queries(shelves, lambda book: f"work-{book}", seed=bench.SEED + 1)
    assert [q.shelf for q in other] != [q.shelf for q in first]


def test_only_topical_shelves_with_a_fitting_number_of_works_are_drawn() -> None:
    shelves = {
        "to-read": {str(b): 500 for b in range(20)},  # not about anything
        "tiny-topic": {str(b): 500 for b in range(5)},  # too few works
        "huge-topic": {str(b): 500 for b in range(150)},  # more than Recall@100 can find
        "heist": {str(b): 120 for b in range(15)},
    }
    queries = bench.build_queries(shelves, lambda book: f"w{book}")
    assert [q.shelf for q in queries] == ["heist"]
    assert set(queries[0].qrels.values()) == {1}


def test_books_outside_the_catalog_are_not_judged_and_editions_share_a_work() -> None:
    shelves = {"heist": {str(b): 100 + 100 * b for b in range(30)}}
    work = {str(b): f"w{b // 2}" for b in range(24)}  # two editions a work; 6 books missing
    (query,) = bench.build_queries(shelves, work.get)
    assert len(query.qrels) == 12
    assert query.qrels["w0"] == 2  # the better-shelved edition's grade (200 readers)


def test_scores_read_works_once_in_their_first_place() -> None:
    query = bench.ShelfQuery("heist", "books about heist", "dev", {"a": 3, "b": 1})
    ranking = bench.works_in_order(["a1", "a2", "x", "b"], lambda i: i[0])
    assert ranking == ["a", "x", "b"]
    scores = bench.score([query], {"bm25": {"heist": ranking}})
    dev = next(s for s in scores if s.split == "dev")
    assert dev.recall_at_100 == 1.0
    assert dev.mrr_at_10 == 1.0


def test_missing_files_name_the_folder(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="goodbooks-10k-tags"):
        bench.read_shelves(tmp_path)


def test_shelves_that_name_their_books_or_are_not_plain_words_are_not_drawn() -> None:
    books = {str(b): 150 for b in range(12)}
    shelves = {"terry-pratchett": books, "cómics": books, "time-travel": books}
    queries = bench.build_queries(
        shelves, lambda book: f"w{book}", lambda _book: ("Mort", "Discworld", "Terry Pratchett")
    )
    assert [q.shelf for q in queries] == ["time-travel"]


def test_the_stored_split_is_the_seeded_draw_of_plain_topical_shelves() -> None:
    split = bench.packaged_split()
    assert split.seed == bench.SEED
    assert len(split.dev) == len(split.test) == bench.SAMPLE // 2
    assert not set(split.dev) & set(split.test)
    for name in (*split.dev, *split.test):
        assert bench._PLAIN.match(name), name
        assert is_topical_shelf(name), name


def test_a_split_is_judged_from_the_shelf_files_in_its_own_order() -> None:
    shelves = _shelves(5, 12)
    split = bench.ShelfSplit(bench.SEED, ("topic-003", "topic-001"), ("topic-004",))
    queries = bench.judge(shelves, lambda book: f"work-{book}", split)
    assert [(q.shelf, q.split) for q in queries] == [
        ("topic-003", "dev"),
        ("topic-001", "dev"),
        ("topic-004", "test"),
    ]
    assert queries[0].qrels["work-3-0"] == 1 and queries[0].qrels["work-3-11"] == 3
    assert bench.judge(shelves, lambda _book: None, split)[0].qrels == {}


def test_a_split_naming_a_shelf_the_files_lack_is_refused() -> None:
    split = bench.ShelfSplit(bench.SEED, ("topic-000",), ("no-such-shelf",))
    with pytest.raises(SourceError, match="no-such-shelf"):
        bench.judge(_shelves(2, 12), lambda book: book, split)


def test_the_split_round_trips_through_its_json() -> None:
    split = bench.ShelfSplit(7, ("a", "b"), ("c",))
    raw = json.loads(split.to_json())
    assert raw == {"seed": 7, "sample": 3, "dev": ["a", "b"], "test": ["c"]}
