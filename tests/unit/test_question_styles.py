"""Terse support-style variants of training questions: by rule, seeded, split-preserving."""

from __future__ import annotations

import random

from lectern.application.evaluation.question_styles import terse_variant, terse_variants


def test_a_question_loses_its_wh_frame_and_articles_and_ends_with_a_question_mark() -> None:
    quiet = random.Random(1)
    quiet.random = lambda: 1.0  # type: ignore[method-assign]  # no typo
    assert terse_variant("how do I make a query parameter optional", quiet) == (
        "make query parameter optional?"
    )
    assert terse_variant("who has played chad dimera on days of our lives", quiet) == (
        "played chad dimera on days of our lives?"
    )
    assert terse_variant("how many seasons of friends are there", quiet) == (
        "how many seasons of friends are there?"
    )


def test_variants_are_deterministic_and_only_for_questions_they_change() -> None:
    questions = {"a": "what is the role of the prime minister in canada", "b": "paris?"}
    first = terse_variants(questions)
    assert first == terse_variants(questions)
    assert set(first) == {"a"}
    assert first["a"].endswith("?") and "the" not in first["a"].split()
