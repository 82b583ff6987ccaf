"""The book assistant's list patterns never take a determiner for a list's name."""

import pytest

from lectern.adapters.understanding.book_patterns import ADD, REMOVE


@pytest.mark.parametrize("text", ["add Dune to my list", "put Dune on the list"])
def test_my_list_is_not_a_list_called_my(text: str) -> None:
    found = ADD.match(text)
    assert found is None or (found.group("list1") or found.group("list2")) not in ("my", "the")


@pytest.mark.parametrize(
    ("text", "name"),
    [("add Dune to my summer list", "summer"), ("put Emma on my Gifts reading list", "Gifts")],
)
def test_a_named_list_is_still_read(text: str, name: str) -> None:
    found = ADD.match(text)
    assert found is not None and (found.group("list1") or found.group("list2")) == name


def test_removing_from_my_list_names_no_list_called_my() -> None:
    found = REMOVE.match("remove Dune from my list")
    assert found is None or (found.group("list1") or found.group("list2")) != "my"
