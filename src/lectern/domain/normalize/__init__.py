"""Pure normalisers for the messy fields of real book data sets.

Each function takes what a source gave and returns a clean value, or None with a reason
(a short snake_case string) that ingestion counts and reports. One module per field:
`isbn`, `text`, `authors`, `languages`, `categories`, `years`, `pages`, and `works`
(titles and the keys that merge works and group editions); the tables they read live in
`author_data` and `category_data`.
"""

from lectern.domain.normalize.authors import (
    ParsedAuthors,
    author_surname,
    split_authors,
    split_hyphenated_authors,
)
from lectern.domain.normalize.categories import (
    is_topical_shelf,
    is_topical_subject,
    is_youth_shelf,
    merge_categories,
    names_the_book,
    normalize_category,
    shelf_key,
)
from lectern.domain.normalize.category_data import (
    CATEGORY_SYNONYMS,
    NON_TOPICAL_SHELVES,
    YOUTH_MARKERS,
)
from lectern.domain.normalize.isbn import (
    IsbnResult,
    isbn10_to_isbn13,
    isbn13_to_isbn10,
    normalize_isbn10,
    normalize_isbn13,
    parse_isbn_query,
)
from lectern.domain.normalize.languages import is_iso_639_1, normalize_language
from lectern.domain.normalize.pages import MAX_PAGES, parse_pages
from lectern.domain.normalize.text import (
    clean_text,
    collapse_whitespace,
    fold,
    fold_accents,
    singular,
)
from lectern.domain.normalize.works import edition_group, split_series, work_key
from lectern.domain.normalize.years import parse_year

__all__ = [
    "CATEGORY_SYNONYMS",
    "MAX_PAGES",
    "NON_TOPICAL_SHELVES",
    "YOUTH_MARKERS",
    "IsbnResult",
    "ParsedAuthors",
    "author_surname",
    "clean_text",
    "collapse_whitespace",
    "edition_group",
    "fold",
    "fold_accents",
    "is_iso_639_1",
    "is_topical_shelf",
    "is_topical_subject",
    "is_youth_shelf",
    "isbn10_to_isbn13",
    "isbn13_to_isbn10",
    "merge_categories",
    "names_the_book",
    "normalize_category",
    "normalize_isbn10",
    "normalize_isbn13",
    "normalize_language",
    "parse_isbn_query",
    "parse_pages",
    "parse_year",
    "shelf_key",
    "singular",
    "split_authors",
    "split_hyphenated_authors",
    "split_series",
    "work_key",
]
