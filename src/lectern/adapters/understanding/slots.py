"""Slots: the values a request carries besides what it asks for.

Comment text (after "that", a colon, "saying", or in quotes), people, dates relative to the
clock (dateparser), statuses ("finished", "close out" -> done), priorities, counts, list
names ("called X" ends before "with", "and", "that"), star ratings.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta

from lectern.adapters.understanding.compound import ACTION_VERB, ADD_SLIPPED, LOOKUP_VERB
from lectern.adapters.understanding.scaffold import NUMBER, clean, number
from lectern.domain.assistant import ToolCall

_STATUS_WORDS: tuple[tuple[str, str], ...] = (
    (
        # "just the in-progress stuff": the state written as one word with its hyphen, or
        # in the store's own word ("whose status is in_review")
        r"\b(?:in[\s_-]+review|under\s+review|(?:ready|waiting)\s+for\s+(?:a\s+)?review|"
        r"to\s+review|awaiting\s+review)\b",
        "in_review",
    ),
    (
        r"\b(?:in[\s_-]+progress|underway|started|start(?:ing)?\s+(?:working|on)|working\s+on)\b",
        "in_progress",
    ),
    (
        r"\b(?:to\s*[-_]?\s*do|back\s+to\s+todo|not\s+started|reopen(?:ed)?|still\s+open)\b",
        "todo",
    ),
    (
        # "over" only as a state ("it's over"), not a place ("over in phishing awareness")
        r"\b(?:done|finished|complete[d]?|close[d]?\s*(?:out)?|wrap(?:ped)?\s+up|tick(?:ed)?\s+off|"
        r"sorted|(?:is|it['’]?s|was|are)\s+over)\b",
        "done",
    ),
)
_PRIORITY = re.compile(r"\b(urgent|critical|high|medium|normal|low)\b(?:\s+priority)?", re.I)
_PRIORITY_WORDS = {"critical": "urgent", "normal": "medium"}
_STARS = re.compile(
    r"\b(?P<n>[1-5]|one|two|three|four|five)\s*(?:/\s*5|out of (?:5|five)|stars?|"
    # "a four of five, please": "out" left off is the same grade ("one of five friends" is not)
    r"of\s+(?:5|five)(?=\s*(?:$|[,.;:!?)]|stars?\b|from\b|for\b)))",
    re.I,
)
_REMARK = r"(?:\W*$|\s*[,;.!—–-]\s+[^\d]*$)"
"""The end of a rating: nothing, or a remark with no number in it ("rate it 4, loved it")."""
_STARS_BARE = re.compile(
    rf"(?:rating|rate|score)\b.*?\b(?P<n>[1-5])\b{_REMARK}|"
    rf"\bgive\b.+\b(?:a|an)\s+(?P<given>[1-5])\b{_REMARK}|"
    # "X is a solid 4": a verdict that grades the book is its rating.
    r"\b(?:is|was|it['’]?s|that['’]?s)\s+(?:a|an)\s+(?:(?:solid|strong|easy|firm|clear|fair|"
    rf"generous|harsh|weak|low|high|definite|good|decent)\s+)?"
    # "it was a solid four": the grade in words
    rf"(?P<graded>[1-5]|one|two|three|four|five)\b{_REMARK}",
    re.I,
)
_STAR_SYMBOLS = re.compile(r"[⭐★]{1,5}")
_COMMENT = re.compile(
    r"(?:\b(?:saying|that says|that)\b|:|\s[-–—]\s)\s*(?P<text>.+)$|"
    # a quote opens and closes beside no letter: the apostrophes of "window's ... don't" are
    # inside words, and what stands between them is no quoted text
    r"(?<!\w)[\"“'‘](?P<quoted>[^\"”'’]{2,})[\"”'’](?!\w)",
    re.I,
)
PURPOSE = (
    r"(?:to|so\s+(?:that\s+)?(?:i|we)\s+can)\s+(?:keep|track|help|remember|organi[sz]e|stay|"
    r"note|plan|sort|collect|gather)"
)
"""Why a list is made ("to keep track", "so I can remember"): no part of its name."""
_NAMING = (
    # "not sure what to call it yet": a name not yet chosen is none ("yet" had been made a list)
    r"(?<!\bwhat to )(?<!\bhow to )"
    r"\b(?:called|named|titled|name it|call it|with\s+the\s+(?:name|title)|"
    r"by\s+the\s+name(?:\s+of)?|under\s+the\s+name|"
    # "create a new list, the name is Poesia", "its name should be X"
    r"(?:the|its)\s+name\s+(?:is|should\s+be|will\s+be|can\s+be))\s+"
)
_QUOTED_NAME = re.compile(
    rf"{_NAMING}(?:[\"“](?P<double>[^\"”]{{1,80}})[\"”]|[‘'](?P<single>[^‘’']{{1,80}})[’'](?!\w))",
    re.I,
)
"""A name said in quotes after the word that names it: the quotes say where it ends ("call it
'Aviation and Space'": its "and" is no joint)."""
_LIST_NAME = re.compile(
    rf"{_NAMING}(?P<name>.+?)"
    r"(?=\s+(?:with|that|which|containing|"
    # "called Beach and add Jaws to it": "and" ends the name only before a later request said
    # in lower case with words of its own ("Read and Rate", "Bed and Breakfast Reads" are names)
    rf"and\s+(?-i:{ACTION_VERB}|{LOOKUP_VERB}|{ADD_SLIPPED})\s+(?=\S)|"
    # "called Travel and leave it empty": a lower-case clause pointing back at the list ("it")
    r"and\s+(?-i:[a-z]+)\s+(?-i:it|them)\b|"
    # "named Neighbours Club for us": who the list is for ends its name
    r"for\s+(?:me|my|(?-i:us|our|him|her|them|their))|"
    # "called Mum's picks to keep track": what the list is for ends its name ("Books to read"
    # is a name: reading is what a list's books are for, not why the list is made)
    rf"{PURPOSE})\b|[,.!?]|$|"
    # "create a list called Maybe instead": a word that sets the request beside another ends
    # the name (in lower case: "Me Too" is a name)
    r"\s+(?-i:instead|too|as\s+well|then)\s*[.!?]*\s*$)",
    re.I,
)
_COUNT = re.compile(rf"\b{NUMBER}\b", re.I)
_WEEKDAY = r"(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?\.?"
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sept?|oct|nov|dec)[a-z]*\.?"
_DATE = re.compile(
    r"\b(?P<lead>by|before|due|on|until|to|for)\s+(?P<when>"
    # "Friday the 20th", "next friday, the 13th": the day's number decides, the weekday
    # (and which week it falls in) only names it
    rf"(?:(?:next|this|coming)\s+)?{_WEEKDAY},?\s+(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)"
    rf"(?:\s+(?:of\s+)?{_MONTH})?|"
    r"(?:(?:next|this|coming)\s+)?"
    rf"(?:{_WEEKDAY}|week|month)|tomorrow|today|tonight|(?:the\s+)?end\s+of\s+(?:the\s+|this\s+|"
    r"next\s+)?(?:week|month)|\d{4}-\d{2}-\d{2}|in\s+(?:\d+|a|one|two|three|four)\s+(?:days?|weeks?)|"
    r"(?:\d{1,2}|an?|one|two|three|four)\s+(?:days?|weeks?)\s+(?:from|after)\s+(?:today|now)|"
    # "the 20th of November" before "the 20th": the month decides
    rf"(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH}|the\s+\d{{1,2}}(?:st|nd|rd|th)|"
    rf"{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?)(?![\w-])",
    re.I,
)
"""A due date's clause: a weekday (spelt short too), "end of the month", "the 20th", "Nov
20", "in two weeks", an ISO date, after "by", "due", "on", "until" (and "to" when a date is
moved)."""
_WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


def without_status(text: str) -> str:
    """The message without the status it names, so no status word is read as a name.

    "the runbook is in review now" names the runbook, not *Review NetScaler session tokens*.
    """
    for pattern, _ in _STATUS_WORDS:
        text = re.sub(pattern, " ", text, flags=re.I)
    return " ".join(text.split())


def status_of(text: str) -> str | None:
    """The task status a message names, in the store's words."""
    for pattern, status in _STATUS_WORDS:
        if re.search(pattern, text, re.I):
            return status
    return None


_ATTENTION_SECTIONS: tuple[tuple[str, str], ...] = (
    ("overdue", r"\b(?:overdue|late|past\s+(?:their\s+|the\s+)?due|behind\s+schedule)\b"),
    ("blocked", r"\b(?:blocked|stuck)\b"),
    ("in_review", r"\b(?:in\s+review|under\s+review|awaiting\s+review|waiting\s+for\s+review)\b"),
    ("assigned_to_me", r"\b(?:assigned\s+to\s+me|on\s+my\s+plate|my\s+tasks|mine)\b"),
)
_WHOLE_SUMMARY = re.compile(
    r"\b(?:attention|dashboard|everything|rundown|summary|what\s+should\s+i)\b", re.I
)


def attention_sections_of(text: str) -> tuple[str, ...]:
    """The parts of the attention summary a request asks for; () means all of it.

    "which tasks are overdue?" wants the overdue tasks, not blocked or in-review ones;
    "what needs my attention" (or naming no part) wants the whole summary.
    """
    if _WHOLE_SUMMARY.search(text):
        return ()
    named = tuple(key for key, pattern in _ATTENTION_SECTIONS if re.search(pattern, text, re.I))
    if len(named) > 1 and "assigned_to_me" in named:
        # "which of my tasks are overdue": "my" narrows the question, it is not a part.
        named = tuple(key for key in named if key != "assigned_to_me")
    return named


_BOTH_KINDS = re.compile(
    r"\b(?:resolved|closed|cleared|lifted|old|past)(?:\s+ones)?\s+(?:too|as\s+well|also|included)\b|"
    r"\b(?:including|incl\.?|plus|with|and\s+also|and\s+even)\s+(?:the\s+)?(?:resolved|closed|"
    r"cleared|lifted|old|past)\b|\b(?:open|unresolved|active|current)\s+(?:and|or|&|as\s+well\s+as)"
    r"\s+(?:resolved|closed|cleared|lifted|old|past)\b|\b(?:resolved|closed|cleared|lifted|old|past)"
    r"\s+(?:and|or|&|as\s+well\s+as)\s+(?:open|unresolved|active|current)\b|"
    r"\b(?:whether|no\s+matter\s+if)\s+(?:they(?:['’]re|\s+are)\s+)?(?:open|resolved)\b",
    re.I,
)
"""Blockers asked for of both kinds ("resolved ones too"): no status, not the resolved ones."""


def blocker_status_of(text: str) -> str | None:
    """The blockers a question asks for: "resolved", "open", or None for every one.

    "show the resolved blockers": the ones that ended (the tool's default is open); "list every
    blocker, resolved ones too": both kinds, so no status at all.
    """
    if _BOTH_KINDS.search(text):
        return None
    if re.search(r"\b(?:resolved|cleared|closed|lifted|past|old)\b", text, re.I):
        return "resolved"
    if re.search(r"\b(?:open|unresolved|active|outstanding|current)\b", text, re.I):
        return "open"
    return None


_SELF_CORRECTED = re.compile(
    r"(?:\.{2,}|[,;–—-])?\s*\b(?:no\s+wait|wait\s+no|no\s+actually|actually\s+no|scratch\s+that|"
    r"or\s+rather|i\s+mean)\b",
    re.I,
)
"""Where a speaker takes back what they just said ("low... no wait, make it medium")."""


REFUSING = (
    r"(?:\w+n['’]t|(?:do|does|did|is|are|was|were|should|would|could|must|need|has|have)nt|"
    r"cannot|not|no\s+longer|never)"
)
"""A word that refuses what follows it ("doesn't", "isnt", "no longer"; not "hunt")."""
_NOT_NOW_BEFORE = re.compile(rf"(?:\b{REFUSING}\s+(?:\w+\s+){{0,3}}|\bfrom\s+)$", re.I)
"""Before a priority that is not the one asked for: refused ("doesn't need to be high"), or
the one left ("from high to medium")."""
_NOT_NOW_AFTER = re.compile(r"^(?:\s+priority)?\s+(?:any\s*more|no\s+more)\b", re.I)
"""After a priority that no longer holds ("high anymore")."""


def priority_of(text: str) -> str | None:
    """The priority a message names (low, medium, high, urgent); the one settled on last.

    A priority refused or left ("doesn't need to be high anymore - drop it to medium", "from
    high to medium") is not the one asked for; a message that only refuses one names none.
    """
    taken_back = list(_SELF_CORRECTED.finditer(text))
    settled = _PRIORITY.search(text[taken_back[-1].end() :]) if taken_back else None
    if settled is None:
        said = list(_PRIORITY.finditer(text))
        settled = next(
            (
                m
                for m in said
                if not _NOT_NOW_BEFORE.search(text[: m.start()])
                and not _NOT_NOW_AFTER.match(text[m.end() :])
            ),
            None,
        )
        if settled is None:
            return None
    word = settled.group(1).casefold()
    return _PRIORITY_WORDS.get(word, word)


_REGRADE = re.compile(
    r"\b(?:make\s+(?:it|that)|change\s+(?:it|that)\s+to|bump\s+(?:it|that)\s+(?:up|down)\s+to|"
    r"(?:or\s+)?rather)\s+(?:a\s+)?(?P<n>[1-5]|one|two|three|four|five)\b(?!\s*(?:books?|lists?))",
    re.I,
)
"""A grade said again to replace the first ("four stars... actually make it five")."""


def regraded(text: str) -> int | None:
    """The grade a message settles on when it says one again, or None."""
    found = list(_REGRADE.finditer(text))
    return number(found[-1].group("n"), 0) or None if found else None


def stars_of(text: str) -> int | None:
    """A star rating (1-5) the message gives (the last said when it takes one back)."""
    again = regraded(text)
    if again is not None:
        return again
    found = _STARS.search(text) or _STARS_BARE.search(text)
    if found:
        said = found.groupdict()
        return number(said["n"] or said.get("given") or said.get("graded"), 0) or None
    symbols = _STAR_SYMBOLS.search(text)
    return len(symbols.group(0)) if symbols else None


def comment_of(text: str) -> str | None:
    """The text to post: quoted, or after a colon, a dash, "that" or "saying"."""
    found = _COMMENT.search(text)
    if not found:
        return None
    body = clean(found.group("quoted") or found.group("text"))
    return body or None


_QUOTED_LIST = re.compile(
    r"[\"“'‘](?P<a>[^\"”'’]{1,40})[\"”'’]\s+(?:reading\s+)?list\b|"
    r"\blist\s+[\"“'‘](?P<b>[^\"”'’]{1,40})[\"”'’]",
    re.I,
)


def list_name_of(text: str) -> str | None:
    """A list's name after "called"/"named", or quoted beside the word list ("a 'X' list").

    After "called", the name ends before "with", "and" or "that", unless it is quoted: then it
    is what the quotes hold.
    """
    quoted = _QUOTED_NAME.search(text)
    if quoted:
        return clean(quoted.group("double") or quoted.group("single")) or None
    found = _LIST_NAME.search(text)
    if found:
        return clean(found.group("name")) or None
    quoted = _QUOTED_LIST.search(text)
    return clean(quoted.group("a") or quoted.group("b")) or None if quoted else None


_SUBJECT = (
    r"(?:i|i['’]?m|im|i['’]?ve|ive|i['’]?d|we|we['’]?re|it|it['’]?s|its|that|that['’]?s|thats|"
    r"this|she|she['’]?s|he|he['’]?s|they|they['’]?re|theyre|there|you|u|my|our|his|her|their)"
)
"""Who or what a reason speaks of: the clause after "as" or "since" is a reason only with one
("as my general list has become unwieldy"; "Books as Gifts" is a name)."""
_NAME_GOES_ON = re.compile(
    # "comfort reads bc thats more accurate", "Winter since she's in school": a reason, in
    # lower case ("Because of Winn-Dixie" and "Lost Cause" are names)
    rf"\s+(?-i:(?:because|bc|b/c|cuz|coz|cos|cause|since|as)\s+{_SUBJECT}\b|because|bc|b/c)"
    # "Good Omens again?? I can never remember": the reminder, then a sentence of its own
    r"|\s+(?-i:again)\b(?=\W*$|\s*[.!?,;])|[!?]+(?=\s+\S)|[!?]+\s*$"
    # a full stop after a word, not after a short title ("Mr. Darcy Fans")
    r"|(?<!\bMr)(?<!\bMrs)(?<!\bMs)(?<!\bDr)(?<!\bSt)(?<!\bJr)(?<!\bVol)(?<!\bNo)(?<=\w\w)"
    r"\.+(?=\s+\S|\s*$)",
    re.I,
)
"""Where a name (a new list's, a title looked up) ends and the reader's own words go on."""
_NAME_LEAD = re.compile(r"^(?-i:just|simply)\s+(?=\S)", re.I)
""""rename it to just Zainab": the word that says the name is short, in lower case."""


def name_ended(name: str, said: str = "") -> str:
    """`name` up to where the reader's words about it start: a reason, "again", a new sentence.

    "comfort reads bc thats more accurate lol" -> "comfort reads", "just Zainab" -> "Zainab",
    "Good Omens again?? I can never remember ..." -> "Good Omens". A name the reader put in
    quotes in `said` is theirs to the letter ("rename it to 'only because'"), and so is one
    that starts capitalised ("Just Kids", "Because of Winn-Dixie").
    """
    bare = name.strip()
    quoted_whole = any(
        f"{q}{bare}{e}" in said and q not in bare and e not in bare
        for q, e in ("''", '""', "‘’", "“”")
    )  # "'Beach' or maybe 'Pool'" is two quoted names, not one
    if not bare or quoted_whole:
        return name
    quoted = quoted_lead(bare, said)
    if quoted is not None:
        return quoted
    ended = _NAME_LEAD.sub("", bare)
    found = _NAME_GOES_ON.search(ended)
    if found is not None and found.start() > 0:
        ended = ended[: found.start()]
    return clean(ended) or name


_QUOTES = (("'", "'"), ('"', '"'), ("‘", "’"), ("“", "”"))


def quoted_lead(value: str, said: str) -> str | None:
    """The quoted words a value opens with, when the reader's words run on past the quote.

    "rename my shelf 'tbr' to 'to-read' so it matches goodreads": the value read was
    "to-read' so it matches goodreads", and the name is what the quotes hold, "to-read".
    """
    at = said.find(value)
    for opening, closing in _QUOTES:
        # the value's own opening quote, or the one just before it in the message
        opened = value.startswith(opening) or (at > 0 and said[at - 1] == opening)
        body = value.removeprefix(opening)
        end = body.find(closing)
        rest = body[end + 1 :].strip()
        # the reader's own words go on in lower case ("'Cosy' Reads" is a name of its own)
        if not opened or end <= 0 or not rest or not (rest[0].islower() or rest[0] in ",;.!?("):
            continue
        inner = body[:end].strip()
        if inner and f"{opening}{body[:end]}{closing}" in said:
            return inner
    return None


def names_ended(calls: list[ToolCall], said: str) -> list[ToolCall]:
    """The calls with each new list name ended where the reader's own words go on.

    "change faves to comfort reads bc thats more accurate" names the list "comfort reads",
    whichever matcher read it.
    """
    ended = []
    for call in calls:
        slot = {"create_list": "name", "rename_list": "new_name"}.get(call.name)
        value = call.arguments.get(slot) if slot else None
        if slot and isinstance(value, str) and name_ended(value, said) != value:
            call = ToolCall(call.id, call.name, {**call.arguments, slot: name_ended(value, said)})
        ended.append(call)
    return ended


COUNT_AFTER = re.compile(
    rf"[,;:–—-]\s*(?:(?:and|give\s+me|maybe|say|about|around)\s+)?{NUMBER}\s+(?:of\s+(?:them|those|"
    r"these)|(?=(?:if\s+(?:you\s+can|possible)|or\s+so|max|at\s+most|ideally)\b))",
    re.I,
)
"""How many, said after the request ("books like X, ten of them if you can", "..., 8 or so")."""


def count_of(text: str, default: int) -> int:
    """A count in digits or words ("two", "a few"), else `default`."""
    found = _COUNT.search(text)
    return number(found.group("n"), default) if found else default


_WEEKDAY_THEN_DAY = re.compile(
    rf"\b(?P<weekday>{_WEEKDAY}),\s+(?P<day>(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)\b)", re.I
)


def weekday_with_its_day(text: str) -> str:
    """`text` with a day's number said after its weekday joined to it, comma dropped.

    "due next friday, the 13th" is one date, the number deciding which Friday; the comma had
    ended the date at "next friday" and left ", the 13th" as a telling of its own.
    """
    return _WEEKDAY_THEN_DAY.sub(r"\g<weekday> \g<day>", text)


def due_date_of(text: str, now: datetime, *, moved: bool = False) -> str | None:
    """A due date ("by Friday", "next week") as YYYY-MM-DD, relative to `now`.

    `moved`: the request moves a date, so "to next Friday" names one too ("push it to next
    Friday"); a new task's "to" is its purpose ("a task to rotate the certs").
    """
    found = due_clause(text, now, moved=moved)
    return found[0] if found else None


def due_clause(text: str, now: datetime, *, moved: bool = False) -> tuple[str, int, int] | None:
    """`due_date_of`'s date and where its clause ("by Friday") stands in the text."""
    found = next(
        (f for f in _DATE.finditer(text) if moved or f.group("lead").casefold() != "to"), None
    )
    if not found:
        return None
    day = _day_of(" ".join(found.group("when").casefold().split()), now.date())
    if day is None:
        return None
    end = found.end()
    year = re.match(r",?\s*(\d{4})\b", text[end:])
    if year is not None and _MONTH_SAID.search(found.group("when")):
        end += year.end()
        # "November 20, 2027": the clause stops before the year, which is said all the same
        try:
            day = day.replace(year=int(year.group(1)))
        except ValueError:
            return None
    elif day.year > now.year and _MONTH_SAID.search(found.group("when")):
        # "November 20" said on the 27th: a day just gone (a due date put right, or one
        # missed), not a year ahead; a month and day at most a month past are this year's
        try:
            this_year = day.replace(year=now.year)
        except ValueError:
            this_year = day  # the 29th of February
        if timedelta(0) < now.date() - this_year <= _JUST_GONE:
            day = this_year
    return day.isoformat(), found.start(), end


_FEW = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4}


def _day_of(when: str, today: date) -> date | None:
    """The day a due-date clause names, counted from `today`.

    dateparser reads most of them; the few it reads otherwise or not at all are counted
    here: "end of the month" (it returns None), "this friday" (the coming one, today
    included), "the 20th" (this month's, else next month's), "end of the week" (Friday).
    """
    when = re.sub(rf"^(?:(?:next|this|coming)\s+)?{_WEEKDAY},?\s+(?:the\s+)?(?=\d)", "the ", when)
    when = re.sub(r"^the\s+(?=end\b|\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?[a-z])", "", when)
    month_end = re.fullmatch(r"end of (?:the |this |next )?(week|month)", when)
    if month_end:
        ahead = when.split()[2] == "next"
        if month_end.group(1) == "week":
            return today + timedelta(days=(4 - today.weekday()) % 7 + (7 if ahead else 0))
        first = date(today.year + today.month // 12, today.month % 12 + 1, 1)
        if ahead:
            first = date(first.year + first.month // 12, first.month % 12 + 1, 1)
        return first - timedelta(days=1)
    counted = re.fullmatch(
        r"(a|an|one|two|three|four|\d{1,2}) (day|week)s? (?:from|after) (?:today|now)", when
    )
    if counted:  # "a week from today": dateparser reads it as today
        said = counted.group(1)
        many = int(said) if said.isdigit() else _FEW[said]
        return today + timedelta(days=many * (7 if counted.group(2) == "week" else 1))
    weekday = re.fullmatch(r"(?:(this|coming|next) )?([a-z]{3})[a-z]*\.?", when)
    if weekday and weekday.group(2) in _WEEKDAYS and weekday.group(1) != "next":
        return today + timedelta(days=(_WEEKDAYS.index(weekday.group(2)) - today.weekday()) % 7)
    ordinal = re.fullmatch(r"the (\d{1,2})(?:st|nd|rd|th)", when)
    if ordinal:
        wanted = int(ordinal.group(1))
        year, month = today.year, today.month
        for _ in range(3):
            if wanted >= (today.day if (year, month) == (today.year, today.month) else 1):
                try:
                    return date(year, month, wanted)
                except ValueError:
                    pass
            year, month = year + month // 12, month % 12 + 1
        return None
    import dateparser  # type: ignore[import-untyped]

    base = datetime(today.year, today.month, today.day)
    text = re.sub(r"\b(tues|thur|thurs|weds)\b", lambda m: m.group(1)[:3], when)
    parsed = dateparser.parse(text, settings={"RELATIVE_BASE": base, "PREFER_DATES_FROM": "future"})
    return None if parsed is None else parsed.date()


_MONTH_SAID = re.compile(
    r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b", re.I
)
_JUST_GONE = timedelta(days=31)
"""How far back a month and day said without a year still means this year's."""
