"""The words and patterns of exclusions, audience and length: data only, no logic.

Languages: English, Spanish, French, German, Italian and Portuguese, the ones the rules
already read language names in. Words are folded as `fold_word` folds them (case-folded,
accents and apostrophes dropped: "isn't" -> "isnt", "außer" -> "ausser", "niños" -> "ninos").
"""

from __future__ import annotations

import re

NEGATION_CUES: tuple[tuple[str, ...], ...] = tuple(
    tuple(cue.split())
    for cue in (
        # English
        "but not",
        "and not",
        "other than",
        "anything but",
        "anything except",
        "apart from",
        "except for",
        "except",
        "excluding",
        "exclude",
        "without",
        "nothing by",
        "nothing from",
        "nothing about",
        "nothing with",
        "nothing",
        "no",
        "not",
        "isnt",
        "arent",
        "minus",
        "rather than",
        "instead of",
        "dont want",
        "do not want",
        "avoid",
        # Spanish
        "pero no",
        "que no sea",
        "que no sean",
        "sin",
        "excepto",
        "salvo",
        "nada de",
        "ni",
        # French
        "mais pas",
        "sans",
        "sauf",
        "excepte",
        "hormis",
        "pas de",
        "pas",
        "rien de",
        # German
        "aber nicht",
        "ohne",
        "kein",
        "keine",
        "keinen",
        "keiner",
        "nicht",
        "ausser",
        "nichts von",
        # Italian
        "ma non",
        "senza",
        "tranne",
        "eccetto",
        "non",
        "niente",
        # Portuguese
        "mas nao",
        "sem",
        "exceto",
        "nao",
    )
)
"""Words that rule out what follows them, longest first when several start alike."""
NOT_NEGATING: tuple[tuple[str, ...], ...] = tuple(
    tuple(phrase.split())
    for phrase in (
        "not only",
        "not just",
        "not sure",
        "not necessarily",
        "not bad",
        "not too",
        "not very",
        "not so",
        "not that",
        "not much",
        "not a fan",
        "if not",
        "or not",
        "nothing but",
        "nothing else",
        "no matter",
        "no longer",
        "no one",
        "no way",
        "no wait",
        "no actually",
        "no scratch",
        "no hang",
        "no hold",
        "no more than",
        "no less than",
        "no fewer than",
        "non fiction",
        "non ficcion",
        "pas trop",
        "nicht zu",
        "non troppo",
        "no muy",
    )
)
"""Phrases that start with a cue but rule nothing out ("not only", "non fiction")."""
SCOPE_FILLERS = frozenset(
    [
        "a",
        "an",
        "the",
        "any",
        "anything",
        "anyone",
        "some",
        "something",
        "more",
        "other",
        "others",
        "by",
        "from",
        "about",
        "with",
        "written",
        "book",
        "books",
        "novel",
        "novels",
        "story",
        "stories",
        "series",
        "one",
        "ones",
        "kind",
        "type",
        "sort",
        "of",
        "that",
        "is",
        "are",
        "be",
        "please",
        "too",
        "even",
        "also",
        "really",
        "any",
        "more",
        "un",
        "una",
        "unos",
        "unas",
        "el",
        "la",
        "los",
        "las",
        "lo",
        "de",
        "del",
        "libro",
        "libros",
        "novela",
        "novelas",
        "nada",
        "le",
        "les",
        "des",
        "du",
        "livre",
        "livres",
        "roman",
        "romans",
        "rien",
        "der",
        "die",
        "das",
        "den",
        "dem",
        "des",
        "ein",
        "eine",
        "einen",
        "einem",
        "von",
        "buch",
        "bucher",
        "romane",
        "il",
        "lo",
        "gli",
        "i",
        "di",
        "del",
        "della",
        "libro",
        "libri",
        "romanzo",
        "romanzi",
        "o",
        "os",
        "um",
        "uma",
        "livro",
        "livros",
    ]
)
"""Words between a cue and what it rules out ("nothing by", "no more of the", "not a")."""
CONNECTORS = frozenset(
    [
        "but",
        "and",
        "with",
        "that",
        "which",
        "who",
        "though",
        "yet",
        "just",
        "only",
        "pero",
        "mais",
        "aber",
        "ma",
        "mas",
        "y",
        "et",
        "und",
        "e",
        "que",
        "qui",
        "die",
        "che",
    ]
)
"""Words before a cue or an audience phrase that belong to it ("but not", "that isn't",
"with no"): left out of the search words with it."""
LIST_JOINERS = frozenset(["or", "nor", "and", "o", "ni", "ou", "oder", "noch", "e", "y", "et"])
"""Words that continue a list of exclusions ("no Asimov or Clarke")."""
YOUTH_WORDS: tuple[tuple[str, ...], ...] = tuple(
    tuple(phrase.split())
    for phrase in (
        "young adult",
        "young adults",
        "young readers",
        "ya",
        "kids",
        "kid",
        "children",
        "childrens",
        "child",
        "teens",
        "teen",
        "teenagers",
        "juvenile",
        "middle grade",
        "picture books",
        "ninos",
        "jovenes",
        "juvenil",
        "infantil",
        "enfants",
        "jeunesse",
        "ados",
        "kinder",
        "jugendliche",
        "jugendbuch",
        "kinderbuch",
        "bambini",
        "ragazzi",
        "criancas",
    )
)
"""Words for young readers: ruling one out ("not for kids", "no YA") rules out every youth
shelf of the catalog."""
AUDIENCE_FILLERS = frozenset(["for", "para", "pour", "fur", "fuer", "per", "les", "a", "los"])
"""Words between a cue and the young readers it rules out ("not for kids")."""
ADULT_AUDIENCE = tuple(
    re.compile(pattern, re.I)
    for pattern in (
        r"\b(?:for|to)\s+(?:an?\s+)?(?:adults?|grown[\s-]?ups?|mature\s+readers?)\b",
        r"\b(?<!young\s)(?<!new\s)adult\s+(?:readers?|audiences?|version)\b",
        r"\bgrown[\s-]?ups?\b",
        r"\bpara\s+adultos\b",
        r"\bpour\s+(?:les\s+)?adultes\b",
        r"\bf(?:ü|u|ue)r\s+erwachsene\b",
        r"\bper\s+adulti\b",
    )
)
"""Phrases that ask for books for adults: every youth shelf is ruled out."""

# "nothing over 350 pgs": pages as typed in a hurry
_PAGES = r"(?:pages?|pp\.?|pgs?\.?|p[aá]ginas?|seiten|pagine)"
_N = r"(\d{1,5})"
_BELOW = (
    r"(?:under|below|less\s+than|fewer\s+than|shorter\s+than|menos\s+de|moins\s+de|unter|"
    r"meno\s+di)"
)
_ABOVE = (
    r"(?:over|above|more\s+than|longer\s+than|bigger\s+than|m[aá]s\s+de|plus\s+de|"
    r"(?:ü|u|ue)ber|pi[uù]\s+di)"
)
_REFUSED = (
    r"(?:no|not|nothing|none|nicht|nichts|keine?|pas|rien|non)"
    r"(?:\s+(?:books?|novels?|ones?|reads?|titles?|libros?|livres?|b(?:ü|u|ue)cher|libri))?"
)
"""The other side refused ("nothing under 200 pages", "no books over 300", "nicht unter 300
Seiten", "no menos de 300 páginas"), read before the bare direction word it holds."""
PAGE_RULES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.I), kind)
    for pattern, kind in (
        (rf"\bbetween\s+{_N}\s+and\s+{_N}\s*{_PAGES}", "range"),
        (rf"\b{_N}\s*(?:-|–|to)\s*{_N}\s*{_PAGES}", "range"),
        # the other side refused, read before the bare direction word it holds: "no less than
        # 400 pages" is at least 400, "nothing over 300 pages" at most 300
        (rf"\b{_REFUSED}\s+{_BELOW}\s+{_N}\s*{_PAGES}", "at_least"),
        (rf"\b{_REFUSED}\s+{_ABOVE}\s+{_N}\s*{_PAGES}", "at_most"),
        (rf"\b{_BELOW}\s+{_N}\s*{_PAGES}", "at_most"),
        (
            rf"\b(?:at\s+most|no\s+more\s+than|not\s+more\s+than|max(?:imum)?|up\s+to|"
            rf"hasta|jusqu'?à|bis|fino\s+a)\s+{_N}\s*{_PAGES}",
            "at_most",
        ),
        (rf"\b{_N}\s*{_PAGES}\s+or\s+(?:less|fewer|under)\b", "at_most"),
        (rf"\b{_ABOVE}\s+{_N}\s*{_PAGES}", "at_least"),
        (rf"\b(?:at\s+least|no\s+fewer\s+than|min(?:imum)?)\s+{_N}\s*{_PAGES}", "at_least"),
        (rf"\b{_N}\s*{_PAGES}\s+or\s+(?:more|longer|over)\b", "at_least"),
    )
)
"""Page limits stated in numbers. A bound is read as readers mean it, the number included:
"under 300 pages" is at most 300 and "over 500 pages" at least 500, like "at most 300" and
"at least 500" (a 300-page book is what someone asking for "under 300 pages" is happy with:
11 of 11 such requests by independent writers in the dev sets expected 300, docs/search.md)."""

SHORT_MAX_PAGES = 250
""""short", "quick read", "brief": at most 250 pages (the catalog's shortest 38%)."""
NOT_LONG_MAX_PAGES = 400
""""not too long": at most 400 pages (the catalog's shortest 73%)."""
LONG_MIN_PAGES = 500
""""long", "lengthy": at least 500 pages (the catalog's longest 16%)."""
EPIC_MIN_PAGES = 700
""""doorstopper", "epic-length", "tome": at least 700 pages (the catalog's longest 7%)."""
_BOOK = (
    r"(?:books?|novels?|reads?|ones?|stor(?:y|ies)|fiction|thrillers?|myster(?:y|ies)|"
    r"romances?|fantas(?:y|ies)|memoirs?|biograph(?:y|ies)|horror|"
    r"sci[\s-]?fi|science\s+fiction|classics?|tales?|poems?|poetry|sagas?)\b"
)
_GAP = r"(?:\s+[\w'-]+){0,2}?\s+"
"""Up to two words (a genre) between a length word and its book word."""
LENGTH_RULES: tuple[tuple[re.Pattern[str], tuple[int | None, int | None]], ...] = tuple(
    (re.compile(pattern, re.I), limits)
    for pattern, limits in (
        (
            r"\bnot\s+(?:too|very|that|so|overly)\s+(?:long|lengthy|big|thick)\b|"
            r"\bnot\s+long\b|\bmedium[\s-]length\b|\bno\s+(?:muy|demasiado)\s+larg[oa]s?\b|"
            r"\bpas\s+trop\s+long(?:ue)?s?\b|\bnicht\s+zu\s+lange?\b|"
            r"\bnon\s+troppo\s+lung(?:o|a|hi|he)\b",
            (None, NOT_LONG_MAX_PAGES),
        ),
        (
            r"\b(?:doorstoppers?|tomes?|chunksters?|w(?:ä|a|ae)lzer)\b|\bepic[\s-]length\b|"
            r"\ban\s+epic\s*$|\bsomething\s+epic\b|\bepic\s+(?:books?|novels?|reads?|ones?)\b|"
            r"\b(?:massive|huge|chunky)(?=" + _GAP + _BOOK + ")",
            (EPIC_MIN_PAGES, None),
        ),
        (
            r"\b(?:quick|fast|easy|light|short)\s+reads?\b|"
            r"\b(?:short|brief|slim|slender|thin)(?=" + _GAP + _BOOK + ")|"
            r"\bsomething\s+short\b|,\s*short\s*$|\bshort\s*$|"
            r"\b(?:libros?|novelas?)\s+(?:\w+\s+)?(?P<es>cort[oa]s?|breves?)\b|"
            r"\b(?:romans?|livres?|polars?)\s+(?:\w+\s+)?(?P<fr>court(?:e|s|es)?)\b|"
            r"\bkurze?[rsn]?(?=\s+(?:b(?:ü|u|ue)cher|buch|romane?|krimis?)\b)|"
            r"\b(?:libri|libro|romanzi|romanzo)\s+(?:\w+\s+)?(?P<it>brevi|breve|cort[oi])\b",
            (None, SHORT_MAX_PAGES),
        ),
        (
            r"\b(?:long|lengthy|big|thick)(?=" + _GAP + _BOOK + ")|"
            r"\bsomething\s+long\b|,\s*long\s*$|"
            r"\b(?:libros?|novelas?)\s+(?:\w+\s+)?(?P<es>larg[oa]s?)\b|"
            r"\b(?:romans?|livres?)\s+(?:\w+\s+)?(?P<fr>longs?)\b|"
            r"\bdicke?[rsn]?(?=\s+(?:b(?:ü|u|ue)cher|buch|romane?)\b)|"
            r"\b(?:libri|libro|romanzi|romanzo)\s+(?:\w+\s+)?(?P<it>lung(?:o|hi))\b",
            (LONG_MIN_PAGES, None),
        ),
    )
)
"""Length words as page limits, in order (a span one rule took is not read again); the span
is the length word itself (a named group when the book word comes first: "libros cortos").
"short" counts before a book or genre word ("short horror novels"; but "short stories" is
a form, see NOT_LENGTH_AFTER), "long" likewise ("a long science fiction novel", not "long
ago"), and "epic" only as a length ("an epic", "epic-length"; "epic fantasy" is a genre)."""
NOT_LENGTH_AFTER = re.compile(r"^(?:short|long)\s+(?:stor(?:y|ies)|fiction|films?|term)\b", re.I)
"""A length match that starts like this is a form or a phrase, not a length."""
