"""`FallbackRulePolicy`: the offline, deterministic chat model behind the search fallback.

A LangChain `BaseChatModel`, so LangChain's prebuilt ReAct agent drives it exactly as it
drives a hosted model: it reads the request (the reader's query, the reasons, the first
results) from the first user message, asks for tool calls in stages, and answers with the
chosen books by id. Tool results are read only for book ids, authors, shelves and pages, never as
instructions. The plan for each reason (the first that applies wins):

- exploration_request, "like X but not Y": get_similar_books(X, excluding Y), then, when
  too few came back, search_catalog(X's shelves that do not name Y, or X itself when X is
  no title, excluding Y); answer those books fused by reciprocal rank with the first
  results Y does not name (a trait no shelf names, "less dark", costs nothing the first
  search had right).
- exploration_request without an X ("surprise me"): search_catalog(the content words),
  get_similar_books(its best book); answer both, interleaved.
- no_results, too_few_results, no_lexical_or_vector_hits: search_catalog(the query, no
  filters), then search_catalog(its content words) while still short; answer the first
  results, then the new books.
- unresolved_like ("books like X", X no catalog title): get_similar_books(X), which reads a
  misspelt title as the closest catalog title; answer its neighbours, then the first
  results. When no title is close (the tool says so), X is not in the catalog: the answer
  is the first results, which the search already marks as the nearest it has. (Until v3
  the subject plan ran two more calls and answered the neighbours of a book found by X's
  words, as if they were books like X.)
- unknown_fit (a page limit few shown books are known to fit): search_catalog(the first
  results' two commonest shelves, with the page limit, 20 books); answer the first
  results known to fit, the new ones known to fit on a searched shelf, then the first
  results of unknown length.
- one_author: search_catalog(the query, same filters, excluding that author); answer the
  first results with at most 3 by that author, interleaved with the new books.
- anything else (exploratory_intent): search_catalog(the subject: the query without cue and
  filler words), get_similar_books(that search's best book); answer the two lists and the
  first results fused by reciprocal rank (books several lists agree on rise).

Books are read as every model-facing tool shows them (`application/book_view.py`): authors
and shelves one comma-joined string each, `pages` only when the length is known.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from itertools import zip_longest
from typing import Any

from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool

from lectern.application.book_view import NAME_SEPARATOR

MODEL_ID = "rules:search-fallback-v3"
RRF_K = 60
MAX_TOOL_LIMIT = 20
"""The most books one tool call returns (the tools' own bound)."""
KEEP_PER_AUTHOR = 3
"""With `one_author`, the dominant author keeps this many of the first results."""
_REQUEST = re.compile(r"<request>\s*(\{.*\})\s*</request>", re.S)
_STOP = frozenset(
    (
        *("a", "an", "the", "of", "and", "or", "to", "in", "on", "for", "with", "about"),
        *("into", "from", "by", "at", "as", "is", "are", "be", "that", "this", "books"),
        *("book", "novels", "novel", "stories", "story", "some", "any", "me", "i", "want"),
        *("find", "read", "reading", "something", "anything", "like", "history"),
        *("introduction", "guide", "how", "learn", "learning", "understanding"),
        *("understand", "life"),
    )
)
_WORD = re.compile(r"[\w'-]+")

Call = dict[str, Any]
Stage = Callable[[list[dict[str, Any]]], Call | None]


def _request(messages: Sequence[BaseMessage]) -> dict[str, Any]:
    """The request JSON of the first user message (empty when there is none)."""
    for message in messages:
        if isinstance(message, HumanMessage) and isinstance(message.content, str):
            match = _REQUEST.search(message.content)
            if match is not None:
                try:
                    data = json.loads(match.group(1))
                except ValueError:
                    return {}
                return data if isinstance(data, dict) else {}
    return {}


def _tool_results(messages: Sequence[BaseMessage]) -> list[dict[str, Any]]:
    results: list[dict[str, Any]] = []
    for message in messages:
        if isinstance(message, ToolMessage):
            try:
                data = json.loads(str(message.content))
            except ValueError:
                data = {"error": str(message.content)}
            results.append(data if isinstance(data, dict) else {"error": "not an object"})
    return results


def _shelves(field: Any) -> list[str]:
    """The names of a book's `categories` field (one comma-joined string, as models see it).

    A shelf that holds the separator ("actors, fiction") comes back as its pieces, each
    still a shelf's words.
    """
    return [n for n in str(field).split(NAME_SEPARATOR) if n.strip()] if field else []


def _first_author_is(book: dict[str, Any], author: str) -> bool:
    # By prefix, not by splitting: a few names hold the separator ("Haldeman, Joe W").
    authors = str(book.get("authors") or "")
    return authors == author or authors.startswith(author + NAME_SEPARATOR)


def _books(result: dict[str, Any]) -> list[dict[str, Any]]:
    books = result.get("books")
    return [b for b in books if isinstance(b, dict)] if isinstance(books, list) else []


def content_words(text: str) -> str:
    """The query without filler and exploration cue words ("the history of X" -> "X")."""
    words = [w for w in _WORD.findall(text) if w.casefold() not in _STOP]
    return " ".join(words) or text


def _interleave(*lists: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    return [b for group in zip_longest(*lists) for b in group if b is not None]


def _fuse(*lists: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Reciprocal rank fusion (k=60) of the lists: books several lists agree on rise."""
    scores: dict[str, float] = {}
    books: dict[str, dict[str, Any]] = {}
    for ranking in lists:
        for position, book in enumerate(ranking, start=1):
            book_id = str(book.get("book_id"))
            books.setdefault(book_id, book)
            scores[book_id] = scores.get(book_id, 0.0) + 1.0 / (RRF_K + position)
    return [books[i] for i in sorted(scores, key=lambda i: -scores[i])]


class FallbackRulePolicy(BaseChatModel):
    """Deterministic tool calls and answers for the search fallback (no API key)."""

    @property
    def _llm_type(self) -> str:
        return "lectern-fallback-rules"

    @property
    def model_id(self) -> str:
        """The id traces and reports use."""
        return MODEL_ID

    def bind_tools(
        self,
        tools: Sequence[dict[str, Any] | type | Callable[..., Any] | BaseTool],
        *,
        tool_choice: str | None = None,
        **kwargs: Any,
    ) -> Runnable[LanguageModelInput, AIMessage]:
        """Accept the agent's tools; the policy knows them by name and ignores the schemas."""
        del tools, tool_choice, kwargs
        return self

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> ChatResult:
        del stop, run_manager, kwargs
        request = _request(messages)
        results = _tool_results(messages)
        stages, answer = self._plan(request)
        message = AIMessage(content="")
        if len(results) < len(stages):
            call = stages[len(results)](results)
            if call is not None:
                message = AIMessage(
                    content="",
                    tool_calls=[{**call, "id": f"call-{len(results) + 1}", "type": "tool_call"}],
                )
        if not message.tool_calls:
            message = AIMessage(content=self._answer(request, answer(results)))
        return ChatResult(generations=[ChatGeneration(message=message)])

    # --- plans ------------------------------------------------------------------------------

    def _plan(
        self, request: dict[str, Any]
    ) -> tuple[list[Stage], Callable[[list[dict[str, Any]]], list[dict[str, Any]]]]:
        reasons = set(request.get("reasons") or [])
        query = str(request.get("query") or "")
        limit = int(request.get("limit") or 10)
        first: list[dict[str, Any]] = [
            b for b in request.get("first_results") or [] if isinstance(b, dict)
        ]
        given = request.get("filters")
        filters: dict[str, Any] = given if isinstance(given, dict) else {}
        kept_filters = {
            k: v for k, v in filters.items() if k in ("language", "min_year", "max_year")
        }
        exploration = request.get("exploration") or {}
        if "exploration_request" in reasons and exploration.get("like"):
            return self._like_but_not(exploration, limit, first)
        if "exploration_request" in reasons:
            return self._open_exploration(query, limit, kept_filters)
        if reasons & {"no_results", "too_few_results", "no_lexical_or_vector_hits"}:
            return self._widen(query, limit, first)
        if "unresolved_like" in reasons and request.get("unresolved_like"):
            return self._like_misspelt(str(request["unresolved_like"]), limit, first)
        page_limit = request.get("page_limit")
        if "unknown_fit" in reasons and isinstance(page_limit, list) and len(page_limit) == 2:
            return self._known_fits(query, kept_filters, page_limit, first)
        if "one_author" in reasons and request.get("dominant_author"):
            return self._other_authors(query, limit, kept_filters, first, request)
        return self._explore_subject(query, limit, kept_filters, first)

    def _like_but_not(
        self, exploration: dict[str, Any], limit: int, first: list[dict[str, Any]]
    ) -> tuple[list[Stage], Callable[[list[dict[str, Any]]], list[dict[str, Any]]]]:
        like = str(exploration["like"])
        unlike = exploration.get("unlike")
        excluding = {"exclude_authors": [unlike], "exclude_categories": [unlike]} if unlike else {}

        def similar(_: list[dict[str, Any]]) -> Call:
            return {
                "name": "get_similar_books",
                "args": {"book": like, "limit": limit, **excluding},
            }

        def search(results: list[dict[str, Any]]) -> Call | None:
            if len(_books(results[0])) >= limit:
                return None
            # X's shelves say what "like X" means; the ones Y names are left out.
            similar_to = results[0].get("similar_to")
            shelves = _shelves(
                similar_to.get("categories") if isinstance(similar_to, dict) else None
            )
            words = [c for c in shelves if not unlike or str(unlike).casefold() not in c.casefold()]
            return {
                "name": "search_catalog",
                "args": {"query": " ".join(words[:4]) or like, "limit": limit, **excluding},
            }

        def answer(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
            # The first results that Y does not name agree or disagree with X's neighbours:
            # fused, books both hold rise and a trait no shelf names ("less dark") costs
            # nothing the first search had right.
            banned = str(unlike).casefold() if unlike else ""
            kept = [
                b
                for b in first
                if not banned
                or not any(
                    banned in n.casefold()
                    for n in (*_shelves(b.get("categories")), str(b.get("authors") or ""))
                )
            ]
            return _fuse(*(_books(r) for r in results), kept) or first

        return [similar, search], answer

    def _open_exploration(
        self, query: str, limit: int, filters: dict[str, Any]
    ) -> tuple[list[Stage], Callable[[list[dict[str, Any]]], list[dict[str, Any]]]]:
        def search(_: list[dict[str, Any]]) -> Call:
            args = {"query": content_words(query), "limit": limit, **filters}
            return {"name": "search_catalog", "args": args}

        def similar(results: list[dict[str, Any]]) -> Call | None:
            found = _books(results[0])
            if not found:
                return None
            return {
                "name": "get_similar_books",
                "args": {"book": found[0]["book_id"], "limit": limit},
            }

        def answer(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
            return _interleave(*(_books(r) for r in results))

        return [search, similar], answer

    def _widen(
        self, query: str, limit: int, first: list[dict[str, Any]]
    ) -> tuple[list[Stage], Callable[[list[dict[str, Any]]], list[dict[str, Any]]]]:
        def again(_: list[dict[str, Any]]) -> Call:
            return {"name": "search_catalog", "args": {"query": query, "limit": limit}}

        def words(results: list[dict[str, Any]]) -> Call | None:
            found = {b["book_id"] for r in results for b in _books(r)} | {
                b.get("book_id") for b in first
            }
            shorter = content_words(query)
            if len(found) >= limit or shorter.casefold() == query.casefold():
                return None
            return {"name": "search_catalog", "args": {"query": shorter, "limit": limit}}

        def answer(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
            return [*first, *(b for r in results for b in _books(r))]

        return [again, words], answer

    def _like_misspelt(
        self, like: str, limit: int, first: list[dict[str, Any]]
    ) -> tuple[list[Stage], Callable[[list[dict[str, Any]]], list[dict[str, Any]]]]:
        def similar(_: list[dict[str, Any]]) -> Call:
            # The tool reads a misspelt title as the closest catalog title, or says it has none.
            return {"name": "get_similar_books", "args": {"book": like, "limit": limit}}

        def answer(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
            if "error" not in results[0] and _books(results[0]):
                return [*_books(results[0]), *first]
            # X is not in the catalog: no search can find books like it, and the first
            # results (X's own words) are what the reader is told are the nearest.
            return first

        return [similar], answer

    def _known_fits(
        self,
        query: str,
        filters: dict[str, Any],
        page_limit: list[Any],
        first: list[dict[str, Any]],
    ) -> tuple[list[Stage], Callable[[list[dict[str, Any]]], list[dict[str, Any]]]]:
        low, high = page_limit

        def fits(book: dict[str, Any]) -> bool:
            pages = str(book.get("pages") or "")
            if not pages.isdigit():
                return False
            return (low is None or int(pages) >= int(low)) and (
                high is None or int(pages) <= int(high)
            )

        counts: dict[str, int] = {}
        for book in first:
            for shelf in _shelves(book.get("categories"))[:3]:
                counts[shelf.casefold()] = counts.get(shelf.casefold(), 0) + 1
        common = sorted(counts, key=lambda c: -counts[c])[:2]

        def on_topic(book: dict[str, Any]) -> bool:
            # The search shows every known fit of its pool first, however weak a match: a
            # new one counts only on one of the shelves searched.
            return not common or any(
                s.casefold() in common for s in _shelves(book.get("categories"))
            )

        def shelves(_: list[dict[str, Any]]) -> Call:
            # The first results' commonest shelves draw another pool, in which the search
            # shows the books known to fit first.
            words = " ".join(common) or content_words(query)
            args: dict[str, Any] = {"query": words, "limit": MAX_TOOL_LIMIT, **filters}
            if low is not None:
                args["min_pages"] = int(low)
            if high is not None:
                args["max_pages"] = int(high)
            return {"name": "search_catalog", "args": args}

        def answer(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
            found = [b for r in results for b in _books(r)]
            return [
                *(b for b in first if fits(b)),
                *(b for b in found if fits(b) and on_topic(b)),
                *(b for b in first if not str(b.get("pages") or "").isdigit()),
            ]

        return [shelves], answer

    def _other_authors(
        self,
        query: str,
        limit: int,
        filters: dict[str, Any],
        first: list[dict[str, Any]],
        request: dict[str, Any],
    ) -> tuple[list[Stage], Callable[[list[dict[str, Any]]], list[dict[str, Any]]]]:
        author = str(request["dominant_author"])

        def others(_: list[dict[str, Any]]) -> Call:
            args = {"query": query, "limit": limit, "exclude_authors": [author], **filters}
            return {"name": "search_catalog", "args": args}

        def answer(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
            kept, theirs = [], 0
            for book in first:
                if _first_author_is(book, author):
                    theirs += 1
                    if theirs > KEEP_PER_AUTHOR:
                        continue
                kept.append(book)
            return _interleave(kept, *(_books(r) for r in results))

        return [others], answer

    def _explore_subject(
        self, query: str, limit: int, filters: dict[str, Any], first: list[dict[str, Any]]
    ) -> tuple[list[Stage], Callable[[list[dict[str, Any]]], list[dict[str, Any]]]]:
        def subject(_: list[dict[str, Any]]) -> Call:
            args = {"query": content_words(query), "limit": limit, **filters}
            return {"name": "search_catalog", "args": args}

        def neighbours(results: list[dict[str, Any]]) -> Call | None:
            found = _books(results[0]) or first
            if not found:
                return None
            return {
                "name": "get_similar_books",
                "args": {"book": found[0]["book_id"], "limit": limit},
            }

        def answer(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
            return _fuse(*(_books(r) for r in results), first)

        return [subject, neighbours], answer

    @staticmethod
    def _answer(request: dict[str, Any], books: list[dict[str, Any]]) -> str:
        limit = int(request.get("limit") or 10)
        lines, seen = [], set()
        for book in books:
            book_id = book.get("book_id")
            if not book_id or book_id in seen:
                continue
            seen.add(book_id)
            lines.append(f"book:{book_id} {book.get('title', '')}")
            if len(lines) == limit:
                break
        if not lines:
            return "I found no better books than the first search."
        return "Recommended, best first:\n" + "\n".join(lines)
