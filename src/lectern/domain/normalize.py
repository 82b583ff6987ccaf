"""Pure normalisers for the messy fields of real book data sets.

Each function takes what a source gave and returns a clean value, or None with a reason
(a short snake_case string) that ingestion counts and reports.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html.parser import HTMLParser

# --- ISBN -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class IsbnResult:
    """A validated ISBN, or the reason the input was dropped."""

    value: str | None
    reason: str | None = None
    repaired: bool = False
    """True when lost leading zeros were put back."""


_ISBN_JUNK = re.compile(r"[\s\-‐‑‒–—.]")


def _isbn10_check_digit(first9: str) -> str:
    total = sum((10 - i) * int(d) for i, d in enumerate(first9))
    check = (11 - total % 11) % 11
    return "X" if check == 10 else str(check)


def _isbn13_check_digit(first12: str) -> str:
    total = sum(int(d) * (1 if i % 2 == 0 else 3) for i, d in enumerate(first12))
    return str((10 - total % 10) % 10)


def normalize_isbn10(raw: str | None) -> IsbnResult:
    """Validate an ISBN-10, restoring leading zeros a spreadsheet dropped."""
    if raw is None or not raw.strip():
        return IsbnResult(None, None)
    text = _ISBN_JUNK.sub("", raw.strip()).upper()
    if text.endswith(".0") or not re.fullmatch(r"\d{1,9}[\dX]", text):
        return IsbnResult(None, "isbn10_malformed")
    repaired = False
    if len(text) < 10:
        # CSV tools read ISBNs as numbers and drop leading zeros; more than three
        # lost zeros never happens for a real ISBN-10 (group 0 publishers are >= 2 digits).
        if len(text) < 7:
            return IsbnResult(None, "isbn10_too_short")
        text = text.rjust(10, "0")
        repaired = True
    if "X" in text[:9]:
        return IsbnResult(None, "isbn10_malformed")
    if _isbn10_check_digit(text[:9]) != text[9]:
        return IsbnResult(None, "isbn10_bad_check_digit")
    return IsbnResult(text, None, repaired)


def normalize_isbn13(raw: str | None) -> IsbnResult:
    """Validate an ISBN-13 (978/979 prefix and check digit)."""
    if raw is None or not raw.strip():
        return IsbnResult(None, None)
    text = _ISBN_JUNK.sub("", raw.strip())
    if re.fullmatch(r"\d+(\.\d+)?[eE]\+?\d+", text):
        return IsbnResult(None, "isbn13_float_lost_digits")
    if not text.isdigit():
        return IsbnResult(None, "isbn13_malformed")
    if len(text) != 13:
        return IsbnResult(None, "isbn13_wrong_length")
    if not text.startswith(("978", "979")):
        return IsbnResult(None, "isbn13_bad_prefix")
    if _isbn13_check_digit(text[:12]) != text[12]:
        return IsbnResult(None, "isbn13_bad_check_digit")
    return IsbnResult(text)


def isbn10_to_isbn13(isbn10: str) -> str:
    """The ISBN-13 of a valid ISBN-10 (978 prefix, recomputed check digit)."""
    first12 = "978" + isbn10[:9]
    return first12 + _isbn13_check_digit(first12)


def isbn13_to_isbn10(isbn13: str) -> str | None:
    """The ISBN-10 of a 978-prefixed ISBN-13; None for 979 (they have no ISBN-10)."""
    if not isbn13.startswith("978"):
        return None
    first9 = isbn13[3:12]
    return first9 + _isbn10_check_digit(first9)


def parse_isbn_query(text: str) -> tuple[str, str] | None:
    """Read a user's ISBN (any punctuation) as ("isbn10"|"isbn13", value), or None."""
    compact = _ISBN_JUNK.sub("", text.strip()).upper()
    if len(compact) == 13:
        result = normalize_isbn13(compact)
        return ("isbn13", result.value) if result.value else None
    if 7 <= len(compact) <= 10:
        result = normalize_isbn10(compact)
        return ("isbn10", result.value) if result.value else None
    return None


# --- text --------------------------------------------------------------------------------

_WS = re.compile(r"\s+")


def collapse_whitespace(text: str) -> str:
    """Collapse runs of whitespace (including newlines) into one space and trim."""
    return _WS.sub(" ", text).strip()


class _TextExtractor(HTMLParser):
    _BREAKING = frozenset({"p", "br", "div", "li", "ul", "ol", "h1", "h2", "h3", "tr"})
    _SKIPPED = frozenset({"script", "style"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip_depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        del attrs
        if tag in self._SKIPPED:
            self._skip_depth += 1
        elif tag in self._BREAKING:
            self.parts.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in self._SKIPPED and self._skip_depth:
            self._skip_depth -= 1
        elif tag in self._BREAKING:
            self.parts.append(" ")

    def handle_data(self, data: str) -> None:
        if not self._skip_depth:
            self.parts.append(data)


def clean_text(raw: str | None) -> str | None:
    """Strip HTML tags and entities, drop control characters, collapse whitespace."""
    if raw is None:
        return None
    text = raw
    if "<" in text and ">" in text:
        extractor = _TextExtractor()
        extractor.feed(text)
        extractor.close()
        text = "".join(extractor.parts)
    else:
        text = html.unescape(text)
    text = "".join(ch if unicodedata.category(ch)[0] != "C" else " " for ch in text)
    text = collapse_whitespace(text)
    return text or None


def fold(text: str) -> str:
    """Lower-case, strip accents and punctuation: the key form of a name or title."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    no_marks = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return collapse_whitespace(re.sub(r"[^\w\s]|_", " ", no_marks))


# --- titles --------------------------------------------------------------------------------

_SERIES = re.compile(r"\s*\(([^()]*?),?\s*#\s*([\d.\-–]+)\)\s*$")
_SERIES_NO_NUMBER = re.compile(r"\s*\(([^()]*?),?\s*#\s*\)\s*$")


def split_series(title: str) -> tuple[str, str | None, str | None]:
    """Split "Title (Series, #1)" or "Title (Series  #1)" into (title, series, number)."""
    match = _SERIES.search(title)
    if match:
        series = collapse_whitespace(match.group(1)).rstrip(",") or None
        return collapse_whitespace(title[: match.start()]), series, match.group(2)
    match = _SERIES_NO_NUMBER.search(title)
    if match:
        return (
            collapse_whitespace(title[: match.start()]),
            collapse_whitespace(match.group(1)),
            None,
        )
    return collapse_whitespace(title), None, None


def work_key(title: str, first_author: str | None) -> str | None:
    """Normalised title + first-author surname: the last-resort key for merging works."""
    surname = author_surname(first_author) if first_author else None
    main_title = fold(split_series(title)[0].replace("&", " and "))
    main_title = re.sub(r"^(the|a|an) ", "", main_title)
    if not surname or not main_title:
        return None
    return f"{main_title}|{surname}"


# --- authors -------------------------------------------------------------------------------

AUTHOR_ROLES = frozenset(
    {
        "illustrator",
        "illustrations",
        "translator",
        "translation",
        "editor",
        "editors",
        "contributor",
        "introduction",
        "foreword",
        "afterword",
        "narrator",
        "adapter",
        "annotations",
        "compiler",
        "cover design",
        "cover artist",
        "photographer",
        "preface",
        "commentary",
        "goodreads author",
        "pseudonym",
        "creator",
        "artist",
        "colorist",
        "letterer",
        "penciler",
        "inker",
        "reader",
        "designer",
        "author",
    }
)
"""Parenthesised words after a name that describe a role, not the name itself."""

_ROLE = re.compile(r"\s*\(([^()]*)\)\s*$")
_NAME_SUFFIXES = frozenset({"jr", "jr.", "sr", "sr.", "ii", "iii", "iv", "phd", "ph.d.", "md"})


@dataclass(frozen=True, slots=True)
class ParsedAuthors:
    """Author names in source order, with roles split off into their own mapping."""

    names: tuple[str, ...]
    roles: dict[str, str]


def _with_roles(fragments: Iterable[str]) -> ParsedAuthors:
    names: list[str] = []
    roles: dict[str, str] = {}
    for fragment in fragments:
        name = collapse_whitespace(fragment)
        role: str | None = None
        match = _ROLE.search(name)
        if match:
            words = [w.strip().casefold() for w in match.group(1).split(",")]
            if words and all(w in AUTHOR_ROLES for w in words):
                role = ", ".join(w for w in words if w != "goodreads author") or None
                name = name[: match.start()].strip()
        if not name or name.casefold() in {"unknown", "anonymous author", "n/a"}:
            continue
        if name not in names:
            names.append(name)
            if role:
                roles[name] = role
    return ParsedAuthors(tuple(names), roles)


def _split_outside_parentheses(text: str, separator: str) -> list[str]:
    parts: list[str] = []
    depth = 0
    current: list[str] = []
    for char in text:
        if char == "(":
            depth += 1
        elif char == ")":
            depth = max(0, depth - 1)
        if char == separator and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
    parts.append("".join(current))
    return parts


def split_authors(raw: str | None, separator: str) -> ParsedAuthors:
    """Split an author list on a plain separator; name suffixes (Jr.) stay attached."""
    if raw is None or not raw.strip():
        return ParsedAuthors((), {})
    merged: list[str] = []
    for part in _split_outside_parentheses(raw, separator):
        piece = part.strip()
        if merged and piece.casefold() in _NAME_SUFFIXES:
            merged[-1] = f"{merged[-1]}, {piece}"
        elif piece:
            merged.append(piece)
    return _with_roles(merged)


def split_hyphenated_authors(raw: str | None, known_names: frozenset[str]) -> ParsedAuthors:
    """Split a '-'-separated author list where '-' also occurs inside names.

    "Jean-Paul Sartre-Carol Cosman" is two authors. We try every way of rejoining the
    fragments and pick the one that yields the most names already known from other
    sources (folded); ties go to the reading where a fragment with no space joins the
    next fragment, since a bare fragment is usually the first half of a hyphenated name.
    """
    if raw is None or not raw.strip():
        return ParsedAuthors((), {})
    fragments = [f.strip() for f in raw.split("-")]
    fragments = [f for f in fragments if f]
    if len(fragments) <= 1 or len(fragments) > 12:
        return _with_roles(fragments if len(fragments) <= 1 else [raw.replace("-", " - ")])

    def heuristic(parts: Sequence[str]) -> list[str]:
        names: list[str] = []
        pending = ""
        for index, part in enumerate(parts):
            joined = f"{pending}-{part}" if pending else part
            is_last = index == len(parts) - 1
            if " " not in part and not is_last:
                pending = joined
                continue
            names.append(joined)
            pending = ""
        return names

    best = heuristic(fragments)
    if known_names:
        best_known = sum(fold(n) in known_names for n in best)
        # Enumerate joins only for short lists: 2^(n-1) readings.
        if len(fragments) <= 8:
            for mask in range(1 << (len(fragments) - 1)):
                names = [fragments[0]]
                for i, part in enumerate(fragments[1:]):
                    if mask >> i & 1:
                        names[-1] = f"{names[-1]}-{part}"
                    else:
                        names.append(part)
                known = sum(fold(n) in known_names for n in names)
                if known > best_known:
                    best, best_known = names, known
    return _with_roles(best)


def author_surname(name: str) -> str | None:
    """The folded surname of an author ("Suzanne Collins" -> "collins")."""
    words = [w for w in fold(name).split() if w not in {"jr", "sr", "ii", "iii", "iv"}]
    return words[-1] if words else None


# --- languages -----------------------------------------------------------------------------

_LANGUAGE_CODES: dict[str, str] = {
    "eng": "en",
    "enm": "en",
    "spa": "es",
    "fre": "fr",
    "fra": "fr",
    "frm": "fr",
    "ger": "de",
    "deu": "de",
    "gmh": "de",
    "ita": "it",
    "por": "pt",
    "jpn": "ja",
    "zho": "zh",
    "chi": "zh",
    "ara": "ar",
    "rus": "ru",
    "dut": "nl",
    "nld": "nl",
    "swe": "sv",
    "nor": "no",
    "nob": "nb",
    "nno": "nn",
    "dan": "da",
    "pol": "pl",
    "tur": "tr",
    "ind": "id",
    "per": "fa",
    "fas": "fa",
    "vie": "vi",
    "fil": "tl",
    "tgl": "tl",
    "rum": "ro",
    "ron": "ro",
    "glg": "gl",
    "lat": "la",
    "cat": "ca",
    "srp": "sr",
    "msa": "ms",
    "may": "ms",
    "wel": "cy",
    "cym": "cy",
    "heb": "he",
    "gla": "gd",
    "gre": "el",
    "ell": "el",
    "fin": "fi",
    "hun": "hu",
    "cze": "cs",
    "ces": "cs",
    "kor": "ko",
    "hin": "hi",
    "ukr": "uk",
    "bul": "bg",
    "hrv": "hr",
    "slv": "sl",
    "slo": "sk",
    "slk": "sk",
    "ice": "is",
    "isl": "is",
    "gle": "ga",
    "tha": "th",
    "urd": "ur",
    "ben": "bn",
    "est": "et",
    "lav": "lv",
    "lit": "lt",
    "eus": "eu",
    "baq": "eu",
    "afr": "af",
    "alb": "sq",
    "sqi": "sq",
    "arm": "hy",
    "hye": "hy",
    "geo": "ka",
    "kat": "ka",
    "tam": "ta",
    "tel": "te",
    "mar": "mr",
    "swa": "sw",
    "epo": "eo",
}
"""ISO 639-2 (B and T) codes seen in book data, mapped to ISO 639-1."""

_NO_SINGLE_LANGUAGE = frozenset({"mul", "und", "zxx", "mis"})


ISO_639_1 = frozenset(
    [
        "aa",
        "ab",
        "ae",
        "af",
        "ak",
        "am",
        "an",
        "ar",
        "as",
        "av",
        "ay",
        "az",
        "ba",
        "be",
        "bg",
        "bi",
        "bm",
        "bn",
        "bo",
        "br",
        "bs",
        "ca",
        "ce",
        "ch",
        "co",
        "cr",
        "cs",
        "cu",
        "cv",
        "cy",
        "da",
        "de",
        "dv",
        "dz",
        "ee",
        "el",
        "en",
        "eo",
        "es",
        "et",
        "eu",
        "fa",
        "ff",
        "fi",
        "fj",
        "fo",
        "fr",
        "fy",
        "ga",
        "gd",
        "gl",
        "gn",
        "gu",
        "gv",
        "ha",
        "he",
        "hi",
        "ho",
        "hr",
        "ht",
        "hu",
        "hy",
        "hz",
        "ia",
        "id",
        "ie",
        "ig",
        "ii",
        "ik",
        "io",
        "is",
        "it",
        "iu",
        "ja",
        "jv",
        "ka",
        "kg",
        "ki",
        "kj",
        "kk",
        "kl",
        "km",
        "kn",
        "ko",
        "kr",
        "ks",
        "ku",
        "kv",
        "kw",
        "ky",
        "la",
        "lb",
        "lg",
        "li",
        "ln",
        "lo",
        "lt",
        "lu",
        "lv",
        "mg",
        "mh",
        "mi",
        "mk",
        "ml",
        "mn",
        "mr",
        "ms",
        "mt",
        "my",
        "na",
        "nb",
        "nd",
        "ne",
        "ng",
        "nl",
        "nn",
        "no",
        "nr",
        "nv",
        "ny",
        "oc",
        "oj",
        "om",
        "or",
        "os",
        "pa",
        "pi",
        "pl",
        "ps",
        "pt",
        "qu",
        "rm",
        "rn",
        "ro",
        "ru",
        "rw",
        "sa",
        "sc",
        "sd",
        "se",
        "sg",
        "si",
        "sk",
        "sl",
        "sm",
        "sn",
        "so",
        "sq",
        "sr",
        "ss",
        "st",
        "su",
        "sv",
        "sw",
        "ta",
        "te",
        "tg",
        "th",
        "ti",
        "tk",
        "tl",
        "tn",
        "to",
        "tr",
        "ts",
        "tt",
        "tw",
        "ty",
        "ug",
        "uk",
        "ur",
        "uz",
        "ve",
        "vi",
        "vo",
        "wa",
        "wo",
        "xh",
        "yi",
        "yo",
        "za",
        "zh",
        "zu",
    ]
)
"""The 183 two-letter codes of ISO 639-1. A constant, not a dependency: the list is fixed
by the standard and a package such as pycountry would add megabytes for this one set."""


def normalize_language(raw: str | None) -> tuple[str | None, str | None]:
    """Map a language code to ISO 639-1: ("eng" | "en-US" | "EN") -> "en".

    Returns (code, None), (None, None) for an empty input, or (None, reason) when the
    code has no ISO 639-1 form (ancient Greek `grc`, Aleut `ale`, `mul` for many).
    """
    if raw is None or not raw.strip():
        return None, None
    text = raw.strip().casefold().replace("_", "-")
    primary = text.split("-", 1)[0]
    if primary in _NO_SINGLE_LANGUAGE:
        return None, "language_not_single"
    if len(primary) == 2 and primary.isalpha():
        return (primary, None) if primary in ISO_639_1 else (None, "language_unmapped")
    mapped = _LANGUAGE_CODES.get(primary)
    if mapped:
        return mapped, None
    return None, "language_unmapped"


# --- categories ----------------------------------------------------------------------------

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
and the list above, plus the patterns in `_NON_TOPICAL_PATTERNS`, carry no topic.
"""

_NON_TOPICAL_PATTERNS = (
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

_NON_TOPICAL_SUBJECTS = (
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
}
"""Spellings of one topic across shelves, DBpedia genres and subjects, folded to one name."""


def is_topical_shelf(shelf: str) -> bool:
    """True when a reader's shelf name describes what the book is about."""
    name = shelf.strip().casefold()
    if not name or name in NON_TOPICAL_SHELVES:
        return False
    return not any(p.search(name) for p in _NON_TOPICAL_PATTERNS)


_NAME_FILLERS = frozenset({"the", "a", "an", "of", "and", "series", "trilogy", "saga", "books"})


def names_the_book(shelf: str, words_of_book: Iterable[str]) -> bool:
    """True when every word of a shelf is a word of the book's title, series or authors.

    Such a shelf (`hunger-games`, `suzanne-collins`, `a-song-of-ice-and-fire`) names the book
    rather than saying what it is about.
    """
    book = {w for text in words_of_book for w in re.findall(r"\w+", fold(text))}
    words = {w for w in re.findall(r"\w+", fold(shelf)) if w not in _NAME_FILLERS}
    return bool(words) and words <= book


def is_topical_subject(subject: str) -> bool:
    """True when an Open Library subject describes a topic, not a format or a list."""
    name = subject.strip().casefold()
    if not name or len(name) > 80:
        return False
    return not any(p.search(name) for p in _NON_TOPICAL_SUBJECTS)


def normalize_category(raw: str) -> str | None:
    """One spelling per topic: lower case, single spaces, no '-' or '_' separators."""
    text = raw.strip()
    text = re.sub(r"\s*\((genre|fiction|novel|literature)\)\s*$", "", text, flags=re.I)
    text = re.sub(r",\s*general$", "", text, flags=re.I)
    text = unicodedata.normalize("NFKC", text).casefold()
    text = text.replace("&", " and ")
    text = re.sub(r"[-_/]+", " ", text)
    text = re.sub(r"[^\w\s',.]", " ", text)
    text = collapse_whitespace(text).strip(" ,.")
    if not text or len(text) < 2 or text.isdigit():
        return None
    return CATEGORY_SYNONYMS.get(text, text)


def merge_categories(*groups: Iterable[str]) -> tuple[str, ...]:
    """Normalise and de-duplicate categories, keeping first-seen order."""
    seen: dict[str, None] = {}
    for group in groups:
        for raw in group:
            name = normalize_category(raw)
            if name and name not in seen:
                seen[name] = None
    return tuple(seen)


# --- years ---------------------------------------------------------------------------------

_YEAR = re.compile(r"(?<!\d)(1[0-9]{3}|20[0-9]{2})(?!\d)")


def parse_year(raw: str | None, *, latest: int = 2030) -> int | None:
    """A publication year from "2008.0", "2006-09", "Nov 01, 2003" or "-750"."""
    if raw is None:
        return None
    text = raw.strip()
    if not text:
        return None
    number = re.fullmatch(r"(-?\d{1,4})(\.0+)?", text)
    if number:
        year = int(number.group(1))
        return year if -3000 <= year <= latest and year != 0 else None
    match = _YEAR.search(text)
    if match:
        year = int(match.group(1))
        return year if year <= latest else None
    return None


_EDITION_SUFFIX = re.compile(
    r"(\s+(trilogy|quartet|series|saga|box(ed)?\s*set|boxset|collection|omnibus"
    r"|((special|anniversary|deluxe|illustrated|collector s|collectors)\s+)?edition"
    r"|books?(\s+\d+)+))+$"
)
"""What a box set or special edition adds to a work's title ("The Hunger Games Trilogy Boxset")."""


def edition_group(title: str, first_author: str | None) -> str:
    """A loose work key for keeping editions out of one result list.

    Looser than the merge key (`work_key`): the title is cut at the first ':' or '(' so that
    "The Hunger Games: Special Edition" groups with "The Hunger Games", and a trailing
    "Trilogy Boxset" or "Books 1-7" is dropped so box sets group with their first work. Used only to
    de-duplicate results, where a false match costs one hidden duplicate, never a book.
    """
    main = re.split(r"\s*[:(\[]", split_series(title)[0], maxsplit=1)[0]
    folded = re.sub(r"^(the|a|an) ", "", fold(main.replace("&", " and ")))
    folded = _EDITION_SUFFIX.sub("", folded) or folded
    surname = author_surname(first_author) if first_author else None
    return f"{folded}|{surname or ''}"
