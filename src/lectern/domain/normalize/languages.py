"""Language codes: whatever a source or a reader writes, as one ISO 639-1 code.

The code tables are the `langcodes` library's (the IANA language subtag registry with
CLDR's aliases): ISO 639-2 bibliographic and terminology codes ("ger", "deu"), ISO 639-3
codes of a macrolanguage's main member ("cmn", "arb"), deprecated codes ("iw") and BCP 47
tags ("en-US") all resolve to the two-letter code when the language has one.
"""

from __future__ import annotations

from functools import lru_cache

import langcodes

SHELVED_WITH: dict[str, str] = {
    "enm": "en",
    "frm": "fr",
    "gmh": "de",
    "fil": "tl",
}
"""Languages without an ISO 639-1 code that the catalog shelves under one that has it:
earlier stages of a language (Middle English, Middle French, Middle High German), and
Filipino, the standard form of Tagalog (`tl`; CLDR prefers `fil` for both)."""

NO_SINGLE_LANGUAGE = frozenset({"mul", "und", "zxx", "mis"})
"""Codes for many languages, an undetermined one, no linguistic content, or uncoded."""


def normalize_language(raw: str | None) -> tuple[str | None, str | None]:
    """Map a language code to ISO 639-1: ("eng" | "en-US" | "EN" | "mal") -> "en" | "ml".

    Returns (code, None), (None, None) for an empty input, or (None, reason) when the
    code has no ISO 639-1 form (ancient Greek `grc`, Aleut `ale`, `mul` for many).
    """
    if raw is None or not raw.strip():
        return None, None
    primary = raw.strip().casefold().replace("_", "-").split("-", 1)[0]
    if primary in NO_SINGLE_LANGUAGE:
        return None, "language_not_single"
    code = _iso_639_1(primary)
    return (code, None) if code else (None, "language_unmapped")


LANGUAGE_NAMES_EN: dict[str, str] = {
    "english": "en",
    "spanish": "es",
    "french": "fr",
    "german": "de",
    "italian": "it",
    "portuguese": "pt",
    "japanese": "ja",
    "chinese": "zh",
    "mandarin": "zh",
    "arabic": "ar",
    "russian": "ru",
    "dutch": "nl",
    "swedish": "sv",
    "indonesian": "id",
    "persian": "fa",
    "farsi": "fa",
    "finnish": "fi",
    "polish": "pl",
    "turkish": "tr",
    "korean": "ko",
    "greek": "el",
    "hebrew": "he",
    "latin": "la",
    "danish": "da",
    "norwegian": "no",
    "czech": "cs",
    "hungarian": "hu",
}
"""English names of the languages readers name most, for tools that take a name or a code."""


def language_code(name_or_code: str) -> str | None:
    """The ISO 639-1 code of a language named in English ("French") or coded ("fre", "fr")."""
    named = LANGUAGE_NAMES_EN.get(name_or_code.strip().casefold())
    return named or normalize_language(name_or_code)[0]


def is_iso_639_1(code: str) -> bool:
    """True for a current two-letter ISO 639-1 code ("en", "ml"); false for "eng", "iw", "xx"."""
    return len(code) == 2 and _iso_639_1(code) == code


@lru_cache(maxsize=4096)
def _iso_639_1(primary: str) -> str | None:
    """The ISO 639-1 code of a primary language subtag, or None when there is none."""
    if not (2 <= len(primary) <= 3 and primary.isascii() and primary.isalpha()):
        return None
    language = langcodes.Language.get(primary).language
    if language is None:
        return None
    if len(language) != 2:  # "cmn" -> "zh"; a two-letter code (Twi `tw`) stays itself
        language = langcodes.Language.get(language).prefer_macrolanguage().language or language
    language = SHELVED_WITH.get(language, language)
    if len(language) != 2 or not langcodes.tag_is_valid(language):
        return None
    return language
