"""The answering evaluation's figures, on hand-made records and on the real ClapNQ files."""

from __future__ import annotations

from pathlib import Path

import pytest

from lectern.application.evaluation.answering import (
    ClapnqCase,
    ReplyRecord,
    ResearchCase,
    best_threshold,
    bm25_baseline,
    cites_gold,
    decision_figures,
    halves,
    load_clapnq,
    load_research_questions,
    load_support_questions,
    relevance_sweep,
    reply_body,
    reply_figures,
    targets_met,
    token_f1,
    transfer_figures,
)
from lectern.application.evaluation.answering.research import ResearchRecord, research_misses
from lectern.errors import DatasetError
from tests.conftest import SHARED_DATA

CLAPNQ = SHARED_DATA / "qa" / "clapnq-dev"


def test_token_f1_is_squads() -> None:
    assert token_f1("The cat sat.", "a cat sat") == 1.0
    assert token_f1("cat sat on the mat", "the cat sat") == pytest.approx(2 / 3)  # P 2/4, R 2/2
    assert token_f1("dog", "cat") == 0.0
    assert token_f1("", "") == 1.0 and token_f1("x", "") == 0.0


def test_a_gold_sentence_is_cited_when_quote_and_sentence_overlap() -> None:
    gold = [
        "The longest - running cast member is Leslie Charleson , who has portrayed Dr. Monica ."
    ]
    assert cites_gold(["the longest - running   cast member is Leslie Charleson"], gold)
    assert cites_gold([gold[0] + " And more after it."], gold)
    assert cites_gold(["The longest - running cast member is Leslie…"], gold)
    assert not cites_gold(["General Hospital is an American soap opera ."], gold)
    assert not cites_gold([], gold)


def test_reply_body_drops_labels_and_links() -> None:
    text = "One. [kb:a.md] Two. [kb:https://x.org/b]\n\nLinks:\n- https://x.org/b"
    assert reply_body(text) == "One. Two."


def test_decision_figures() -> None:
    figures = decision_figures([True, True, False, False], [True, False, True, False])
    assert figures["precision"] == 0.5 and figures["recall"] == 0.5
    assert figures["specificity"] == 0.5 and figures["balanced_accuracy"] == 0.5
    assert decision_figures([False], [True])["precision"] is None


def test_best_threshold_takes_the_middle_of_ties_and_never_replies_without_a_score() -> None:
    threshold, accuracy = best_threshold([0.9, 0.8, 0.3, None], [True, True, False, False])
    assert accuracy == 1.0 and threshold == 0.8
    assert best_threshold([None], [True]) == (0.0, 0.5)


def _record(
    split: str, answerable: bool, replied: bool, relevance: float, lexical: float
) -> ReplyRecord:
    return ReplyRecord(
        id=f"{split}-{answerable}-{relevance}",
        split=split,
        answerable=answerable,
        replied=replied,
        gate="question",
        top_relevance=relevance,
        top_lexical=lexical,
        latency_ms=10.0,
        citations=1 if replied else 0,
        valid_citations=1 if replied else 0,
        gold_hit=True if replied and answerable else None,
        f1=0.5 if replied and answerable else None,
    )


RECORDS = [
    _record("tune", True, True, 0.8, 9.0),
    _record("tune", True, True, 0.7, 5.0),
    _record("tune", False, True, 0.5, 8.0),
    _record("tune", False, False, 0.9, 2.0),
    _record("held_out", True, True, 0.75, 7.0),
    _record("held_out", False, True, 0.6, 7.5),
]


def test_the_sweep_tunes_on_one_half_and_reports_the_other() -> None:
    sweep = relevance_sweep(RECORDS)
    assert sweep["min_relevance"] == 0.7 and sweep["balanced_accuracy_tune"] == 1.0
    held = sweep["held_out"]
    assert isinstance(held, dict) and held["balanced_accuracy"] == 1.0


def test_the_bm25_baseline_is_tuned_on_all_and_on_half() -> None:
    baseline = bm25_baseline(RECORDS)
    tuned = baseline["tuned_on_all"]
    assert isinstance(tuned, dict) and tuned["balanced_accuracy"] == pytest.approx(2 / 3, abs=0.01)
    half = baseline["tuned_on_tune_half"]
    assert isinstance(half, dict) and half["threshold"] == 9.0


def test_reply_figures_and_targets() -> None:
    figures = reply_figures(RECORDS)
    assert figures["gold_sentence_hit"] == 1.0 and figures["citations_valid"] == 1.0
    assert figures["token_f1"] == 0.5 and figures["latency_p95_ms"] == 10.0
    targets = targets_met(figures)
    assert targets["latency_p95_ms"] == {"target": 200.0, "value": 10.0, "met": True}
    assert targets["balanced_accuracy"]["met"] is False  # type: ignore[index]


def test_the_real_clapnq_files_load_and_split_in_halves() -> None:
    cases = load_clapnq(CLAPNQ)
    assert len(cases) == 600 and sum(c.answerable for c in cases) == 300
    answerable = next(c for c in cases if c.answerable)
    assert answerable.answer and answerable.gold_sentences
    assert all(not c.answer and not c.gold_sentences for c in cases if not c.answerable)
    split = halves(cases)
    for flag in (True, False):
        kinds = [split[c.id] for c in cases if c.answerable == flag]
        assert kinds.count("tune") == kinds.count("held_out") == 150
    assert halves(list(reversed(cases))) == split  # by hash, not by file order


def test_missing_or_broken_files_are_dataset_errors(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match="cannot read"):
        load_clapnq(tmp_path)
    for name in ("clapnq_dev_answerable.jsonl", "clapnq_dev_unanswerable.jsonl"):
        (tmp_path / name).write_text('{"id": 1}\n', encoding="utf-8")
    with pytest.raises(DatasetError, match="not a ClapNQ row"):
        load_clapnq(tmp_path)


def test_the_research_questions_have_gold_ids() -> None:
    version, questions = load_research_questions()
    assert version == "research-questions-v1" and len(questions) >= 30
    assert all(q.gold and q.question.strip() for q in questions)
    assert len({q.id for q in questions}) == len(questions)
    kinds = {q.gold[0].split("-")[0][:1] for q in questions}
    assert kinds == {"C", "T"}  # CVE ids and ATT&CK techniques


def test_the_research_dev_set_is_apart_from_the_measured_one() -> None:
    version, dev = load_research_questions(name="dev")
    _, measured = load_research_questions()
    assert version == "research-questions-dev-v1" and len(dev) >= 15
    assert len({q.id for q in dev}) == len(dev) and all(q.gold for q in dev)
    assert {q.gold[0][:1] for q in dev} == {"C", "T"}
    # The rules are tuned on the dev set: none of its records answers a measured question.
    assert not {g for q in dev for g in q.gold} & {g for q in measured for g in q.gold}
    assert not {q.question for q in dev} & {q.question for q in measured}
    with pytest.raises(DatasetError, match="cannot read"):
        load_research_questions(name="test")


def test_the_second_dev_set_is_apart_from_the_other_two(tmp_path: Path) -> None:
    version, dev2 = load_research_questions(name="dev2")
    _, dev = load_research_questions(name="dev")
    _, measured = load_research_questions()
    assert version.startswith("research-questions-dev2-") and len(dev2) >= 30
    assert len({q.id for q in dev2}) == len(dev2) and all(q.gold for q in dev2)
    assert {q.gold[0][:1] for q in dev2} == {"C", "T"}
    assert not {g for q in dev2 for g in q.gold} & {g for q in measured for g in q.gold}
    others = {q.question for q in dev} | {q.question for q in measured}
    assert not {q.question for q in dev2} & others
    # Any file of the same schema is a set too.
    path = tmp_path / "mine.json"
    path.write_text('{"version": "v", "questions": [{"id": "a", "question": "q", "gold": ["T1"]}]}')
    assert load_research_questions(name=str(path)) == ("v", [ResearchCase("a", "q", ("T1",))])


def test_the_third_dev_set_is_apart_from_the_others() -> None:
    version, dev3 = load_research_questions(name="dev3")
    earlier = [load_research_questions(name=name)[1] for name in ("dev", "dev2", "measured")]
    assert version.startswith("research-questions-dev3-") and len(dev3) >= 50
    assert len({q.id for q in dev3}) == len(dev3) and all(q.gold for q in dev3)
    assert {q.gold[0][:1] for q in dev3} == {"C", "T"}
    # Two-record questions are part of it (a sibling is gold only when asked for).
    assert sum(1 for q in dev3 if len(q.gold) > 1) >= 10
    # Counts, not the records: a failure here must not print the held-out set's gold.
    shared_gold = len(
        {g for q in dev3 for g in q.gold} & {g for s in earlier for q in s for g in q.gold}
    )
    shared_questions = len({q.question for q in dev3} & {q.question for s in earlier for q in s})
    assert (shared_gold, shared_questions) == (0, 0)


def test_misses_name_only_the_questions_not_fully_right() -> None:
    def record(
        id_: str, gold: list[str], cited: list[str], precision: float, recall: float
    ) -> ResearchRecord:
        return ResearchRecord(id_, gold, cited, precision, recall, 1.0, [], 1.0)

    lines = research_misses(
        [
            record("right", ["T1"], ["T1"], 1.0, 1.0),
            record("sibling-first", ["CVE-1"], ["CVE-2"], 0.0, 0.0),
            record("uncited", ["T2"], [], 0.0, 0.0),
        ]
    )
    assert lines == [
        "sibling-first: gold CVE-1; cited CVE-2 (precision 0.0, recall 0.0)",
        "uncited: gold T2; cited - (precision 0.0, recall 0.0)",
    ]


def test_cases_are_value_objects() -> None:
    case = ClapnqCase("1", "q", True, "a", ("s",))
    assert case == ClapnqCase("1", "q", True, "a", ("s",))


def test_the_support_questions_are_labelled_before_any_run() -> None:
    version, cases = load_support_questions()
    assert version == "kb-support-questions-v1"
    assert sum(c.answerable for c in cases) == 12 and len(cases) == 24


def test_transfer_figures_report_the_configured_gate_and_the_best_floor() -> None:
    figures = transfer_figures(RECORDS)
    assert figures["best_floor_on_this_set"] == 0.7
    assert "gold_sentence_hit" not in figures and figures["questions"] == 6
