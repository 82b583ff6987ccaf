"""Where each source's files live upstream, pinned to a commit, with their sha256."""

from __future__ import annotations

from lectern.application.ports import SourceFile

_GOODBOOKS = "https://raw.githubusercontent.com/zygmuntz/goodbooks-10k/6dd165b555a7b47b2dd36743a425776e641ff50c"
_KG = "https://raw.githubusercontent.com/markhun/2024S-KG/3caec01c67ed5dc5e324335ec6a5bcc250d1162f/data"
_SEVEN_K = "https://raw.githubusercontent.com/tharu280/Advanced-Book-Recommendation-System/7bcb62839c01bf1e47121c52c84ed0e31fb3db87"
_GR_OL = "https://raw.githubusercontent.com/emirhankumus/data-library/576e5f59acd2cbfadfab8a09b9e15a8b2a799c1c"

GOODBOOKS_BOOKS = SourceFile(
    "goodbooks-10k/books.csv",
    f"{_GOODBOOKS}/books.csv",
    "4d21d0e0433128657c752e3a3d0405ac0ec11675d6c70c64cb0abf4ab1acb76a",
)
GOODBOOKS_BOOK_TAGS = SourceFile(
    "goodbooks-10k-tags/book_tags_reduced.csv",
    f"{_KG}/book_tags_reduced.csv",
    "9a66bcbdd0d56bbdc2a4a14f58fd0401bb083a20e02032bd8f185f04a063fcb1",
)
GOODBOOKS_TAGS = SourceFile(
    "goodbooks-10k-tags/tags_reduced.csv",
    f"{_KG}/tags_reduced.csv",
    "74cc2b53ac07ee306b997377b4d3d3ee58aba4089f3e669b285528f3c5764972",
)
GOODBOOKS_ENRICHED = SourceFile(
    "goodbooks-10k-tags/books_enriched.csv",
    f"{_KG}/books_enriched.csv",
    "e60cfee2f1cbd26cb4f87c9212d58b3e4aaa8d020f315f5bc130a5d3519d9b52",
)
SEVEN_K_BOOKS = SourceFile(
    "7k-books/books.csv",
    f"{_SEVEN_K}/books.csv",
    "64a19afd3df7170d153bb5b7e1afdfed4a05e2fe3ac163a168867596f2515e43",
)
GOODREADS_OPENLIBRARY_BOOKS = SourceFile(
    "goodreads-openlibrary/books.csv",
    f"{_GR_OL}/books_enriched.csv",
    "956733cef55f44557bcce155304eaa835737ffd5d6e2783bd7490ed8680cb0ee",
)
