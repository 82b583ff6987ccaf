"""Search value objects: queries, filters, results and query plans."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal, get_args

from lectern.domain.books import Book
from lectern.domain.grounding import Explanation
from lectern.domain.normalize import MAX_PAGES, fold, fold_accents, is_youth_shelf, singular
from lectern.errors import InvalidQueryError

__all__ = [
    "Exclusion",
    "QueryPlan",
    "Recognition",
    "ResultSource",
    "SearchFilters",
    "SearchQuery",
    "SearchResult",
    "Strategy",
]
from lectern.domain.retrieval import DEFAULT_STRATEGY, Strategy

Intent = Literal["recommendation", "factual", "exploratory"]
ResultSource = Literal["lexical", "vector", "hybrid"]
DEFAULT_RESULTS = 10
"""How many results a search or a similar-books request returns when not told."""


@dataclass(frozen=True, slots=True)
class SearchFilters:
    """Restrictions every result must satisfy; None (or empty) means no restriction.

    Page limits keep books whose page count is unknown (ranked after the books known to
    fit, see `BookSearchService`). Exclusions are names: a shelf rules out every shelf that
    contains it as a phrase ("romance" rules out "paranormal romance"), an author rules out
    that author's books, a title rules out books whose title or series contains it.
    """

    language: str | None = None
    category: str | None = None
    min_year: int | None = None
    max_year: int | None = None
    min_pages: int | None = None
    max_pages: int | None = None
    exclude_categories: tuple[str, ...] = ()
    exclude_authors: tuple[str, ...] = ()
    exclude_titles: tuple[str, ...] = ()
    exclude_youth: bool = False
    """Rule out every shelf for young readers (`is_youth_shelf`: young adult, children's,
    juvenile, middle grade, picture books, teen, read from the catalog's own shelves)."""

    def __post_init__(self) -> None:
        """Refuse ranges and exclusions that contradict each other or cannot match."""
        if (
            self.min_year is not None
            and self.max_year is not None
            and self.min_year > self.max_year
        ):
            raise InvalidQueryError(
                f"min_year ({self.min_year}) is after max_year ({self.max_year})"
            )
        for name in ("min_pages", "max_pages"):
            value = getattr(self, name)
            if value is not None and not 1 <= value <= MAX_PAGES:
                raise InvalidQueryError(f"{name} must be between 1 and {MAX_PAGES}, not {value}")
        if (
            self.min_pages is not None
            and self.max_pages is not None
            and self.min_pages > self.max_pages
        ):
            raise InvalidQueryError(
                f"min_pages ({self.min_pages}) is more than max_pages ({self.max_pages})"
            )
        if self.category is not None:
            wanted = fold(self.category)
            if any(fold(name) == wanted for name in self.exclude_categories):
                raise InvalidQueryError(
                    f"category {self.category!r} is both asked for and excluded"
                )
            if self.exclude_youth and is_youth_shelf(self.category):
                raise InvalidQueryError(
                    f"category {self.category!r} is a shelf for young readers, which "
                    "exclude_youth rules out"
                )

    @property
    def is_empty(self) -> bool:
        """True when no filter is set."""
        return self == _NO_FILTERS

    @property
    def has_page_limit(self) -> bool:
        """True when a page limit is set."""
        return self.min_pages is not None or self.max_pages is not None

    def fits_pages(self, pages: int | None) -> bool | None:
        """True or False for a known page count; None when it is unknown."""
        if pages is None:
            return None
        low = self.min_pages if self.min_pages is not None else 1
        high = self.max_pages if self.max_pages is not None else MAX_PAGES
        return low <= pages <= high

    def fits_book(self, book: Book) -> bool | None:
        """Whether one book meets the language, year and page limits; None when in doubt.

        Categories, exclusions and youth shelves are not read here. A book with no known year
        or language fails a limit on it, as the catalog's SQL filters do; an unknown page count
        is None, ranked after the books known to fit.
        """
        if self.language is not None and book.language != self.language:
            return False
        year = book.published_year
        if self.min_year is not None and (year is None or year < self.min_year):
            return False
        if self.max_year is not None and (year is None or year > self.max_year):
            return False
        return self.fits_pages(book.pages) if self.has_page_limit else True


_NO_FILTERS = SearchFilters()


def describe_page_limit(low: int | None, high: int | None) -> str:
    """A page limit in words: "at most 400 pages", "200 to 350 pages"."""
    if low is not None and high is not None:
        return f"{low} to {high} pages"
    if high is not None:
        return f"at most {high} pages"
    return f"at least {low} pages"


@dataclass(frozen=True, slots=True)
class SearchQuery:
    """What a reader asked for."""

    text: str
    filters: SearchFilters = field(default_factory=SearchFilters)
    max_results: int = DEFAULT_RESULTS
    use_explanations: bool = False


@dataclass(frozen=True, slots=True)
class SearchResult:
    """One ranked book with the scores that put it there."""

    book: Book
    final_score: float
    rank: int
    source: ResultSource
    lexical_score: float | None = None
    vector_score: float | None = None
    lexical_rank: int | None = None
    vector_rank: int | None = None
    explanation: Explanation | None = None


RecognitionKind = Literal[
    "language",
    "years",
    "category",
    "author",
    "title",
    "like",
    "intent",
    "strategy",
    "exclude",
    "audience",
    "pages",
]
FILTER_KINDS = frozenset({"language", "years", "pages", "audience", "exclude"})
"""Recognised spans that became filters: not searched for."""
PlanField = Literal[
    "language", "years", "categories", "authors", "like", "pages", "audience", "exclusions"
]
"""What a reader can remove from a plan (a chip on the page); one exclusion goes by
`without(exclusions=[label])`."""
PLAN_FIELDS: tuple[PlanField, ...] = get_args(PlanField)
ExclusionScope = Literal["category", "author", "title", "audience"]


@dataclass(frozen=True, slots=True)
class Exclusion:
    """Something the reader ruled out, and what it rules out in the catalog.

    `label` is what the reader sees on its chip ("cozy mystery", "Stephen King", "young
    readers"); `values` are what the filters exclude: shelves (category), author names
    (author), titles and series (title); for audience, the catalog's youth shelves, shown
    to the reader (the filter is `exclude_youth`).
    """

    scope: ExclusionScope
    label: str
    values: tuple[str, ...]


def with_exclusions(filters: SearchFilters, exclusions: Sequence[Exclusion]) -> SearchFilters:
    """The filters with exactly these exclusions (shelves, authors, titles) and no others."""
    return replace(
        filters,
        exclude_categories=tuple(
            dict.fromkeys(v for e in exclusions if e.scope == "category" for v in e.values)
        ),
        exclude_authors=tuple(
            dict.fromkeys(v for e in exclusions if e.scope == "author" for v in e.values)
        ),
        exclude_titles=tuple(
            dict.fromkeys(v for e in exclusions if e.scope == "title" for v in e.values)
        ),
        exclude_youth=any(e.scope == "audience" for e in exclusions),
    )


@dataclass(frozen=True, slots=True)
class Recognition:
    """One thing understood in the query, and the characters it came from."""

    kind: RecognitionKind
    value: str
    start: int
    end: int
    """`original_query[start:end]` is the matched text; (0, 0) when not from a span."""


@dataclass(frozen=True, slots=True)
class QueryPlan:
    """How a query will be run: intent, filters, variations and strategy, and why.

    Language, years, page limits and exclusions are hard filters; categories and author
    hints are soft: they become variations, so a book without shelves can still be found.
    `like_book_id` (for "books like X") adds X's neighbours by embedding and keeps X itself
    out of the results. `exclusions` say what the reader ruled out; `filters` hold the
    names they exclude (`with_exclusions`).
    """

    original_query: str
    intent: Intent = "recommendation"
    filters: SearchFilters = field(default_factory=SearchFilters)
    variations: tuple[str, ...] = ()
    strategy: Strategy = DEFAULT_STRATEGY
    strategy_reason: str = ""
    categories: tuple[str, ...] = ()
    authors: tuple[str, ...] = ()
    like_book_id: str | None = None
    like_title: str | None = None
    recognised: tuple[Recognition, ...] = ()
    notes: tuple[str, ...] = ()
    """What was repaired, dropped or chosen between, in plain words."""
    source: str = "rules"
    """Who planned: `rules-v2`, a model id, or a fallback."""
    exclusions: tuple[Exclusion, ...] = ()

    def without(self, *fields: PlanField, exclusions: Sequence[str] = ()) -> QueryPlan:
        """The plan minus what the reader removed (chips on the page).

        `exclusions` names single exclusions by label (case and spacing folded).
        """
        filters = self.filters
        if "language" in fields:
            filters = replace(filters, language=None)
        if "years" in fields:
            filters = replace(filters, min_year=None, max_year=None)
        if "pages" in fields:
            filters = replace(filters, min_pages=None, max_pages=None)
        dropped = set(fields)
        labels = {" ".join(label.casefold().split()) for label in exclusions}
        kept_exclusions = tuple(
            e
            for e in self.exclusions
            if not (e.scope == "audience" and "audience" in dropped)
            and not (e.scope != "audience" and "exclusions" in dropped)
            and " ".join(e.label.casefold().split()) not in labels
        )
        gone_labels = {e.label for e in self.exclusions} - {e.label for e in kept_exclusions}
        kinds = {
            "language": "language",
            "years": "years",
            "categories": "category",
            "authors": "author",
            "like": "like",
            "pages": "pages",
            "audience": "audience",
            "exclusions": "exclude",
        }
        gone = {kinds[f] for f in dropped}
        removed_terms = {
            r.value.casefold() for r in self.recognised if r.kind in gone and r.kind != "like"
        }
        said = sorted(dropped) + sorted(f"not: {label}" for label in gone_labels)
        return replace(
            self,
            filters=with_exclusions(filters, kept_exclusions),
            exclusions=kept_exclusions,
            categories=() if "categories" in dropped else self.categories,
            authors=() if "authors" in dropped else self.authors,
            like_book_id=None if "like" in dropped else self.like_book_id,
            like_title=None if "like" in dropped else self.like_title,
            variations=tuple(v for v in self.variations if v.casefold() not in removed_terms),
            recognised=tuple(
                r
                for r in self.recognised
                if r.kind not in gone and not (r.kind == "exclude" and r.value in gone_labels)
            ),
            notes=(*self.notes, f"removed by the reader: {', '.join(said)}"),
        )


def merge_filters(explicit: SearchFilters, planned: SearchFilters) -> SearchFilters:
    """Field by field: an explicit filter wins over the plan's; the plan fills the gaps.

    Years count as one field, and page limits as another: when the plan's range would
    contradict the explicit one (explicit min 2015, planned max 2000), the plan's range is
    dropped. Exclusions add up, except that a shelf the reader asked for explicitly is
    never excluded by the plan (nor are youth shelves, when the explicit one is one).
    """
    min_year = explicit.min_year if explicit.min_year is not None else planned.min_year
    max_year = explicit.max_year if explicit.max_year is not None else planned.max_year
    if min_year is not None and max_year is not None and min_year > max_year:
        min_year, max_year = explicit.min_year, explicit.max_year
    min_pages = explicit.min_pages if explicit.min_pages is not None else planned.min_pages
    max_pages = explicit.max_pages if explicit.max_pages is not None else planned.max_pages
    if min_pages is not None and max_pages is not None and min_pages > max_pages:
        min_pages, max_pages = explicit.min_pages, explicit.max_pages
    category = explicit.category if explicit.category is not None else planned.category
    asked = fold(category) if category is not None else None
    youth = explicit.exclude_youth or (
        planned.exclude_youth and not (category is not None and is_youth_shelf(category))
    )
    shelves = [
        *explicit.exclude_categories,
        *(c for c in planned.exclude_categories if fold(c) != asked),
    ]
    return SearchFilters(
        explicit.language if explicit.language is not None else planned.language,
        category,
        min_year,
        max_year,
        min_pages,
        max_pages,
        tuple(dict.fromkeys(shelves)),
        tuple(dict.fromkeys((*explicit.exclude_authors, *planned.exclude_authors))),
        tuple(dict.fromkeys((*explicit.exclude_titles, *planned.exclude_titles))),
        youth,
    )


_TOKEN = re.compile(r"\w+(?:['’]\w+)*", re.UNICODE)


def phrase_key(text: str) -> tuple[str, ...]:
    """Folded words in the singular: how excluded names are found in a text."""
    return tuple(
        singular(fold_accents(m.group()).replace("'", "").replace("’", ""))
        for m in _TOKEN.finditer(text)
    )


def without_spans(text: str, spans: Collection[tuple[int, int]]) -> str:
    """The text without these (start, end) character spans, whitespace collapsed."""
    kept, position = [], 0
    for start, end in sorted(spans):
        kept.append(text[position:start])
        position = max(position, end)
    kept.append(text[position:])
    return " ".join("".join(kept).split())


def subtract_phrases(text: str, phrases: Collection[tuple[str, ...]]) -> str:
    """The text without any run of words that is one of the phrases (`phrase_key` form).

    Longest phrase first at each word; what remains has its whitespace collapsed.
    """
    if not phrases:
        return text
    tokens = list(_TOKEN.finditer(text))
    keys = phrase_key(text)
    longest = max(len(p) for p in phrases)
    cut: list[tuple[int, int]] = []
    index = 0
    while index < len(tokens):
        for size in range(min(longest, len(tokens) - index), 0, -1):
            if keys[index : index + size] in phrases:
                cut.append((tokens[index].start(), tokens[index + size - 1].end()))
                index += size
                break
        else:
            index += 1
    if not cut:
        return text
    kept, position = [], 0
    for start, end in cut:
        kept.append(text[position:start])
        position = end
    kept.append(text[position:])
    return " ".join("".join(kept).split())


MAX_QUERY_CHARS = 1_000
"""Longer queries are cut here: nobody types more, and pasted pages only add noise."""


def clean_query_text(text: str, max_chars: int = MAX_QUERY_CHARS) -> str:
    """Drop control characters, collapse whitespace, cut to `max_chars`; refuse empty."""
    printable = "".join(" " if unicodedata.category(ch)[0] == "C" else ch for ch in text)
    cleaned = " ".join(printable.split())
    if not cleaned:
        raise InvalidQueryError("the query is empty: type a few words to search for")
    return cleaned[:max_chars].rstrip()


_REQUEST_FRAMING = re.compile(
    r"^(?:(?:please\s+)?(?:find|show|recommend|suggest|give|get)\s+(?:me\s+)?)?"
    r"(?:(?:some|any|a|an|good|great|the\s+best)\s+)*"
    r"(?:books?|novels?|reads?|stories|titles)\s+"
    r"(?:about|on|featuring|involving|with|set\s+in|dealing\s+with)\s+(?=\S)",
    re.IGNORECASE,
)


def without_request_framing(text: str) -> str:
    """The reader's words without a leading "books about" ("a novel set in", "find me ...").

    Every item of a book catalog is a book: "books" and "novels" in the frame of a request
    match titles and blurbs that say "book" ("The Book Thief", "this novel") rather than the
    subject asked for. Only a leading frame followed by more words is cut ("The Book Thief"
    keeps its words); search leaves the words alone when the plan recognised a title.
    """
    rest = _REQUEST_FRAMING.sub("", text, count=1).strip()
    return rest if rest else text


@dataclass(frozen=True, slots=True)
class NothingFits:
    """The catalog cannot serve the request: words of it that no book uses, or its "like X"."""

    words: tuple[str, ...]
    title: str | None = None
    """The X of "books like X" when no catalog title is X or a slip of spelling from it."""

    @property
    def message(self) -> str:
        """What the reader is told above the nearest books."""
        if self.title is not None:
            return (
                f"'{self.title}' is not in the catalog: the books below are the nearest it "
                "has, not books like it."
            )
        quoted = ", ".join(f"'{w}'" for w in self.words)
        return (
            f"Nothing in the catalog mentions {quoted}: the books below are the nearest it "
            "has, not matches."
        )


@dataclass(frozen=True, slots=True)
class Reading:
    """One book a short, ambiguous request may mean ("Dune", "the hunger one")."""

    book_id: str
    title: str
    author: str | None


MAX_READINGS = 3
"""A clarifying question offers two or three readings."""
EXACT_TITLE_SIMILARITY = 100.0
"""Spelling similarity of the same words: a title that is the request or starts with it."""
SAME_TITLE_SIMILARITY = 90.0
"""Spelling similarity (0-100) at which a title is the one meant: one slip in ten letters."""
NEAR_TITLE_SIMILARITY = 80.0
"""Spelling similarity at which a title is offered as "did you mean": two slips in ten."""
MAX_READING_WORDS = 3
"""Only a request of up to three words ("the hunger one") is read as a bare title."""
_READING_FILLERS = frozenset(
    ("the", "a", "an", "one", "book", "novel", "that", "with", "about", "series")
)


def reading_words(text: str) -> tuple[str, ...]:
    """The words of a request that may be a bare title, or () when it is no such request.

    "the hunger one" -> ("hunger",); a request longer than `MAX_READING_WORDS` words, or with
    no word of three letters or more once fillers are dropped, is not read as a title.
    """
    return tuple(singular(w) for w in _reading_title_words(text))


def reading_title(text: str) -> str:
    """The words of a bare-title request as typed, fillers dropped ("the hunger one" -> "hunger").

    Empty when `reading_words` reads no title in the request.
    """
    return " ".join(_reading_title_words(text))


def _reading_title_words(text: str) -> tuple[str, ...]:
    words: list[str] = re.findall(r"\w+", fold(text))
    if not words or len(words) > MAX_READING_WORDS:
        return ()
    kept = tuple(w for w in words if w not in _READING_FILLERS)
    return kept if kept and all(len(w) >= 3 for w in kept) else ()
