"""The offline query understanding, one rule family at a time, on a small vocabulary."""

from __future__ import annotations

import pytest

from lectern.adapters.understanding.lexicon_data import CATEGORY_STOP, SHELF_READINGS
from lectern.adapters.understanding.rules import RuleBasedUnderstanding
from lectern.application.ports import BookNames
from lectern.application.understanding import Vocabulary, key_of, validate_plan
from lectern.domain.normalize import CATEGORY_SYNONYMS
from lectern.domain.search import QueryPlan, SearchFilters


def _names() -> list[BookNames]:
    books = [
        BookNames(
            "hg",
            "The Hunger Games",
            ("Suzanne Collins",),
            ("young adult", "dystopia", "science fiction"),
            4_000_000,
        ),
        BookNames(
            "hg-guide", "The Hunger Games Tribute Guide", ("Emily Seife",), ("young adult",), 5_000
        ),
        BookNames(
            "hp1",
            "Harry Potter and the Sorcerer's Stone",
            ("J.K. Rowling",),
            ("fantasy", "young adult", "magic"),
            4_500_000,
        ),
        BookNames(
            "hp2",
            "Harry Potter and the Chamber of Secrets",
            ("J.K. Rowling",),
            ("fantasy", "young adult", "magic"),
            1_800_000,
        ),
        BookNames("dune", "Dune", ("Frank Herbert",), ("science fiction", "classics"), 500_000),
        BookNames("tolkien-bio", "Tolkien", ("Humphrey Carpenter",), ("biography",), 2_000),
        BookNames("emma", "Emma", ("Jane Austen",), ("classics", "romance"), 500_000),
        BookNames("pp", "Pride and Prejudice", ("Jane Austen",), ("classics", "romance"), 2e6),
    ]
    books = [BookNames(b.id, b.title, b.authors, b.categories, int(b.popularity)) for b in books]
    shelves = [
        "mystery",
        "fantasy",
        "science fiction",
        "romance",
        "horror",
        "young adult",
        "dystopia",
        "classics",
        "history",
        "biography",
        "fiction",
        "civil war",
        "dark fantasy",
        "magic",
    ]
    for number in range(6):  # enough books for every shelf and Tolkien's surname to count
        books.append(
            BookNames(
                f"filler{number}", f"Filler {number}", ("J.R.R. Tolkien",), tuple(shelves), 10
            )
        )
    return books


VOCABULARY = Vocabulary.build(
    _names(), ["en", "es", "de", "fr", "ja"], min_year=1800, max_year=2019
)
RULES = RuleBasedUnderstanding(VOCABULARY)


def _spans(plan: QueryPlan) -> dict[str, str]:
    return {r.kind: plan.original_query[r.start : r.end] for r in plan.recognised}


# --- languages ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "code", "span"),
    [
        ("Spanish mystery novels", "es", "Spanish"),
        ("novelas en español", "es", "en español"),
        ("Krimis auf Deutsch", "de", "auf Deutsch"),
        ("romans en français", "fr", "en français"),
        ("fantasy  books   in German", "de", "in German"),  # spans index the raw text
        ("books written in Japanese", "ja", "in Japanese"),
    ],
)
def test_language_names_in_several_languages(query: str, code: str, span: str) -> None:
    plan = RULES.plan(query)
    assert plan.filters.language == code
    assert _spans(plan)["language"] == span


def test_a_language_as_a_setting_is_not_a_filter() -> None:
    assert RULES.plan("a novel about the Spanish civil war").filters.language is None
    assert RULES.plan("spanish").filters.language is None  # no cue: could be anything


def test_a_language_the_catalog_lacks_is_dropped_with_a_note() -> None:
    plan = RULES.plan("novels in Finnish")
    assert plan.filters.language is None
    assert any("no book in it" in n for n in plan.notes)


def test_contradictory_languages_keep_the_written_in_one_and_say_why() -> None:
    plan = RULES.plan("Spanish novels written in Japanese")
    assert plan.filters.language == "ja"
    assert any("kept ja" in n and "written in" in n for n in plan.notes)
    assert "Spanish" not in plan.variations


@pytest.mark.parametrize(
    ("query", "code"),
    [
        ("any good french novels that aren't in english?", "fr"),
        ("books in spanish, not english please", "es"),
        ("japanese novels, non english", "ja"),
        ("novels in English that are not French", "en"),
        ("something not in english", None),
    ],
)
def test_a_language_said_not_to_be_wanted_is_no_filter(query: str, code: str | None) -> None:
    # "aren't in english" was kept as the language written in (en): the opposite of asked.
    assert RULES.plan(query).filters.language == code


# --- years -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "low", "high", "span"),
    [
        ("fantasy published after 2010", 2011, None, "published after 2010"),
        ("mysteries since 1990", 1990, None, "since 1990"),
        ("classics before 1950", None, 1949, "before 1950"),
        ("science fiction from the 90s", 1990, 1999, "from the 90s"),
        ("romance of the 1980s", 1980, 1989, "of the 1980s"),
        ("horror from the seventies", 1970, 1979, "from the seventies"),
        ("history between 1990 and 2000", 1990, 2000, "between 1990 and 2000"),
        ("thrillers 2001-2005", 2001, 2005, "2001-2005"),
        ("books published in 2015", 2015, 2015, "published in 2015"),
        ("recent fantasy", 2015, None, "recent"),
    ],
)
def test_year_expressions(query: str, low: int | None, high: int | None, span: str) -> None:
    plan = RULES.plan(query)
    assert (plan.filters.min_year, plan.filters.max_year) == (low, high)
    assert _spans(plan)["years"] == span


def test_recent_is_relative_to_the_catalog_and_says_so() -> None:
    plan = RULES.plan("recent fantasy")
    assert any("newest book in the catalog is from 2019" in n for n in plan.notes)


def test_contradictory_years_are_dropped_with_a_note() -> None:
    plan = RULES.plan("books before 1950 after 2000")
    assert plan.filters.min_year is None and plan.filters.max_year is None
    assert any("2001 is after 1949" in n for n in plan.notes)


def test_a_bare_year_is_not_a_filter() -> None:
    plan = RULES.plan("1984 by George Orwell")
    assert plan.filters.min_year is None and plan.filters.max_year is None


# --- categories, authors, titles ----------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "categories"),
    [
        ("dark fantasy heist", ("dark fantasy",)),
        ("sci-fi classics", ("science fiction", "classics")),
        ("mysteries with ghosts", ("mystery",)),
        ("YA dystopian books", ("young adult", "dystopia")),
        ("novela de misterio", ("mystery",)),
        ("Liebesroman", ("romance",)),
    ],
)
def test_categories_from_the_catalog_and_their_spellings(
    query: str, categories: tuple[str, ...]
) -> None:
    assert RULES.plan(query).categories == categories


@pytest.mark.parametrize("table", [CATEGORY_SYNONYMS, SHELF_READINGS])
def test_queries_read_the_synonym_table_ingestion_folds_shelves_with(
    table: dict[str, str],
) -> None:
    shelves = tuple(sorted(set(table.values()) - CATEGORY_STOP))
    books = [BookNames(f"b{i}", f"Volume {i}", ("A. Writer",), shelves, 1) for i in range(5)]
    rules = RuleBasedUnderstanding(Vocabulary.build(books, ["en"]))
    for words, name in table.items():
        if name not in CATEGORY_STOP and words not in CATEGORY_STOP:
            assert rules.plan(words).categories == (name,), words


def test_a_query_only_reading_never_respells_a_synonym() -> None:
    spellings = {key_of(words) for words in CATEGORY_SYNONYMS}
    assert not spellings & {key_of(words) for words in SHELF_READINGS}


def test_a_synonym_is_used_only_when_the_catalog_has_its_shelf() -> None:
    assert RULES.plan("humour").categories == ()  # the test catalog has no "humor" shelf


def test_generic_shelves_are_not_genres() -> None:
    assert RULES.plan("fiction books").categories == ()


def test_authors_by_full_name_and_distinctive_surname() -> None:
    plan = RULES.plan("books by Jane Austen")
    assert plan.authors == ("Jane Austen",) and _spans(plan)["author"] == "Jane Austen"
    assert plan.intent == "factual" and plan.strategy == "lexical_heavy"
    assert RULES.plan("tolkien").authors == ("J.R.R. Tolkien",)  # not the biography's title


def test_known_titles_quoted_or_whole() -> None:
    quoted = RULES.plan('the book "Dune"')
    assert _spans(quoted)["title"] == "Dune" and quoted.strategy == "lexical_heavy"
    whole = RULES.plan("who wrote the hunger games")
    assert whole.intent == "factual" and "title" in _spans(whole)


def test_only_a_question_or_the_book_leads_a_title() -> None:
    one = BookNames("one", "One", ("Richard Bach",), ("fiction",), 10_000)
    rules = RuleBasedUnderstanding(Vocabulary.build([*_names(), one], ["en"]))
    assert "title" not in _spans(rules.plan("the hunger one"))  # no "One" by skipping "hunger"
    assert _spans(rules.plan("the book One"))["title"] == "One"
    assert _spans(rules.plan("who wrote One"))["title"] == "One"


def test_books_like_x_resolves_x_and_routes_to_its_neighbours() -> None:
    plan = RULES.plan("something like The Hunger Games but for adults, not too long")
    assert plan.like_book_id == "hg" and plan.like_title == "The Hunger Games"
    assert plan.strategy == "vector_heavy"
    assert any("dystopia" in v for v in plan.variations)
    assert not any("young adult" in v for v in plan.variations)  # ruled out by "for adults"
    assert plan.filters.max_pages == 400 and plan.filters.exclude_youth
    assert any("'not too long' read as at most 400 pages" in n for n in plan.notes)
    assert any("'for adults'" in n for n in plan.notes)
    series = RULES.plan("if I liked Harry Potter what should I read next")
    assert series.like_book_id == "hp1"  # the series' most popular book
    unknown = RULES.plan("books like Zzyzx Road Trip")
    assert unknown.like_book_id is None
    assert any("could not find" in n for n in unknown.notes)


# --- strategy, intent, noise ----------------------------------------------------------------


def test_moods_go_to_meaning_and_topics_stay_balanced() -> None:
    assert RULES.plan("a cozy heartwarming story").strategy == "vector_heavy"
    assert RULES.plan("history of magic").intent == "exploratory"
    assert RULES.plan("fantasy with magic").strategy == "balanced"


def test_gibberish_gets_no_filters_and_a_balanced_strategy() -> None:
    plan = RULES.plan("asdkjh qwe zzxq")
    assert plan.filters == SearchFilters() and plan.strategy == "balanced"
    assert plan.recognised == () and plan.variations == () and plan.categories == ()


def test_variations_drop_the_filter_words() -> None:
    plan = RULES.plan("Spanish mystery novels published after 2010")
    assert (plan.filters.language, plan.filters.min_year) == ("es", 2011)
    assert plan.variations == ("mystery",)
    assert {r.kind for r in plan.recognised} == {"language", "category", "years"}


def test_hostile_input_plans_without_raising() -> None:
    for query in (
        "",
        "   ",
        "\x00\x01",
        "'; DROP TABLE books; --",
        "a" * 5000,
        "👀" * 50,
        "in in in in",
        "after 9999",
        "before 0001",
    ):
        plan = RULES.plan(query)
        assert len(plan.variations) <= 3


def test_validate_maps_unknown_values_and_says_so() -> None:
    plan = QueryPlan(
        "x",
        filters=SearchFilters(language="xx", category="mysterys"),
        categories=("fantasyy", "underwater basket weaving"),
        variations=("x", "y"),
    )
    checked = validate_plan(plan, VOCABULARY)
    assert checked.filters.language is None and checked.filters.category == "mystery"
    assert checked.categories == ("fantasy",)
    assert checked.variations == ("y",)  # the original query is not a variation of itself
    assert len(checked.notes) == 4


def test_without_removes_what_the_reader_unticked() -> None:
    plan = RULES.plan("Spanish mystery novels published after 2010")
    smaller = plan.without("language", "categories")
    assert smaller.filters.language is None and smaller.filters.min_year == 2011
    assert smaller.categories == () and smaller.variations == ()
    assert {r.kind for r in smaller.recognised} == {"years"}
    assert "removed by the reader" in smaller.notes[-1]
