"""The error hierarchy: every 'no such thing' is a NotFoundError, each with its own problem."""

import pytest

from lectern.entrypoints.http.problems import ERROR_TABLE
from lectern.errors import (
    CollectionNotFoundError,
    DocumentNotFoundError,
    LecternError,
    NotFoundError,
)


def _problem(error: Exception) -> tuple[int, str]:
    """The status and title the HTTP layer gives this error (its first row that matches)."""
    for kind, status, title, _ in ERROR_TABLE:
        if isinstance(error, kind):
            return status, title
    raise AssertionError(f"no row for {type(error).__name__}")


@pytest.mark.parametrize(
    ("error", "title"),
    [
        (CollectionNotFoundError("no collection 'kb'"), "Collection not found"),
        (DocumentNotFoundError("no document 'x'"), "Document not found"),
    ],
)
def test_missing_things_are_not_found_errors_with_their_own_problem(
    error: LecternError, title: str
) -> None:
    assert isinstance(error, NotFoundError)
    assert _problem(error) == (404, title)


def test_a_plain_not_found_error_keeps_the_generic_problem() -> None:
    assert _problem(NotFoundError("no conversation 'c'")) == (404, "Not found")
