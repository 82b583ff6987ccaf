"""One message, several requests or several books: where it splits.

"add Emma to the classics list and give it four stars" is two requests, each read on its own
(`clauses`); "put Emma and Persuasion on the classics list" names two books, but "War and
Peace" is one, so a run of titles is split only where each part is a catalog title
(`titles_in`). "rate Emma 4 and Persuasion 5" says its verb once for both (`clauses`
repeats it).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator

from lectern.adapters.understanding.book_patterns import ADD_VERB, DELETE_VERB, REMOVE_VERB

ACTION_VERB = (
    rf"(?:rate|give|make|create|start|rename|call|move|shift|transfer|mark|fix|correct|change|"
    rf"{ADD_VERB}|"
    rf"{REMOVE_VERB}|{DELETE_VERB})"
)
"""The verbs of a change (the lexicon's verbs for lists among them)."""
LOOKUP_VERB = (
    r"(?:show|find|search|look|tell|recommend|suggest|list|what|which|who|pull\s+up|gimme|"
    r"give\s+me)"
)
"""Verbs that start a look-up: a later part may ask for one ("..., then show me my lists")."""
ADD_SLIPPED = r"ad\s+\S.*?\s(?:to|on|onto|into)\b"
""""ad X to Y": "add" typed short, as the layer's add cue reads it (`layer.py`), and only with
what it is added to said after it ("Salt and ad hoc notes" starts no request)."""
_BREAK = re.compile(
    r"(?:\s*[,;]\s*(?:(?:and|then|&|also|now|next)\s+)*|\s+-\s+|\s+(?:(?:and|then|&)\s+)+|"
    # "... (Skal edited it). Also rate it 4": a sentence's end, then a new request
    r"(?<=[\w)][.!?])\s+(?:(?:and|then|also|now|next|ok(?:ay)?|so)\s+)*|[.!?]{2,}\s*)"
    r"(?:also\s+)?(?:(?:can|could|would|will)\s+you\s+)?(?:please\s+|pls\s+)?"
    # "... it's English. Also I'd give it 4 stars": the reader's wish is the request
    r"(?:i['’]?d\s+(?:also\s+)?(?=give\b))?"
    # "The Kite Runner, which my former pupil recommended": a relative clause, no question
    r"(?!which\s+(?:my|our|his|her|their|i|we|he|she|they|you|a|an)\s)"
    # "delete Old TBR. new list: Reading Group 2027": a list named as made is a request too
    rf"(?=(?:{ACTION_VERB}|{LOOKUP_VERB})\b|new\s+(?:reading\s+)?list\s*[:—–-]|{ADD_SLIPPED})",
    re.I,
)
"""A joint before another request: a comma, semicolon, "and", "then", "also", "now" or a
sentence's end, and the next words start with a verb of a change or a look-up (or "new list:")."""
AT_IT = re.compile(r"\s*,?\s*(?:and\s+)?while\s+you['’]re\s+at\s+it\b\s*,?\s*", re.I)
""""while you're at it": words that only join a request to the one before."""
AT_IT_END = re.compile(rf"{AT_IT.pattern}\W*$", re.I)
_STARS = r"(?:[1-5]|one|two|three|four|five)(?:\s*(?:/\s*5|stars?|out of (?:5|five)))?"
_GAPPED = re.compile(
    rf"^(?P<verb>rate|give)\s+(?P<first>.+?\s{_STARS})\s*(?:,\s*|\s+)(?:and|&)\s+"
    rf"(?P<second>(?!(?:it|this|that)\b).+?\s{_STARS})\W*$",
    re.I,
)
"""A rating whose verb is said once for two books ("rate Emma 4 and Persuasion 5")."""

_WHERE = r"(?:to|on|onto|into|in|from|off|out\s+of)"
_GAPPED_ENTRIES = re.compile(
    rf"^(?:(?:please|pls|plz)\s+)?(?P<verb>add|put|pop|stick|remove|take|drop)\s+(?P<b1>.+?)\s+"
    rf"(?P<p1>{_WHERE})\s+(?P<l1>.+?)\s*(?:,\s*|\s+)(?:and|&|plus)\s+"
    r"(?P<b2>(?!(?:it|this|that|them|then|also|add|put|pop|stick|remove|take|drop|rate|give)\b)"
    rf".+?)\s+(?P<p2>{_WHERE})\s+(?P<l2>.+?)(?:\s+(?:please|pls|too|thanks))?\W*$",
    re.I,
)
"""Two entries with their verb said once ("add Matilda to Sofia's list and Diary of a Wimpy
Kid to Luca's", "take Emma off TBR and Dune off Done")."""


def gapped_entries(found: re.Match[str]) -> list[str]:
    """The two entries of a gapped request, each with the verb (and the list's noun) said."""
    verb, first_list, second_list = found.group("verb"), found.group("l1"), found.group("l2")
    noun = re.search(r"['’]s\s+(?P<noun>(?:reading\s+)?list)$", first_list, re.I)
    if noun and re.search(r"['’]s$", second_list):
        second_list = f"{second_list} {noun.group('noun')}"  # "Luca's" is Luca's list
    return [
        f"{verb} {found.group('b1')} {found.group('p1')} {first_list}",
        f"{verb} {found.group('b2')} {found.group('p2')} {second_list}",
    ]


_LISTS_MADE = re.compile(
    r"^(?:please\s+)?(?P<verb>create|make|start|set\s+up|open)\s+(?:me\s+)?(?:an?\s+)?"
    r"(?:new\s+)?(?P<first>(?:(?!\b(?:to|on|onto|into)\b)[^,;])+?)\s+(?:reading\s+)?list\s*(?:,\s*|\s+)(?:and|&|plus)\s+"
    r"(?:an?\s+|another\s+)?(?:new\s+)?(?:one\s+(?:called|named)\s+)?"
    r"(?P<second>[^,;]+?)(?:\s+(?:reading\s+)?list|\s+one)\W*$",
    re.I,
)
"""Two lists made with the verb said once ("make a Poetry list and a Plays one")."""
_LISTS_NAMED = re.compile(
    r"^(?:please\s+)?(?P<verb>create|make|start|set\s+up|open)\s+(?:me\s+)?(?:two\s+)?"
    r"(?:new\s+)?(?:reading\s+)?lists\s*(?:called|named|titled|:|,)?\s*[\"“'‘]?(?P<first>[^,;]+?)"
    r"[\"”'’]?\s*(?:,\s*|\s+)(?:and|&)\s+[\"“'‘]?(?P<second>[^,;]+?)[\"”'’]?\W*$",
    re.I,
)
"""Two lists named after the plural ("create two lists, Poetry and Plays")."""

_COUNT = r"(?P<n>[1-5]|one|two|three|four|five)"
_OF_FIVE = r"(?:\s*(?:/\s*5|stars?|out\s+of\s+(?:5|five)))?"
_BOOK_THEN_STARS = re.compile(rf"^(?P<book>.+?)\s+(?:a\s+)?{_COUNT}{_OF_FIVE}$", re.I)
_STARS_FOR_BOOK = re.compile(rf"^{_COUNT}{_OF_FIVE}\s+(?:for|to|on)\s+(?P<book>.+)$", re.I)
_RATING_LEAD = re.compile(
    r"^(?:please\s+)?(?:(?:rate|give|i['’]?d\s+give|i\s+would\s+give|i\s+give)\s+|"
    r"ratings?\s*:\s*)",
    re.I,
)
_SEPARATOR = re.compile(r"\s*[,;]\s*(?:and\s+|&\s+)?|\s+(?:and|&)\s+", re.I)
_NUMBER = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}


def rated(segment: str) -> tuple[str, int] | None:
    """A book and its stars said in one piece ("Lolita 3 stars", "3 for The Road")."""
    segment = segment.strip(" .!")
    found = _BOOK_THEN_STARS.match(segment) or _STARS_FOR_BOOK.match(segment)
    if found is None or re.fullmatch(r"(?:it|this|that)", found.group("book"), re.I):
        return None
    count = found.group("n").casefold()
    return found.group("book").strip(), _NUMBER.get(count) or int(count)


def ratings_run(text: str) -> list[tuple[str, int]]:
    """Several books rated in one breath, the verb said once, or [].

    "Give The Great Gatsby 4 stars, Lolita 3 stars and Little Women 5 stars", "5 stars for
    Beloved, 3 for The Road". Every piece must be a book with its stars: "War and Peace 5"
    stays one piece (its "and" is split only where both sides are ratings), and a run with
    another request in it ("..., and add it to Classics") is no run.
    """
    lead = _RATING_LEAD.match(text.strip())
    body = text.strip()[lead.end() :] if lead else text.strip()
    pieces = _SEPARATOR.split(body)
    joints = _SEPARATOR.findall(body)
    said: list[str] = []  # the text of each rating read so far
    pending = ""
    for index, piece in enumerate(pieces):
        joint = joints[index - 1] if index else ""
        if rated(f"{pending}{piece}") is not None:
            said.append(f"{pending}{piece}")
            pending = ""
        elif said and not pending and rated(f"{said[-1]}{joint}{piece}") is not None:
            said[-1] = f"{said[-1]}{joint}{piece}"  # "2 for War" + "Peace": one title
        elif index < len(joints):
            pending = f"{pending}{piece}{joints[index]}"  # "War" of "War and Peace 5"
        else:
            return []
    read = [found for found in map(rated, said) if found is not None]
    if pending or len(read) < 2:
        return []
    if lead is None and not re.search(r"\bstars?\b", text, re.I):
        return []  # without "rate" or "give", only the word "stars" says these are ratings
    return read


def clauses(text: str) -> list[str]:
    """The requests a message joins with ",", ";", "and", "then", "also", or [] when it is one.

    A joint counts only where the words after it start with a request verb, so "War and
    Peace" and "find books and add them ..." (no verb of their own) are not split here.
    """
    run = ratings_run(text)
    if run:
        return [f"rate {book} {stars} stars" for book, stars in run]
    made = _LISTS_MADE.match(text.strip()) or _LISTS_NAMED.match(text.strip())
    if made:
        verb = made.group("verb")
        return [f"{verb} a list called {made.group(side)}" for side in ("first", "second")]
    gapped = _GAPPED.match(text.strip())
    if gapped:
        verb = gapped.group("verb")
        return [f"{verb} {gapped.group('first')}", f"{verb} {gapped.group('second')}"]
    entries = _GAPPED_ENTRIES.match(text.strip())
    if entries:
        return gapped_entries(entries)
    # "what's on my Commute list, and while you're at it what other lists do I have": the
    # words only join the later request (and at the end, join nothing)
    text = AT_IT.sub(", and ", AT_IT_END.sub("", text))
    parts = [p.strip(" ,;-") for p in _BREAK.split(text)]
    parts = [p for p in parts if p]
    if any(_ONLY_REGRADE.match(p) for p in parts[1:]):
        return []  # "X deserves a 2. Make it three.": the grade said again, one request
    return parts if len(parts) > 1 else []


_ONLY_REGRADE = re.compile(
    rf"^(?:(?:actually|no|wait|sorry|ok(?:ay)?|hmm+)\W+)*(?:make|change)\s+(?:it|that)\s+"
    rf"(?:to\s+)?(?:a\s+)?{_STARS}\W*$",
    re.I,
)
"""A part that only says a grade again: it takes back the grade before, it asks nothing new."""


def only_regrade(text: str) -> bool:
    """Whether `text` only says a grade again ("make it three"): no review, no request."""
    return _ONLY_REGRADE.match(text.strip()) is not None


_RETRACTION = re.compile(
    r"\b(?:wait|actually|scratch\s+that|on\s+second\s+thoughts?|hang\s+on|hold\s+on|"
    r"never\s*mind(?:\s+that)?|no\s+no)\b",
    re.I,
)
_BOOK_VERBS = rf"{ACTION_VERB}|{LOOKUP_VERB}"


@functools.cache
def _opening(verbs: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """(a request that opens with one of `verbs`, where a new one restarts after a take-back)."""
    restart = re.compile(
        r"(?:^|[.!?]+\s+|[,;:]\s*|\s-+\s)(?:(?:ok(?:ay)?|so|then|and|right|instead|just|fine|"
        rf"please)\b[\s,]*)*(?=(?:{verbs})\b)",
        re.I,
    )
    return re.compile(rf"^(?:please\s+)?(?:{verbs})\b", re.I), restart


_POINTS_BACK = re.compile(r"\b(?:it|that|this|them|those|these)\b", re.I)


def retractions(text: str, verbs: str = _BOOK_VERBS) -> Iterator[tuple[str, str, str]]:
    """Each (request begun, words between, request said after) where a word takes one back.

    `verbs` (a pattern) start both requests: the book surface's by default; the workspace
    passes its own ("assign", "set").
    """
    opens, restart = _opening(verbs)
    for taken_back in _RETRACTION.finditer(text):
        before = text[: taken_back.start()].strip(" ,.…-")
        if not before or not opens.match(before):
            continue
        after = text[taken_back.end() :]
        again = restart.search(after)
        settled = after[again.end() :].strip() if again is not None else ""
        if again is not None and settled:
            yield before, taken_back.group(0) + after[: again.end()], settled


def retracted(text: str) -> str:
    """The request a message settles on when it takes back what it began ("add X... wait").

    "stick Dune on Summer... wait, it's there already. ok then add Emma to Summer" asks for
    Emma alone: a request begun, a word that takes it back, and a new request after it.
    Only where what came before was itself a request; otherwise the message as it is.
    """
    for _, _, settled in retractions(text):
        if not _POINTS_BACK.search(settled):
            # "..., wait, make that 5" points back at what it takes back: read whole.
            return settled
    return text


_JOINT = re.compile(r"(\s*,\s*(?:and\s+)?|\s+and\s+|\s+&\s+)", re.I)


def titles_in(run: str, is_title: Callable[[str], bool]) -> list[str]:
    """The catalog titles a run of names joined by "and" or commas holds.

    The whole run when it is one title or cannot be split into titles ("War and Peace" stays
    whole); otherwise the fewest parts that are each a title ("War and Peace and Crime and
    Punishment" -> both novels).
    """
    run = run.strip()
    pieces = _JOINT.split(run)
    words, joints = pieces[0::2], pieces[1::2]
    if len(words) < 2 or is_title(run):
        return [run]
    best: list[list[str] | None] = [[]] + [None] * len(words)
    for end in range(1, len(words) + 1):
        for start in range(end):
            before = best[start]
            if before is None:
                continue
            part = words[start] + "".join(joints[i] + words[i + 1] for i in range(start, end - 1))
            if is_title(part) and (best[end] is None or len(before) + 1 < len(best[end] or [])):
                best[end] = [*before, part.strip()]
    found = best[len(words)]
    return found if found is not None and len(found) > 1 else [run]


_AFTER_TITLE = re.compile(
    r"^(?:for|because|since|as|so|but|though|although|please|pls|which|who|that|from|off|to|"
    r"onto|into|on|in|now|again|too)\b",
    re.I,
)
"""Words that end a title and start what is said about it ("Sophie's World for my nephew")."""


_DESCRIBES = re.compile(
    r"^(?:the|a|an|new|newest|latest|last|next|my|your|his|her|their|our|that|this|some|"
    r"another|other)$",
    re.I,
)
"""A first word that describes the book rather than saying what was done with it."""


_NAMING = re.compile(r"^(?:it['’]s|is|called|titled|named|entitled)$", re.I)
"""A word that says what the book is called ("It's X", "the one called X")."""


def title_within(run: str, is_title: Callable[[str], bool]) -> str | None:
    """The catalog title a book reference holds with more words around it, or None.

    A title followed by punctuation or a word that starts a new phrase ("Gilead? Quiet,
    reflective", "Sophie's World for my nephew"), or of two words or more ending it ("Loved
    The Remains of the Day"); in a reference written all in lower case,
    where no capital marks the title, also the longest run of two words or more that is one
    ("finished caliban's war need that vibe").
    """
    words = run.split()
    if len(words) < 2:
        return None
    lower = run == run.casefold()
    for size in range(len(words) - 1, 0, -1):
        for start in range(len(words) - size + 1):
            part = " ".join(words[start : start + size])
            ends = part[-1] in "?!.,;:" or (
                start + size < len(words) and _AFTER_TITLE.match(words[start + size])
            )
            # "Finished Water for Elephants": a title of two words or more that ends the
            # reference, after one word that is no part of it, a verb rather than a word that
            # describes the book ("the new Stephen King" is a writer's next book, not the
            # title *Stephen King*); one word alone is too often a title ("Read It").
            last = start + size == len(words) and (
                (start == 1 and size >= 2 and not _DESCRIBES.match(words[0]))
                # "... what it's about. It's The Poisonwood Bible": the title it is said to be
                or (start > 0 and _NAMING.match(words[start - 1]) is not None)
            )
            if not ((start == 0 and ends) or (lower and size >= 2) or last):
                continue
            if is_title(part.strip(" ?!.,;:")):
                return part.strip(" ?!.,;:")
    return None


_MORE_AFTER = re.compile(
    r"(?<=[.!?,;])\s*(?:(?:and|so|also)\s+)?(?:please\s+)?(?:(?:tell|give|show)\s+me\s+)?"
    r"(?:a\s+bit\s+|a\s+little\s+|some\s+)?more(?:\s+(?:about\s+(?:it|this|that)|info(?:rmation)?|"
    r"details?))?(?:\s+please)?\W*$",
    re.I,
)
"""A closing "tell me more" after a question about a book: the question asks it already."""


def without_more(text: str) -> str:
    """`text` without a closing "tell me more" that follows a request of its own."""
    trimmed = _MORE_AFTER.sub("", text).strip()
    return trimmed if len(trimmed.split()) >= 2 else text


_EDGE = " \"'“”‘’()[]"
_SENTENCE_END = re.compile(r"[,;:.!?…]+$")
TITLE_WORDS = 8
"""The most words a title held in a message is looked for with."""


def titles_held(said: str, is_title: Callable[[str], bool]) -> list[tuple[int, int, str]]:
    """Each catalog title a message holds: (first word, word after it, words as written).

    The longest runs only ("The Crucible" and not its "Crucible"), none across a comma or a
    sentence's end: what `CatalogSpelling` reads when the words the rules took for a book are
    no title ("crucible we finished" in "remove the crucible from X we finished it").
    """
    words = [w.strip(_EDGE) for w in said.split()]
    found: list[tuple[int, int, str]] = []
    for start in range(len(words)):
        for end in range(min(len(words), start + TITLE_WORDS), start, -1):
            inner = words[start : end - 1]
            if not words[end - 1] or any(_SENTENCE_END.search(w) for w in inner):
                continue
            part = " ".join([*inner, _SENTENCE_END.sub("", words[end - 1])]).strip(_EDGE)
            if part and not any(s <= start and end <= e for s, e, _ in found) and is_title(part):
                found.append((start, end, part))
                break
    return found
