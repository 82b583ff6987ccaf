"""Financial measures and the statement lines that hold them: query expansion for filings.

A question about a measure ("capital expenditure", "quick ratio", "days payable
outstanding") rarely shares words with the statement that answers it: a cash flow
statement says "Purchases of property, plant and equipment", a balance sheet says "Total
current assets". Each row below maps the ways a measure is asked for to the statement and
the line items it is computed from, as the statements print them. Search adds them to the
question (as a second query, fused with the first) only in collections of filings
(documents whose cover facts were read at ingest: `domain.filings.is_filing`).

The table was written from accounting definitions (the line items a measure is computed
from), not from the evaluation questions' answers; docs/collections.md lists it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

CASH_FLOW = "consolidated statements of cash flows"
BALANCE_SHEET = "consolidated balance sheets"
INCOME = "consolidated statements of income operations"


@dataclass(frozen=True, slots=True)
class Measure:
    """A measure, the phrases that ask for it, its statements and line items."""

    name: str
    phrases: tuple[str, ...]
    statements: tuple[str, ...]
    items: tuple[str, ...]


MEASURES: tuple[Measure, ...] = (
    Measure(
        "capital expenditure",
        ("capital expenditure", "capex", "capital spending", "capital intensive"),
        (CASH_FLOW,),
        ("purchases of property, plant and equipment", "capital expenditures", "revenue"),
    ),
    Measure(
        "free cash flow",
        ("free cash flow", "fcf"),
        (CASH_FLOW,),
        ("net cash provided by operating activities", "purchases of property and equipment"),
    ),
    Measure(
        "operating cash flow",
        ("cash from operations", "operating cash flow", "cash flow from operations"),
        (CASH_FLOW,),
        ("net cash provided by operating activities",),
    ),
    Measure(
        "dividends",
        ("dividend", "dividends"),
        (CASH_FLOW,),
        ("cash dividends paid", "dividends paid to shareholders"),
    ),
    Measure(
        "depreciation and amortization",
        ("depreciation", "d&a", "ebitda"),
        (CASH_FLOW,),
        ("depreciation and amortization", "operating income"),
    ),
    Measure(
        "quick ratio",
        ("quick ratio", "acid test"),
        (BALANCE_SHEET,),
        ("total current assets", "inventories", "total current liabilities", "cash"),
    ),
    Measure(
        "current ratio and working capital",
        ("current ratio", "working capital", "liquidity"),
        (BALANCE_SHEET,),
        ("total current assets", "total current liabilities"),
    ),
    Measure(
        "days payable outstanding",
        ("days payable outstanding", "dpo", "payables"),
        (BALANCE_SHEET, INCOME),
        ("accounts payable", "cost of sales", "cost of goods sold"),
    ),
    Measure(
        "inventory turnover",
        ("inventory turnover", "days inventory", "inventories", "inventory"),
        (BALANCE_SHEET, INCOME),
        ("inventories", "cost of sales", "cost of products sold"),
    ),
    Measure(
        "fixed asset turnover",
        ("fixed asset turnover", "asset turnover", "pp&e", "fixed assets"),
        (BALANCE_SHEET, INCOME),
        ("property, plant and equipment, net", "total net revenues", "total assets"),
    ),
    Measure(
        "operating margin",
        ("operating margin", "operating income", "operating profit", "ebit"),
        (INCOME,),
        ("operating income", "total revenues", "net sales"),
    ),
    Measure(
        "gross margin",
        ("gross margin", "gross profit"),
        (INCOME,),
        ("gross profit", "cost of sales", "net sales"),
    ),
    Measure(
        "net profit margin",
        ("net profit margin", "net margin", "net income", "net earnings"),
        (INCOME,),
        ("net income attributable", "net earnings", "total revenue"),
    ),
    Measure(
        "effective tax rate",
        ("effective tax rate", "tax rate", "income tax"),
        (INCOME,),
        ("provision for income taxes", "income before income taxes", "effective tax rate"),
    ),
    Measure(
        "debt",
        ("debt", "leverage", "borrowings"),
        (BALANCE_SHEET,),
        ("long-term debt", "short-term borrowings", "current portion of long-term debt"),
    ),
    Measure(
        "return on assets",
        ("return on assets", "roa"),
        (BALANCE_SHEET, INCOME),
        ("total assets", "net income"),
    ),
    Measure(
        "restructuring",
        ("restructuring",),
        (INCOME,),
        ("restructuring and impairment charges",),
    ),
)


def _pattern(phrase: str) -> re.Pattern[str]:
    return re.compile(r"(?<![a-z0-9])" + re.escape(phrase) + r"(?![a-z0-9])")


_PATTERNS = tuple((m, tuple(_pattern(p) for p in m.phrases)) for m in MEASURES)


def measures_in(question: str) -> list[Measure]:
    """The measures a question asks about, in the table's order."""
    text = re.sub(r"(?<=[a-z])-(?=[a-z])", " ", question.lower())  # "capital-intensive"
    return [m for m, patterns in _PATTERNS if any(p.search(text) for p in patterns)]


def expansion(question: str) -> str | None:
    """The statements and line items of the question's measures, or None when it names none."""
    found = measures_in(question)
    if not found:
        return None
    words: list[str] = []
    for measure in found:
        for part in (*measure.statements, *measure.items):
            if part not in words:
                words.append(part)
    return " ".join(words)


STATEMENT_KINDS = ("cash flows", "balance sheet", "income")
"""The three primary statements, as `statement_kind` and `statements_asked` name them."""

_ASKED = (
    ("cash flows", r"cash[- ]?flows?\s+statements?|statements?\s+of\s+cash\s+flows?"),
    (
        "balance sheet",
        r"balance\s+sheets?|statements?\s+of\s+financial\s+(?:position|condition)",
    ),
    (
        "income",
        r"income\s+statements?|statements?\s+of\s+(?:income|operations|earnings)|"
        r"p\s*&\s*l\b|profit\s+and\s+loss\s+statements?",
    ),
)
_ASKED_PATTERNS = tuple((kind, re.compile(p, re.IGNORECASE)) for kind, p in _ASKED)
_OF_MEASURES = {CASH_FLOW: "cash flows", BALANCE_SHEET: "balance sheet", INCOME: "income"}


def statement_kind(title: str | None) -> str | None:
    """The primary statement a table's title names, or None (other tables, equity).

    "Consolidated Statements of Earnings" is the income statement; "... of Comprehensive
    Income" is not.
    """
    if not title:
        return None
    text = " ".join(title.lower().split())
    if "comprehensive" in text or "equity" in text:
        return None
    if "cash flow" in text:
        return "cash flows"
    if re.search(r"balance\s?shee\s?t|financial\s+(?:position|condition)", text):
        return "balance sheet"
    if re.search(r"statements?\s+of\s+(?:consolidated\s+)?(?:income|operations|earnings)", text):
        return "income"
    return None


def statements_asked(question: str) -> tuple[frozenset[str], frozenset[str]]:
    """(statements the question names, statements its measures are computed from)."""
    named = frozenset(kind for kind, pattern in _ASKED_PATTERNS if pattern.search(question))
    implied = frozenset(_OF_MEASURES[s] for m in measures_in(question) for s in m.statements)
    return named, implied
