"""What a question asks, the answer check's signals, and its model file (no model at run time)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lectern.adapters.understanding.answer_check import (
    FEATURES,
    AnswerCheck,
    AnswerModel,
    Evidence,
    answer_features,
    load_model,
)
from lectern.adapters.understanding.question import analyse, kind_met
from lectern.errors import AnswerModelError


def _idf(term: str) -> float:
    return 2.0 if term.isdigit() else 1.0


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("who has played chad dimera on days of our lives", "person"),
        ("when did we start putting shoes on horses", "time"),
        ("how many seasons of friends are there", "quantity"),
        ("what's the minimum length for a look-up secret?", "quantity"),
        ("where is yemen located in the middle east", "place"),
        ("why did carter boycott the 1980 olympics in moscow", "reason"),
        ("How do I declare an optional query parameter?", "manner"),
        ("Does FastAPI support WebSockets?", "yes_no"),
        ("which pigment determines the colour of human hair", "choice"),
        ("what is the role of the prime minister in canada", "definition"),
        ("run some code once when the app starts up?", "other"),
    ],
)
def test_the_kind_of_answer_a_question_asks_for(question: str, kind: str) -> None:
    assert analyse(question).kind == kind


def test_the_subject_numbers_years_negation_and_bound_are_read() -> None:
    lookup = analyse("what's the minimum length for a look-up secret?")
    assert lookup.measure == "minimum"
    assert "secret" in lookup.subject and "salt" not in lookup.subject
    assert analyse("the maximum length a verifier must allow for memorized secrets").measure == (
        "maximum"
    )
    boycott = analyse("why did carter boycott the 1980 olympics in moscow")
    assert boycott.years == ("1980",)
    assert analyse("who never played chad dimera").negated
    assert not analyse("who played chad dimera").negated


def test_a_sentence_meets_the_kind_only_when_it_holds_that_kind_of_thing() -> None:
    assert kind_met("time", "The show first aired in June 1977 .")
    assert not kind_met("time", "The show is an American soap opera .")
    assert kind_met("quantity", "Secrets SHALL be at least 8 characters in length.")
    assert not kind_met("quantity", "Secrets SHALL be chosen at random.")
    assert kind_met("person", "The role was originated by Casey Deidrick .", ["role"])


def test_the_signals_see_a_year_the_passage_does_not_hold() -> None:
    analysis = analyse("why did carter boycott the 1985 olympics in moscow")
    evidence = Evidence(
        "Carter led the boycott of the 1980 Summer Olympics in Moscow .",
        "Carter led the boycott of the 1980 Summer Olympics in Moscow .",
        "1980 Summer Olympics boycott",
        0.8,
    )
    features = answer_features(analysis, evidence, _idf)
    assert set(features) == set(FEATURES)
    assert features["year_mismatch"] == 1.0
    assert all(0.0 <= value <= 1.0 for value in features.values())
    right = answer_features(
        analyse("why did carter boycott the 1980 olympics in moscow"), evidence, _idf
    )
    assert right["year_mismatch"] == 0.0 and right["subject_in_sentence"] > 0.8


def test_words_written_tersely_meet_the_passage_and_swapped_ones_do_not() -> None:
    passage = "Set a cookie on the response: declare a parameter and serve it with 201."
    evidence = Evidence(passage, passage, "Response Cookies", 0.6)
    for request in ("set a cookie on the reponse", "setting cookies on the respnose", "param?"):
        features = answer_features(analyse(request), evidence, _idf)
        assert features["passage_coverage"] == 1.0, request
    swapped = answer_features(analyse("set a biscuit on the response"), evidence, _idf)
    assert swapped["passage_coverage"] < 1.0
    number = answer_features(analyse("return 202 on the response"), evidence, _idf)
    assert number["passage_coverage"] < 1.0 and number["number_mismatch"] == 1.0


def test_the_check_takes_the_best_candidate_and_its_threshold() -> None:
    model = AnswerModel(
        coefficients=tuple(4.0 if f == "subject_in_sentence" else 0.0 for f in FEATURES),
        intercept=-2.0,
        threshold=0.5,
        version="test",
    )
    check = AnswerCheck(model)
    about = Evidence("Pianos have 88 keys .", "Pianos have 88 keys .", "Piano", 0.7)
    other = Evidence("Guitars have six strings .", "Guitars have six strings .", "Guitar", 0.7)
    judged = check.judge("how many keys does a piano have", [other, about], _idf)
    assert judged.answers and judged.best == 1
    assert not check.judge("how many keys does a piano have", [other], _idf).answers
    assert not check.judge("how many keys does a piano have", [], _idf).answers


def test_a_knowledge_base_of_pages_is_read_at_its_own_threshold() -> None:
    """How-to questions over documentation are answered by sentences that score lower than
    ClapNQ's factoid answers: a model may carry a lower threshold for pages."""
    coefficients = tuple(4.0 if f == "subject_in_sentence" else 0.0 for f in FEATURES)
    half = Evidence("Pianos are big .", "Pianos have 88 keys .", "Piano", 0.7)
    model = AnswerModel(coefficients, -2.5, threshold=0.5, version="t", pages_threshold=0.1)
    check = AnswerCheck(model)
    question = "how many keys does a piano have"
    probability = check.judge(question, [half], _idf).probability
    assert 0.1 <= probability < 0.5
    assert not check.judge(question, [half], _idf).answers
    assert check.judge(question, [half], _idf, pages=True).answers
    # An explicit threshold overrides both; a model without one reads pages at its own.
    assert not AnswerCheck(model, threshold=0.6).judge(question, [half], _idf, pages=True).answers
    plain = AnswerModel(coefficients, -2.5, threshold=0.5, version="t")
    assert not AnswerCheck(plain).judge(question, [half], _idf, pages=True).answers


def test_the_packaged_model_is_read_without_scikit_learn(tmp_path: Path) -> None:
    model = load_model()
    assert len(model.coefficients) == len(FEATURES)
    assert 0.0 < model.threshold < 1.0
    assert model.pages_threshold is not None and 0.0 < model.pages_threshold <= model.threshold
    assert model.report["test"] and model.report["pages_threshold"]
    copy = tmp_path / "model.json"
    copy.write_text(json.dumps(model.to_json()), encoding="utf-8")
    assert load_model(copy) == model
    stale = model.to_json() | {"features": ["relevance"]}
    copy.write_text(json.dumps(stale), encoding="utf-8")
    with pytest.raises(AnswerModelError, match="retrain"):
        load_model(copy)
    with pytest.raises(AnswerModelError, match="cannot read"):
        load_model(tmp_path / "missing.json")
