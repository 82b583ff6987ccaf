"""The understanding layer's parts with a fake embedder: intents, mentions, slots, questions."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from lectern.adapters.understanding.intents import NearestExampleClassifier
from lectern.adapters.understanding.layer import Understanding
from lectern.adapters.understanding.mentions import (
    find_in,
    names_from_prompt,
    resolve,
    resolve_person,
)
from lectern.adapters.understanding.slots import (
    comment_of,
    count_of,
    due_date_of,
    list_name_of,
    priority_of,
    stars_of,
    status_of,
)
from lectern.application.assistant.names import NAMES_HEADER
from tests.fakes import FakeEmbedder

EXAMPLES = {
    "greeting": ("hello there", "hi friend"),
    "complete_task": ("mark the task done", "the task is finished"),
    "get_blockers": ("what is blocking us", "show the blockers"),
}
VOCAB = sorted({w for texts in EXAMPLES.values() for t in texts for w in t.split()})
TASKS = [
    "Patch the Check Point gateways",
    "Review NetScaler session tokens",
    "Hunt for unusual VPN logins",
    "Write the incident runbook",
    "Schedule the phishing drill",
]


def test_a_message_takes_the_intent_of_its_nearest_examples(tmp_path: Path) -> None:
    classifier = NearestExampleClassifier(FakeEmbedder(VOCAB), EXAMPLES, tmp_path)
    reading = classifier.classify("is the task finished")
    assert reading.best == "complete_task"
    assert reading.margin > 0
    assert 0 < reading.confidence <= 1
    assert classifier.classify("hello").best == "greeting"


def test_the_examples_are_embedded_once_and_cached_by_content(tmp_path: Path) -> None:
    first = FakeEmbedder(VOCAB)
    NearestExampleClassifier(first, EXAMPLES, tmp_path)
    assert len(first.calls) == 1
    again = FakeEmbedder(VOCAB)
    NearestExampleClassifier(again, EXAMPLES, tmp_path)
    assert again.calls == []
    changed = {**EXAMPLES, "thanks": ("thank you",)}
    third = FakeEmbedder(VOCAB)
    NearestExampleClassifier(third, changed, tmp_path)
    assert len(third.calls) == 1


def test_a_cue_adds_to_its_intent_and_never_takes_from_another(tmp_path: Path) -> None:
    classifier = NearestExampleClassifier(FakeEmbedder(VOCAB), EXAMPLES, tmp_path)
    plain = classifier.classify("show the blockers")
    boosted = classifier.classify("show the blockers", boosts={"complete_task": 0.01})
    assert plain.best == boosted.best == "get_blockers"
    scores = {s.intent: s.score for s in boosted.ranked}
    assert scores["get_blockers"] == {s.intent: s.score for s in plain.ranked}["get_blockers"]


def test_below_the_floor_the_layer_asks_naming_the_likeliest_readings(tmp_path: Path) -> None:
    layer = Understanding(
        NearestExampleClassifier(FakeEmbedder(VOCAB), EXAMPLES, tmp_path), floor=0.99
    )
    reading = layer.read("zzz unknown words", ["complete_task", "get_blockers"])
    assert layer.decided(reading) is None
    question = layer.clarify(reading)
    assert question.question.endswith("?")
    assert 2 <= len(question.suggestions) <= 3


def test_mentions_resolve_to_stored_names_and_close_ones_are_ambiguous() -> None:
    assert resolve("the runbook", TASKS).name == "Write the incident runbook"
    assert find_in("I finished hunting for unusual vpn logins", TASKS).name == TASKS[2]
    assert find_in("close out the NetScaler review", TASKS).name == TASKS[1]
    assert find_in("mark it done", TASKS).name is None
    both = find_in("the gateway task", ["Patch the gateways", "Reboot the gateways"])
    assert both.ambiguous
    assert set(both.candidates) == {"Patch the gateways", "Reboot the gateways"}


def test_the_names_block_of_the_prompt_is_read_back() -> None:
    system = (
        "The reader is on the home page.\n\n"
        f"{NAMES_HEADER}\n- reader: alice\n- task: Write the incident runbook\n"
        "- member: bob (Bob Builder)\n- list: Halloween"
    )
    names = names_from_prompt(system)
    assert names.of("task") == ["Write the incident runbook"]
    assert names.of("list") == ["Halloween"]
    assert resolve_person("Bob Builder", names).name == "bob"
    assert resolve_person("me", names, "alice").name == "alice"
    assert resolve_person("maya", names).name is None


def test_slots_are_read_from_the_message() -> None:
    assert status_of("the runbook is finished") == "done"
    assert status_of("close out the review") == "done"
    assert status_of("move it to in progress") == "in_progress"
    assert priority_of("bump it to high priority") == "high"
    assert stars_of("Emma: 3/5") == 3
    assert stars_of("give it three stars") == 3
    assert comment_of("comment on the runbook that the draft is ready") == "the draft is ready"
    assert comment_of('tell everyone "hotfix applied"') == "hotfix applied"
    sentence = "a reading list called Dystopia for adults with two novels that are not YA"
    assert list_name_of(sentence) == "Dystopia for adults"
    assert count_of("with two dystopian novels", 5) == 2
    wednesday = datetime(2026, 11, 25, 9, 0)
    assert due_date_of("renew the certificates by Friday", wednesday) == "2026-11-27"
    assert due_date_of("no date here", wednesday) is None


def test_a_message_is_embedded_once_however_often_it_is_read() -> None:
    embedder = FakeEmbedder(VOCAB)
    classifier = NearestExampleClassifier(embedder, EXAMPLES)
    before = len(embedder.calls)
    first = classifier.classify("mark the task done")
    again = classifier.classify("mark the task done", ["complete_task", "get_blockers"])
    assert len(embedder.calls) == before + 1
    assert first.best == again.best == "complete_task"
    classifier.forget_messages()
    classifier.classify("mark the task done")
    assert len(embedder.calls) == before + 2


def test_ruling_an_intent_out_decides_again_over_the_rest() -> None:
    classifier = NearestExampleClassifier(FakeEmbedder(VOCAB), EXAMPLES)
    reading = classifier.classify("the task is finished show the blockers")
    rest = reading.without([reading.best])
    assert reading.best not in rest.likeliest(3)
    assert rest.best == reading.likeliest(2)[1]
    assert rest.margin == rest.ranked[0].score - rest.ranked[1].score
    assert reading.without(["no_such_intent"]) is reading


def test_stored_names_are_masked_by_what_they_are() -> None:
    from lectern.adapters.understanding.mentions import masked

    names = names_from_prompt(
        "\n".join(
            [
                NAMES_HEADER,
                *(f"- task: {t}" for t in TASKS),
                "- project: Phishing awareness",
                "- project: VPN gateway hardening",
            ]
        )
    )
    assert masked("I finished hunting for unusual vpn logins", names) == "I finished the task"
    assert masked("how far along is phishing awareness", names) == ("how far along is the project")
    assert masked("hello there", names) == "hello there"


def test_a_rename_reads_the_list_and_its_new_name() -> None:
    from lectern.adapters.understanding.book_plan import plan_books
    from lectern.domain.assistant import ToolCall

    names = names_from_prompt(f"{NAMES_HEADER}\n- list: Summer\n- list: Halloween")

    def call(tool: str, **arguments: object) -> ToolCall:
        return ToolCall("t", tool, dict(arguments))

    for text, old, new in (
        ("rename Summer to Holiday", "Summer", "Holiday"),
        ("call my halloween list Spooky instead", "Halloween", "Spooky"),
    ):
        planned = plan_books("rename_list", text, names, lambda it: it, call)
        assert isinstance(planned, list)
        assert planned[0].arguments == {"list": old, "new_name": new}


def test_cues_read_the_message_as_written_not_its_masked_form(tmp_path: Path) -> None:
    layer = Understanding(NearestExampleClassifier(FakeEmbedder(VOCAB), EXAMPLES, tmp_path))
    masked = layer.read("the task", ["complete_task", "get_blockers"])
    said = layer.read("the task", ["complete_task", "get_blockers"], said="wrap up the runbook")
    before = {s.intent: s.score for s in masked.ranked}
    after = {s.intent: s.score for s in said.ranked}
    assert after["complete_task"] == pytest.approx(before["complete_task"] + layer.cue)
    assert after["get_blockers"] == before["get_blockers"]


def test_a_comment_may_follow_a_dash() -> None:
    assert comment_of("note on the drill - the room is booked") == "the room is booked"
