"""`hybrid`: the rule policy answers where the understanding layer is confident; the model
decides the rest. The model is a scripted fake that records what reached it."""

from __future__ import annotations

from pathlib import Path

import pytest

from lectern.adapters.llm.hybrid_policy import HybridPolicy, grounded
from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.understanding.intents import NearestExampleClassifier
from lectern.adapters.understanding.layer import Understanding
from lectern.bootstrap import bootstrap
from lectern.domain.assistant import AIResponse, Message, ToolCall, ToolSpec
from lectern.settings import load_settings
from tests.fakes import FakeEmbedder, ScriptedToolModel

EXAMPLES = {
    "greeting": ("hello there", "hi friend"),
    "search_books": ("find books about whales", "novels about the sea"),
    "rate_book": ("rate this book five stars", "give it four stars"),
}
VOCAB = sorted({w for texts in EXAMPLES.values() for t in texts for w in t.split()})


def _spec(name: str, **properties: str) -> ToolSpec:
    return ToolSpec(
        name,
        f"The {name} tool.",
        {
            "type": "object",
            "properties": {key: {"type": kind} for key, kind in properties.items()},
            "required": list(properties),
        },
    )


TOOLS = [
    _spec("search_books", query="string"),
    _spec("add_to_list", book="string", list="string"),
    _spec("rate_book", book="string", stars="integer"),
]
SYSTEM = "You help readers."


@pytest.fixture
def rules(tmp_path: Path) -> RulePolicy:
    classifier = NearestExampleClassifier(FakeEmbedder(VOCAB), EXAMPLES, tmp_path)
    # A high floor: words the examples do not hold ("zork quux") read under it.
    return RulePolicy(layer=Understanding(classifier, floor=0.9))


def _step(policy: HybridPolicy, *messages: Message) -> AIResponse:
    return policy.complete_with_tools(list(messages), TOOLS, system=SYSTEM)


def test_a_confident_message_never_reaches_the_model(rules: RulePolicy) -> None:
    model = ScriptedToolModel()
    hybrid = HybridPolicy(rules, model)
    added = _step(hybrid, Message("user", "add Dune to my summer list"))
    greeted = _step(hybrid, Message("user", "hello there"))
    assert [c.name for c in added.tool_calls] == ["add_to_list"]
    assert greeted.tool_calls == ()
    assert not greeted.unsure
    assert model.received == []
    assert hybrid.deferred == 0


def test_an_unsure_message_is_the_models_to_decide(rules: RulePolicy) -> None:
    call = ToolCall("m-1", "search_books", {"query": "quux"})
    model = ScriptedToolModel(AIResponse("", (call,), model="scripted:tools"))
    hybrid = HybridPolicy(rules, model)
    asked = rules.complete_with_tools([Message("user", "zork quux")], TOOLS, system=SYSTEM)
    assert asked.unsure  # the rules alone would ask back
    decided = _step(hybrid, Message("user", "zork quux"))
    assert decided.tool_calls == (call,)
    assert len(model.received) == 1
    sent, offered = model.received[0]
    assert sent[-1].content == "zork quux"
    # Only the tools behind the question's likeliest readings are offered.
    assert offered and set(offered) <= set(asked.readings) & {t.name for t in TOOLS}


def test_when_the_model_would_not_act_the_layers_question_stands(rules: RulePolicy) -> None:
    model = ScriptedToolModel(AIResponse("I think you want whales.", model="scripted:tools"))
    hybrid = HybridPolicy(rules, model)
    reply = _step(hybrid, Message("user", "zork quux"))
    assert reply.tool_calls == ()
    assert reply.text.startswith("I'm not sure what you mean")
    assert len(model.received) == 1


def test_after_the_models_call_the_turn_stays_the_models(rules: RulePolicy) -> None:
    call = ToolCall("m-1", "search_books", {"query": "whales"})
    model = ScriptedToolModel(AIResponse("Moby-Dick is about a whale.", model="scripted:tools"))
    hybrid = HybridPolicy(rules, model)
    reply = _step(
        hybrid,
        Message("user", "zork quux"),
        Message("assistant", "", (call,)),
        Message("tool", '{"results": []}', tool_call_id="m-1", name="search_books"),
    )
    assert reply.text == "Moby-Dick is about a whale."


def test_a_call_outside_the_readings_keeps_the_question(rules: RulePolicy) -> None:
    asked = rules.complete_with_tools([Message("user", "zork quux")], TOOLS, system=SYSTEM)
    outside = next(t.name for t in TOOLS if t.name not in asked.readings)
    call = ToolCall("m-1", outside, {"book": "zork", "list": "quux", "query": "zork"})
    model = ScriptedToolModel(AIResponse("", (call,), model="scripted:tools"))
    hybrid = HybridPolicy(rules, model)
    reply = _step(hybrid, Message("user", "zork quux"))
    assert reply.tool_calls == ()
    assert reply.text == asked.text
    assert hybrid.refused == 1


def test_a_made_up_argument_keeps_the_question(rules: RulePolicy) -> None:
    made_up = ToolCall("m-1", "search_books", {"query": "Dune Messiah"})
    said = ToolCall("m-2", "search_books", {"query": "Zork"})
    for call, stands in ((made_up, False), (said, True)):
        model = ScriptedToolModel(AIResponse("", (call,), model="scripted:tools"))
        hybrid = HybridPolicy(rules, model)
        reply = _step(hybrid, Message("user", "zork quux"))
        assert (reply.tool_calls == (call,)) is stands
        assert hybrid.refused == (0 if stands else 1)


def test_grounding_skips_choices_dates_and_numbers() -> None:
    spec = ToolSpec(
        "update_task",
        "Change a task.",
        {
            "type": "object",
            "properties": {
                "task_id": {"type": "string"},
                "priority": {"type": "string", "enum": ["low", "high", "urgent"]},
                "due_date": {"type": "string"},
                "stars": {"type": "integer"},
            },
        },
    )
    said = [Message("user", "make the vpn hunt urgent, due friday, 4 stars")]
    fine = ToolCall(
        "m",
        "update_task",
        {"task_id": "VPN hunt", "priority": "urgent", "due_date": "2026-11-06", "stars": 4},
    )
    invented = ToolCall("m", "update_task", {"task_id": "Rotate the certificates"})
    from_page = ToolCall("m", "update_task", {"task_id": "task-7f3a"})
    assert grounded(fine, spec, said, "You help.")
    assert not grounded(invented, spec, said, "You help.")
    assert grounded(from_page, spec, said, "The reader is on the page of task task-7f3a.")


def test_bootstrap_builds_hybrid_over_the_local_tool_model(tmp_path: Path) -> None:
    model = ScriptedToolModel()
    settings = load_settings(data_dir=tmp_path, assistant_provider="hybrid")
    services = bootstrap(settings, local_tool_model=model)
    chosen = services.chat_model()
    assert isinstance(chosen, HybridPolicy)
    assert chosen.model is model
    assert isinstance(chosen.rules, RulePolicy)
