"""The evaluation's check of a model's calls, and its fixed samples of the sets."""

from __future__ import annotations

from lectern.application.assistant.registry import create_default_registry
from lectern.application.assistant.tools import ToolDeps
from lectern.application.evaluation.tool_calls import CheckedCalls
from lectern.domain.assistant import AIResponse, Message, ToolCall
from lectern.entrypoints.cli.evaluate_understanding import sampled
from tests.fakes import FakeCatalog, FakeLibrary, FakePendingActions, ScriptedToolModel


def test_every_call_is_checked_against_the_offered_tools_input_model() -> None:
    registry = create_default_registry(
        ToolDeps(catalog=FakeCatalog(), library=FakeLibrary(), actions=FakePendingActions())
    )
    model = ScriptedToolModel(
        AIResponse("", (ToolCall("1", "rate_book", {"book": "Dune", "stars": 4}),)),
        AIResponse("", (ToolCall("2", "rate_book", {"book": "Dune", "stars": 9}),)),
        AIResponse("", (ToolCall("3", "get_tasks", {}),)),
        AIResponse("Dune is a novel."),
    )
    checked = CheckedCalls(model, registry)
    for _ in range(4):
        checked.complete_with_tools([Message("user", "rate dune")], registry.specs(), system="")
    figures = checked.tally.figures()
    assert (figures["model_steps"], figures["model_calls"]) == (4, 3)
    assert figures["valid_call_rate"] == round(1 / 3, 4)
    assert checked.tally.invalid[0].startswith("rate_book: invalid input for rate_book: stars")
    assert checked.tally.invalid[1] == "get_tasks: not an offered tool"


def test_a_sample_is_every_nth_case_by_sorted_id() -> None:
    ids = ["c-3", "a-1", "b-2", "a-2", "c-1"]
    assert sampled(ids, 1, str) == ["a-1", "a-2", "b-2", "c-1", "c-3"]
    assert sampled(ids, 2, str) == ["a-1", "b-2", "c-3"]
