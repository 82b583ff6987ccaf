"""A conversation as the support bot receives it, and the request's context."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True, slots=True)
class ConversationMessage:
    """One message of a chat, from any platform."""

    author: str
    text: str
    time: datetime | None = None


@dataclass(frozen=True, slots=True)
class Conversation:
    """A platform-agnostic conversation, oldest message first."""

    messages: tuple[ConversationMessage, ...]
    id: str | None = None

    def last_turn(self) -> tuple[str, str]:
        """(author, text) of the last turn: the trailing messages of the last author, joined."""
        if not self.messages:
            return "", ""
        author = self.messages[-1].author
        parts: list[str] = []
        for message in reversed(self.messages):
            if message.author != author:
                break
            parts.append(message.text.strip())
        return author, "\n".join(p for p in reversed(parts) if p)


@dataclass(frozen=True, slots=True)
class RequestContext:
    """Where a conversation happens: the collection to answer from, the user and channel."""

    collection: str
    user: str = "anonymous"
    channel: str = "default"
