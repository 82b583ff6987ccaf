"""Open Library: the Books API by ISBN and the Search API, as source records.

- `GET /api/books?bibkeys=ISBN:<isbn>&format=json&jscmd=data` answers an object keyed by
  the bibkey, or `{}` when Open Library has no such edition;
- `GET /search.json?q=<words>&limit=<n>&fields=...` answers `{"numFound": n, "docs": [...]}`.
Records are editions (`OL...M`) for ISBNs and works (`OL...W`) for searches; authors come
by name, subjects as categories, `number_of_pages` (or the median over editions) as pages.
"""

from __future__ import annotations

from typing import Any

from lectern.adapters.providers.http import PoliteJsonClient
from lectern.adapters.providers.records import first, mapping, record, scalar, strings
from lectern.domain.books import SourceRecord
from lectern.errors import ProviderError

NAME = "openlibrary"
SEARCH_FIELDS = (
    "key,title,subtitle,author_name,first_publish_year,isbn,language,subject,"
    "number_of_pages_median,cover_i,id_goodreads,publisher"
)
COVER_URL = "https://covers.openlibrary.org/b/id/{}-M.jpg"


class OpenLibraryProvider:
    """`ExternalBooksProvider` over openlibrary.org (or a server answering like it)."""

    name = NAME

    def __init__(self, client: PoliteJsonClient) -> None:
        """The client holds the base URL, timeouts, retries and the rate limit."""
        self.client = client

    def by_isbn(self, isbn: str) -> list[SourceRecord]:
        """The edition Open Library holds for this ISBN, if any."""
        key = f"ISBN:{isbn.replace('-', '').strip()}"
        answer = self.client.get_json(
            "/api/books", {"bibkeys": key, "format": "json", "jscmd": "data"}
        )
        if answer is None or answer == {}:
            return []
        if not isinstance(answer, dict):
            raise ProviderError(f"{NAME}: the Books API answered {type(answer).__name__}")
        entry = answer.get(key)
        found = _edition(entry, self.client.base_url) if isinstance(entry, dict) else None
        return [found] if found else []

    def search(self, query: str, limit: int) -> list[SourceRecord]:
        """Works matching the words, Open Library's best first."""
        answer = self.client.get_json(
            "/search.json", {"q": query, "limit": limit, "fields": SEARCH_FIELDS}
        )
        if answer is None:
            return []
        docs = answer.get("docs") if isinstance(answer, dict) else None
        if not isinstance(docs, list):
            raise ProviderError(f"{NAME}: the Search API answered without a docs list")
        found = [_work(d, self.client.base_url) for d in docs[:limit] if isinstance(d, dict)]
        return [r for r in found if r is not None]


def _olid(key: Any) -> str | None:
    return key.rstrip("/").rsplit("/", 1)[-1] if isinstance(key, str) and key.strip() else None


def _edition(entry: dict[str, Any], base_url: str) -> SourceRecord | None:
    olid = _olid(entry.get("key"))
    if olid is None:
        return None
    identifiers = mapping(entry.get("identifiers"))
    cover = mapping(entry.get("cover"))
    publishers = [p.get("name") for p in entry.get("publishers") or [] if isinstance(p, dict)]
    return record(
        source=NAME,
        source_id=olid,
        url=f"{base_url}/books/{olid}",
        title=entry.get("title"),
        subtitle=entry.get("subtitle"),
        authors=[
            a["name"]
            for a in entry.get("authors") or []
            if isinstance(a, dict) and isinstance(a.get("name"), str)
        ],
        subjects=[
            s["name"]
            for s in entry.get("subjects") or []
            if isinstance(s, dict) and isinstance(s.get("name"), str)
        ],
        year=entry.get("publish_date"),
        pages=entry.get("number_of_pages"),
        isbns=[*strings(identifiers.get("isbn_13")), *strings(identifiers.get("isbn_10"))],
        goodreads_id=first(strings(identifiers.get("goodreads"))),
        metadata={
            "openlibrary_key": olid,
            "cover_url": scalar(cover.get("medium")),
            "publisher": next((p for p in publishers if isinstance(p, str)), None),
        },
    )


def _work(doc: dict[str, Any], base_url: str) -> SourceRecord | None:
    olid = _olid(doc.get("key"))
    if olid is None:
        return None
    languages = strings(doc.get("language"))
    isbns = strings(doc.get("isbn"))
    cover = doc.get("cover_i")
    return record(
        source=NAME,
        source_id=olid,
        url=f"{base_url}/works/{olid}",
        title=doc.get("title"),
        subtitle=doc.get("subtitle"),
        authors=strings(doc.get("author_name")),
        language=languages[0] if len(languages) == 1 else None,
        subjects=strings(doc.get("subject")),
        year=doc.get("first_publish_year"),
        pages=doc.get("number_of_pages_median"),
        # One edition's ISBN only: a work's many ISBNs would join editions the catalog
        # keeps apart.
        isbns=[next((i for i in isbns if len(i) == 13), None) or (isbns or [""])[0]],
        goodreads_id=first(strings(doc.get("id_goodreads"))),
        metadata={
            "openlibrary_key": olid,
            "cover_url": COVER_URL.format(cover) if isinstance(cover, int) else None,
            "publisher": first(strings(doc.get("publisher"))),
        },
    )
