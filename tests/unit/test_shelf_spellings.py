"""A shelf named in readers' shorthand is read as the catalog's spelling of it."""

from __future__ import annotations

from lectern.adapters.understanding.rules import RuleBasedUnderstanding
from lectern.application.ports import BookNames
from lectern.application.understanding import Vocabulary

SHELVES = ("british literature", "world war ii", "children's literature", "literature")


def _rules() -> RuleBasedUnderstanding:
    books = [BookNames(f"b{n}", f"Filler {n}", ("Ann Other",), SHELVES, 10) for n in range(6)]
    return RuleBasedUnderstanding(Vocabulary.build(books, ["en"], max_year=2019))


def test_shorthand_and_possessives_name_the_catalog_shelf() -> None:
    rules = _rules()
    assert rules.plan("books about british lit").categories == ("british literature",)
    assert rules.plan("books about wwii").categories == ("world war ii",)
    assert rules.plan("books about world war 2").categories == ("world war ii",)
    assert rules.plan("childrens lit").categories == ("children's literature",)


def test_a_word_that_is_no_shelf_spelling_names_no_shelf() -> None:
    assert _rules().plan("books about british gardens").categories == ()
