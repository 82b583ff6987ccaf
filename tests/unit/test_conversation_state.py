"""The end state compares titles as readers say them: a catalog's subtitle is no difference."""

from __future__ import annotations

from lectern.application.evaluation.assistant import ConversationCase, ConversationRunner


def _case(**fields: object) -> ConversationCase:
    return ConversationCase(id="c", kind="add_to_list", turns=("x",), calls=(), **fields)  # type: ignore[arg-type]


def test_a_subtitled_catalog_title_is_the_title_said() -> None:
    case = _case(expect_lists={"History": ["The Lantern Years"]}, expect_ratings={"Stoner": 4})
    state = {
        "lists": {"History": ["The Lantern Years: Letters of a Harbour Town"]},
        "ratings": {"Stoner": 4},
        "corrections": 0,
    }
    assert ConversationRunner._compare(case, state) == []


def test_another_book_is_still_another_book() -> None:
    case = _case(expect_lists={"History": ["The Lantern Years"]})
    state = {"lists": {"History": ["The Lantern Decades"]}, "ratings": {}, "corrections": 0}
    assert ConversationRunner._compare(case, state) != []
    rated = {
        "lists": {"History": ["The Lantern Years"]},
        "ratings": {"Stoner": 3},
        "corrections": 0,
    }
    assert ConversationRunner._compare(
        _case(expect_lists={"History": ["The Lantern Years"]}), rated
    )
