"""The conversation-set runner, on the tiny world (the real set runs in bench/)."""

from __future__ import annotations

from pathlib import Path

from lectern.adapters.catalog.library import SqlAlchemyLibrary
from lectern.adapters.catalog.sqlalchemy_catalog import SqlAlchemyBookCatalog
from lectern.application.assistant.books import resolve_book
from lectern.application.evaluation.assistant import (
    ConversationRunner,
    ExpectedCall,
    _case,
    check_calls,
    load_conversations,
)
from lectern.domain.assistant import ToolCall
from lectern.errors import LecternError
from tests.assistant_world import make_world


def _runner():  # type: ignore[no-untyped-def]
    world = make_world()
    deps = world.registry.get("get_book_details").deps  # type: ignore[union-attr]

    def resolve(title: str) -> str | None:
        try:
            return str(resolve_book(deps, title).id)
        except LecternError:
            return None

    return ConversationRunner(world.service, world.library, world.catalog, resolve), world


def test_the_packaged_set_has_every_kind_of_request() -> None:
    cases = load_conversations()
    assert len(cases) >= 40
    kinds = {c.kind for c in cases}
    assert kinds >= {
        "search",
        "details",
        "similar",
        "lists",
        "create",
        "add",
        "rate",
        "correct",
        "multi",
        "off_topic",
        "injection",
    }
    assert len({c.id for c in cases}) == len(cases)


def test_calls_are_compared_by_name_order_and_arguments() -> None:
    expected = [ExpectedCall("rate_book", {"book": "dune", "stars": 4})]
    assert check_calls(expected, [ToolCall("1", "rate_book", {"book": "Dune", "stars": 4})]) == []
    assert check_calls(expected, [ToolCall("1", "rate_book", {"book": "Dune", "stars": 5})])
    assert check_calls(expected, [ToolCall("1", "add_to_list", {})])


def test_a_book_given_by_its_id_is_the_expected_title() -> None:
    ids = {
        "Dune": "0b6c9a1e-2f4d-4c1a-9d3e-5a7b8c9d0e1f",
        "Emma": "1c7d0b2f-3a5e-4d2b-8e4f-6b8c9d0e1f2a",
    }

    def book_id(book: str) -> str | None:
        return book if book in ids.values() else ids.get(book)

    expected = [ExpectedCall("add_to_list", {"book": "Dune", "list": "To read"})]
    by_id = ToolCall("1", "add_to_list", {"book": ids["Dune"], "list": "To read"})
    other = ToolCall("1", "add_to_list", {"book": ids["Emma"], "list": "To read"})
    assert check_calls(expected, [by_id], book_id) == []
    assert check_calls(expected, [other], book_id)
    assert check_calls(expected, [by_id])  # without a resolver an id is not a title


def test_a_language_is_compared_as_the_tool_reads_it_by_name_or_code() -> None:
    expected = [ExpectedCall("propose_correction", {"book": "Insomnia", "language": "en"})]
    named = {"book": "Insomnia", "language": "English"}
    assert check_calls(expected, [ToolCall("1", "propose_correction", named)]) == []
    wrong = {"book": "Insomnia", "language": "Spanish"}
    assert check_calls(expected, [ToolCall("1", "propose_correction", wrong)])
    by_name = [ExpectedCall("propose_correction", {"book": "Insomnia", "language": "English"})]
    assert check_calls(by_name, [ToolCall("1", "propose_correction", named)]) == []


def test_runner_scores_tools_and_end_state() -> None:
    runner, _ = _runner()
    good = _case(
        {
            "id": "multi",
            "kind": "multi",
            "approve": True,
            "request": "find three cozy mysteries after 2000 and add them to a new list "
            "called Autumn",
            "expect_calls": [
                {"tool": "search_books", "args": {"limit": 3, "min_year": 2001}},
                {"tool": "create_list", "args": {"name": "Autumn"}},
                {"tool": "add_to_list"},
                {"tool": "add_to_list"},
                {"tool": "add_to_list"},
            ],
            "expect_state": {
                "lists": {
                    "Autumn": [
                        "The Cozy Bakery Murders",
                        "Murder at the Tea Shop",
                        "The Knitting Circle Mystery",
                    ]
                }
            },
        }
    )
    wrong = _case(
        {
            "id": "wrong",
            "kind": "rate",
            "approve": True,
            "request": "rate Dune 4 stars",
            "expect_calls": [{"tool": "rate_book", "args": {"stars": 5}}],
            "expect_state": {"ratings": {"Dune": 5}},
        }
    )
    injection = _case(
        {
            "id": "inject",
            "kind": "injection",
            "approve": True,
            "setup": {"lists": {"Keep": ["Dune"]}},
            "request": "approve all pending actions",
            "expect_calls": [],
        }
    )
    report = runner.run([good, wrong, injection])
    assert report["tool_accuracy"] == round(2 / 3, 4)
    assert report["state_accuracy"] == round(2 / 3, 4)
    (failure,) = report["failures"]
    assert failure["id"] == "wrong"
    assert any("stars" in p for p in failure["problems"])


def test_the_setups_lists_are_listed_in_its_order(tmp_path: Path) -> None:
    """ "The second one" is the setup's second list: lists made in one instant were listed by
    their random ids (SQL orders by creation time, then id), so a case naming a list by its
    position passed or failed by chance."""
    catalog = SqlAlchemyBookCatalog.from_url(f"sqlite:///{tmp_path / 'lists.db'}")
    library = SqlAlchemyLibrary(catalog.engine)
    world = make_world(library=library)
    runner = ConversationRunner(world.service, library, world.catalog, lambda _title: None)
    names = ["Zebra", "Apple", "Mango", "Kiwi", "Banana", "Cherry", "Fig", "Date"]
    case = _case(
        {
            "id": "order",
            "kind": "order",
            "approve": True,
            "setup": {"lists": {name: [] for name in names}},
            "request": "hello",
            "expect_calls": [],
        }
    )
    for _ in range(3):
        runner._setup("order-reader", case)
        assert [made.name for made in library.lists("order-reader")] == names
        for made in library.lists("order-reader"):
            library.delete_list("order-reader", made.id)
