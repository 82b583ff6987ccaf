"""Cover facts, the documents a question names, statement rows and the measure vocabulary."""

from __future__ import annotations

from lectern.application.collections import statement_first
from lectern.domain.filings import cover_facts, scope_for
from lectern.domain.financial_measures import (
    expansion,
    measures_in,
    statement_kind,
    statements_asked,
)
from lectern.domain.retrieval import FusedHit
from lectern.domain.statement_tables import labelled_rows, split_row, table_layout

COVER = """UNITED STATES
SECURITIES AND EXCHANGE COMMISSION
FORM 10-K
For the fiscal year ended January 1, 2023
JOHNSON & JOHNSON
(Exact name of registrant as specified in its charter)
Common Stock, Par Value $1.00 JNJ New York Stock Exchange
"""


def test_cover_facts_come_from_the_file_name_and_the_cover() -> None:
    facts = cover_facts("JOHNSON_JOHNSON_2022_10K", COVER)
    assert facts["company_names"] == ["johnsonjohnson"]
    assert facts["tickers"] == ["JNJ"]
    assert facts["years"] == [2022, 2023]
    assert facts["form"] == "10-K"
    assert cover_facts("meeting-notes", "Agenda\nBudget") == {}


def test_a_question_names_company_then_year() -> None:
    documents = {
        "a21": cover_facts("AMERICANWATERWORKS_2021_10K", ""),
        "a22": cover_facts("AMERICANWATERWORKS_2022_10K", ""),
        "jnj": cover_facts("JOHNSON_JOHNSON_2022_10K", COVER),
    }
    scope = scope_for(
        "Does American Water Works have positive working capital in FY2022?", documents
    )
    assert scope is not None and scope.documents == {"a22"}
    scope = scope_for("As of FY 2021, what will it pay in 2030 at American Water Works?", documents)
    assert scope is not None and scope.documents == {"a21"}
    scope = scope_for("Roughly how many times has JnJ sold its inventory?", documents)
    assert scope is not None and scope.documents == {"jnj"}
    assert scope_for("Which company has the best margin?", documents) is None


def test_rows_are_labelled_with_their_columns() -> None:
    assert split_row("Net interest expense (939) (1,863) $ 1,128") == (
        "Net interest expense",
        ["(939)", "(1,863)", "1,128"],
    )
    # A date is not a row of two figures ("26," is no figure).
    assert split_row("December 26, 2020") == ("December 26,", ["2020"])
    assert labelled_rows("Inventories (509) (387)", ("2018", "2017")) == (
        "Inventories | 2018: (509) | 2017: (387)"
    )
    page = "Consolidated Balance Sheets\n(In millions) 2022 2021\n" + "\n".join(
        f"Line {i} {i},000 {i}00" for i in range(1, 9)
    )
    layout = table_layout(page)
    assert layout is not None
    assert layout.section() == ("Consolidated Balance Sheets", "columns: 2022 | 2021")
    assert table_layout("Item 1. Business\nWe sell tools in 2022 and 2021.") is None


def test_years_written_one_to_a_line_are_the_columns() -> None:
    rows = "\n".join(f"Line {c} $ {i},000 $ {i}00 {i}0" for i, c in enumerate("abcdefgh", 1))
    page = (
        "Consolidated Statements of Cash Flows\nYear Ended\nDecember 26,\n2015\n"
        "December 27,\n2014\nDecember 28,\n2013\n(In millions)\nOperating activities:\n"
    ) + rows
    layout = table_layout(page)
    assert layout is not None
    assert layout.section() == (
        "Consolidated Statements of Cash Flows",
        "columns: 2015 | 2014 | 2013",
    )
    # Two years above rows of three figures are not its columns: no layout of its own.
    two = "Balance Sheets\nNovember 27,\n2015\nNovember 28,\n2014\nAssets\n" + rows
    assert table_layout(two) is None


def test_measures_map_to_their_statement_lines() -> None:
    assert [m.name for m in measures_in("What is the FY2018 capex for 3M?")] == [
        "capital expenditure"
    ]
    words = expansion("Is Verizon's quick ratio healthy?")
    assert words is not None and "total current liabilities" in words
    assert expansion("Who is the chief executive?") is None


def test_statement_tables_are_known_by_their_titles() -> None:
    assert statement_kind("CONSOLIDATED STATEMENTS OF OPERATIONS") == "income"
    assert statement_kind("Consolidated Statements of Earnings") == "income"
    assert statement_kind("Consolidated Balance Shee t") == "balance sheet"
    assert statement_kind("Statement of Financial Position") == "balance sheet"
    assert statement_kind("Consolidated Statement of Cash Flows") == "cash flows"
    assert statement_kind("Consolidated Statements of Comprehensive Income") is None
    assert statement_kind("Consolidated Statements of Shareholders' Equity") is None
    assert statement_kind(None) is None


def test_a_question_names_its_statement_or_implies_it() -> None:
    named, implied = statements_asked(
        "Using the statement of financial position, what is the FY2020 working capital ratio?"
    )
    assert named == {"balance sheet"} and implied == {"balance sheet"}
    named, implied = statements_asked("Is the company a capital-intensive business?")
    assert named == frozenset() and implied == {"cash flows"}
    named, _ = statements_asked("Per the P&L and the cash flow statement, what is EBITDA?")
    assert named == {"income", "cash flows"}
    assert statements_asked("Who audits the company?") == (frozenset(), frozenset())


def test_a_named_statement_comes_before_passages_that_only_share_words() -> None:
    hits = [FusedHit("note", 1.0), FusedHit("cash", 0.7), FusedHit("sheet", 0.6)]
    statements = {"cash": "cash flows", "sheet": "balance sheet"}
    ordered = statement_first(hits, statements, {"cash flows": 0.5})
    assert [h.id for h in ordered] == ["cash", "note", "sheet"]
    assert statement_first(hits, statements, {}) == hits
