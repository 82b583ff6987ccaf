"""The support bot on Discord, offline: discord.py's own client against a local fake API.

The fake speaks the parts of Discord's REST API the bot uses (log in, application info, post
a message) on 127.0.0.1, and messages arrive through discord.py's own gateway dispatch
(`ConnectionState.parse_message_create` with MESSAGE_CREATE payloads), so the real library
builds the `Message` objects, runs `on_message` and sends the replies. The reply graph is the
real one (offline rules) over a small knowledge-base collection with FAQ records that have
URLs, so replies carry citations and a Links section.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import structlog

discord = pytest.importorskip("discord")
from aiohttp import web  # noqa: E402 - aiohttp comes with discord.py

from lectern.adapters.chat.discord_bot import (  # noqa: E402
    DiscordReplies,
    DiscordSupportBot,
    split_for_discord,
)
from lectern.adapters.llm.graphs.kb_reply import KnowledgeBaseReplyGraph  # noqa: E402
from lectern.application.answering.chat_channel import ChannelBot  # noqa: E402
from lectern.application.answering.knowledge import KnowledgeBases  # noqa: E402
from lectern.application.answering.rules import RuleReplySteps  # noqa: E402
from lectern.application.answering.service import KnowledgeBaseReplier  # noqa: E402
from tests.answering_world import kb_collection, knowledge_bases  # noqa: E402

WINDOW = 0.6
BOT = {"id": "900", "username": "lectern", "discriminator": "0", "avatar": None, "bot": True}
ANA = {"id": "42", "username": "ana", "discriminator": "0", "avatar": None, "global_name": "Ana"}
CHANNEL, GUILD = "555", "777"


def _json(data: object) -> web.Response:
    # discord.py parses a body as JSON only under exactly `application/json` (no charset).
    return web.Response(body=json.dumps(data).encode(), content_type="application/json")


class FakeDiscord:
    """Discord's REST API as far as the bot uses it, recording every posted message."""

    def __init__(self) -> None:
        self.posted: list[dict[str, Any]] = []
        self.ids = itertools.count(5_000)
        self.app = web.Application()
        self.app.router.add_get("/api/v10/users/@me", self.me)
        self.app.router.add_get("/api/v10/oauth2/applications/@me", self.application)
        self.app.router.add_post("/api/v10/channels/{channel}/messages", self.post)

    async def me(self, request: web.Request) -> web.Response:
        assert request.headers["Authorization"] == "Bot fake-token"
        return _json(BOT)

    async def application(self, request: web.Request) -> web.Response:
        del request
        return _json(
            {
                "id": "900",
                "name": "lectern",
                "icon": None,
                "description": "",
                "rpc_origins": [],
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": ANA,
                "summary": "",
                "verify_key": "0" * 64,
                "flags": 0,
                "interactions_endpoint_url": None,
            }
        )

    async def post(self, request: web.Request) -> web.Response:
        body = await request.json()
        channel = request.match_info["channel"]
        self.posted.append({"channel": channel, **body})
        return _json(
            message_payload(str(next(self.ids)), body.get("content", ""), BOT, channel=channel)
        )


def message_payload(
    message_id: str, content: str, author: dict[str, Any], channel: str = CHANNEL
) -> dict[str, Any]:
    """A MESSAGE_CREATE payload as the gateway sends it."""
    return {
        "id": message_id,
        "channel_id": channel,
        "guild_id": GUILD,
        "author": author,
        "content": content,
        "timestamp": "2026-11-25T12:00:00.000000+00:00",
        "edited_timestamp": None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": [],
        "pinned": False,
        "type": 0,
        "flags": 0,
    }


@pytest.fixture(scope="module")
def bases(tmp_path_factory: pytest.TempPathFactory) -> KnowledgeBases:
    root = tmp_path_factory.mktemp("discord-kb")
    return knowledge_bases(kb_collection(root / "var", root), root / "kb-index")


async def _posted(fake: FakeDiscord, count: int) -> None:
    for _ in range(600):
        if len(fake.posted) >= count:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"{len(fake.posted)} replies posted, expected {count}")


def _client(bases: KnowledgeBases) -> DiscordSupportBot:
    replier = KnowledgeBaseReplier(KnowledgeBaseReplyGraph(RuleReplySteps(600)), bases)

    def make_bot(replies: DiscordReplies) -> ChannelBot:
        return ChannelBot("discord", replier, replies, collection="kb", window_seconds=WINDOW)

    return DiscordSupportBot(make_bot)


def test_three_messages_in_the_window_get_one_reply_and_a_later_one_a_new_turn(
    bases: KnowledgeBases, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def scenario() -> tuple[list[dict[str, Any]], list[Any], list[Any]]:
        server = FakeDiscord()
        runner = web.AppRunner(server.app)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = runner.addresses[0][1]
        monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{port}/api/v10")
        client = _client(bases)
        try:
            await client.login("fake-token")
            state = client._connection
            for number, text in enumerate(
                ["hi", "I keep hitting an error", "Why do I get 429 Too Many Requests?"],
                start=1001,
            ):
                state.parse_message_create(message_payload(str(number), text, ANA))
            state.parse_message_create(message_payload("1004", "thanks, that's all", BOT))
            await _posted(server, 1)
            await asyncio.sleep(WINDOW * 2)  # the window is over: the next message is a new turn
            state.parse_message_create(message_payload("1005", "How do API keys work?", ANA))
            await _posted(server, 2)
            await asyncio.sleep(WINDOW * 2)
        finally:
            await client.close()
            await runner.cleanup()
        return server.posted, [b for b, _ in client.bot.results], [r for _, r in client.bot.results]

    with structlog.testing.capture_logs() as logs:
        posted, batches, results = asyncio.run(scenario())

    assert len(posted) == 2, posted
    first, second = posted
    # One reply to the three messages, in their channel, as a reply to the last of them.
    assert [len(b.messages) for b in batches] == [3, 1]
    assert first["channel"] == CHANNEL
    assert int(first["message_reference"]["message_id"]) == 1003
    assert "[kb:https://docs.example.org/faq/rate-limits]" in first["content"]
    assert first["content"].endswith("Links:\n- https://docs.example.org/faq/rate-limits")
    assert results[0].citations[0].url == "https://docs.example.org/faq/rate-limits"
    # The message after the window is a turn of its own, answered from its own source.
    assert int(second["message_reference"]["message_id"]) == 1005
    assert "Links:\n- https://docs.example.org/faq/api-keys" in second["content"]
    assert "rate-limits" not in second["content"]
    events = [e["event"] for e in logs if str(e["event"]).startswith("discord.")]
    assert events == [
        "discord.user_batch_started",
        "discord.user_batch_flushed",
        "discord.user_batch_replied",
        "discord.user_batch_started",
        "discord.user_batch_flushed",
        "discord.user_batch_replied",
    ]
    flushed = [e for e in logs if e["event"] == "discord.user_batch_flushed"]
    assert [(e["user"], e["channel"], e["messages"]) for e in flushed] == [
        ("42", CHANNEL, 3),
        ("42", CHANNEL, 1),
    ]


def test_long_answers_are_split_at_discords_limit() -> None:
    text = "\n".join(f"line {n} " + "x" * 90 for n in range(60))
    pieces = split_for_discord(text)
    assert len(pieces) > 1 and all(len(p) <= 2_000 for p in pieces)
    assert "\n".join(pieces) == text


def test_the_bot_command_without_a_token_says_what_to_set(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if "DISCORD" not in k}
    result = subprocess.run(
        [sys.executable, "-m", "lectern", "kb", "bot", "--collection", "kb"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**env, "LECTERN_DATA_DIR": str(tmp_path / "var"), "COLUMNS": "200"},
    )
    assert result.returncode == 1
    assert "LECTERN_DISCORD_TOKEN" in result.stderr and not result.stdout.strip()
