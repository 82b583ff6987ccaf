"""The book rules' catalog requests: searches, ratings, corrections, similar books, facts.

Each matcher reads the reader's own message against a pattern (`book_patterns.py`) and,
when it matches, returns the stages of a plan in `RulePolicy`'s form; otherwise `[]`, and
the policy tries the next one. A search's filters come from the message: "nothing YA",
"not by King or Koontz", "nothing longer than 300 pages", and the query-understanding
rules for languages, years and lengths.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from lectern.adapters.llm.rule_replies import _as_dict, _books_reply, _facets_reply
from lectern.adapters.llm.rule_steps import MODEL_ID, BookSteps
from lectern.adapters.understanding.book_patterns import (
    ABOUT,
    ABOUT_ME,
    BY_WRITER_AFTER,
    CATEGORY_TO,
    CATEGORY_UNSAID,
    CORRECT_AUTHOR,
    CORRECT_CATEGORY,
    CORRECT_LANGUAGE,
    CORRECT_YEAR,
    EXCLUDE_AUTHOR,
    EXCLUDE_CATEGORY,
    FACETS,
    FIELD_UNSAID,
    GENRE_Q,
    HOW_LONG,
    LANGUAGE_Q,
    NOT_YOUTH,
    RATE,
    RATE_ALT,
    SEARCH_LEAD,
    SIMILAR,
    TOPIC_LEAD,
    WHEN,
    WHO_WROTE,
    like_but,
    second_question,
)
from lectern.adapters.understanding.book_plan import plan_books, title_in, top_of
from lectern.adapters.understanding.compound import only_regrade
from lectern.adapters.understanding.lexicon_data import LANGUAGE_NAMES
from lectern.adapters.understanding.mentions import Names
from lectern.adapters.understanding.referents import Several
from lectern.adapters.understanding.remarks import review_told, ungraded
from lectern.adapters.understanding.said_bounds import with_leading_bounds
from lectern.adapters.understanding.scaffold import NUMBER, Step
from lectern.adapters.understanding.scaffold import Done as _Done
from lectern.adapters.understanding.scaffold import clean as _clean
from lectern.adapters.understanding.scaffold import number as _number
from lectern.adapters.understanding.settled_search import settled_search
from lectern.adapters.understanding.slots import COUNT_AFTER, regraded
from lectern.application.ports import QueryUnderstanding
from lectern.application.understanding import key_of
from lectern.domain.assistant import AIResponse, ToolCall

_NUMBER = NUMBER
_AT_MOST = re.compile(
    r"\b(?:nothing|none|not|no)\s+(?:(?:longer|more|bigger|larger|over)\s+than|over|above)\s+",
    re.I,
)
"""A limit said as a refusal ("nothing longer than 300 pages"): at most that many."""
_REFUSED = (
    r"\b(?:nothing|none|not\s+anything|no\s+books?|no\s+novels?|not)\s+(?:that\s+was\s+|from\s+)?"
    r"(?:published\s+|written\s+|released\s+|that\s+came\s+out\s+)?"
)
_NOT_BEFORE = re.compile(
    rf"{_REFUSED}(?:before|earlier\s+than|older\s+than|prior\s+to)\s+(?P<year>1\d{{3}}|20\d{{2}})\b",
    re.I,
)
"""A year refused as a lower bound ("nothing published before 2000"): from that year on."""
_NOT_AFTER = re.compile(
    rf"{_REFUSED}(?:after|later\s+than|newer\s+than|since)\s+(?P<year>1\d{{3}}|20\d{{2}})\b",
    re.I,
)
"""A year refused as an upper bound ("nothing after 1950"): up to that year."""
_CONTRAST = re.compile(
    r"\b(?:says|shows|wrong|incorrect|should\s+be|fix|correct(?:ion)?|error|mistake|typo)\b"
    r"|,\s*not\s+(?-i:[A-Z]|\d{4})"
    # "the author of Emma is Jane Austen only": one right author set against the others
    r"|\b(?:is|are)\s+(?:by\s+)?(?-i:[A-Z][\w.'’-]*(?:\s+[A-Z][\w.'’-]*)*)\s+(?:only|alone)\b"
    r"|\b(?:lists|has)\s+(?:it\s+as\s+)?\d{4}\b"
    # "the date you have is a reprint": the record's value set against the one stated
    r"|\b(?:you\s+have|you['’]ve\s+got|you\s+list|you\s+show|reprint|re-?issue)\b"
    # what the record holds, said as a fact about it ("X credits Y as co-author", "X is down
    # as Welsh"), set against the right value ("the only author is Z", "it's only Z")
    r"|\b(?:lists|has|credits|shows|names)\s+.{1,60}?\s+as\s+(?:an?\s+|the\s+)?(?:co-?)?"
    r"(?:authors?|writers?)\b"
    r"|\b(?:is|are)\s+(?:down|listed|marked|filed|catalogued|cataloged|tagged|shown|showing|"
    r"labell?ed)\s+(?:as\b|(?-i:[A-Z]))"
    r"|\b(?:only|sole|real|actual)\s+(?:author|writer)\s+is\b"
    r"|\b(?:it['’]s|is)\s+only\s+(?-i:[A-Z])"
    # "... is A and B both, not just one": the writers said set against a record with fewer
    r"|\bnot\s+(?:just|only|merely)\s+(?:the\s+)?(?:one(?:\s+of\s+them)?|him|her|(?-i:[A-Z]))",
    re.I,
)
"""A correction sets the right value against what the record shows ("..., not Jan Needle")."""
_PLEASE = re.compile(r"\b(?:please|pls|plz)\b", re.I)
_VALUE_THEN_WHY = re.compile(
    r"\s*(?:,|;|\.|\s[—–-])\s*(?:that['’]?s|that\s+is|it['’]?s|it\s+is|it\s+was|which|as|since|"
    r"because|cos|can|could|would|please|pls)\b.*$",
    re.I | re.S,
)
"""What follows a category's value: why, or a request ("French, that's the language ...")."""
_TAIL_GLUE = frozenset(
    re.findall(
        r"\w+",
        "a an and also but or the that than which with please pls one ones book books novel "
        "novels something anything pages page long",
    )
)
"""Words of a "but ..." tail that are no wish of their own once its limits are read."""


_POINTER_THEN_REMARK = re.compile(
    r"^(?P<p>that|this|it|that\s+one|this\s+one)\s*[?!.]\s+.*$", re.I | re.S
)


def _bounds_led(query: str) -> str:
    """The query with its limits said the way the filter rules read them (direction first)."""
    query = with_leading_bounds(_AT_MOST.sub("at most ", query))
    query = _NOT_BEFORE.sub(lambda m: f"since {m.group('year')}", query)
    query = _NOT_AFTER.sub(lambda m: f"until {m.group('year')}", query)
    return " ".join(_PLEASE.sub(" ", query).split())


_THE_BOOK = re.compile(r"^(?:the|this|that)\s+(?:book|novel)\s+(?=\S)", re.I)
_SIMILAR_COUNT = re.compile(
    rf"\b{_NUMBER}\s+(?:more|others?|similar|(?:\w+\s+)?(?:books?|novels?|titles?|reads|ones))\b",
    re.I,
)
"""How many books like one a request asks for ("three more like it", "2 novels like X")."""
_QUESTION = re.compile(r"\?\s*$|^(?:is|was|does|did|who|what|when|which|why|how)\b", re.I)
_ASKS_A_FIX = re.compile(
    r"\b(?:can|could|would|will)\s+(?:you|u)\s+(?:please\s+|pls\s+)?(?:fix|correct|change|update|"
    r"amend|submit|file|log|send|make)\b",
    re.I,
)
"""A question that asks for the change ("Can you fix the authors?"): a request, not a question."""


class BookRules:
    """The catalog requests by rules: each matcher returns a plan's stages, or `[]`."""

    def __init__(self, steps: BookSteps, understanding: QueryUnderstanding | None) -> None:
        """`steps` makes the calls; `understanding` reads a search's filters, when given."""
        self.steps = steps
        self.understanding = understanding

    def search_call(self, query: str, limit: int = 5) -> ToolCall:
        """A `search_books` call with the filters and exclusions the query states."""
        query = _bounds_led(ABOUT_ME.sub("", _clean(query)))
        arguments: dict[str, Any] = {}
        # Authors the query rules find refused against the catalog ("no Le Carré", "no
        # Tolkien"): a refusal the shelf pattern below would take for a shelf is an author's.
        refused = (
            self.understanding.plan(query).filters.exclude_authors
            if self.understanding is not None
            else ()
        )
        if NOT_YOUTH.search(query):
            # "fantasy but nothing YA": the youth shelves are left out, not searched for.
            arguments["exclude_youth"] = True
            query = NOT_YOUTH.sub("", query).strip(" ,")
        authors = [
            name.strip()
            for m in EXCLUDE_AUTHOR.finditer(query)
            for name in re.split(r"\s*,\s*|\s+(?:or|and|nor)\s+", m.group("author"))
            if name.strip()
        ]  # "isn't by King or Koontz": both left out
        query = EXCLUDE_AUTHOR.sub("", query)
        categories = [
            m.group("category").strip()
            for m in EXCLUDE_CATEGORY.finditer(query)
            if not any(set(key_of(m.group("category"))) <= set(key_of(a)) for a in refused)
        ]
        query = EXCLUDE_CATEGORY.sub("", query).strip(" ,")
        if authors:
            arguments["exclude_authors"] = authors
        if categories:
            arguments["exclude_categories"] = categories
        if self.understanding is not None:
            filters = self.understanding.plan(query).filters
            for name in ("language", "min_year", "max_year", "min_pages", "max_pages"):
                value = getattr(filters, name)
                if value is not None:
                    arguments[name] = value
            if refused and not authors:
                arguments["exclude_authors"] = list(refused)
            # "fantasy recs but NOT harry potter", "... NO romance and nothing for kids": what
            # the plan rules out that the patterns above did not
            for name in ("exclude_titles", "exclude_categories"):
                ruled_out = list(getattr(filters, name))
                if ruled_out and name not in arguments:
                    arguments[name] = ruled_out
        return self.steps.call("search_books", query=query, limit=limit, **arguments)

    def search(self, text: str) -> list[Step]:
        """A book search ("find three books about dragons"), answered with the books found."""
        query = SEARCH_LEAD.sub("", TOPIC_LEAD.sub("", text))
        limit = 5
        counted = re.match(rf"^{_NUMBER}\s+(?P<rest>.+)$", query, re.I)
        if counted:
            limit, query = _number(counted.group("n"), 5), counted.group("rest")
        after = COUNT_AFTER.search(query)
        if after is not None and not counted:
            # "sci-fi from the sixties, ten of them": how many, said after what
            limit, query = _number(after.group("n"), 5), query[: after.start()]
        query = SEARCH_LEAD.sub("", settled_search(query))  # "fantasy? no wait, not fantasy, ..."
        call = self.search_call(query or text, limit)
        return [lambda _: [call], lambda done: AIResponse(_books_reply(done, call), model=MODEL_ID)]

    def _title_opens_with_like(self, before: str, said: str) -> bool:
        """Whether a capitalised "Like" starts a catalog title said whole ("Like Water for...")."""
        if self.steps.titles is None or not before.rstrip().endswith("Like"):
            return False
        words = said.split()
        return any(
            self.steps.titles(" ".join(["Like", *words[:count]]))
            for count in range(len(words), 0, -1)
        )

    def rate(self, text: str, it: Callable[[str], str]) -> list[Step]:
        """A rating ("give Emma four stars"), with its review when one is written."""
        match = RATE.match(text) or RATE_ALT.match(text)
        if not match:
            asked = ungraded(text)
            return [lambda _: asked.response(MODEL_ID)] if asked else []
        stars = regraded(text) or _number(match.group("stars"), 3)
        try:
            books = [it(match.group("book"))]
        except Several as several:
            # "rate both of them 4" after a list was shown: each of its books, alike.
            books = list(several.books)
        review = match.groupdict().get("review")
        if review and only_regrade(review):
            review = None  # "rate X two stars. Make it three.": the grade said again
        review = review_told(review) if review else None
        extra = {"review": _clean(review)} if review else {}
        calls = [self.steps.call("rate_book", book=book, stars=stars, **extra) for book in books]
        return self.steps.single(calls[0]) if len(calls) == 1 else self.steps.single_calls(calls)

    def correction(
        self, text: str, it: Callable[[str], str], lists: Sequence[str] = ()
    ) -> list[Step]:
        """A correction of a book's year, language, authors or category.

        A message naming one of the reader's lists is about the list, not the record: "The
        Road shouldn't be on Read in 2026" takes it off that list; 2026 is no year of the book.
        """
        if any(re.search(rf"\b{re.escape(name)}\b", text, re.I) for name in lists):
            return []
        year = CORRECT_YEAR.search(text)
        if year:
            book = year.group("book") or year.group("book2")
            published = int(year.group("year") or year.group("year2"))
            return self.steps.single(
                self.steps.call("propose_correction", book=it(book), published_year=published)
            )
        language = CORRECT_LANGUAGE.search(text)
        if language:
            book = language.group("book") or language.group("book2")
            value = _clean(language.group("language") or language.group("language2"))
            return self.steps.single(
                self.steps.call("propose_correction", book=it(book), language=value)
            )
        author = CORRECT_AUTHOR.search(text)
        if author:
            book = author.group("book") or author.group("book2")
            names = _clean(author.group("author") or author.group("author2"))
            return self.steps.single(
                self.steps.call(
                    "propose_correction",
                    book=it(book),
                    authors=[n.strip() for n in re.split(r"\s+and\s+|,", names) if n.strip()],
                )
            )
        category = CORRECT_CATEGORY.search(text)
        if category:
            book = category.group("book") or category.group("book2")
            value = _clean(category.group("category") or category.group("category2"))
            # "listed as French, that's the language it was written in": the value, then why
            value = _VALUE_THEN_WHY.sub("", value) or value
            if value.casefold() in LANGUAGE_NAMES:
                # "should be listed as French": a language, not a shelf.
                return self.steps.single(
                    self.steps.call("propose_correction", book=it(book), language=value)
                )
            return self.steps.single(
                self.steps.call("propose_correction", book=it(book), categories=[value])
            )
        moved = CATEGORY_TO.search(text)
        book = moved and (moved.group("book") or title_in(text[: moved.start()]))
        if moved and book:
            # "X is filed under Y, which is silly. Correct the category to Z"
            value = _clean(moved.group("category"))
            return self.steps.single(
                self.steps.call("propose_correction", book=it(book), categories=[value])
            )
        unsaid = CATEGORY_UNSAID.match(text)
        if unsaid:
            which = f" {_clean(unsaid.group('book'))}" if unsaid.group("book") else " the book"
            asked = f"Which category should{which} be under?"
            return [lambda _: AIResponse(asked, model=MODEL_ID)]
        field = FIELD_UNSAID.match(text)
        if field:
            # A change with nothing to change it to: the right value is asked, never guessed.
            found = field.groupdict()
            book = next((found[k] for k in ("book", "book2", "book3", "book4") if found[k]), None)
            which = f" of {_clean(book)}" if book else ""
            named = next(found[k] for k in ("field", "field2", "field3", "field4") if found[k])
            said = " ".join(named.casefold().split()).replace(" field", "")
            question = (
                f"What should the {said}{which} be? Tell me the right value and I'll send "
                "the correction."
            )
            return [lambda _: AIResponse(question, model=MODEL_ID)]
        return self._stated_correction(text, it)

    def _stated_correction(self, text: str, it: Callable[[str], str]) -> list[Step]:
        """A right value set against the record's ("X says 2006 but it came out in 1851")."""
        asks = _QUESTION.search(text) and not _ASKS_A_FIX.search(text)
        if not _CONTRAST.search(text) or asks or SEARCH_LEAD.match(text):
            return []
        planned = plan_books("propose_correction", text, Names(), it, self.steps.call)
        if not isinstance(planned, list) or not planned:
            return []
        return self.steps.single_calls(planned)

    def similar(self, text: str, it: Callable[[str], str]) -> list[Step]:
        """Books like a named one; a search of its words when the title is not in the catalog."""
        match = SIMILAR.search(text)
        if not match:
            return []
        group = next(name for name, value in match.groupdict().items() if value)
        said = "it" if group == "bare" else match.group(group)
        # "she loved Matilda. more like that? something she can read herself": the pointer,
        # then a remark; the remark is no part of what is pointed at
        said = _POINTER_THEN_REMARK.sub(r"\g<p>", said)
        if group == "title" and self._title_opens_with_like(text[: match.start(group)], said):
            return []  # "For the book Like Water for Chocolate I give three stars": a title
        named, adults, tail = like_but(said)
        title = it(named)
        # "gimme 3 more like it", "two novels like X": as many as asked for, said before X.
        counted = _SIMILAR_COUNT.search(text if group == "bare" else text[: match.start(group)])
        # "books similar to The Last Wish, ten of them if you can": how many, said after
        counted = counted or COUNT_AFTER.search(text, 0 if group == "bare" else match.start(group))
        arguments: dict[str, object] = {
            "book": title,
            "limit": _number(counted.group("n"), 5) if counted else 5,
        }
        if adults:
            arguments["exclude_youth"] = True
        elif tail:
            # "like the hobbit but under 300 pages": the limits the tail states narrow the
            # neighbours; only what is left unread is said as not held.
            limits, tail = self._limits_of(tail)
            arguments.update(limits)
        similar = self.steps.call("similar_books", **arguments)
        fallback = self.search_call(text)
        if tail and not adults:
            # A "but ..." no tool can hold ("but shorter", "but funnier"): say so, not ignore it.
            unheld = f'(I could not narrow them by "{tail}": these are the nearest books.) '
        else:
            unheld = ""

        def answer(done: _Done) -> AIResponse | list[ToolCall]:
            if done.results and "error" in _as_dict(done.results[0]):
                return [fallback]  # the title is not in the catalog: search its words
            return AIResponse(unheld + _books_reply(done, similar), model=MODEL_ID)

        def after_fallback(done: _Done) -> AIResponse:
            return AIResponse(_books_reply(done, fallback), model=MODEL_ID)

        return [lambda _: [similar], answer, after_fallback]

    def _limits_of(self, tail: str) -> tuple[dict[str, Any], str]:
        """The language, year and page limits a "but ..." tail states, and its other words."""
        if self.understanding is None:
            return {}, tail
        said = _bounds_led(tail)
        plan = self.understanding.plan(said)
        limits = {
            name: value
            for name in ("language", "min_year", "max_year", "min_pages", "max_pages")
            if (value := getattr(plan.filters, name)) is not None
        }
        if not limits:
            return {}, tail
        rest = said
        for found in sorted(plan.recognised, key=lambda r: -r.start):
            if found.kind in ("language", "years", "pages") and found.end > found.start:
                rest = rest[: found.start] + " " + rest[found.end :]
        left = [w for w in re.findall(r"[a-z']+", rest.lower()) if w not in _TAIL_GLUE]
        return limits, " ".join(left)

    def question(self, text: str, it: Callable[[str], str]) -> list[Step]:
        """A question about a book (who wrote it, when, in what language, what it is about)."""
        text = _TOLD_QUESTION.sub("", text)  # "tell me how long it is": the question told
        for pattern, fields in (
            (WHO_WROTE, ("authors",)),
            (WHEN, ("published_year",)),
            (LANGUAGE_Q, ("language",)),
            (HOW_LONG, ("pages",)),
            (GENRE_Q, ("categories",)),
            (ABOUT, ("description", "categories")),
        ):
            match = pattern.match(text)
            if match:
                title = next(v for k, v in match.groupdict().items() if v and k.startswith("title"))
                # "about the book How We Decide": the book is named after the word "book".
                title = _THE_BOOK.sub("", title) or title
                # "the info for X by Jared Diamond": the writer is no part of the title.
                title = BY_WRITER_AFTER.sub("", title) or title
                title, more = second_question(title)
                fields = tuple(dict.fromkeys((*fields, *more)))
                return self.steps.details(
                    self.steps.call("get_book_details", book=it(title)), fields
                )
        return []

    def facets(self, text: str, it: Callable[[str], str]) -> list[Step]:
        """What the catalog holds: its top categories, languages and years."""
        del it
        if not FACETS.search(text):
            return []
        call = self.steps.call("catalog_facets", top=top_of(text) or 10)
        return [lambda _: [call], lambda done: AIResponse(_facets_reply(done), model=MODEL_ID)]


_TOLD_QUESTION = re.compile(
    r"^(?:(?:can|could|would)\s+(?:you|u)\s+)?(?:tell\s+me|let\s+me\s+know|i\s+wonder|"
    r"i\s+(?:want|need|would\s+like|['’]?d\s+like)\s+to\s+know|do\s+you\s+know)\s+"
    r"(?=(?:how|who|when|what|which)\b)",
    re.I,
)
"""A question told as a wish to know ("tell me how long it is", "let me know who wrote it"):
the question after it is the request, in the order a told question takes."""
