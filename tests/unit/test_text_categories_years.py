import pytest

from lectern.domain.normalize import (
    CATEGORY_SYNONYMS,
    clean_text,
    is_topical_shelf,
    is_topical_subject,
    merge_categories,
    names_the_book,
    normalize_category,
    parse_year,
    shelf_key,
    split_series,
    work_key,
)


def test_html_is_stripped_and_whitespace_collapsed() -> None:
    raw = "<p>One&nbsp;ring</p><p>to <b>rule</b>\n\n them &amp; all</p><script>x()</script>"
    assert clean_text(raw) == "One ring to rule them & all"


def test_control_characters_are_removed() -> None:
    assert clean_text("a\x00b\x07c\u200bd") == "a b c d"


def test_text_that_only_looks_like_html_survives() -> None:
    assert clean_text("1 < 2 and 3 > 2") == "1 < 2 and 3 > 2"
    assert clean_text("   ") is None
    assert clean_text(None) is None


def test_unclosed_markup_does_not_raise() -> None:
    assert clean_text("<div><p>unfinished <b") is not None


@pytest.mark.parametrize(
    "shelf",
    [
        "to-read",
        "currently-reading",
        "favorites",
        "owned",
        "books-i-own",
        "read-in-2015",
        "5-stars",
        "kindle",
        "my-library",
        "to-buy",
        "dnf",
        "2017-reads",
        "audiobook",
        "2015-releases",
        "books-read-in-2014",
        "cover-love",
        "beautiful-covers",
        "on-my-shelf",
    ],
)
def test_non_topical_shelves_are_dropped(shelf: str) -> None:
    assert not is_topical_shelf(shelf)


@pytest.mark.parametrize(
    "shelf",
    [
        "fantasy",
        "young-adult",
        "historical-fiction",
        "science-fiction",
        "mystery",
        "classics",
        "dystopian",
        "horror",
        "non-fiction",
        "heist",
        "thieves",
    ],
)
def test_topical_shelves_are_kept(shelf: str) -> None:
    assert is_topical_shelf(shelf)


def test_subjects_that_are_formats_or_lists_are_dropped() -> None:
    assert not is_topical_subject("Large type books")
    assert not is_topical_subject("nyt:series_books=2006-07-15")
    assert not is_topical_subject("Reading Level-Grade 11")
    assert not is_topical_subject("Quill Award winner")
    assert is_topical_subject("Wizards")
    assert is_topical_subject("Detective and mystery stories")


def test_categories_normalise_case_separators_and_synonyms() -> None:
    assert normalize_category("Young-Adult") == "young adult"
    assert normalize_category("sci-fi") == "science fiction"
    assert normalize_category("Science_Fiction") == "science fiction"
    assert normalize_category("Thriller (genre)") == "thriller"
    assert normalize_category("Biography & Autobiography") == "biography and autobiography"
    assert normalize_category("Fiction, general") == "fiction"
    assert normalize_category("--") is None


def test_spellings_fold_but_shelves_in_their_own_words_stay() -> None:
    assert normalize_category("Whodunit") == "mystery"
    assert normalize_category("Rom-Com") == "romance"
    assert normalize_category("Ciencia ficción") == "ciencia ficción"  # Spanish queries match it
    assert normalize_category("Ghost stories") == "ghost stories"  # a shelf, not "horror"


def test_the_synonym_table_is_closed_under_normalisation() -> None:
    for spelling, name in CATEGORY_SYNONYMS.items():
        assert normalize_category(spelling) == name, spelling
        assert normalize_category(name) == name, name  # a target is never respelled


def test_merge_categories_dedupes_across_sources_keeping_order() -> None:
    merged = merge_categories(["young-adult", "fantasy"], ["Fantasy novel", "YA"], ["Fiction"])
    assert merged == ("young adult", "fantasy", "fiction")


@pytest.mark.parametrize(
    ("raw", "parts"),
    [
        ("The Hunger Games (The Hunger Games, #1)", ("The Hunger Games", "The Hunger Games", "1")),
        (
            "Harry Potter and the Half-Blood Prince (Harry Potter  #6)",
            ("Harry Potter and the Half-Blood Prince", "Harry Potter", "6"),
        ),
        ("The Lord of the Rings", ("The Lord of the Rings", None, None)),
        ("Pride (and Prejudice)", ("Pride (and Prejudice)", None, None)),
        ("Discworld (Discworld, #1-3)", ("Discworld", "Discworld", "1-3")),
    ],
)
def test_series_suffix_is_split_from_titles(
    raw: str, parts: tuple[str, str | None, str | None]
) -> None:
    assert split_series(raw) == parts


def test_work_key_ignores_series_articles_case_and_accents() -> None:
    assert work_key("The Hunger Games (The Hunger Games, #1)", "Suzanne Collins") == work_key(
        "hunger games", "S. Collins"
    )
    assert (
        work_key("Cien años de soledad", "Gabriel García Márquez") == "cien anos de soledad|marquez"
    )
    assert work_key("Title", None) is None


@pytest.mark.parametrize(
    ("raw", "year"),
    [
        ("2008.0", 2008),
        ("2006-09", 2006),
        ("Nov 01, 2003", 2003),
        ("-750", -750),
        ("1997", 1997),
        ("", None),
        ("unknown", None),
        ("3015", None),
        ("0", None),
        ("99999999", None),
    ],
)
def test_years(raw: str, year: int | None) -> None:
    assert parse_year(raw) == year


@pytest.mark.parametrize(
    ("shelf", "book", "names"),
    [
        ("hunger-games", ["The Hunger Games", "Suzanne Collins"], True),
        ("suzanne-collins", ["The Hunger Games", "Suzanne Collins"], True),
        ("a-song-of-ice-and-fire", ["A Game of Thrones", "A Song of Ice and Fire"], True),
        ("heist", ["Six of Crows", "Six of Crows", "Leigh Bardugo"], False),
        ("crows-and-ravens", ["Six of Crows", "Leigh Bardugo"], False),
        ("the-series", ["The Hunger Games"], False),
    ],
)
def test_a_shelf_that_names_the_book_is_recognised(
    shelf: str, book: list[str], names: bool
) -> None:
    assert names_the_book(shelf, book) is names


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("children's literature", "children s lit"),
        ("children's literature", "childrens lit"),
        ("world war 2", "wwii"),
        ("world war ii", "ww2"),
        ("biography", "biographies"),
        ("british lit", "british literature"),
        ("ya paranormal", "young adult paranormal"),
        ("sci fi", "science fiction"),
    ],
)
def test_one_shelf_spelt_two_ways_has_one_key(one: str, other: str) -> None:
    assert shelf_key(one) == shelf_key(other)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("world war i", "world war ii"),
        ("literature", "lit crit"),
        ("young adult", "adult"),
        ("fiction", "nonfiction"),
    ],
)
def test_different_shelves_keep_different_keys(one: str, other: str) -> None:
    assert shelf_key(one) != shelf_key(other)
