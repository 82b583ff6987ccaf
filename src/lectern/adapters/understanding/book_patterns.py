"""The book requests the rule policy reads by pattern: one table, apart from the logic.

`adapters/llm/rule_policy.py` matches these against the reader's own message and fills the
calls; what no pattern matches goes to the understanding layer.
"""

from __future__ import annotations

import re

from lectern.adapters.understanding.scaffold import NUMBER

_NUMBER = NUMBER
_STARS = r"(?P<stars>[1-5]|one|two|three|four|five)"
ADD_VERB = (
    r"(?:add|put|save|pop|stick|chuck|throw|toss|bung|shove|slap|stash|slot|file|include|shelve)"
)
"""Verbs people put a book on a list with ("chuck X on my to read list", a librarian's "shelve
X on Staff Picks")."""
REMOVE_VERB = r"(?:remove|take|delete|drop|get\s+rid\s+of|get|pull|strike|cross|knock|scratch|yank)"
"""Verbs people take a book off a list with ("get X off the Work list")."""
DELETE_VERB = (
    r"(?:delete|remove|drop|get rid of|bin|trash|nuke|scrap|ditch|axe|kill|wipe|erase|dump|"
    r"junk|zap|eliminate|suppress|cancel(?!\s+(?:that|this|it|everything|all|\w+ing)\b))"
)
"""Verbs people delete a whole list with ("bin the kids list", "nuke the Horror list");
"cancel", "eliminate", "suppress" as French, Italian and Spanish speakers say it ("cancel the
list Prova": cancellare, supprimer), never "cancel that" (a request taken back)."""

FIND_AND_ADD = re.compile(
    r"^(?:please\s+)?(?:find|search for|get|recommend|suggest|pick|choose)\s+(?:me\s+)?"
    rf"(?:{_NUMBER}\s+)?(?P<query>.+?)\s+and\s+(?:then\s+)?(?:add|put|save)\s+(?:them|those|these)"
    r"\s+(?:to|on|in|into)\s+(?:(?P<new>a\s+new|a|my\s+new)\s+)?(?:my\s+|the\s+)?"
    r"(?:(?:reading\s+)?list\s+(?:called|named|titled)\s+(?P<name1>.+?)|(?P<name2>.+?)\s+"
    r"(?:reading\s+)?list)\W*$",
    re.I,
)
COUNT_ONTO_LIST = re.compile(
    r"^(?:please\s+)?(?:add|put|throw|stick|drop|pop|toss|save)\s+"
    rf"{_NUMBER}\s+(?P<query>.+?)\s+(?:on|onto|to|in|into)\s+(?P<new>a\s+new|my\s+new|a)?\s*"
    r"(?:my\s+|the\s+)?(?:(?:reading\s+)?list\s+(?:called|named|titled)\s+(?P<name1>.+?)|"
    r"(?P<name2>.+?)\s+(?:reading\s+)?list)\W*$",
    re.I,
)
"""A count of books put on a list in one breath ("throw three sci-fi classics onto a new list
named Space"): the same plan as FIND_AND_ADD, said the other way round."""
LIST_WITH = re.compile(
    r"^(?:please\s+)?(?:make|create|start|set up|build)\s+(?:me\s+)?(?:a\s+)?(?:new\s+)?"
    # "a list for summer with a couple of beach reads": what the list is for is its name
    r"(?:reading\s+)?list\s+(?:called\s+|named\s+|titled\s+|for\s+(?:my\s+|our\s+)?)?"
    r"(?P<name>.+?)\s+(?:"
    rf"with\s+{_NUMBER}\s+(?P<query>.+?)|and\s+(?:add|put)\s+(?P<book>.+?)\s+(?:to|on|in)\s+it)"
    r"\W*$",
    re.I,
)
NOT_YOUTH = re.compile(
    r"\s*,?\s*(?:that|which)?\s*(?:are\s+|is\s+)?(?:not|no|nothing|none)\s+(?:for\s+)?"
    r"(?:young\s+adults?|ya|kids|children|teens?)(?:\s+(?:books?|novels?|fiction))?\b",
    re.I,
)
LISTS = re.compile(
    r"^(?:what|which|show|list|tell me|pull up|bring up|open|display|see|view|how\s+many)\b"
    # "my shelves" are the reader's lists; "which shelves" asks about the catalog.
    r".{0,30}\b(?:(?:my|the)\s+(?:(?:remaining|other|current|existing|saved|own)\s+)?"
    r"(?:reading\s+)?lists|my\s+(?:own\s+)?shelves)\b"
    # "how many books are on each list": every list at once, no one list named
    r"|^(?:how\s+many|what|which|show|list|tell me)\b.{0,40}\b(?:on|in|across)\s+(?:each|every|"
    r"all)\s+(?:(?:of\s+)?(?:my|the)\s+)?(?:reading\s+)?lists?\b"
    r"|^(?:do i have|what) (?:any )?(?:reading )?lists"
    # "show me which lists I have left": the lists asked for by who has them.
    r"|^(?:(?:show|tell)(?:\s+me)?\s+)?(?:which|what)\s+(?:other\s+|more\s+|remaining\s+)?"
    # "what other lists do I have": the rest of them, asked for the same way
    r"(?:reading\s+)?lists\s+(?:do\s+)?"
    r"(?:i|we)\s+(?:still\s+|now\s+)?(?:have|got)\b",
    re.I,
)
LIST_DETAILS = re.compile(
    # "show me what's on the X list": the showing and the question ask for one thing
    r"^(?:(?:show|tell)(?:\s+me)?\s+(?=what|which))?"
    r"(?:what(?:'s| is| are)(?: left| still| now)?|show(?: me)?|list|which books are|"
    r"how many(?: books)? (?:are(?: there)?|do i have|have i got))\s+(?:the\s+)?(?:books\s+)?"
    r"(?:in|on)\s+(?:my\s+|the\s+)?(?P<name>.+?)\s+(?:reading\s+)?list"
    # "... on my holiday list at the moment?": when is asked is now, no part of the list
    r"(?:\s+(?:at\s+the\s+moment|right\s+now|currently|now|so\s+far|at\s+present|today))?\W*$",
    re.I,
)
CREATE = re.compile(
    # "set me up a list called X": who it is for said inside the verb
    r"^(?:please\s+)?(?:create|make|start|open|set\s+(?:me\s+|us\s+)?up|begin)\s+(?:me\s+|us\s+)?"
    r"(?:a\s+)?(?:new\s+)?"
    # "a list for kids bedtime": what the list is for is its name
    r"(?:reading\s+)?list\s+(?:(?:called|named|titled)\s+|for\s+(?:my\s+|our\s+)?)?"
    r"(?P<name>.+?)\W*$",
    re.I,
)
CREATE_QUOTED = re.compile(
    r"^(?:please\s+)?(?:create|make|start|set\s+(?:me\s+|us\s+)?up|begin)\s+(?:me\s+|us\s+)?"
    r"(?:a\s+)?(?:new\s+)?"
    r"(?P<name>[\"“'‘][^\"”'’]{1,40}[\"”'’])\W*$",
    re.I,
)
"""A new list named in quotes without the word list ("create 'Hosseini'"): nothing else on
the book surface is made with a name alone."""
CREATE_LABELLED = re.compile(
    r"^(?:(?:and|then|also|ok(?:ay)?|so)\s+)*(?:a\s+)?new\s+(?:reading\s+)?list\s*[:—–-]\s*"
    r"(?P<name>\w.*?)\W*$",
    re.I,
)
"""A new list set down as a label and its name ("new list: Reading Group 2027")."""
CREATE_WISH = re.compile(
    r"^(?:i|we)\s*(?:need|want|wanna|['’]d\s+like|would\s+like)\s+(?:a|another|one\s+more)\s+"
    r"(?:new\s+|fresh\s+|separate\s+)?(?:reading\s+)?list\b[^,.;:]*[,.;:]?\s*(?:and\s+|so\s+)?"
    r"(?:(?:please\s+)?(?:call|name|title)\s+it|(?:it\s+)?(?:called|named|titled))\s+"
    r"(?P<name>.+?)\W*$",
    re.I,
)
"""A new list wished for, then named ("we need a list for the club, call it Picks")."""
RENAME = re.compile(
    r"^(?:please\s+)?rename\s+(?:my\s+|the\s+)?(?:(?:reading\s+)?list\s+(?P<old1>.+?)|"
    # "rename X to Y instead": the change of mind is no part of the new name
    r"(?P<old2>.+?)\s+(?:reading\s+)?list)\s+to\s+(?P<new>.+?)(?:\s+instead)?\W*$",
    re.I,
)
_QUOTED = r"[\"'‘“][^\"'’”]+[\"'’”]"
NAME_SHOULD_BE = re.compile(
    rf"(?:\blist\s+(?P<old1>{_QUOTED}|[\w'’&-]+)|(?P<old2>{_QUOTED}|[\w'’&-]+)\s+list)\s+"
    r"should\s+(?:really\s+)?(?:be|say|read)\s+(?!in\b|under\b|listed\b|on\b|by\b)"
    # "the Autumn list should be removed": what is done to it, no name
    r"(?!(?:deleted|removed|binned|trashed|scrapped|erased|gone|emptied|cleared)\W*$)"
    r"(?:(?:called|named|spelt|spelled)\s+)?(?P<new>.+?)\W*$",
    re.I,
)
"""A list whose name is said to be wrong ("the list 'Horor' should be 'Horror'"): renamed."""
DELETE = re.compile(
    rf"^(?:please\s+)?{DELETE_VERB}\s+(?:my\s+|the\s+)?"
    # "remove the King book from my list" takes a book off a list: no list is deleted.
    r"(?!.*\b(?:from|off|out\s+of)\b)"
    r"(?:(?:reading\s+)?list\s+(?:called\s+|named\s+)?(?P<name1>.+?)|(?P<name2>.+?)\s+"
    r"(?:reading\s+)?list)\W*$",
    re.I,
)
ADD = re.compile(
    rf"^(?:please\s+)?{ADD_VERB}\s+(?P<book>.+?)\s+(?:to|on|onto|in|into)\s+(?:my\s+|the\s+)?"
    r"(?:(?:reading\s+)?list\s+(?P<list1>[^,:]+?)|(?P<list2>(?!(?:my|the|a|our)\s)[^,:]+?)\s+"
    r"(?:reading\s+)?list)"
    r"(?:\s*(?:,|:|with)\s*(?:(?:the|a)\s+)?(?:note\s*:?\s*)?(?P<note>.+?))?\W*$",
    re.I,
)
REMOVE = re.compile(
    rf"^(?:please\s+)?{REMOVE_VERB}\s+(?P<book>.+?)\s+(?:from|off|out\s+of)\s+"
    r"(?:of\s+)?(?:my\s+|the\s+)?(?:(?:reading\s+)?list\s+(?P<list1>.+?)|"
    r"(?P<list2>(?!(?:my|the|a|our)\s)[^\s].*?)\s+"
    # "..., she's outgrown it": a reason after the list is no part of its name.
    r"(?:reading\s+)?list(?:\s*[,;]\s*(?P<why>.+?))?)\W*$",
    re.I,
)
ARROW = re.compile(
    r"^(?P<book>[^>]+?)\s*(?:->|→|=>|-->)\s*(?:my\s+|the\s+)?(?P<list>.+?)"
    r"(?:\s+(?:reading\s+)?list)?\W*$",
    re.I,
)
"""A book pointed at a list ("X -> Kids list"): an entry, when the right side is a list."""
SENT_ONTO = re.compile(
    r"^(?P<book>[^,;:?>]+?)\s*(?:,|-|–|—)?\s+(?:onto|into|on\s+to|to)\s+(?:my\s+|the\s+)?"
    r"(?P<list>[^?]+?)(?:\s+(?:reading\s+)?list)?[.!\s]*$",
    re.I,
)
"""A book sent to a list with no verb ("The Color of Magic, onto Fantasy", "Dracula into
Spooky"): an entry, as the arrow is, when the left side is a catalog title and the right
side one of the reader's lists."""
RATE = re.compile(
    rf"^(?:please\s+)?(?:rate|give|i(?:'d| would)? give|i rate)\s+(?P<book>.+?)\s+"
    r"(?:(?:with|at)\s+)?(?:a\s+)?"
    # "4 out of 5" is a rating whether or not "stars" follows it; "rate it with five stars",
    # "rate it at 4 stars": the grade's preposition is no part of the title
    rf"{_STARS}(?:\s*/\s*5|\s+out\s+of\s+(?:5|five)(?:\s+stars?)?|\s+stars?)"
    r"(?:\s*(?:[:,.-]|and say|saying|with the review|review:?)\s*(?P<review>.+?)|"
    # "3 stars since I finished it": why, after the grade (no review: `remarks.review_told`)
    r"\s+(?P<why>(?:since|because|cos|as)\s.+?))?\W*$",
    re.I,
)
RATE_ALT = re.compile(
    # "rate Holes a 3 — it was our last pick": the grade's article and a remark (no number in
    # it) after a dash or comma are not the title's
    rf"^(?:please\s+)?rate\s+(?P<book>.+?)\s+(?:(?:with|at)\s+)?(?:an?\s+)?{_STARS}(?:\s*[—–,;.!-]\s+[^\d]*)?\W*$",
    re.I,
)
_WRONG_WORDS = r"(?:wrong|incorrect|off|not\s+right|a\s+mistake|mistaken)"
"""What a record's wrong value is said to be; one list for both readings below."""
_SAID_WRONG = rf"(?:(?:is|['’]s)\s+{_WRONG_WORDS}|isn['’]t\s+right)"
"""How a record's value is said to be wrong ("is wrong", "is off", "isn't right")."""
CORRECT_YEAR = re.compile(
    # a book starts with a letter and holds no year: "the year - should be 1987", "the year as
    # 1990, it should be 1965" name none here
    r"(?:year|date)\s+(?:(?:of|on|for)\s+)?"
    r"(?P<book>(?!(?:as|is|it)\b)[^\W\d_](?:(?!\b\d{4}\b)[^,;])*?)"
    rf"\s+(?:{_SAID_WRONG}|should be)"
    r".*?(?P<year>\b\d{4}\b)"
    r"|^(?P<book2>.+?)\s+was\s+(?:first\s+)?published\s+in\s+(?P<year2>\d{4}),?\s+not\s+\d{4}",
    re.I,
)
CORRECT_LANGUAGE = re.compile(
    rf"language\s+of\s+(?P<book>.+?)\s+(?:{_SAID_WRONG}|should be|to)"
    r"(?:.*?\b(?:it is|it's|should be|to|in))?\s+(?P<language>[A-Za-z]+)\W*$"
    r"|^(?P<book2>.+?)\s+is\s+(?:written\s+)?in\s+(?P<language2>[A-Za-z]+),?\s+not\s+[A-Za-z]+",
    re.I,
)
_VALUE_LEAD = (
    r"(?:[-–—:;]+\s*)?(?:(?:it|that|this|he|she|they|the\s+(?:real|right|correct|actual)\s+(?:one|author|writer|"
    r"category))\s*(?:should\s+be|must\s+be|is|['’]s|was|are)\s+)?"
)
"""The words between "is wrong," and the right value ("..., it should be Bram Stoker")."""
CORRECT_AUTHOR = re.compile(
    r"^(?P<book>.+?)\s+was\s+written\s+by\s+(?P<author>.+?),?\s+not\s+.+$"
    rf"|author\s+of\s+(?P<book2>.+?)\s+(?:{_SAID_WRONG}.*?|should be)\s+"
    rf"{_VALUE_LEAD}(?P<author2>[^.,]+?)\W*$",
    re.I,
)
CORRECT_CATEGORY = re.compile(
    r"^(?P<book>.+?)\s+should\s+be\s+(?:in|under|filed under|listed (?:as|under))\s+"
    r"(?:the\s+)?(?P<category>.+?)(?:\s+categor(?:y|ies)|\s+shelf)?(?:,?\s+not\s+.+)?\W*$"
    rf"|categor(?:y|ies)\s+of\s+(?P<book2>.+?)\s+(?:{_SAID_WRONG}.*?|should be)\s+"
    rf"{_VALUE_LEAD}(?P<category2>[^.,]+?)\W*$",
    re.I,
)
CATEGORY_TO = re.compile(
    r"\b(?:correct|change|fix|set|move|update|switch|make)\s+(?:the\s+|its\s+|their\s+)?"
    r"categor(?:y|ies)\s+(?:(?:of|on|for)\s+(?P<book>.+?)\s+)?(?:to|into|as)\s+"
    r"(?P<category>[^.,;!?]+?)\W*$",
    re.I,
)
"""A category changed to a value said after "to" ("... Fix the category to Travel")."""
CATEGORY_UNSAID = re.compile(
    r"^(?:please\s+)?(?:correct|change|fix|update|edit)\s+(?:the\s+|its\s+)?categor(?:y|ies)"
    r"(?:\s+(?:of|on|for)\s+(?P<book>[^.,;!?]+?))?\W*$",
    re.I,
)
"""A category to change with no new one said: which it should be is asked."""
_FIELD = (
    r"(?:authors?|writers?|author\s+field|language|(?:publication\s+|published\s+)?(?:year|date))"
)
_FIX = (
    r"(?:please\s+)?(?:i\s+(?:want|need|would\s+like|['’]d\s+like)\s+(?:you\s+)?to\s+)?(?:correct|"
)
_FIX += r"change|fix|update|edit|amend)"
_WRONG = (
    rf"(?:(?:is|looks|seems)\s+{_WRONG_WORDS}|needs?\s+"
    r"(?:fixing|correcting|changing|updating|(?:to\s+be\s+)?(?:fixed|corrected|changed|updated)))"
    r"(?:\W+(?:(?:can|could)\s+you\s+|please\s+)?(?:fix|correct|sort|change)\s+(?:it|that)"
    r"(?:\s+please)?)?\W*$"
)
FIELD_UNSAID = re.compile(
    rf"^{_FIX}\s+(?:the\s+|its\s+)?(?P<field>{_FIELD})(?:\s+(?:of|on|for|in)\s+(?:the\s+)?"
    r"(?:book\s+)?(?P<book>(?:(?!\b(?:to|as|into)\b)[^.,;!?])+?))?(?:\s+(?:please|pls))?\W*$|"
    # "fix Coraline's author", "the year on X is wrong, can you fix it?": still no value said
    rf"^{_FIX}\s+(?P<book2>[^.,;!?]+?)['’]s?\s+(?P<field2>{_FIELD})(?:\s+(?:please|pls))?\W*$|"
    rf"^(?:the\s+)?(?P<field3>{_FIELD})\s+(?:of|on|for|in)\s+(?P<book3>[^.,;!?]+?)\s+{_WRONG}|"
    rf"^(?P<book4>[^.,;!?]+?)['’]s?\s+(?P<field4>{_FIELD})\s+{_WRONG}",
    re.I,
)
"""A record's field to change with no value said ("fix the author on X"): the value is asked."""
SIMILAR = re.compile(
    # "what else is like X", "anything else like this?": "else" is no part of the book
    # "I want a recommendation similar to that book": a recommendation is books too
    r"(?:(?:books?|novels?|titles?|reads|ones|something|anything|more|recommendations?|recs?|"
    r"suggestions?)\s+|what\s+(?=else\b))"
    r"(?:else\s+(?:(?:is|are|would\s+be|might\s+be)\s+)?)?"
    # "books that are similar to X", "which books are like X": the same, said in a clause
    r"(?:(?:that|which)\s+)?(?:(?:are|is|would\s+be|might\s+be|feel|read)\s+)?"
    r"(?:(?:a\s+(?:bit|little)|somewhat|kind\s+of|sort\s+of|a\s+lot)\s+)?"  # "a bit like X"
    r"(?:like|similar to|comparable to|akin to|in the vein of|resembl(?:e|es|ing))\s+"
    r"(?P<title>.+?)\W*$"
    r"|^(?:what(?:'?s|\s+is)\s+)?(?:similar|comparable)\s+to\s+(?P<title2>.+?)\W*$"
    r"|\bread-?\s?alikes?\s+(?:for|to|of)\s+(?P<title3>.+?)\W*$"
    r"|\b(?:(?:in\s+the\s+)?same\s+(?:vein|spirit|mould|mold|style|kind\s+of\s+thing)\s+as|"
    r"in\s+the\s+(?:vein|spirit|style)\s+of|along\s+the\s+lines\s+of|reminiscent\s+of)\s+"
    r"(?P<title4>.+?)\W*$"
    # "suggestions based on X", "recs for fans of X": what to read next, drawn from X.
    r"|\b(?:recs|recommendations|suggestions|picks)\s+(?:based\s+(?:on|off)|for\s+(?:fans|"
    r"readers|lovers)\s+of|if\s+i\s+(?:liked|loved|enjoyed))\s+(?P<title5>.+?)\W*$"
    # "what would you get for a friend who loved X?": suggestions drawn from what they liked
    r"|\b(?:suggest|recommend|get|pick|give)\b.{0,40}?\bfor\s+(?:someone|somebody|a\s+"
    r"(?:reader|person|fan|kid|child|teen|friend)|people|readers|fans)\s+who\s+(?:really\s+)?"
    r"(?:loved|liked|adored|enjoyed|devoured)\s+(?P<title6>[^?!.]+?)\s*(?:[?!.]|$)"
    # "if i enjoyed X, what else would i like": what else, drawn from X
    r"|^if\s+(?:i|you)\s+(?:liked|loved|enjoyed|adored)\s+(?P<title7>.+?),?\s+what\s+"
    r"(?:else|next|other\s+books?)\b"
    # "sounds fun - anything similar?": the book in view, no title said.
    r"|\b(?P<bare>(?:anything|something|any\s+more|more|others?|ones|books?)\s+(?:else\s+)?"
    r"(?:similar|alike|"
    r"like\s+(?:it|this|that)(?:\s+one)?)|"
    # "... and find me similar books": the adjective before the noun, still no title said.
    r"^(?:please\s+)?(?:find|show|get|recommend|suggest|give|list|pull\s+up)\s+(?:me\s+|us\s+)?"
    r"(?:some\s+|a\s+few\s+|more\s+)?(?:similar|comparable)\s+(?:books?|novels?|titles?|reads|"
    r"ones|stuff))\W*$",
    re.I,
)
REASON_WORDS = (
    r"(?:(?:we|i|she|he|they|it)(?:['’]\w+|\s+am|\s+have)?|because|since|as|cause|cos|coz|bc|"
    # "..., couldn't get into it": a remark with its subject (the reader) left unsaid
    r"(?:could|did|does|was|were|would|can|do)n['’]?t)"
)
"""How a reason opens ("I've read it", "because", "we swapped it")."""
REASON_AFTER = re.compile(rf"[,;]\s*{REASON_WORDS}\b.*$", re.I)
"""Why, said after a title or a request ("Gilead, I've read it"): no part of the title."""
WHO_WROTE = re.compile(
    r"^(?:who(?:\s+(?:wrote|translated|illustrated|edited)|(?:['’]s|\s+is)\s+the\s+"
    r"(?:author|translator|illustrator|editor)\s+of)|"
    r"(?:author|translator|illustrator|editor)\s+of)\s+(?P<title>.+?)\W*$",
    re.I,
)
"""Who a book is by; the catalog credits translators, illustrators and editors beside the
author, so "who translated X" is answered from the same record."""
WHEN = re.compile(
    r"^when\s+(?:(?:was|did)\s+(?P<title>.+?)|(?P<title2>(?!was\b|did\b).+?)\s+(?:was|came))\s+"
    r"(?:first\s+)?(?:published|written|come out|out|released|appear(?:ed)?)\W*$",
    re.I,
)
ABOUT = re.compile(
    r"^(?:what(?:'?s| is)\s+(?P<title>.+?)\s+about|tell me (?:more )?about\s+(?P<title2>.+?)|"
    r"(?:give me |show me )?(?:the )?details (?:of|for|about|on)\s+(?P<title3>.+?)|"
    r"describe\s+(?P<title4>.+?)|"
    # "I want to know more about X", "info on X": asking after one book.
    r"(?:i\s+(?:want|wanna|need|would\s+like|'?d\s+like)\s+to\s+)?know\s+(?:more\s+|a\s+bit\s+)?"
    r"about\s+(?P<title5>.+?)|"
    r"(?:some\s+|more\s+|any\s+)?info(?:rmation)?\s+(?:on|about|for)\s+(?P<title6>.+?)|"
    # "look up Oryx and Crake": one book's record, never "look up books on X" (a search)
    r"look\s+up\s+(?!(?:some|any|a\s+few|good)?\s*(?:books?|novels?|titles?|something|anything|"
    r"stuff)\b)(?P<title7>.+?)|"
    # "bring up the record for X": the same, said as a page to open
    r"(?:(?:pull|bring|call|look|open)\s+up|open|show\s+me|get\s+me)\s+(?:the\s+|its\s+)?"
    r"(?:info(?:rmation)?|details|record|"
    r"entry|page|card|profile|listing|file|blurb|summary|rundown|fact\s*sheet)\s+"
    r"(?:on|about|for|of)\s+(?P<title8>.+?))\W*$",
    re.I,
)
BY_WRITER_AFTER = re.compile(r"\s+by\s+[A-Z][\w.'’-]*(?:\s+[A-Z][\w.'’-]*)*$")
"""The writer said after a title ("The Sea by Banville"): no part of the title."""
HOW_LONG = re.compile(
    r"^(?:how\s+(?:long|big|many\s+pages)\s+(?:is|does)\s+(?P<title>.+?)(?:\s+(?:have|run))?|"
    # the order of a question told ("tell me how long it is", "... how many pages Dune has")
    r"how\s+(?:long|big|many\s+pages)\s+(?P<title3>(?!is\b|does\b).+?)\s+(?:is|has|runs)|"
    r"(?:what(?:['’]?s|\s+is)\s+)?(?:the\s+)?(?:page\s+count|length|number\s+of\s+pages)\s+"
    r"(?:of|for|in)\s+(?P<title2>.+?))\W*$",
    re.I,
)
"""A book's length asked ("how long is it?")."""
LANGUAGE_Q = re.compile(
    r"^(?:what|which)\s+language\s+is\s+(?P<title>.+?)\s+(?:written\s+)?in"
    # "..., in your catalogue?": where the answer is kept, no part of the question
    r"(?:\W+(?:in|on|according\s+to|per)\s+(?:your|the|this)\s+(?:catalog(?:ue)?|records?|"
    r"system|library|database|site|app)"
    # "what language is X in here": the place asked about is this catalogue
    r"|\s+(?:(?:in|on)\s+)?here)?\W*$",
    re.I,
)
GENRE_Q = re.compile(
    r"^(?:(?:what|which)\s+(?:genre|category|kind\s+of\s+(?:book|novel|story)|"
    r"type\s+of\s+(?:book|novel|story)|sort\s+of\s+(?:book|novel|story))\s+(?:is|was|would)\s+"
    r"(?P<title>.+?)(?:\s+(?:be\s+)?(?:in|under|considered|classed\s+as|filed\s+under|shelved\s+"
    r"(?:under|as)))?|"
    r"(?:what(?:['’]?s|\s+is)\s+)?(?:the\s+)?(?:genre|category)\s+(?:of|for)\s+(?P<title2>.+?)|"
    r"(?:what|which)\s+(?:genre|category)\s+(?:does|did)\s+(?P<title3>.+?)\s+"
    r"(?:belong\s+to|fall\s+(?:under|into|in)|fit\s+(?:in|into|under)|go\s+under))\W*$",
    re.I,
)
"""One book's genre asked ("what genre is the night circus", "genre of Dune?", "what kind of
book is Beloved"): its shelves, never a search for a title holding "genre"."""
FACETS = re.compile(
    r"\b(?:what|which)\s+(?:languages|categories|genres|shelves)\b|\bhow many books\b", re.I
)
EXCLUDE_AUTHOR = re.compile(
    r"\s*,?\s*(?:but\s+)?(?:(?:that|which|who)\s+)?(?:isn'?t|is\s+not|aren'?t|are\s+not|not|"
    r"nothing|none)\s+(?:written\s+)?by\s+(?P<author>[^,]+?)(?=\s*(?:,|$))",
    re.I,
)
EXCLUDE_CATEGORY = re.compile(
    r"\s*,?\s*(?:but\s+)?(?:no|without|excluding)\s+(?!(?:wait|actually|scratch|hang|hold)\b)"
    r"(?P<category>[a-z][a-z -]+?)(?=\s*(?:,|$))",
    re.I,
)
TOPIC_LEAD = re.compile(
    r"^(?:what(?:'?s|s|\s+is)\s+(?:out\s+)?there|(?:have\s+you\s+got|do\s+you\s+have|"
    r"got)\s+anything)\s+(?:on|about|covering)\s+(?!(?:my|our|the\s+team)\b)",
    re.I,
)
"""A topic asked after ("whats out there on colour theory"): a search, book words or not.

Never "anything on my plate" (the reader's own work is no topic)."""
ABOUT_ME = re.compile(
    r"\s*[,;.]\s*(?:i(?:'ve|’ve|\s+have|'m|’m|\s+am)|i\s+(?:already|just))\b.*$", re.I
)
"""What a searcher says of themselves after the request ("..., I've got a long holiday")."""
LABEL = re.compile(
    r"^(?:(?:a|one)\s+)?(?:(?:small|quick|little|tiny|minor|slight|simple|random)\s+)?"
    r"(?:question|q|thing|one|note|request|fyi|heads[\s-]up)\s*[:—–-]\s*(?=\S)",
    re.I,
)
"""A label before the request that says nothing of it ("Quick question: who wrote X?"):
never a title. A label that does ("Small error: ...") stays for the correction to read."""
CORRECTION_LABEL = re.compile(
    r"^(?:(?:a|one)\s+)?(?:(?:small|quick|little|tiny|minor|slight)\s+)?(?:error|mistake|typo|"
    r"fix|correction|issue|problem)\s*[:—–-]\s*(?=\S)",
    re.I,
)
"""A correction's own label ("Small error: X is by Y alone"): no part of the title."""
SEARCH_LEAD = re.compile(
    r"^(?:please\s+)?(?:(?:can|could) you\s+)?(?:find|search(?: for)?|look for|recommend|"
    r"suggest|show me|i want(?!\s+to\s+(?:rate|score|review|add|put|remove|take|drop|delete|"
    r"rename|create|make|start|fix|correct|change|update)\b)|"
    r"(?:i'm\s+|i\s+am\s+)?(?:looking|hunting)\s+for|give me)\s+(?:me\s+)?",
    re.I,
)
"""A request for books ("find me ...", "I want a ..."); "I want to rate a book" wishes a change."""


_SECOND_QUESTION = re.compile(
    r"\s*(?:,\s*)?(?:and|&)\s+(?P<ask>when|what year|which year|how long|how many pages|"
    r"what language|which language|who|what(?:'s| is) it about)\b.*$",
    re.I,
)
_SECOND_FIELDS = {
    "when": ("published_year",),
    "what year": ("published_year",),
    "which year": ("published_year",),
    "how long": ("pages",),
    "how many pages": ("pages",),
    "what language": ("language",),
    "which language": ("language",),
    "who": ("authors",),
}


def second_question(title: str) -> tuple[str, tuple[str, ...]]:
    """A details question's title without a second question joined to it, and its fields.

    "who wrote frankenstein and when" asks for the author and the year of *Frankenstein*,
    not for a book titled "frankenstein and when".
    """
    found = _SECOND_QUESTION.search(title)
    if found is None or found.start() == 0:
        return title, ()
    ask = " ".join(found.group("ask").casefold().split())
    fields = _SECOND_FIELDS.get(ask, ("description", "categories"))
    return title[: found.start()].strip(), fields


_FOR_ADULTS = re.compile(
    r"\b(?:for\s+(?:grown[\s-]?ups|adults?|older\s+readers)|(?:not|no)\s+(?:for\s+)?(?:an?\s+)?"
    # "not a children's book": the kind of book said with its article and possessive
    r"(?:young\s+adults?|ya|kids|children|teens?)(?:['’]s?)?|adult\s+(?:version|one|books?))"
    r"(?!\w)",
    re.I,
)
_BUT = re.compile(r"\s*,?\s+(?:but|only|except)(?:\s*,\s*|\s+)(?P<tail>.+)$", re.I)


_IN_RESPECT = re.compile(
    r"\s+in\s+(?:(?:its|their|the|her|his)\s+)?(?:manner|tone|style|spirit|mood|feel|atmosphere|"
    r"themes?|subject(?:\s+matter)?|preoccupations?|voice|setting|scope|concerns?|prose|pace)"
    r"(?:\s*(?:,|and|or)\s*(?:\w+))*$",
    re.I,
)
"""The respects a likeness is asked in ("resemble it in manner and preoccupation")."""


def like_but(title: str) -> tuple[str, bool, str]:
    """A "like X but ..." title split: X, whether the tail asks for adults' books, the tail.

    "the hunger games but for grown-ups" -> ("the hunger games", True, "for grown-ups"); the
    respects a likeness is asked in are no part of X ("it in manner and tone" -> "it").
    """
    title = _IN_RESPECT.sub("", title)
    found = _BUT.search(title)
    if found is None or found.start() == 0:
        return title, False, ""
    tail = found.group("tail")
    return title[: found.start()].strip(), bool(_FOR_ADULTS.search(tail)), tail
