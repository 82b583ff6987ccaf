"""The book rules' replies: what the assistant's calls came back with, in words and citations.

The rules (`rule_policy.py`) decide which calls to make; these render what the calls
returned, each fact cited to the book field it states.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from lectern.adapters.llm.workspace_replies import task_reference
from lectern.adapters.understanding.scaffold import Done as _Done
from lectern.domain.assistant import ToolCall, book_source, cite


def _parse(content: str) -> Any:
    try:
        return json.loads(content)
    except ValueError:
        return {"error": content}


def _as_dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _books(result: Any) -> list[dict[str, Any]]:
    books = _as_dict(result).get("books")
    return [b for b in books if isinstance(b, dict)] if isinstance(books, list) else []


def _quote(book: dict[str, Any], field_name: str = "description", limit: int = 150) -> str:
    """A literal piece of a field as the tool returned it, cited."""
    text = str(book.get(field_name) or "")
    if not text:
        field_name, text = "title", str(book.get("title", ""))
    sentence = re.split(r"(?<=[.!?])\s", text, maxsplit=1)[0]
    if len(sentence) > limit:
        sentence = sentence[:limit].rsplit(" ", 1)[0]
    sentence = sentence.replace('"', "").strip()
    piece = sentence if sentence and sentence in text else text[:limit].replace('"', "")
    return cite(piece.strip(), book_source(str(book.get("book_id")), field_name))


def _book_line(number: int, book: dict[str, Any]) -> str:
    by = f" by {book['authors']}" if book.get("authors") else ""
    year = f" ({book['published_year']})" if book.get("published_year") else ""
    return f"{number}. {book.get('title', '?')}{by}{year}: {_quote(book)}"


def _books_reply(done: _Done, call: ToolCall) -> str:
    result = done.results[-1] if done.results else None
    error = _as_dict(result).get("error")
    if error:
        return f"I could not search: {error}"
    books = _books(result)
    if not books:
        return "I found no books for that in the catalog."
    if call.name == "similar_books":
        like = _as_dict(_as_dict(result).get("similar_to")).get("title", "that book")
        head = f"Books like {like}:"
    else:
        head = f"Here is what I found for {call.arguments.get('query', 'your request')!r}:"
    return "\n".join([head, *(_book_line(i, b) for i, b in enumerate(books, start=1))])


def _details_reply(done: _Done, fields: Sequence[str]) -> str:
    result = _as_dict(done.results[-1] if done.results else None)
    if "error" in result:
        return f"I could not find that book: {result['error']}"
    book = _as_dict(result.get("book"))
    title = book.get("title", "This book")
    source = str(book.get("book_id"))
    parts: list[str] = []
    for name in fields:
        value = book.get(name)
        if not value:
            continue
        if name == "authors":
            parts.append(f"{title} was written by {cite(str(value), book_source(source, name))}.")
        elif name == "published_year":
            parts.append(f"{title} was published in {cite(str(value), book_source(source, name))}.")
        elif name == "language":
            parts.append(f"{title} is in {cite(str(value), book_source(source, name))}.")
        elif name == "pages":
            parts.append(f"{title} has {cite(str(value), book_source(source, name))} pages.")
        elif name == "description":
            parts.append(f"{title}: {_quote(book)}")
        elif name == "categories":
            parts.append(f"It is shelved as {cite(str(value), book_source(source, name))}.")
    if not parts:
        return f"The catalog does not say that about {title}."
    return " ".join(parts)


def _lists_reply(done: _Done) -> str:
    lists = _as_dict(done.results[-1] if done.results else None).get("lists")
    if not isinstance(lists, list) or not lists:
        return "You have no reading lists yet."
    names = [f"{_as_dict(x).get('name')} ({_as_dict(x).get('books')} books)" for x in lists]
    return f"You have {len(names)} reading list{'s' if len(names) != 1 else ''}: " + ", ".join(
        names
    )


def _list_reply(done: _Done) -> str:
    result = _as_dict(done.results[-1] if done.results else None)
    if "error" in result:
        return str(result["error"])
    found = _as_dict(result.get("list"))
    books = found.get("books")
    if not isinstance(books, list) or not books:
        return f"Your list {found.get('name')!r} is empty."
    lines = [f"Your list {found.get('name')!r}:"]
    for number, book in enumerate(books, start=1):
        entry = _as_dict(book)
        note = f" ({entry['note']})" if entry.get("note") else ""
        lines.append(f"{number}. {entry.get('title')}{note}")
    return "\n".join(lines)


def _facets_reply(done: _Done) -> str:
    result = _as_dict(done.results[-1] if done.results else None)
    categories = ", ".join(str(_as_dict(c).get("name")) for c in result.get("categories", []) if c)
    languages = ", ".join(str(_as_dict(c).get("code")) for c in result.get("languages", []) if c)
    return (
        f"The catalog's most common categories are {categories}; its languages include "
        f"{languages}; its books span {result.get('min_year')} to {result.get('max_year')}."
    )


def _summary(done: _Done) -> str:
    """The reply after a tool that needs no special wording (errors, mostly)."""
    for result in reversed(done.results):
        error = _as_dict(result).get("error")
        if error:
            return f"I could not do that: {error}"
    return "Done."


def _lead(done: _Done) -> str:
    """Words that go with the next tool calls: the books found so far, cited."""
    for call, result in zip(done.calls, done.results, strict=False):
        if call.name == "search_books" and _books(result):
            return _books_reply(done, call)
    return ""


def _decision(content: str) -> str | None:
    """The reply after an approval or rejection, from the decision the loop reported."""
    data = _as_dict(_parse(content))
    if "decision" not in data:
        return None
    description = data.get("description", "the change")
    if data["decision"] == "rejected":
        return f"OK, I did not do it: {description}."
    if data.get("status") == "executed":
        return f"Done: {description}.{task_reference(data.get('result'))}"
    error = _as_dict(data.get("result")).get("error", "it failed")
    return f"That did not work ({description}): {error}."
