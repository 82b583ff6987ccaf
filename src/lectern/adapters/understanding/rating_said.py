"""A rating said the way people say it, read as the request "rate X N stars".

Found on dev18: "Five stars for Lonesome Dove. Best western ...", "giv the great gatsby 2 stars
it was soooo boring", "The Remains of the Day gets a five from me, and put '...' as the
review", "Misery was brilliant — 4 stars — and you can take it off my TBR now" were asked
back or lost their rating. The rating's patterns read one order ("rate X 4 stars"); here the
other orders people use are said again in that one, and what follows (a remark, a review, a
request of its own) is kept as written:

- the grade first: "Five stars for X", "5/5 to X", "a 4 out of 5 for X";
- a verdict of the reader's own: "X gets a five from me", "X is a 4 for me", "X earns four
  stars from me" (only with "from me"/"for me"/"in my book": "X gets 5 stars on Goodreads"
  and "my friend gave it 5" tell, they ask nothing);
- the grade as an aside after a verdict: "X was brilliant — 4 stars — and ...";
- the verb typed in a hurry: "giv X 2 stars", "rte X 4", and a remark run on without a
  stop ("2 stars it was soooo boring").

A grade out of ten is read as stars only when it halves exactly ("8/10" is 4, "10 out of 10"
is 5); "7/10", "three and a half stars" and letter grades ("a solid B") are left to the
question (`remarks.ungraded`), never rounded into a rating.
"""

from __future__ import annotations

import re

from lectern.adapters.understanding.compound import ACTION_VERB, LOOKUP_VERB

_WORD = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "ten": 10}
_N = r"(?:10|[1-9]|one|two|three|four|five|ten)"
_GRADE = (
    rf"(?:an?\s+)?(?P<n>{_N})(?:\s*/\s*(?P<of>5|10)|\s+out\s+of\s+(?P<of2>5|five|10|ten)"
    r"(?:\s+stars?)?|\s*(?:-\s*)?(?P<stars>stars?))?"
)
"""A grade: "5", "five stars", "4/5", "8/10", "a 4 out of 5"."""
_WHOLE = r"(?![\w.,/]*\d)(?!\s+and\s+a\s+half)(?!\s*(?:\.|,)\s*5\b)"
"""Nothing after the grade that makes it a part ("three and a half", "3.5")."""
_END = r"(?=\s*(?:$|[.,;:!?()—–]|\s-+\s|\s+(?:and|but|so|then|x+|lol|ngl|tbh|please|pls)\b))"
_MINE = r"(?:from|for|by)\s+(?:me|us|this\s+reader)|in\s+my\s+(?:book|opinion|view)"
"""Words that make a verdict the reader's own ("from me", "in my book")."""

_NOT_A_BOOK = r"(?!(?:i|we|it|this|that|he|she|they|my|our|his|her|their|me|us|them)\b)"
_GRADE_FIRST = re.compile(
    rf"^(?:(?:ok(?:ay)?|right|so|and)\W+)*{_GRADE}{_WHOLE}\s+(?:for|to|on)\s+"
    rf"(?P<book>{_NOT_A_BOOK}[^.,;:!?()—–\n]+?)(?P<rest>{_END}.*)$",
    re.I | re.S,
)
"""The grade said first: "Five stars for Lonesome Dove. Best western ..."."""
_VERDICT = re.compile(
    rf"^(?P<book>{_NOT_A_BOOK}[^.,;:!?()—–\n]+?)\s+"
    r"(?:(?P<own>deserves?|earns?|merits?)|gets?|got|is|was|=|scores?)\s+"
    rf"{_GRADE}{_WHOLE}(?P<mine>\s+(?:{_MINE}))?(?P<rest>{_END}.*)$",
    re.I | re.S,
)
"""A grade given as the reader's verdict: "X gets a five from me, and ..."."""
_ASIDE_GRADE = re.compile(
    rf"^(?P<book>{_NOT_A_BOOK}[^.,;:!?()—–\n]+?)"
    r"(?:\s+(?:was|is|['’]s)\s+[^.,;:!?()—–\d\n]{2,40}?)?\s*(?:[,;:—–]|\s-+)\s*"
    rf"{_GRADE}{_WHOLE}(?P<rest>\s*(?:[,;.!—–]|\s-+)\s*.+)$",
    re.I | re.S,
)
"""A verdict, the grade as an aside, then a request: "Misery was brilliant — 4 stars — and ..."."""
_HURRIED = re.compile(
    r"^(?:giv|gve|gie|gib|giev|gvie|rte|raet|reate|rtae)\s+"
    rf"(?P<book>.+?)\s+{_GRADE}{_WHOLE}(?P<rest>.*)$",
    re.I | re.S,
)
"""The verb typed in a hurry ("giv X 2 stars", "rte X 4")."""
_RUN_ON = re.compile(
    rf"^(?P<head>(?:please\s+)?(?:rate|give)\s+.+?\s+{_GRADE}{_WHOLE})\s+"
    r"(?P<rest>(?:it|it['’]s|its|she|he|they|this|that|so|too|very|really|such|was|absolutely|"
    r"honestly|loved|hated|adored|lovely|great|amazing|boring|dull|meh)\b.*|"
    # "... 5 stars kids r obsessed, we read it every nite": any words that go on no request
    # (after a grade said in stars: "give me three books about ..." asks for books)
    r"(?P<any>(?!(?:and|with|for|on|in|into|to|as|at|by|from|of|out|review|saying|says|plus|"
    r"also|then|but|because|since|cos|if|or|books?|please|pls|thanks|ta)\b)[a-z]+\s+[a-z].*))$",
    re.I | re.S,
)
"""A rating and a remark run on with no stop between ("... 2 stars it was so boring")."""
_ASKS = re.compile(rf"\b(?:{ACTION_VERB}|{LOOKUP_VERB})\b|\?", re.I)
"""A request or a question in a remark run on: it is read as said, not dropped."""
_NO_BOOK = re.compile(
    rf"^/?(?:rate|rating|give|score|grade)\s*:?\s+{_GRADE}{_WHOLE}"
    r"(?:\s+(?:please|pls|plz|thanks|ta))?\W*$",
    re.I,
)
"""A grade with no book ("/rate 4", "rate 4 please"): the book in view, as "rate it" is."""
_JOINERS = (
    r"^[\s.,;:!?()—–-]*(?:(?:and|so|then|also|now|but|plus|oh|&|"
    r"(?:you|u)\s+(?:can|could|may|might)|(?:can|could|would|will)\s+(?:you|u)|please|pls|plz|"
    r"just|while\s+you['’]re\s+at\s+it)\b[\s,]*)*"
)
_REQUEST = re.compile(rf"{_JOINERS}(?P<request>{ACTION_VERB}\b.*)$", re.I | re.S)
"""What follows the grade, when it asks for a change of its own ("and take it off TBR")."""
_QUOTED = r"(?:'(?P<q1>[^']+)'|\"(?P<q2>[^\"]+)\"|[‘](?P<q3>[^’]+)[’]|“(?P<q4>[^”]+)”)"
_REVIEW = re.compile(
    rf"{_JOINERS}(?:(?P<verb>(?:put|use|write|add|save|have|make|set|record|say)\s+(?:down\s+)?)|"
    r"(?:with\s+)?(?:the|my|a)\s+review(?:\s+(?:is|being|of|as|saying|reading))?\s*:?\s*|"
    rf"review(?:\s+it)?(?:\s+as|\s*:)\s*){_QUOTED}"
    r"(?(verb)\s+(?:as|for)\s+(?:the|my|a)\s+review)\W*$",
    re.I | re.S,
)
"""A review asked for in quotes ("and put 'quietly devastating' as the review")."""
_REGRADED = re.compile(
    r"^[\s,;.!?–—-]*(?:(?:no|nope|wait|actually|sorry|oops|i\s+mean|make\s+(?:that|it)|rather)"
    rf"\b[\s,.!–—-]*)+{_GRADE}{_WHOLE}\W*$",
    re.I,
)
"""The grade taken back and said again after the book ("Five stars for X — no wait, four")."""
_FELT = re.compile(
    r"^(?:i\s+|we\s+)?(?:really\s+|just\s+)?(?:loved|liked|hated|adored|enjoyed|finished|"
    r"devoured|disliked)\s+(?=\S)",
    re.I,
)
"""A verdict said before the book ("loved misery, 4 stars")."""
_NUMBER = re.compile(r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten)\b", re.I)
_NOW = re.compile(r"\s+(?:now|then|too|as\s+well|please|pls|thanks|ta)(?=\W*$)", re.I)


def stars(said: re.Match[str]) -> int | None:
    """The stars a matched `_GRADE` is worth, or None when it is no whole star grade.

    A grade out of ten counts only when it halves exactly ("8/10" is 4); a bare number over
    five with no scale ("7") is none.
    """
    number = said["n"].casefold()
    value = _WORD.get(number) or int(number)
    scale = (said["of"] or said["of2"] or "").casefold()
    if scale in ("10", "ten"):
        return value // 2 if value % 2 == 0 and value >= 2 else None
    return value if 1 <= value <= 5 else None


def _then(rest: str) -> str | None:
    """What follows the grade, as the rating's request goes on; None for a remark.

    A review asked in quotes is the rating's own review; a change asked after it is kept,
    its softeners read off ("and you can take it off my TBR now" -> "take it off my TBR"); a
    remark ("Best western I've ever read", "it was soooo boring") asks nothing and is left.
    """
    review = _REVIEW.match(rest)
    if review is not None:
        quoted = next(review[k] for k in ("q1", "q2", "q3", "q4") if review[k])
        return f" with the review {quoted.strip()}"
    request = _REQUEST.match(rest)
    if request is not None:
        said = _NOW.sub("", request["request"].strip().rstrip(".!"))
        return f" and {said}"
    return None


def rating_said(text: str) -> str | None:
    """The message as "rate X N stars ..." when it says a rating another way, else None."""
    said = text.strip()
    bookless = _NO_BOOK.match(said)
    if bookless is not None:
        count = stars(bookless)
        return None if count is None else f"rate it {count} stars"
    first = _GRADE_FIRST.match(said)
    verdict = _VERDICT.match(said)
    aside = _ASIDE_GRADE.match(said)
    hurried = _HURRIED.match(said)
    run_on = _RUN_ON.match(said)
    if first is not None:
        found, asks = first, True
    elif verdict is not None:
        # "X gets 5 stars" tells; the reader's own verdict ("from me", "deserves") or a review
        # asked with it makes it a rating
        found, asks = verdict, bool(verdict["own"] or verdict["mine"])
    elif aside is not None and (aside["stars"] or aside["of"] or aside["of2"]):
        # "Misery was brilliant — 4 stars — and ...": a bare "1." after a colon numbers a list
        found, asks = aside, False  # "Misery was brilliant — 4 stars": only with a request
    elif hurried is not None:
        found, asks = hurried, True
    elif run_on is not None:
        remark = run_on["rest"]
        more = bool(_then(remark) or _NUMBER.search(remark) or _ASKS.search(remark))
        if run_on["any"] and not run_on["stars"]:
            return None  # "give me three books about bees": no grade without "stars"
        return None if more else run_on["head"]
    else:
        return None
    regraded = _REGRADED.match(found["rest"])
    count = stars(regraded or found)
    if count is None:
        return None
    # "loved misery, 4 stars, ...": the reader's verdict before the book is no part of it
    book = _FELT.sub("", found["book"].strip()) or found["book"].strip()
    if regraded is not None:
        return f"rate {book} {count} stars"
    then = _then(found["rest"])
    if then is None and (not asks or _NUMBER.search(found["rest"])):
        return None  # a remark with a number in it may say another grade: left as said
    return f"rate {book} {count} stars{then or ''}"


_OUT_OF_TEN = re.compile(
    r"\b(?P<n>10|[1-9]|one|two|three|four|five|six|seven|eight|nine|ten)\s*"
    r"(?:/\s*10|out\s+of\s+(?:10|ten))\b(?:\s+stars?)?",
    re.I,
)
_TEN = {"six": 6, "seven": 7, "eight": 8, "nine": 9, **_WORD}


def out_of_ten(text: str) -> str:
    """`text` with a grade out of ten that halves exactly said in stars ("8/10" -> "4 stars").

    An odd one ("7/10") is left as written: which of two grades it is, is asked.
    """

    def halved(found: re.Match[str]) -> str:
        number = found["n"].casefold()
        value = _TEN.get(number) or int(number)
        return f"{value // 2} stars" if value % 2 == 0 else found.group(0)

    return _OUT_OF_TEN.sub(halved, text)
