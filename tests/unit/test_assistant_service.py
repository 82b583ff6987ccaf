"""The loop, its bound and traces; guardrails; retrieved text is data, never instructions."""

from __future__ import annotations

from langchain_core.messages import AIMessage, ToolMessage

from lectern.adapters.llm.tool_calling import LangChainToolModel
from lectern.application.assistant.guardrails import (
    MISSING_CITATIONS_NOTE,
    NO_RETRIEVAL_NOTE,
    REFUSAL_TEXT,
)
from lectern.application.assistant.service import AssistantConfig
from lectern.domain.assistant import PageContext, book_source, cite
from lectern.domain.privacy import PiiFinding
from lectern.errors import AssistantDisabledError, LLMError
from tests.assistant_world import book_id, make_world
from tests.fakes import ScriptedChatModel


def _call(name: str, args: dict[str, object], call_id: str = "c1") -> AIMessage:
    return AIMessage(
        content="", tool_calls=[{"id": call_id, "name": name, "args": args, "type": "tool_call"}]
    )


def _world(*script: object, **kwargs: object):  # type: ignore[no-untyped-def]
    chat = ScriptedChatModel(script=list(script))
    return make_world(LangChainToolModel(chat, "scripted"), **kwargs), chat  # type: ignore[arg-type]


def test_query_tool_results_go_back_to_the_model_and_every_step_is_traced() -> None:
    dune = book_id("Dune")
    world, chat = _world(
        _call("get_book_details", {"book": "Dune"}),
        f"Dune is by {cite('Frank Herbert', book_source(dune, 'authors'))}.",
    )
    reply = world.service.chat("alice", "who wrote Dune?")
    assert reply.grounding_flags == ()
    assert [c.snippet for c in reply.citations] == ["Frank Herbert"]
    second_call = chat.received[1]
    tool_message = second_call[-1]
    assert isinstance(tool_message, ToolMessage) and tool_message.tool_call_id == "c1"
    assert '"authors":"Frank Herbert"' in str(tool_message.content)
    assert [s.kind for s in reply.steps] == ["model", "get_book_details", "model"]
    operations = [t.operation for t in world.tracer.traces]
    assert operations == ["assistant.model", "assistant.tool.get_book_details", "assistant.model"]
    tools = chat.bound_tools[0]
    assert {t["function"]["name"] for t in tools} >= {"search_books", "add_to_list"}  # type: ignore[index]
    assert tools[0]["function"]["parameters"]["properties"]["query"]  # type: ignore[index]


def test_the_loop_is_bounded_by_max_agent_steps() -> None:
    world, chat = _world(
        _call("search_books", {"query": "dune"}),
        config=AssistantConfig(max_agent_steps=3),
    )
    reply = world.service.chat("alice", "keep searching forever")
    assert len(chat.received) == 3
    assert "step_limit" in reply.grounding_flags
    assert len([s for s in reply.steps if s.kind == "model"]) == 3


def test_invalid_citations_are_cut_and_flagged() -> None:
    dune = book_id("Dune")
    world, _ = _world(
        _call("get_book_details", {"book": "Dune"}),
        f"Dune: {cite('the boy Paul Atreides', book_source(dune, 'description'))}, "
        f"{cite('a planet of endless oceans', book_source(dune, 'description'))}.",
    )
    reply = world.service.chat("alice", "what is Dune about?")
    assert "invalid_citations_dropped" in reply.grounding_flags
    assert "endless oceans" not in reply.text
    assert [c.snippet for c in reply.citations] == ["the boy Paul Atreides"]


def test_citations_must_come_from_this_turns_tools() -> None:
    gilead = book_id("Gilead")
    world, _ = _world(
        _call("get_book_details", {"book": "Dune"}),
        # Gilead's text is real, but no tool returned it in this turn.
        f"See {cite('An aging preacher', book_source(gilead, 'description'))}.",
    )
    reply = world.service.chat("alice", "what is Dune about?")
    assert reply.citations == ()
    assert {"invalid_citations_dropped", "missing_citations"} <= set(reply.grounding_flags)
    assert reply.text.endswith(MISSING_CITATIONS_NOTE)


def test_an_answer_without_any_tool_is_marked() -> None:
    world, _ = _world("Dune was written by Isaac Asimov.")
    reply = world.service.chat("alice", "who wrote Dune?")
    assert reply.grounding_flags == ("no_retrieval",)
    assert reply.text.endswith(NO_RETRIEVAL_NOTE)


def test_retrieval_with_no_evidence_gets_the_fixed_refusal() -> None:
    world, _ = _world(
        _call("search_books", {"query": "dune", "language": "fr"}),
        "Surely there are great French books about Dune.",
    )
    reply = world.service.chat("alice", "French books about Dune")
    assert reply.text == REFUSAL_TEXT
    assert "no_evidence" in reply.grounding_flags


def test_relevance_gate_drops_weak_results_before_the_model_sees_them() -> None:
    world, chat = _world(_call("search_books", {"query": "cozy mystery village tea"}), "ok")
    strict, strict_chat = _world(
        _call("search_books", {"query": "cozy mystery village tea"}), "ok", min_relevance=0.95
    )
    world.service.chat("alice", "cozy mystery village tea")
    reply = strict.service.chat("alice", "cozy mystery village tea")
    loose_books = str(chat.received[1][-1].content).count('"book_id"')
    strict_books = str(strict_chat.received[1][-1].content).count('"book_id"')
    assert strict_books < loose_books
    assert "low_relevance_dropped" in reply.grounding_flags


def test_unknown_tools_and_bad_arguments_go_back_as_errors() -> None:
    world, chat = _world(
        _call("approve_action", {"id": "all"}),
        _call("rate_book", {"book": "Dune", "stars": 11}, "c2"),
        "I could not.",
    )
    reply = world.service.chat("alice", "rate Dune 11")
    first_error = str(chat.received[1][-1].content)
    assert "there is no tool 'approve_action'" in first_error
    assert "stars" in str(chat.received[2][-1].content)
    assert reply.actions == ()
    assert [s.outcome for s in reply.steps if s.kind != "model"] == ["error", "error"]


def test_retrieved_text_is_data_with_the_rule_policy() -> None:
    world = make_world()
    world.service.chat("alice", "create a list called Keep")
    pending_before = world.service.pending("alice")
    reply = world.service.chat("alice", "find the poisoned blurb mystery")
    assert [c.name for c in reply.tool_calls] == ["search_books"]
    assert "The Poisoned Blurb" in reply.text  # the passage reached the policy as data
    assert reply.actions == ()
    assert world.service.pending("alice") == pending_before
    assert world.library.lists("alice") == []


def test_an_obedient_model_still_cannot_approve_or_change_anything() -> None:
    # The model "obeys" the instruction in the blurb: it asks for a tool that does not
    # exist, then for a deletion, which only becomes a preview.
    world, _ = _world(
        _call("search_books", {"query": "poisoned blurb"}),
        _call("approve_all_pending_actions", {}, "c2"),
        _call("delete_list", {"list": "Keep"}, "c3"),
        "Done as the blurb said.",
    )
    world.library.create_list("alice", "k1", "Keep", world.clock())
    reply = world.service.chat("alice", "find the poisoned blurb mystery")
    assert [a.preview.tool_name for a in reply.actions] == ["delete_list"]
    assert world.library.get_list("alice", "k1") is not None
    assert all(a.status == "pending" for a in world.service.actions("alice"))


def test_page_context_names_this_book() -> None:
    world = make_world()
    page = PageContext("book", book_id("Gilead"), "Gilead")
    reply = world.service.chat("alice", "rate it 5 stars", page=page)
    (action,) = reply.actions
    assert action.preview.tool_input["book_id"] == book_id("Gilead")


def test_history_is_kept_per_conversation_as_text_turns() -> None:
    world = make_world()
    first = world.service.chat("alice", "who wrote Dune?")
    follow = world.service.chat("alice", "rate it 4 stars", conversation=first.conversation)
    assert follow.actions[0].preview.tool_input["book_id"] == book_id("Dune")
    history = world.sessions.history("alice", first.conversation)
    assert [m.role for m in history] == ["user", "assistant", "user", "assistant"]
    assert world.sessions.history("bob", first.conversation) == []


class FakeDetector:
    name = "fake"

    def find(self, text: str) -> list[PiiFinding]:
        start = text.find("555-0100")
        return [PiiFinding("PHONE_NUMBER", start, start + 8)] if start >= 0 else []


def test_personal_data_is_masked_before_the_model_and_the_reply_says_so() -> None:
    chat = ScriptedChatModel(script=["Noted."])
    world = make_world(LangChainToolModel(chat, "scripted"), config=AssistantConfig(mask_pii=True))
    world.service.pii = FakeDetector()
    reply = world.service.chat("alice", "call me at 555-0100 about Dune")
    sent = str(chat.received[0][-1].content)
    assert "555-0100" not in sent and "<PHONE_NUMBER>" in sent
    assert "pii_masked" in reply.grounding_flags and "phone number" in reply.text
    stored = world.sessions.history("alice", reply.conversation)[0].content
    assert "555-0100" not in stored


def test_a_failing_model_gives_a_reply_not_a_crash() -> None:
    world, _ = _world(LLMError("provider down"))
    reply = world.service.chat("alice", "who wrote Dune?")
    assert "model_error" in reply.grounding_flags


def test_the_feature_flag_switches_the_assistant_off() -> None:
    world = make_world(config=AssistantConfig(enabled=False))
    try:
        world.service.chat("alice", "hello")
    except AssistantDisabledError:
        pass
    else:
        raise AssertionError("a disabled assistant answered")


def test_search_books_excludes_before_ranking_what_the_model_rules_out() -> None:
    world, chat = _world(
        _call(
            "search_books",
            {
                "query": "cozy mystery village",
                "exclude_authors": ["Lee Brown"],
                "exclude_titles": ["The Knitting Circle Mystery"],
                "max_pages": 300,
            },
        ),
        "ok",
    )
    world.service.chat("alice", "cozy mysteries, but nothing by Lee Brown")
    tool_message = chat.received[1][-1]
    assert isinstance(tool_message, ToolMessage)
    content = str(tool_message.content)
    assert "Cozy Bakery Murders" in content
    assert "Murder at the Tea Shop" not in content and "Knitting Circle" not in content
    tools = chat.bound_tools[0]
    properties = tools[0]["function"]["parameters"]["properties"]  # type: ignore[index]
    assert {"min_pages", "max_pages", "exclude_titles", "exclude_youth"} <= set(properties)
