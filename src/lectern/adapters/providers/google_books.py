"""Google Books: the volumes API by ISBN (`q=isbn:<isbn>`) and by words, as source records.

`GET /volumes?q=...&maxResults=<n>[&key=...]` answers `{"kind": "books#volumes",
"totalItems": n, "items": [...]}`; with nothing found, `totalItems` is 0 and `items` is
absent. Errors are `{"error": {"code": ..., "message": ...}}` with the HTTP status (429 when
the quota is spent). The same source as 7k-books (Google Books metadata), read live.
"""

from __future__ import annotations

from typing import Any

from lectern.adapters.providers.http import PoliteJsonClient
from lectern.adapters.providers.records import mapping, record, scalar, strings
from lectern.domain.books import SourceRecord
from lectern.errors import ProviderError

NAME = "google-books"
MAX_RESULTS = 40
"""The API's own upper bound on maxResults."""


class GoogleBooksProvider:
    """`ExternalBooksProvider` over the Google Books API (or a server answering like it)."""

    name = NAME

    def __init__(self, client: PoliteJsonClient, *, api_key: str | None = None) -> None:
        """Without a key the API works at a lower quota."""
        self.client = client
        self.api_key = api_key

    def by_isbn(self, isbn: str) -> list[SourceRecord]:
        """Volumes that carry this ISBN (the API's fuzzy matches are dropped)."""
        digits = isbn.replace("-", "").strip()
        found = self._volumes(f"isbn:{digits}", 5)
        return [r for r in found if digits in {r.isbn13, r.isbn10}]

    def search(self, query: str, limit: int) -> list[SourceRecord]:
        """Volumes matching the words, Google's best first."""
        return self._volumes(query, min(limit, MAX_RESULTS))

    def _volumes(self, query: str, limit: int) -> list[SourceRecord]:
        params: dict[str, str | int] = {"q": query, "maxResults": limit, "printType": "books"}
        if self.api_key:
            params["key"] = self.api_key
        answer = self.client.get_json("/volumes", params)
        if answer is None:
            return []
        if not isinstance(answer, dict) or answer.get("kind") != "books#volumes":
            raise ProviderError(f"{NAME}: the volumes API answered something else")
        items = answer.get("items") or []
        found = [_volume(i, self.client.base_url) for i in items if isinstance(i, dict)]
        return [r for r in found if r is not None][:limit]


def _volume(item: dict[str, Any], base_url: str) -> SourceRecord | None:
    volume_id = item.get("id")
    info = item.get("volumeInfo")
    if not isinstance(volume_id, str) or not isinstance(info, dict):
        return None
    identifiers = [
        i.get("identifier", "")
        for i in info.get("industryIdentifiers") or []
        if isinstance(i, dict) and i.get("type") in ("ISBN_13", "ISBN_10")
    ]
    images = mapping(info.get("imageLinks"))
    categories = [part.strip() for c in strings(info.get("categories")) for part in c.split("/")]
    return record(
        source=NAME,
        source_id=volume_id,
        url=f"{base_url}/volumes/{volume_id}",
        title=info.get("title"),
        subtitle=info.get("subtitle"),
        authors=strings(info.get("authors")),
        description=info.get("description"),
        language=info.get("language"),
        subjects=categories,
        year=info.get("publishedDate"),
        pages=info.get("pageCount"),
        isbns=[i for i in identifiers if isinstance(i, str)],
        metadata={
            "google_books_id": volume_id,
            "cover_url": scalar(images.get("thumbnail")),
            "publisher": scalar(info.get("publisher")),
            "average_rating_google": scalar(info.get("averageRating")),
        },
    )
