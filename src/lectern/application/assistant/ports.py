"""The assistant's ports: the chat model, pending actions, the library, sessions, PII."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from lectern.domain.assistant import (
    ActionStatus,
    AIResponse,
    Message,
    PendingAction,
    ToolCall,
    ToolSpec,
)
from lectern.domain.books import JSONValue, SourceRecord, SourceRef
from lectern.domain.library import CatalogCorrection, CorrectionStatus, Rating, ReadingList
from lectern.domain.privacy import PiiFinding


class ChatModel(Protocol):
    """A model that answers a conversation, asking for tools when it needs them.

    Adapters: `RulePolicy` (offline, deterministic), `LangChainToolModel` (any LangChain
    chat model through `bind_tools`).
    """

    model_id: str

    def complete_with_tools(
        self,
        messages: Sequence[Message],
        tools: Sequence[ToolSpec],
        *,
        system: str,
        temperature: float = 0.0,
        max_tokens: int = 1024,
    ) -> AIResponse:
        """The next step: a text reply, tool calls, or both.

        `messages` hold the conversation so far, tool results included (role `tool`).
        """
        ...


class PendingActionStore(Protocol):
    """Where previewed actions wait for their owner's decision."""

    def add(self, action: PendingAction) -> None:
        """Store a new pending action."""
        ...

    def get(self, user: str, action_id: str) -> PendingAction | None:
        """The user's action with this id; None for an unknown id or another user's."""
        ...

    def list(
        self, user: str, *, status: ActionStatus | None = None, conversation: str | None = None
    ) -> list[PendingAction]:
        """The user's actions, oldest first, optionally of one status or conversation."""
        ...

    def set_review(self, action_id: str, review: JSONValue) -> None:
        """Attach (or replace) the automatic review shown with an action's preview."""
        ...

    def transition(
        self,
        user: str,
        action_id: str,
        *,
        from_status: ActionStatus,
        to_status: ActionStatus,
        now: datetime,
        unexpired: bool = False,
        result: JSONValue = None,
    ) -> bool:
        """Move one action from one status to another in ONE conditional update.

        True only for the caller whose update changed the row: the row must belong to the
        user and hold `from_status` (and, with `unexpired`, `expires_at` after `now`).
        Concurrent callers race on the database, and exactly one of them wins.
        """
        ...

    def claim(
        self,
        user: str,
        action_id: str,
        *,
        from_status: ActionStatus,
        owner: str,
        lease_until: datetime,
        now: datetime,
        unexpired: bool = False,
    ) -> bool:
        """Move one action to `executing`, leased to `owner` until `lease_until`.

        One conditional update, as `transition`: from `pending` (approval; with `unexpired`),
        from `approved` (left by an older version), or from `executing` only once its lease
        has run out (recovery). Exactly one concurrent caller wins.
        """
        ...

    def finish(
        self,
        user: str,
        action_id: str,
        *,
        owner: str,
        to_status: ActionStatus,
        now: datetime,
        result: JSONValue,
    ) -> bool:
        """End an `executing` action held by `owner` (executed or failed, with its result)."""
        ...

    def stranded(self, now: datetime) -> Sequence[PendingAction]:
        """Every user's actions left `approved`, or `executing` with an expired lease."""
        ...


class LibraryStore(Protocol):
    """Reading lists, ratings and corrections, each scoped to its user."""

    def lists(self, user: str) -> list[ReadingList]:
        """The user's lists with their entries, oldest first."""
        ...

    def get_list(self, user: str, list_id: str) -> ReadingList | None:
        """The user's list with this id (None for another user's)."""
        ...

    def find_list(self, user: str, name: str) -> ReadingList | None:
        """The user's list with this name, compared case- and spacing-insensitively."""
        ...

    def create_list(self, user: str, list_id: str, name: str, now: datetime) -> ReadingList:
        """A new empty list."""
        ...

    def rename_list(self, user: str, list_id: str, name: str) -> None:
        """Give the user's list a new name."""
        ...

    def delete_list(self, user: str, list_id: str) -> None:
        """Delete the user's list and its entries."""
        ...

    def add_entry(
        self, user: str, list_id: str, book_id: str, note: str | None, now: datetime
    ) -> None:
        """Put a book on the user's list (at the end)."""
        ...

    def remove_entry(self, user: str, list_id: str, book_id: str) -> None:
        """Take a book off the user's list."""
        ...

    def rating(self, user: str, book_id: str) -> Rating | None:
        """The user's rating of a book."""
        ...

    def ratings(self, user: str) -> list[Rating]:
        """Every rating of the user."""
        ...

    def put_rating(self, rating: Rating) -> None:
        """Insert or replace the user's rating of a book."""
        ...

    def add_correction(self, correction: CatalogCorrection) -> None:
        """Record a correction the user made."""
        ...

    def corrections(self, user: str) -> list[CatalogCorrection]:
        """The user's corrections, oldest first."""
        ...

    def correction(self, correction_id: str) -> CatalogCorrection | None:
        """One correction by id, whoever proposed it (catalog editors review them)."""
        ...

    def corrections_by_status(self, status: CorrectionStatus) -> list[CatalogCorrection]:
        """Everyone's corrections in this status, oldest first."""
        ...

    def set_correction_status(
        self, correction_id: str, from_status: CorrectionStatus, to_status: CorrectionStatus
    ) -> bool:
        """Move a correction between statuses; False when it was not in `from_status`."""
        ...


class SessionStore(Protocol):
    """Conversation history: the text turns of each (user, conversation)."""

    def history(self, user: str, conversation: str) -> list[Message]:
        """The stored turns, oldest first (empty for a new or expired conversation)."""
        ...

    def append(self, user: str, conversation: str, messages: Sequence[Message]) -> None:
        """Add turns to the conversation and renew its time to live."""
        ...


class PiiDetector(Protocol):
    """Finds personal data in text (SSNs, phones, emails, card numbers, ...)."""

    name: str

    def find(self, text: str) -> list[PiiFinding]:
        """Every finding, with its kind and character span."""
        ...


class AssistantObserver(Protocol):
    """Counts what the assistant does (metrics)."""

    def chat(self, outcome: str) -> None:
        """One chat turn ended: answered, preview, refused, error."""
        ...

    def tool_call(self, tool: str, outcome: str) -> None:
        """One tool ran: ok, error, preview."""
        ...

    def action(self, status: str) -> None:
        """An action reached a status."""
        ...

    def flag(self, flag: str) -> None:
        """A guardrail flag was raised on a reply."""
        ...


class TurnListener(Protocol):
    """Hears a turn as it happens (a stream to the reader) and can stop it.

    Called on the thread that runs the turn. `cancelled` is asked before every model step
    and before each step's tools: True stops the turn with ChatCancelledError.
    """

    def tool_call(self, call: ToolCall) -> None:
        """The model asked for this tool call; it runs next."""
        ...

    def tool_result(self, call: ToolCall, content: JSONValue, outcome: str) -> None:
        """What the call gave back (ok, error, preview)."""
        ...

    def decided(self, action: PendingAction, result: JSONValue) -> None:
        """An approval or rejection took effect; the model continues the turn next."""
        ...

    def cancelled(self) -> bool:
        """True when nobody waits for the turn any more."""
        ...


class SourceRecordLookup(Protocol):
    """The stored source records a book was merged from, for reviews of corrections."""

    def records_of(self, refs: Sequence[SourceRef]) -> list[SourceRecord]:
        """The records these refs name that are still stored (others are left out)."""
        ...
