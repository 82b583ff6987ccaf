"""The tables category normalisation reads.

Shelves and subjects that carry no topic, and the one synonym table that ingestion and
query understanding share.
"""

from __future__ import annotations

import re

NON_TOPICAL_SHELVES = frozenset(
    {
        "to-read",
        "currently-reading",
        "favorites",
        "favourites",
        "favorite",
        "favourite",
        "owned",
        "books-i-own",
        "owned-books",
        "i-own",
        "own-it",
        "own",
        "my-books",
        "my-library",
        "library",
        "kindle",
        "ebook",
        "ebooks",
        "e-book",
        "e-books",
        "audiobook",
        "audiobooks",
        "audio",
        "audible",
        "audio-books",
        "audio-book",
        "default",
        "book-club",
        "bookclub",
        "book-club-books",
        "to-buy",
        "wish-list",
        "wishlist",
        "abandoned",
        "dnf",
        "did-not-finish",
        "re-read",
        "reread",
        "books",
        "all-time-favorites",
        "all-time-favourites",
        "favorite-books",
        "favourite-books",
        "favorite-series",
        "childhood-favorites",
        "1001",
        "1001-books",
        "1001-books-to-read-before-you-die",
        "to-re-read",
        "rory-gilmore-reading-challenge",
        "re-reads",
        "read-again",
        "unfinished",
        "on-hold",
        "i-own-it",
        "borrowed",
        "nook",
        "paperback",
        "hardcover",
        "library-books",
        "maybe",
        "someday",
        "school-reading",
        "tbr",
        "my-favorites",
        "series",
        "stand-alone",
        "standalone",
        "owned-to-read",
        "bought",
        "gave-up",
        "wanted",
        "want-to-read",
        "books-i-have",
        "shelfari-favorites",
        "home-library",
        "physical-books",
        "favs",
        "faves",
        "read-for-school",
        "required-reading",
        "goodreads-choice-awards",
        "recommended",
        "must-read",
        "reviewed",
        "kindle-books",
        "e-reader",
        "finished",
        "read",
        "read-in-english",
        "did-not-like",
        "not-interested",
        "meh",
        "overrated",
        "5-star",
        "4-stars",
        "loved",
        "loved-it",
        "love-it",
        "read-more-than-once",
        "finished-series",
        "completed-series",
        "series-complete",
        "completed",
        "favorite-authors",
        "favourite-authors",
        "favorite-author",
        "read-aloud",
        "gift",
        "gift-ideas",
        "signed",
        "first-edition",
        "collection",
        "my-shelf",
        "bookshelf",
    }
)
"""Shelf names that say how a reader holds a book, not what it is about.

Derived from the 2,081 goodbooks-10k shelves with count >= 100 (see docs/catalog.md):
the most used shelves are `to-read` (9,763 books) and `currently-reading` (7,739); those
and the list above, plus the patterns in `NON_TOPICAL_PATTERNS`, carry no topic.
"""

NON_TOPICAL_PATTERNS = (
    re.compile(r"^(read|reading|finished|bought|owned)[-_]?(in[-_]?)?\d{2,4}"),
    re.compile(r"\d{4}[-_]?(reads?|reading|books?|challenge|releases?)"),
    re.compile(r"^(books[-_])?read[-_]|^(beautiful[-_])?covers?[-_]|[-_]covers?$"),
    re.compile(r"^\d+[-_]?stars?$"),
    re.compile(r"^(my|own|owned|i-own|favou?rites?|fav|faves)[-_]|^(on|in)[-_]my[-_]"),
    re.compile(r"[-_](own|owned|tbr|to-read|wishlist|wish-list|favou?rites?|faves)$"),
    re.compile(r"^(kindle|nook|audio|ebook|e-book|library|book-?club|re-?read)"),
    re.compile(r"^(to|want|wanna|need)[-_](read|buy|get|reread|finish)"),
    re.compile(r"challenge|^shelf|^default|^unread|^not[-_]|^didn-t|^dnf"),
    re.compile(r"^\d+$"),
)

NON_TOPICAL_SUBJECTS = (
    re.compile(r"[:=_]"),
    re.compile(r"^reading level"),
    re.compile(
        r"^(large type books|open library staff picks|long now manual for civilization"
        r"|new york times (reviewed|bestseller)|accessible book|protected daisy"
        r"|in library|lending library|overdrive|translations into english|specimens"
        r"|readers|general|spanish language materials|early works to 1800|adaptations"
        r"|textbooks|juvenile literature|criticism and interpretation"
        r"|history and criticism|english language|fiction in english|large print)$"
    ),
    re.compile(r"award winner|award nominee|^nyt|bestsellers?$|book club|readers?$"),
)

CATEGORY_SYNONYMS: dict[str, str] = {
    "sci fi": "science fiction",
    "scifi": "science fiction",
    "sf": "science fiction",
    "science fiction fantasy": "science fiction and fantasy",
    "sci fi fantasy": "science fiction and fantasy",
    "scifi fantasy": "science fiction and fantasy",
    "fantasy sci fi": "science fiction and fantasy",
    "ya": "young adult",
    "ya fiction": "young adult fiction",
    "teen": "young adult",
    "ya books": "young adult",
    "ya lit": "young adult",
    "ya literature": "young adult",
    "teen fiction": "young adult fiction",
    "distopia": "dystopia",
    "distopian": "dystopia",
    "dystopias": "dystopia",
    "dystopian fiction": "dystopia",
    "young adult novel": "young adult fiction",
    "non fiction": "nonfiction",
    "childrens": "children's",
    "children s": "children's",
    "children s books": "children's books",
    "childrens books": "children's books",
    "kids": "children's",
    "kids books": "children's books",
    "children s literature": "children's literature",
    "children s fiction": "children's fiction",
    "humour": "humor",
    "classic": "classics",
    "mysteries": "mystery",
    "memoirs": "memoir",
    "graphic novel": "graphic novels",
    "comic": "comics",
    "picture book": "picture books",
    "novel": "novels",
    "vampire": "vampires",
    "dystopian": "dystopia",
    "fantasy novel": "fantasy",
    "fantasy fiction": "fantasy",
    "fantasy literature": "fantasy",
    "mystery fiction": "mystery",
    "mystery novel": "mystery",
    "crime novel": "crime fiction",
    "thriller genre": "thriller",
    "thrillers": "thriller",
    "horror novel": "horror",
    "horror fiction": "horror",
    "romance novel": "romance",
    "historical novel": "historical fiction",
    "science fiction novel": "science fiction",
    "whodunit": "mystery",
    "whodunnit": "mystery",
    "detective stories": "mystery",
    "rom com": "romance",
    "romcom": "romance",
}
"""Spellings of one topic across shelves, DBpedia genres, subjects and queries, folded to
the catalog's name: ingestion stores the name, query understanding reads the spelling as
that shelf. Keys are written as `normalize_category` leaves a name before this lookup."""

YOUTH_MARKERS: tuple[str, ...] = (
    "young adult",
    "ya",
    "juvenile",
    "children's",
    "childrens",
    "middle grade",
    "picture book",
    "picture books",
    "teen",
    "teens",
    "kid books",
    "jeunesse",
    "juvenil",
    "juveniles",
    "infantil",
    "infantiles",
    "jugendbuch",
    "kinderbuch",
)
"""Words that make a shelf one for young readers wherever they stand in its name
("young adult", "ya fantasy", "children's books", "juvenile fiction", "romans, nouvelles,
etc. pour la jeunesse"); folded as `fold` folds. Which shelves carry them is read from the
catalog (`is_youth_shelf` over its vocabulary), not listed here."""
YOUTH_HEADS = frozenset({"children", "kids", "kid"})
"""Words that mark a youth shelf only as its first word, and not before "of", "with", "and"
or "in" ("children books" is for children; "children of divorced parents" is a topic)."""

SHELF_SHORTHAND: dict[tuple[str, ...], tuple[str, ...]] = {
    ("lit",): ("literature",),
    ("ya",): ("young", "adult"),
    ("sci", "fi"): ("science", "fiction"),
    ("scifi",): ("science", "fiction"),
    ("bio",): ("biography",),
    ("vamp",): ("vampire",),
    ("non", "fiction"): ("nonfiction",),
    ("ww2",): ("world", "war", "ii"),
    ("wwii",): ("world", "war", "ii"),
    ("ww1",): ("world", "war", "i"),
    ("wwi",): ("world", "war", "i"),
    ("war", "2"): ("war", "ii"),
    ("war", "1"): ("war", "i"),
    ("war", "two"): ("war", "ii"),
    ("war", "one"): ("war", "i"),
}
"""Readers' shorthand in shelf names, as `shelf_key` reads it (words folded and singular):
"british lit" and "british literature", "wwii" and "world war 2" are one shelf spelt two
ways. General reader abbreviations, not one shelf's spellings (those are `CATEGORY_SYNONYMS`)."""
