"""Bodies of the assistant's routes (chat, actions, conversations, lists, ratings).

Mapped explicitly from the domain; JSON values the tools produce (states, inputs, results)
pass through as they are.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal
from urllib.parse import urlencode

from pydantic import BaseModel, ConfigDict, Field

from lectern.application.assistant.service import ChatReply
from lectern.domain.assistant import (
    ChatCitation,
    GroundingFlag,
    Message,
    PageContext,
    PendingAction,
    ToolCall,
)
from lectern.domain.books import Book
from lectern.domain.library import Rating, ReadingList

MAX_CHAT_CHARS = 8_000
"""A longer message is refused; the assistant reads the first 4,000 characters."""
CONVERSATION_ID = r"^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$"


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class PageContextIn(_In):
    """The page the reader is on: a book page, a workspace page, a search, ..., or home.

    Workspace pages (project, task, document, dashboard) carry the project they belong to.
    Workspace pages are checked against the caller's memberships before the assistant sees
    them: another organization's project or task answers 404, and the names are the stored
    ones, not the client's.
    """

    type: Literal[
        "book", "list", "search", "collection", "home", "project", "task", "document", "dashboard"
    ] = "home"
    id: str | None = Field(default=None, max_length=200)
    name: str | None = Field(default=None, max_length=300)
    project_id: str | None = Field(default=None, max_length=200)

    def to_domain(self) -> PageContext:
        """The domain page context."""
        return PageContext(self.type, self.id, self.name, project_id=self.project_id)


class ChatRequest(_In):
    """One message to the assistant, in a new or an ongoing conversation."""

    message: str = Field(
        min_length=1,
        max_length=MAX_CHAT_CHARS,
        examples=["find three cozy mysteries after 2000 and add them to a new list called Autumn"],
    )
    conversation_id: str | None = Field(
        default=None,
        pattern=CONVERSATION_ID,
        description="Continue this conversation; omitted: a new one (its id is in the reply).",
    )
    page_context: PageContextIn | None = None


class DecisionRequest(_In):
    """Optional body of an approval or rejection: the page the reader is on."""

    page_context: PageContextIn | None = None


def citation_url(source: str, snippet: str, base: str = "") -> str | None:
    """A link that opens the cited book field with the snippet highlighted (book sources)."""
    kind, _, rest = source.partition(":")
    book_id, _, field = rest.partition("#")
    if kind != "book" or not book_id or not field:
        return None
    return f"{base}/?{urlencode({'book': book_id, 'field': field, 'quote': snippet})}"


class CitationOut(BaseModel):
    """A quote the reply makes, checked literal in the source a tool returned."""

    source: str = Field(description="`book:<id>#<field>` (or `passage:<id>`).")
    snippet: str
    url: str | None = Field(description="Opens the cited field with the snippet highlighted.")

    @classmethod
    def of(cls, citation: ChatCitation, base: str = "") -> CitationOut:
        """Map a checked citation."""
        return cls(
            source=citation.source,
            snippet=citation.snippet,
            url=citation_url(citation.source, citation.snippet, base),
        )


class ToolCallOut(BaseModel):
    """A tool the assistant called in the turn."""

    id: str
    tool: str
    input: dict[str, Any]

    @classmethod
    def of(cls, call: ToolCall) -> ToolCallOut:
        """Map a tool call."""
        return cls(id=call.id, tool=call.name, input=dict(call.arguments))


class FieldDiffOut(BaseModel):
    """One field the action changes: now and after."""

    field: str
    old: Any
    new: Any


class ActionOut(BaseModel):
    """A proposed change: what it does, its field-level diff, its status and expiry."""

    id: str
    status: Literal["pending", "approved", "executing", "rejected", "expired", "executed", "failed"]
    description: str
    tool: str
    entity_type: str
    entity_id: str
    tool_input: dict[str, Any]
    old_state: Any
    new_state: Any
    diff: list[FieldDiffOut]
    conversation_id: str
    created_at: datetime
    expires_at: datetime
    decided_at: datetime | None
    result: Any
    review: Any = Field(
        default=None,
        description="The automatic review attached for the approver (a correction checked "
        "against the book's source records: `text`, `citations`, a verdict per field), or null.",
    )

    @classmethod
    def of(cls, action: PendingAction) -> ActionOut:
        """Map a pending action."""
        preview = action.preview
        return cls(
            id=action.id,
            status=action.status,
            description=preview.description,
            tool=preview.tool_name,
            entity_type=preview.entity_type,
            entity_id=preview.entity_id,
            tool_input=dict(preview.tool_input),
            old_state=preview.old_state,
            new_state=preview.new_state,
            diff=[FieldDiffOut(field=d.field, old=d.old, new=d.new) for d in preview.diff],
            conversation_id=action.conversation,
            created_at=action.created_at,
            expires_at=action.expires_at,
            decided_at=action.decided_at,
            result=action.result,
            review=action.review,
        )


class ChatReplyOut(BaseModel):
    """One turn's answer, after the guardrails."""

    conversation_id: str
    text: str
    citations: list[CitationOut]
    grounding_flags: list[GroundingFlag]
    tool_calls: list[ToolCallOut]
    actions: list[ActionOut] = Field(
        description="Changes proposed in this turn, each waiting for approval by id."
    )
    decision: ActionOut | None = Field(
        default=None, description="After an approval or rejection: the action as it ended."
    )
    model: str
    suggestions: list[str] = Field(
        default_factory=list,
        description="With a clarifying question: the likeliest readings, as replies to send.",
    )

    @classmethod
    def of(cls, reply: ChatReply, base: str = "") -> ChatReplyOut:
        """Map a reply."""
        return cls(
            conversation_id=reply.conversation,
            text=reply.text,
            citations=[CitationOut.of(c, base) for c in reply.citations],
            grounding_flags=list(reply.grounding_flags),
            tool_calls=[ToolCallOut.of(c) for c in reply.tool_calls],
            actions=[ActionOut.of(a) for a in reply.actions],
            decision=ActionOut.of(reply.decision.action) if reply.decision else None,
            model=reply.model,
            suggestions=list(reply.suggestions),
        )


class MessageOut(BaseModel):
    """A stored text turn."""

    role: Literal["user", "assistant"]
    content: str


class ConversationOut(BaseModel):
    """A conversation's stored turns and the changes proposed in it."""

    conversation_id: str
    messages: list[MessageOut]
    actions: list[ActionOut]

    @classmethod
    def of(
        cls, conversation: str, messages: list[Message], actions: list[PendingAction]
    ) -> ConversationOut:
        """Map the history (text turns only) and the conversation's actions."""
        return cls(
            conversation_id=conversation,
            messages=[
                MessageOut(role=m.role, content=m.content)
                for m in messages
                if m.role in ("user", "assistant")
            ],
            actions=[ActionOut.of(a) for a in actions],
        )


class ListSummaryOut(BaseModel):
    """A reading list in brief."""

    id: str
    name: str
    books: int
    created_at: datetime

    @classmethod
    def of(cls, reading_list: ReadingList) -> ListSummaryOut:
        """Map a list."""
        return cls(
            id=reading_list.id,
            name=reading_list.name,
            books=len(reading_list.entries),
            created_at=reading_list.created_at,
        )


class ListEntryOut(BaseModel):
    """A book on a list, with the reader's note."""

    book_id: str
    title: str | None = Field(description="None when the book left the catalog.")
    authors: list[str]
    year: int | None
    note: str | None
    added_at: datetime


class ListOut(BaseModel):
    """A reading list with its books, in the order they were added."""

    id: str
    name: str
    created_at: datetime
    entries: list[ListEntryOut]

    @classmethod
    def of(cls, reading_list: ReadingList, books: dict[str, Book]) -> ListOut:
        """Map a list; `books` holds the catalog's books by id."""
        entries = []
        for entry in reading_list.entries:
            book = books.get(entry.book_id)
            entries.append(
                ListEntryOut(
                    book_id=entry.book_id,
                    title=book.field_text("title") if book else None,
                    authors=list(book.authors) if book else [],
                    year=book.published_year if book else None,
                    note=entry.note,
                    added_at=entry.added_at,
                )
            )
        return cls(
            id=reading_list.id,
            name=reading_list.name,
            created_at=reading_list.created_at,
            entries=entries,
        )


class RatingOut(BaseModel):
    """The reader's stars for a book."""

    book_id: str
    title: str | None
    stars: int
    review: str | None
    updated_at: datetime

    @classmethod
    def of(cls, rating: Rating, book: Book | None) -> RatingOut:
        """Map a rating."""
        return cls(
            book_id=rating.book_id,
            title=book.field_text("title") if book else None,
            stars=rating.stars,
            review=rating.review,
            updated_at=rating.updated_at,
        )
