"""The support bot in a chat channel, whatever the platform.

A platform adapter (Discord now; Slack would be one more module) hands each message it sees
to `ChannelBot.receive` and implements `ChannelReplies` to post an answer. Everything else
lives here: a user's consecutive messages within `LECTERN_AI_BATCH_WINDOW_SECONDS` become one
turn (`QuietWindowBatcher`), the reply graph runs on that turn off the event loop, and an
answer (its citations and Links section included) goes back to where the user wrote. Logs:
`<platform>.user_batch_started` (the first message of a batch), `.user_batch_flushed` (the
window closed: the turn goes to the graph) and `.user_batch_replied` (or `.user_batch_silent`
when the graph decides not to answer).
"""

from __future__ import annotations

import asyncio
from typing import Protocol

import structlog

from lectern.application.answering.batcher import Batch, QuietWindowBatcher
from lectern.domain.answering import AIResult, Conversation, ConversationMessage, RequestContext

log = structlog.get_logger(__name__)


class TurnReplier(Protocol):
    """What answers a conversation's last turn (`KnowledgeBaseReplier`)."""

    def reply(self, conversation: Conversation, context: RequestContext) -> AIResult:
        """Run the reply graph on the conversation's last turn."""
        ...


class ChannelReplies(Protocol):
    """A platform's way to post an answer where the batch's user wrote."""

    async def send(self, batch: Batch, result: AIResult) -> None:
        """Post `result.reply_text` in reply to the batch's last message."""
        ...


class ChannelBot:
    """Batches each user's messages per channel, answers each batch once."""

    def __init__(
        self,
        platform: str,
        replier: TurnReplier,
        replies: ChannelReplies,
        *,
        collection: str,
        window_seconds: float,
    ) -> None:
        """`platform` names the log events (`discord.user_batch_started`, ...)."""
        self.platform = platform
        self.replier = replier
        self.replies = replies
        self.collection = collection
        self.batcher = QuietWindowBatcher(window_seconds, self._answer)
        self.results: list[tuple[Batch, AIResult]] = []
        """Every batch answered or left silent, in order (for the caller to inspect)."""

    async def receive(self, channel: str, message: ConversationMessage) -> None:
        """Hold a message for its user's batch in this channel."""
        if not message.text.strip():
            return
        if not self.batcher.holds(channel, message.author):
            log.info(
                f"{self.platform}.user_batch_started",
                channel=channel,
                user=message.author,
                window_seconds=self.batcher.window_seconds,
            )
        await self.batcher.add(channel, message)

    async def close(self) -> None:
        """Answer whatever is still held (at shutdown)."""
        await self.batcher.flush()

    async def _answer(self, batch: Batch) -> None:
        log.info(
            f"{self.platform}.user_batch_flushed",
            channel=batch.channel,
            user=batch.author,
            messages=len(batch.messages),
        )
        context = RequestContext(self.collection, batch.author, batch.channel)
        conversation = Conversation(batch.messages)
        try:
            result = await asyncio.to_thread(self.replier.reply, conversation, context)
        except Exception as error:  # one user's failed turn must not stop the bot
            log.error(
                f"{self.platform}.user_batch_failed",
                channel=batch.channel,
                user=batch.author,
                error=f"{type(error).__name__}: {error}",
            )
            return
        self.results.append((batch, result))
        if not result.should_reply:
            log.info(
                f"{self.platform}.user_batch_silent",
                channel=batch.channel,
                user=batch.author,
                decision_path=list(result.decision_path),
            )
            return
        await self.replies.send(batch, result)
        log.info(
            f"{self.platform}.user_batch_replied",
            channel=batch.channel,
            user=batch.author,
            messages=len(batch.messages),
            sources=[c.source_id for c in result.citations],
        )
