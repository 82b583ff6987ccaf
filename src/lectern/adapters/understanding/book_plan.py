"""Book assistant requests the patterns missed, read by meaning and filled from the message.

The book comes from the message (what is left once the request's own words are taken out)
or the page ("this", "it"); a reading list from the reader's own lists (`mentions.py`).
A request missing what it needs gets a question instead of a guess.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from rapidfuzz import fuzz

from lectern.adapters.understanding.book_patterns import (
    CORRECTION_LABEL,
    LABEL,
    REASON_AFTER,
    REASON_WORDS,
)
from lectern.adapters.understanding.corrections import (
    correction_of,
    without_shown_people,
    without_wrong_language,
)
from lectern.adapters.understanding.layer import Clarification, name_it, which_of
from lectern.adapters.understanding.lists_said import stored_lists_said, unstored_list_asked
from lectern.adapters.understanding.mentions import Names, resolve
from lectern.adapters.understanding.referents import _NoReferent
from lectern.adapters.understanding.remarks import book_unsaid, without_reason_told
from lectern.adapters.understanding.scaffold import NUMBER, clean, number
from lectern.adapters.understanding.slots import COUNT_AFTER, list_name_of, stars_of
from lectern.adapters.understanding.spoken_years import with_spoken_years
from lectern.domain.assistant import ToolCall

CallMaker = Callable[..., ToolCall]
_REQUEST_WORDS = re.compile(
    r"\b(?:who(?:'s| is)?|what(?:'s| is)?|when|the|writer|author|novelist|of|wrote|did|does|"
    r"was|is|about|plot|summary|tell|me|more|give|details?|for|on|how|many|pages|have|has|"
    r"come|out|published|year|please|pls|rate|rating|my|stars?|give|i'd|i|would|loved|"
    r"deserves|put|down|add|to|list|on|in|onto|into|from|off|remove|take|drop|pop|stick|"
    r"throw|save|it|this|book|one|a|an|and|by|similar|like|more|out of|delete|instead|too|"
    r"also|now|again|as well|ok|okay|so|then|just|nice|cool|great|perfect|awesome|lovely|"
    r"sure|yes|yeah|yep|want|wanna|unlist|delist|books|novels|"
    # the list verbs people say in a hurry ("could u chuck the road onto summer")
    r"chuck|toss|bung|shove|stash|yank|ditch|move|shift|transfer|"
    # "hyperion shouldnt be in sci-fi, remove": where the book does not belong is no title
    r"should(?:n'?t|\s+not)\s+be|does(?:n'?t|\s+not)\s+belong|is(?:n'?t|\s+not)|belongs?|"
    # "beloved = ★★★★★": the marks that point at or grade a book are no part of its title
    r"\d)\b|[?!.,:/<>=★☆⭐\ufe0f]"
    r"|(?<!\w)[-'\"“”‘’]+|[-'\"“”‘’]+(?!\w)",
    re.I,
)
_TITLED_IT = re.compile(r"(?<=[^\s.!?]\s)It\b(?!['’])")
"""A capital "It" inside a sentence: not after a sentence's end, nor "It's"."""
_DELETE_WORDS = re.compile(r"\b(?:delete|get\s+rid\s+of|trash|bin|erase|scrap)\b", re.I)
_GOES = re.compile(
    r"\b(?:must|should|can|could|has\s+to|have\s+to|needs?\s+to|ought\s+to|is\s+to|will)\s+"
    r"(?:now\s+)?be\s+(?:deleted|removed|binned|trashed|scrapped|erased)\b",
    re.I,
)
"""What goes said as the subject ("the list Summer reading must be deleted")."""
_JUDGED = re.compile(r"^(?P<book>.+?)\s+(?:was|is|were)\s+(?!by\b|in\b|on\b|about\b)\w", re.I)
"""A verdict on a book ("X was wonderful"): the book stands before the verb."""
_PLURAL = re.compile(r"(?:these|those|them)(?:\s+(?:books|ones))?|all of them|both", re.I)
_TOP = re.compile(
    rf"\btop\s+{NUMBER}\b|\b{NUMBER.replace('?P<n>', '?P<m>')}\s+(?:biggest|largest|main|"
    r"most\s+common|most\s+popular|top|leading|commonest)\s+"
    r"(?:categories|genres|subjects|languages|years)\b",
    re.I,
)
"""How many of the catalog's categories are asked for ("the top 20", "five biggest")."""


def top_of(text: str) -> int | None:
    """The count a catalog overview asks for, or None when it names none."""
    found = _TOP.search(text)
    return number(found.group("n") or found.group("m"), 10) if found else None


_NOTE = re.compile(
    r"\bwith\s+(?:a|the)\s+note\b\s*[:,-]?\s*(?P<note>.+)$|\bnote\s*:\s*(?P<after>.+)$", re.I
)
_OTHER_ONE = re.compile(r"\b(?:the\s+)?other\s+(?:one|book|novel|title)\b|\banother\s+one\b", re.I)
_THIS_BOOK = re.compile(r"\b(?:this|that)\s+(?:one|book|novel|title)\b", re.I)
_DEICTIC = re.compile(r"\b(?:this|it|that)(?:\s+(?:one|book))?\b", re.I)
_HOW_MANY = re.compile(
    rf"\b{NUMBER}\s+(?:more\s+|other\s+|similar\s+)?(?:books?|novels?|titles?|reads|ones|"
    r"things|picks|recs|recommendations|suggestions|options|others)\b",
    re.I,
)
"""How many read-alikes are asked for ("ten things in the same vein")."""
_WORD = r"(?:(?!I['’](?:m|ve|d|ll)\b)[A-Z][\w'’-]*|\d+)"
"""A title's word: capitalised or a number; "I'm" is the reader speaking, never a title's."""
_TITLE = re.compile(
    rf"{_WORD}(?:\s+(?:(?:of|the|and|in|a|an|to|on|for|at|with|from|upon|&)\s+)*{_WORD})*"
)
_ARTICLES = ("The", "A", "An")
_NOT_A_TITLE = re.compile(
    r"(?:I(?:'|’)(?:ve|m|ll|d)|If|Ok|Okay|Hey|Hi|Hello|So|Also|Just|Can|Could|Would|Will|"
    r"Should|Please|Pls|Yes|Yeah|Well|But|Then|Any|Some|Maybe|Actually|Honestly|Thanks|We|"
    r"You|They|He|She|Our|Your|Let(?:'|’)s|Nice|Cool|Great|Fix|Correct|Change|Show|Find|Tell|"
    r"Update|Rename|Create|Start|Kindly|"
    # "We're reading this for book club": a pronoun's contraction alone is the reader talking
    r"(?:We|You|They|He|She|It|That|There)['’](?:re|s|ve|ll|d)|"
    # "introducing it next Thursday": a day alone is when, not what
    r"(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day)"
)
"""Capitalised words that open a sentence, not a title ("I've finished Persuasion")."""
_PRONOUN_END = re.compile(r"(?:I|Me|My|It|This|Please)")
_OPENER = re.compile(
    r"(?:Honestly|Actually|Also|Ok|Okay|Hey|Hi|Hello|So|Well|Maybe|Please|Pls|Yes|Yeah|Thanks|"
    r"Kindly|Anyway|Basically|Btw|Right|Sure|Cool|Nice|Great|Oh|Um|Hmm|Frankly|Personally|"
    r"Seriously|Tbh|Ugh|Wow)"
)
"""Words that open a sentence before a title and never start one ("Honestly East of Eden")."""
_LOWER_OPENER = re.compile(rf"^(?:{_OPENER.pattern})\b[\s,]*", re.I)
"""The same openers in lower case at the start ("honestly middlemarch is a solid 3")."""
_BY_WRITER_LOWER = re.compile(r"\bthe\s+[\w.'’-]+(?:\s+[\w.'’-]+)?\s+(?:one|book|novel)\b", re.I)
_OPENS_SENTENCE = re.compile(r"(?:^|[.!?:;—–]\s*|\s-\s*)$")
"""What stands before a sentence's first word: nothing, or the end of a sentence."""


_REQUEST_VERBS = (
    "recommend",
    "suggest",
    "find",
    "show",
    "search",
    "look",
    "give",
    "add",
    "remove",
    "delete",
    "rename",
    "rate",
    "tell",
    "list",
)


def _misspelt_request_verb(word: str) -> bool:
    """Whether a capitalised first word is a request verb as typed in a hurry ("Recomend")."""
    lowered = word.casefold()
    # Only a typo: a verb spelt right is read by the request's own patterns and the layer.
    return len(lowered) >= 5 and any(
        85 <= fuzz.ratio(lowered, verb) < 100 for verb in _REQUEST_VERBS if verb[0] == lowered[0]
    )


def title_in(text: str) -> str | None:
    """The first capitalised run that is not the request's own words.

    "I loved The Shining, what next?" -> "The Shining": a title keeps its article and its
    inner small words.
    """
    runs = list(_TITLE.finditer(text))
    for index, found in enumerate(runs):
        words = found.group(0).split()
        opens = _OPENS_SENTENCE.search(text[: found.start()]) is not None
        if found.start() == 0 and _misspelt_request_verb(words[0]):
            # "Recomend me books close to X": a request verb mistyped is no title.
            words = words[1:]
            if not words:
                continue
        if all(_NOT_A_TITLE.fullmatch(w) or _REQUEST_WORDS.fullmatch(w) for w in words):
            continue  # "If I enjoyed ...", "I've finished ...": the sentence's own opening
        if (
            opens
            and len(words) == 1
            and words[0] not in _ARTICLES
            and any(later.group(0).split()[0] in _ARTICLES for later in runs[index + 1 :])
        ):
            continue  # "Little one wants The Hobbit": a sentence's capital, then a title
        while opens and len(words) > 1 and _OPENER.fullmatch(words[0]):
            words.pop(0)  # "Honestly East of Eden is a 4": the sentence's opener, then a title
        if len(words) > 1 and words[0] in _ARTICLES:
            # "The Book Thief": an article with capitalised words after it starts a title,
            # even where the words are the request's own ("book").
            while len(words) > 1 and _PRONOUN_END.fullmatch(words[-1]):
                words.pop()
            return " ".join(words)
        while words and _REQUEST_WORDS.fullmatch(words[0]):
            if words[0] in _ARTICLES and len(words) > 1 and not _REQUEST_WORDS.fullmatch(words[1]):
                break
            words.pop(0)
        while words and _REQUEST_WORDS.fullmatch(words[-1]):
            words.pop()
        if words:
            return " ".join(words)
    return None


_POINTED = re.compile(
    r"\b(?:give|rate|score|add|put|pop|stick|chuck|remove|take|drop)\s+(?:it|this|that)"
    r"(?:\s+(?:one|book))?\b(?!\s+(?:by|from|about)\b)",
    re.I,
)
"""A change whose object is a pointer ("give this one a 3", "add it to ...")."""
_OF_THE_READER = re.compile(
    r"(?:^|(?<=\s))['’](?:ve|m|re|ll|d)\b|\b(?:just|already|finally|read|reading|finished|"
    r"enjoyed|liked|hated|done|with|really|quite|honestly|"
    # "i'm halfway through this, 3 stars so far": how far the reader has got
    r"halfway|partway|midway|through|far|almost|nearly|started|starting|middle)\b",
    re.I,
)
"""What a message says of the reader around a pointed-at book ("'ve read", "just finished")."""
_BY_AUTHOR = re.compile(r"\bthe\s+[A-Z][\w.'’-]*(?:\s+[A-Z][\w.'’-]*)*\s+(?:one|book|novel)\b")
"""A book named by its author ("the Christie novel"): `it` refuses it, and the policy asks."""


_REMARK_OPENS = rf"(?:{REASON_WORDS}|its|im|ive|we['’]?ve|already|honestly|tbh|never)\b"
"""How a remark opens when no comma marks it ("its not for me", "i already watched it")."""
_GRADE_THEN_REMARK = re.compile(
    rf"\s+(?:a\s+)?(?:[1-5]|one|two|three|four|five)\s*(?:/\s*5|stars?)\s+(?={_REMARK_OPENS})",
    re.I,
)
"""A grade, then the reader's remark ("two stars i didnt get it"): the book is before it."""


_SMALL_TITLE_WORDS = frozenset({"of", "the", "and", "a", "an", "in", "on", "upon", "at", "with"})


def _with_inner_small_words(text: str, core: str) -> str:
    """`core` with the small words a title holds inside it put back ("song of achilles").

    The request's words are taken off the ends only; inside, "of" and "the" are the title's.
    """
    words = text.strip(" ,.;:!?").split()
    while words and _REQUEST_WORDS.fullmatch(words[0]):
        words.pop(0)
    while words and _REQUEST_WORDS.fullmatch(words[-1]):
        words.pop()
    inner = [w for w in words if _REQUEST_WORDS.fullmatch(w)]
    edged = " ".join(words)
    if not inner or any(w.casefold() not in _SMALL_TITLE_WORDS for w in inner):
        return core
    return edged if " ".join(_REQUEST_WORDS.sub(" ", edged).split()) == core else core


def without_remark_after(text: str, name: str) -> str:
    """`text` up to the stored list `name` when what follows it is the reader's remark.

    "take X off Sci-fi its not for me": the list's name is known, so the words after it that
    open a remark of the reader's (no comma needed) are no part of the book or the request.
    """
    found = re.search(rf"\b{re.escape(name)}\b(?P<after>\s+{_REMARK_OPENS}.*)$", text, re.I)
    return text[: found.start("after")] if found else text


def _book(text: str, it: Callable[[str], str]) -> str | None:
    other = _OTHER_ONE.search(text)
    if other and title_in(text) is None:
        # "what about the other one?": which other is asked (the referent raises), not a
        # title made of its words.
        return it(other.group(0))
    if _TITLED_IT.search(text):
        # "drop It from halloween": a capital It inside a sentence is the novel's title.
        return it("It")
    by_author = _BY_AUTHOR.search(text)
    if by_author:
        return it(by_author.group(0))
    if text != text.casefold():
        title = title_in(text)
        if title is not None:
            if re.search(rf"\bthe\s+{re.escape(title)}\b", text):
                # "pop the Robinson on Shelf": the referent asks which book when the name is
                # a writer's, not a title (it raises); a title comes back as it was.
                it(f"the {title}")
            elif _POINTED.search(text) and " " not in title:
                try:
                    it(f"the {title}")
                except _NoReferent:
                    # "oh, Hardy. give it a 3": a writer named beside a change that points
                    # at its book is no title; "it" is the book the talk named.
                    return it("it")
            return title
    if _POINTED.search(text):
        # "give this one a 3 - bit slow": with no title written, the verb's object is the
        # book in view, and the remark after it is no title.
        return it("it")
    by_writer = _BY_WRITER_LOWER.search(text)
    if by_writer:
        # "take the tolstoy book off classics": the referent asks which book when the name is
        # a writer's (it raises); otherwise the words are read as below.
        it(by_writer.group(0))
    text = _LOWER_OPENER.sub("", text)
    core = _with_inner_small_words(text, " ".join(_REQUEST_WORDS.sub(" ", text).split()))
    judged = _JUDGED.match(text)
    if judged and " ".join(_REQUEST_WORDS.sub(" ", judged.group("book")).split()):
        # "gilead was wonderful, five stars": the book is what the verdict is about.
        core = " ".join(_REQUEST_WORDS.sub(" ", judged.group("book")).split())
    if core and _DEICTIC.search(text) and not _OF_THE_READER.sub(" ", core).strip():
        core = ""  # "i've read this, give it a 2": what is left tells of the reader, not a book
    if core and core == core.casefold() and _THIS_BOOK.search(text):
        # "ugh, i didn't like this one at all": "this one" is the book; the lower-case words
        # left over are the reader's feelings, not a title.
        core = ""
    if _PLURAL.fullmatch(core):
        return it(core)  # "add these to summer": which books is asked, never guessed
    if core:
        return core
    if _DEICTIC.search(text):
        resolved = it("it")
        return None if resolved == "it" else resolved
    return None


_NOT_A_NAME = frozenset(
    [
        "to",
        "on",
        "in",
        "into",
        "onto",
        "off",
        "of",
        "from",
        "for",
        "my",
        "the",
        "a",
        "an",
        "and",
        "or",
        "it",
        "this",
        "that",
        "these",
        "me",
        "i",
        "you",
        "list",
        "lists",
        "please",
        "pls",
        "add",
        "put",
        "take",
        "remove",
        "move",
        "book",
        "books",
    ]
)


def _list(text: str, names: Names) -> str | Clarification | None:
    lists = names.of("list")
    said = stored_lists_said(text, lists)
    if len(said) > 1:
        return which_of("list", said)
    if said:
        return said[0]
    # A list named by one of its words ("the scifi one"); the request's own small words
    # ("to", "my", "list") name no list, though "to" is most of "To read".
    words = [w for w in re.findall(r"[A-Za-z][\w'-]+", text) if w.casefold() not in _NOT_A_NAME]
    found = None
    for word in words:
        candidate = resolve(word, lists, cutoff=85)
        if candidate.name is not None:
            found = candidate.name
    if found is not None:
        return found
    if len(lists) > 1:
        return which_of("list", lists)
    return (unstored_list_asked(text, lists[0]) or lists[0]) if lists else None


_AFTER_LIST = re.compile(
    r"\blist\b\s*[:,-]?\s*(?!(?:for|of|to|with|about|my|me|the|a|an|please|pls)\b)"
    r"(?P<name>[\w'’&-]+(?:\s+(?!(?:with|and|that|which|please|pls)\b|"
    # "Gifts for Mum": who it is for, by name, is part of the name; "for my trip" is not
    r"for\b(?!\s+(?-i:[A-Z]))|"
    # "Gifts for Mum her birthday is in march": a new clause ends the name
    r"(?-i:she|he|they|her|his|their|its|it['’]s|because|since|cos|coz|as|so|but)\b)"
    r"[\w'’&-]+)*)",
    re.I,
)
_CALL_INSTEAD = re.compile(
    r"\b(?:call|name)\s+(?:it|(?:my|the)\s+.+?\s+list)\s+(?P<named>.+?)\s+instead\b", re.I
)
"""Read first: in "I want to call the Halloween list Horror instead" the "to" is not the name's."""
_NEW_NAME = re.compile(
    r"(?:\b(?:to|as|into|be\s+called|be\s+named)\b|->)\s*(?P<name>[^,.!?]+?)\s*"
    r"(?:\b(?:instead|please|pls|now|from\s+now\s+on)\b)?[.!?]*$",
    re.I,
)
_FIELD_WORDS = re.compile(
    r"\b(?:authors?|writers?|language|year|date|should|be|only|just|alone|fix|wrong|"
    r"incorrect|correct|listed|says?)\b|['’]s\b",
    re.I,
)
"""A correction's own words, left out of a title read from a message in lower case."""
_WRONG_VALUE = re.compile(r",?\s*\bnot\s+[A-Z][\w.'’-]*(?:\s+[A-Z][\w.'’-]*)*")
"""The wrong value a correction names ("..., not Jan Needle"): no part of the title."""


_CLAIMED = re.compile(
    r"^(?P<book>[^,.;:!?]+?)\s+(?:lists|shows|says|has|credits|gives|names)\b", re.I
)
"""The book as the subject of what its record claims ("siddhartha lists X as an author")."""
_IN_VIEW = re.compile(r"(?:this|it|that)(?:\s+(?:one|book|page|record))?|the\s+page", re.I)
"""What says a wrong value when the book in view does ("this page says Italian")."""


def _named_after_list(text: str) -> str | None:
    """A new list's name written straight after "list" ("new list: Book Club")."""
    found = _AFTER_LIST.search(text)
    return clean(found.group("name")) or None if found else None


def _rename(text: str, names: Names, call: CallMaker) -> list[ToolCall] | Clarification:
    """Which list, and its new name ("rename Summer to Holiday", "call X list Y instead")."""
    found = _CALL_INSTEAD.search(text) or _NEW_NAME.search(text)
    if found is None:
        return Clarification("Which list should I rename, and what should it be called?", ())
    group = "named" if "named" in found.groupdict() else "name"
    new_name = clean(
        re.sub(
            r"^(?:rename\s+)?(?:(?:to|as)\s+)?(?:be\s+(?:called|named)\s+)?",
            "",
            found.group(group),
            flags=re.I,
        )
    )
    if not new_name:
        return Clarification("Which list should I rename, and what should it be called?", ())
    head = text[: found.start(group)]
    named = any(re.search(rf"\b{re.escape(n)}\b", head, re.I) for n in names.of("list"))
    if not named and _DEICTIC.search(head):
        # "rename it to X" with no list in view: which list is asked, even of a reader with one
        return name_it("list", "rename")
    chosen = _list(head, names)
    if chosen is None:
        return name_it("list", "rename")
    if isinstance(chosen, Clarification):
        return chosen
    return [call("rename_list", list=chosen, new_name=new_name)]


def _correction(text: str, it: Callable[[str], str], call: CallMaker) -> list[ToolCall] | None:
    """The field a message says is wrong and its right value, for the book it names.

    "Moby-Dick says 2006 but it was published in 1851", "the author of X is Y, not Z",
    "fix X's language, it's a Russian novel"; "this"/"it" is the page's book.
    """
    text = with_spoken_years(text)  # "came out in nineteen forty three"
    found = correction_of(text)
    if found is None:
        return None
    fields, span = found
    rest = text if span is None else text[: span[0]] + " " + text[span[1] :]
    rest = without_shown_people(
        _WRONG_VALUE.sub(" ", CORRECTION_LABEL.sub("", LABEL.sub("", rest)))
    )
    if "language" in fields:
        # "I own the English original. The language should be English.": said twice, no title
        rest = re.sub(rf"\b{re.escape(str(fields['language']))}\b", " ", rest, flags=re.I)
    claimed = _CLAIMED.match(rest)  # before the denied value goes with its "says"
    rest = without_wrong_language(rest)
    title = title_in(rest)
    if title is not None and title.isdigit():
        title = None  # "x says 2006??": the year the record shows is no title
    core = " ".join(_REQUEST_WORDS.sub(" ", _FIELD_WORDS.sub(" ", rest)).split())
    subject = claimed.group("book") if claimed else None
    if subject is not None and _IN_VIEW.fullmatch(subject.strip()):
        # "this says French?? it's in English, Thompson was American": what says it is the
        # book in view; a name told after it is a reason, no title
        book: str | None = it("it")
    elif (
        subject is not None
        and not _DEICTIC.search(subject)
        and (title is None or title.casefold() not in subject.casefold())
    ):
        # "cujo says spanish. its english": the book is what says the wrong value
        book = subject
    elif title is not None:
        book = re.sub(r"['’]s$", "", title)
    elif _DEICTIC.search(rest):
        book = it("it")
    elif rest == rest.casefold() and core:
        book = core  # "persuasion's author should be ...": no capital marks the title
    elif not core:
        book = it("it")  # "language should be english": only the field and its value
    else:
        book = None
    if book is None or book == "it":
        return None
    return [call("propose_correction", book=book, **fields)]


def plan_books(
    intent: str, text: str, names: Names, it: Callable[[str], str], call: CallMaker
) -> list[ToolCall] | Clarification | None:
    """The calls for `intent` read from `text`, a question, or None."""
    top = top_of(text) if intent == "catalog_facets" else None
    if top is not None:
        return [call(intent, top=top)]  # "top 20 categories": as many as asked
    if intent in ("get_reading_lists", "catalog_facets"):
        return [call(intent)]
    if intent in ("get_book_details", "similar_books"):
        book = _book(text, it)
        if book is None:
            # "who's the author?" just after a book was talked of, or on its page: a look-up
            # names none because it means that one (none in view: the reader is asked).
            book = it("it")
            if book == "it":
                return name_it("book", "look up")
        counted = (
            _HOW_MANY.search(text) or COUNT_AFTER.search(text)
            if intent == "similar_books"
            else None
        )
        if counted is not None:
            return [call(intent, book=book, limit=number(counted.group("n"), 5))]
        return [call(intent, book=book)]
    if intent == "rate_book":
        stars = stars_of(text)
        graded = _GRADE_THEN_REMARK.search(text)
        # "give X two stars we both hated it": the remark after the grade is no title.
        book = _book(text[: graded.start()], it) if graded else None
        book = book or _book(text, it)
        if book is not None and re.fullmatch(rf"{NUMBER}(?:\s*/\s*5)?", book, re.I):
            # "give five stars" and no book named: the grade is no title; "loved this, five
            # stars": the book in view is
            pointed = it("it") if _DEICTIC.search(text) else "it"
            book = None if pointed == "it" else pointed
        if stars is None or book is None:
            return Clarification(
                "Which book, and how many stars (1 to 5)?",
                ("5 stars", "4 stars", "3 stars") if book else (),
            )
        return [call(intent, book=book, stars=stars)]
    if intent in ("add_to_list", "remove_from_list", "get_list_details", "delete_list"):
        chosen = _list(text, names)
        if chosen is None:
            return name_it("list", "use")
        if isinstance(chosen, Clarification):
            return chosen
        if intent in ("get_list_details", "delete_list"):
            return [call(intent, list=chosen)]
        rest = without_remark_after(text, chosen)
        rest = re.sub(rf"\b{re.escape(chosen)}\b", " ", rest, flags=re.I)
        note = _NOTE.search(rest)
        if note is not None:
            # "... with a note: from Sam": the note is not part of the title.
            rest = rest[: note.start()]
        # "..., we swapped it for something else": a reason after a comma is no part of it.
        rest = without_reason_told(REASON_AFTER.sub("", rest))
        goes = _GOES.search(rest)
        book = _book(_GOES.sub(" ", rest), it)
        if book is None and intent == "remove_from_list" and (_DELETE_WORDS.search(text) or goes):
            # "delete 'Book club'" (or "the list X must be deleted") names a list and no
            # book: the list itself goes.
            return [call("delete_list", list=chosen)]
        if book is None and book_unsaid(text):
            try:
                # "remove from TBR" on a book's page: the book in view.
                book = it("it")
            except _NoReferent:
                book = None
            book = None if book == "it" else book
        if book is None:
            return name_it("book", "add" if intent == "add_to_list" else "remove")
        if note is not None and intent == "add_to_list":
            written = clean(note.group("note") or note.group("after"))
            return [call(intent, list=chosen, book=book, note=written)]
        return [call(intent, list=chosen, book=book)]
    if intent == "rename_list":
        return _rename(text, names, call)
    if intent == "propose_correction":
        return _correction(text, it, call)
    if intent == "create_list":
        name = list_name_of(text) or _named_after_list(text)
        if not name:
            return Clarification("What should the new list be called?", ())
        return [call(intent, name=clean(name))]
    return None
