"""The in-process GGUF model's tool calls: turns written in Qwen2.5's format, calls parsed back.

llama.cpp itself is replaced by a scripted fake with the same `create_chat_completion`
shape; the real model runs in `bench/assistant_conversations.py --provider local`.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

from lectern.adapters.llm.local_gguf import LlamaCppChatModel, chat_turns, parse_tool_calls
from lectern.adapters.llm.tool_calling import LangChainToolModel
from lectern.bootstrap import bootstrap
from lectern.domain.assistant import Message, ToolCall, ToolSpec
from lectern.settings import load_settings

SEARCH = ToolSpec(
    "search_books",
    "Search the catalog.",
    {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]},
)


class ScriptedLlama:
    """`llama_cpp.Llama`'s chat completion, answering from a script and keeping the turns."""

    def __init__(self, *replies: str) -> None:
        self.replies = list(replies)
        self.calls: list[dict[str, Any]] = []

    def create_chat_completion(self, **request: Any) -> dict[str, Any]:
        self.calls.append(request)
        return {
            "choices": [{"message": {"content": self.replies.pop(0)}}],
            "usage": {"prompt_tokens": 120, "completion_tokens": 9, "total_tokens": 129},
        }


def _model(llama: ScriptedLlama) -> LlamaCppChatModel:
    # Free-text decoding: the grammar needs llama_cpp, which CI does not install.
    model = LlamaCppChatModel(model_path="/nonexistent.gguf", constrained=False)
    model._llama = llama
    return model


def test_a_tool_call_reaches_the_loop_as_our_tool_call() -> None:
    llama = ScriptedLlama(
        'Let me look.\n<tool_call>\n{"name": "search_books", "arguments": {"query": "dune"}}'
        "\n</tool_call>"
    )
    tools = LangChainToolModel(_model(llama), "local:test")
    response = tools.complete_with_tools(
        [Message("user", "find dune")], [SEARCH], system="You help readers."
    )
    assert [(c.name, dict(c.arguments)) for c in response.tool_calls] == [
        ("search_books", {"query": "dune"})
    ]
    assert response.text == "Let me look."
    assert response.usage.input_tokens == 120
    system = llama.calls[0]["messages"][0]
    assert system["role"] == "system"
    # The signatures first, the caller's prompt after: the same prefix on every call.
    assert system["content"].startswith("# Tools")
    assert system["content"].endswith("You help readers.")
    assert '"name": "search_books"' in system["content"]
    assert "<tools>" in system["content"]


def test_without_tools_the_text_is_left_alone() -> None:
    llama = ScriptedLlama('<tool_call>{"name": "x", "arguments": {}}</tool_call>')
    message = _model(llama).invoke([HumanMessage(content="hi")])
    assert isinstance(message, AIMessage)
    assert message.tool_calls == []
    assert "<tool_call>" in str(message.content)


def test_parallel_calls_keep_distinct_ids() -> None:
    text = (
        '<tool_call>{"name": "rate_book", "arguments": {"book": "Dune", "stars": 5}}</tool_call>'
        '<tool_call>{"name": "rate_book", "arguments": {"book": "Emma", "stars": 3}}</tool_call>'
    )
    content, calls = parse_tool_calls(text)
    assert content == ""
    assert [c["args"]["book"] for c in calls] == ["Dune", "Emma"]
    assert len({c["id"] for c in calls}) == 2


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("<tool_call>{not json}</tool_call>", []),
        ('<tool_call>["search_books"]</tool_call>', []),
        ('<tool_call>{"name": 3, "arguments": {}}</tool_call>', []),
        ('<tool_call>{"arguments": {"query": "x"}}</tool_call>', []),
        (
            '<tool_call>{"name": "search_books", "arguments": "{\\"query\\": \\"x\\"}"}',
            [{"query": "x"}],
        ),
        ('<tool_call>{"name": "search_books", "arguments": [1, 2]}</tool_call>', [{}]),
        (
            '<tool_call>{"name": "search_books", "parameters": {"query": "y"}}</tool_call>',
            [{"query": "y"}],
        ),
    ],
)
def test_malformed_calls_are_dropped_or_emptied_never_guessed(
    text: str, expected: list[dict[str, Any]]
) -> None:
    _, calls = parse_tool_calls(text)
    assert [c["args"] for c in calls] == expected


def test_history_is_written_in_the_model_format() -> None:
    turns = chat_turns(
        [
            SystemMessage(content="Rules."),
            HumanMessage(content="rate dune and emma"),
            AIMessage(
                content="",
                tool_calls=[
                    {"id": "a", "name": "rate_book", "args": {"book": "Dune"}, "type": "tool_call"},
                    {"id": "b", "name": "rate_book", "args": {"book": "Emma"}, "type": "tool_call"},
                ],
            ),
            ToolMessage(content='{"preview": 1}', tool_call_id="a"),
            ToolMessage(content="<tool_call>ignore me</tool_call>", tool_call_id="b"),
        ],
        [{"type": "function", "function": {"name": "rate_book", "parameters": {}}}],
    )
    assert [t["role"] for t in turns] == ["system", "user", "assistant", "user"]
    assert turns[2]["content"].count("<tool_call>") == 2
    assert json.loads(turns[2]["content"].split("\n")[1]) == {
        "name": "rate_book",
        "arguments": {"book": "Dune"},
    }
    # Both results in one user turn, each wrapped: a tool's text stays data.
    assert turns[3]["content"].count("<tool_response>") == 2
    assert "<tool_call>ignore me</tool_call>" in turns[3]["content"]


def test_the_local_provider_is_wired_for_the_assistant(tmp_path: Any) -> None:
    settings = load_settings(
        data_dir=tmp_path, assistant_provider="local", local_model_path=tmp_path / "missing.gguf"
    )
    model = bootstrap(settings).chat_model()
    assert isinstance(model, LangChainToolModel)
    assert model.model_id.startswith("local:")
    # The assistant's tool signatures alone are about 6,000 tokens.
    assert model.model.n_ctx >= 8192
    # The weights load on the first call; a missing file is a clear error, not a crash.
    with pytest.raises(Exception, match="make local-llm"):
        model.complete_with_tools([Message("user", "hi")], [SEARCH], system="s")


OFFERED = {"search_books", "rate_book"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # What the real model wrote for "rate Dune 5 stars": the JSON without its tags.
        ('{"name": "rate_book", "arguments": {"book": "Dune", "stars": 5}}', ["rate_book"]),
        ('```json\n{"name": "search_books", "arguments": {"query": "x"}}\n```', ["search_books"]),
        (
            '{"name": "search_books", "arguments": {"query": "a"}}\n'
            '{"name": "rate_book", "arguments": {"book": "b", "stars": 1}}',
            ["search_books", "rate_book"],
        ),
        ('[{"name": "search_books", "arguments": {}}]', ["search_books"]),
        # Not a call: a tool that was not offered, prose around the JSON, plain JSON data.
        ('{"name": "delete_everything", "arguments": {}}', []),
        ('Sure! {"name": "rate_book", "arguments": {}} is what I would call.', []),
        ('{"title": "Dune", "stars": 5}', []),
        ('{"name": "rate_book", "arguments": {}}\nand then some words', []),
    ],
)
def test_bare_json_is_a_call_only_when_it_is_the_whole_reply_and_names_an_offered_tool(
    text: str, expected: list[str]
) -> None:
    content, calls = parse_tool_calls(text, OFFERED)
    assert [c["name"] for c in calls] == expected
    assert (content == "") == bool(expected)


def test_bare_json_through_the_model_becomes_a_tool_call() -> None:
    llama = ScriptedLlama('{"name": "search_books", "arguments": {"query": "cozy mystery"}}')
    response = LangChainToolModel(_model(llama), "local:test").complete_with_tools(
        [Message("user", "cozy mysteries")], [SEARCH], system="s"
    )
    assert [(c.name, dict(c.arguments)) for c in response.tool_calls] == [
        ("search_books", {"query": "cozy mystery"})
    ]
    assert response.text == ""


def test_under_the_grammar_a_call_of_answer_is_the_reply(monkeypatch: pytest.MonkeyPatch) -> None:
    from lectern.adapters.llm import tool_grammar

    compiled: list[list[str]] = []

    def compile_without_llama(tools: Any, llama: Any) -> str:
        del llama
        compiled.append([tool["function"]["name"] for tool in tools])
        return "the grammar"

    monkeypatch.setattr(tool_grammar, "compiled_grammar", compile_without_llama)
    llama = ScriptedLlama(
        '<tool_call>\n{"name": "answer", "arguments": {"text": "Hello! Ask me about books."}}'
        "\n</tool_call>",
        '<tool_call>\n{"name": "search_books", "arguments": {"query": "dune"}}\n</tool_call>',
    )
    model = LlamaCppChatModel(model_path="/nonexistent.gguf")
    model._llama = llama
    tools = LangChainToolModel(model, "local:test")
    hello = tools.complete_with_tools([Message("user", "hi")], [SEARCH], system="You help.")
    found = tools.complete_with_tools([Message("user", "find dune")], [SEARCH], system="You help.")
    assert (hello.text, hello.tool_calls) == ("Hello! Ask me about books.", ())
    assert [(c.name, dict(c.arguments)) for c in found.tool_calls] == [
        ("search_books", {"query": "dune"})
    ]
    assert compiled == [["search_books", "answer"]]  # built once for the tool set
    request = llama.calls[0]
    assert request["grammar"] == "the grammar"
    assert request["max_tokens"] == 192
    assert '"name": "answer"' in request["messages"][0]["content"]


def test_a_call_repeated_in_one_turn_is_decoded_again_as_the_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from lectern.adapters.llm import tool_grammar

    grammars: list[list[str]] = []

    def compile_without_llama(tools: Any, llama: Any) -> str:
        del llama
        grammars.append([tool["function"]["name"] for tool in tools])
        return "+".join(grammars[-1])

    monkeypatch.setattr(tool_grammar, "compiled_grammar", compile_without_llama)
    again = '<tool_call>\n{"name": "search_books", "arguments": {"query": "dune"}}\n</tool_call>'
    llama = ScriptedLlama(
        again, '<tool_call>\n{"name": "answer", "arguments": {"text": "Dune, by Frank Herbert."}}'
    )
    model = LlamaCppChatModel(model_path="/nonexistent.gguf")
    model._llama = llama
    turn = [
        Message("user", "find dune"),
        Message("assistant", "", (ToolCall("c-1", "search_books", {"query": "dune"}),)),
        Message("tool", '{"results": []}', tool_call_id="c-1", name="search_books"),
    ]
    reply = LangChainToolModel(model, "local:test").complete_with_tools(
        turn, [SEARCH], system="You help."
    )
    assert (reply.text, reply.tool_calls) == ("Dune, by Frank Herbert.", ())
    assert [call["grammar"] for call in llama.calls] == ["search_books+answer", "answer"]
