"""Response bodies of `/books`: a book as the page shows it, and the catalog's facets."""

from __future__ import annotations

from pydantic import BaseModel, Field

from lectern.domain.books import PAGE_BUCKETS_UP_TO, Book, Facets


class BookOut(BaseModel):
    """A book as the page shows it; the citable fields are given whole."""

    id: str
    title: str = Field(description="The citable title field: title, and ': subtitle' if any.")
    authors: list[str]
    categories: list[str]
    description: str | None
    year: int | None
    language: str | None
    isbn10: str | None
    isbn13: str | None
    cover_url: str | None
    series: str | None
    pages: int | None = Field(description="Printed pages, when a source states them.")

    @classmethod
    def of(cls, book: Book) -> BookOut:
        """Map a domain book."""
        cover = book.metadata.get("cover_url")
        series = book.metadata.get("series")
        return cls(
            id=str(book.id),
            title=book.field_text("title"),
            authors=list(book.authors),
            categories=list(book.categories),
            description=book.description,
            year=book.published_year,
            language=book.language,
            isbn10=book.isbn10,
            isbn13=book.isbn13,
            cover_url=cover if isinstance(cover, str) else None,
            series=series if isinstance(series, str) else None,
            pages=book.pages,
        )


class CountOut(BaseModel):
    """A facet value and how many books have it."""

    value: str
    count: int


class FacetsOut(BaseModel):
    """What the filters can choose from."""

    languages: list[CountOut]
    categories: list[CountOut]
    min_year: int | None
    max_year: int | None
    year_histogram: list[tuple[int, int]] = Field(description="(decade start, books) pairs")
    page_histogram: list[tuple[int, int]] = Field(
        description="(bucket start, books) pairs in 100-page buckets; the last bucket, "
        f"{PAGE_BUCKETS_UP_TO}, holds every book of {PAGE_BUCKETS_UP_TO} pages or more"
    )

    @classmethod
    def of(cls, facets: Facets) -> FacetsOut:
        """Map domain facets."""
        return cls(
            languages=[CountOut(value=c.name, count=c.count) for c in facets.languages],
            categories=[CountOut(value=c.name, count=c.count) for c in facets.top_categories],
            min_year=facets.min_year,
            max_year=facets.max_year,
            year_histogram=list(facets.year_histogram),
            page_histogram=list(facets.page_histogram),
        )
