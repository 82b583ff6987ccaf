"""The real `openai` Python client against a real `lectern serve` process on the tiny
catalog: models, completions whole and streamed, annotations whose spans are literal in the
cited fields, Bearer keys, no actions offered."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import openai
import pytest
from openai import OpenAI
from openai.types.chat import ChatCompletionMessage

from tests.e2e.serving import lectern_serve

pytestmark = pytest.mark.slow
MODEL = "lectern-assistant"
KEY = "alice-key"


@pytest.fixture(scope="module")
def server(indexed_data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    data_dir = tmp_path_factory.mktemp("openai") / "var"
    shutil.copytree(indexed_data_dir, data_dir)
    with lectern_serve(
        data_dir, LECTERN_API_KEYS=f"alice:{KEY}", LECTERN_RATE_LIMIT_CHAT="1000/minute"
    ) as url:
        yield url


@pytest.fixture
def client(server: str) -> Iterator[OpenAI]:
    with OpenAI(base_url=f"{server}/v1", api_key=KEY, max_retries=0, timeout=60) as made:
        yield made


def _fold(text: str) -> str:
    return " ".join(text.split()).casefold()


def _check_annotations(server: str, content: str, annotations: list[Any]) -> None:
    assert annotations
    with httpx.Client(base_url=server, headers={"Authorization": f"Bearer {KEY}"}) as http:
        for annotation in annotations:
            assert annotation.type == "url_citation"
            cited = annotation.url_citation
            span = content[cited.start_index : cited.end_index]
            url = urlsplit(cited.url)
            assert f"{url.scheme}://{url.netloc}" == server
            query = {k: v[0] for k, v in parse_qs(url.query).items()}
            assert query["quote"] == span
            book = http.get(f"/books/{query['book']}").json()
            value = book[{"published_year": "year"}.get(query["field"], query["field"])]
            field_text = ", ".join(value) if isinstance(value, list) else str(value)
            assert _fold(span) in _fold(field_text)
            assert cited.title.startswith(book["title"])


def test_the_model_list_names_the_assistant(client: OpenAI) -> None:
    assert [m.id for m in client.models.list()] == [MODEL]


def test_a_completion_cites_with_annotations_literal_in_their_sources(
    client: OpenAI, server: str
) -> None:
    completion = client.chat.completions.create(
        model=MODEL, messages=[{"role": "user", "content": "find books about Panem"}]
    )
    message = completion.choices[0].message
    assert completion.choices[0].finish_reason == "stop"
    assert message.content and "The Hunger Games" in message.content
    assert message.annotations is not None
    _check_annotations(server, message.content, message.annotations)
    extra = completion.model_extra or {}
    assert isinstance(extra["lectern"]["grounding_flags"], list)
    assert [c["tool"] for c in extra["lectern"]["tool_calls"]] == ["search_books"]


def test_a_streamed_completion_is_the_same_reply_in_pieces(client: OpenAI, server: str) -> None:
    request: dict[str, Any] = {
        "model": MODEL,
        "messages": [
            {"role": "system", "content": "You are a pirate."},  # not used: Lectern's rules
            {"role": "user", "content": "find books about Panem"},
        ],
    }
    whole = client.chat.completions.create(**request).choices[0].message.content
    pieces: list[str] = []
    finish = None
    annotations: list[Any] = []
    extra: dict[str, Any] = {}
    with client.chat.completions.create(**request, stream=True) as stream:
        for chunk in stream:
            choice = chunk.choices[0]
            if choice.delta.content:
                pieces.append(choice.delta.content)
            if choice.finish_reason:
                finish = choice.finish_reason
                annotations = (choice.delta.model_extra or {}).get("annotations", [])
                extra = (chunk.model_extra or {})["lectern"]
    assert len(pieces) > 1 and "".join(pieces) == whole and finish == "stop"
    # The final chunk's annotations, read by the client's own message model.
    message = ChatCompletionMessage.model_validate(
        {"role": "assistant", "content": whole, "annotations": annotations}
    )
    assert message.annotations
    _check_annotations(server, "".join(pieces), message.annotations)
    assert "grounding_flags" in extra


def test_the_client_holds_the_history(client: OpenAI) -> None:
    completion = client.chat.completions.create(
        model=MODEL,
        messages=[
            {"role": "user", "content": "find books about Panem"},
            {"role": "assistant", "content": 'I found "The Hunger Games" [book:x#title].'},
            {"role": "user", "content": [{"type": "text", "text": "who wrote Gilead?"}]},
        ],
    )
    assert "Marilynne Robinson" in (completion.choices[0].message.content or "")


def test_actions_are_not_offered_here(client: OpenAI, server: str) -> None:
    completion = client.chat.completions.create(
        model=MODEL, messages=[{"role": "user", "content": "create a list called Not Here"}]
    )
    assert "Not Here" not in (completion.choices[0].message.content or "")
    with httpx.Client(base_url=server, headers={"Authorization": f"Bearer {KEY}"}) as http:
        assert http.get("/assistant/actions").json() == []


def test_wrong_keys_unknown_models_and_bad_requests_are_errors(server: str) -> None:
    with (
        OpenAI(base_url=f"{server}/v1", api_key="guess", max_retries=0) as wrong,
        pytest.raises(openai.AuthenticationError),
    ):
        wrong.models.list()
    with OpenAI(base_url=f"{server}/v1", api_key=KEY, max_retries=0) as client:
        with pytest.raises(openai.NotFoundError):
            client.chat.completions.create(
                model="gpt-4o", messages=[{"role": "user", "content": "hi"}]
            )
        with pytest.raises(openai.UnprocessableEntityError):
            client.chat.completions.create(
                model=MODEL, messages=[{"role": "assistant", "content": "I spoke last"}]
            )
