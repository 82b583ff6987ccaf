"""The support bot on Discord, through discord.py (the only module importing it).

Every message a user posts in a channel or thread the bot reads (all of them, or those
listed) goes to the application's `ChannelBot`, keyed by channel id and author id; when the
user's batch is answered, the reply goes back as a Discord reply to the batch's last message,
in the same channel or thread, split at Discord's 2,000 characters a message.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

import discord

from lectern.application.answering.batcher import Batch
from lectern.application.answering.chat_channel import ChannelBot
from lectern.domain.answering import AIResult, ConversationMessage

DISCORD_LIMIT = 2_000
"""Characters Discord accepts in one message."""


def split_for_discord(text: str, limit: int = DISCORD_LIMIT) -> list[str]:
    """The text in pieces of at most `limit` characters, cut at line ends where possible."""
    pieces: list[str] = []
    rest = text.strip()
    while len(rest) > limit:
        cut = rest.rfind("\n", 0, limit)
        if cut <= 0:
            cut = rest.rfind(" ", 0, limit)
        if cut <= 0:
            cut = limit
        pieces.append(rest[:cut].rstrip())
        rest = rest[cut:].lstrip()
    if rest:
        pieces.append(rest)
    return pieces


class DiscordReplies:
    """Posts answers as replies to the last message of each batch."""

    def __init__(self) -> None:
        """No message seen yet."""
        self._last: dict[tuple[str, str], discord.Message] = {}

    def remember(self, message: discord.Message) -> None:
        """The newest message of its author in its channel: what an answer replies to."""
        self._last[(str(message.channel.id), str(message.author.id))] = message

    async def send(self, batch: Batch, result: AIResult) -> None:
        """Reply in the batch's channel or thread, the answer and its Links section."""
        message = self._last.get((batch.channel, batch.author))
        if message is None:
            return
        for number, piece in enumerate(split_for_discord(result.reply_text)):
            if number == 0:
                await message.reply(piece, mention_author=False, suppress_embeds=True)
            else:
                await message.channel.send(piece, suppress_embeds=True)


class DiscordSupportBot(discord.Client):
    """A discord.py client handing users' messages to the support bot's batching."""

    def __init__(
        self,
        make_bot: Callable[[DiscordReplies], ChannelBot],
        *,
        channels: Collection[str] = (),
        **options: object,
    ) -> None:
        """`channels`: ids to listen in (threads count by their parent too); empty: all."""
        intents = discord.Intents.default()
        intents.message_content = True
        super().__init__(intents=intents, **options)  # type: ignore[arg-type]
        self.replies = DiscordReplies()
        self.bot = make_bot(self.replies)
        self.channels = frozenset(channels)

    def _listens_in(self, channel: object) -> bool:
        if not self.channels:
            return True
        ids = {str(getattr(channel, "id", "")), str(getattr(channel, "parent_id", "") or "")}
        return bool(ids & self.channels)

    async def on_message(self, message: discord.Message) -> None:
        """A user's message joins their batch; the bot's own and other bots' are ignored."""
        if message.author.bot or (self.user is not None and message.author.id == self.user.id):
            return
        if not self._listens_in(message.channel):
            return
        self.replies.remember(message)
        await self.bot.receive(
            str(message.channel.id),
            ConversationMessage(str(message.author.id), message.content, message.created_at),
        )

    async def close(self) -> None:
        """Answer what is held, then disconnect."""
        await self.bot.close()
        await super().close()
