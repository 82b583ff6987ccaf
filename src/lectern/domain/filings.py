"""Filings: the facts a document's cover states, and the documents a question names.

At ingest a PDF's file name and first page give its company (the registrant's name, the
file name's leading words, its ticker symbols), its years (the file name's year and the
period the cover reports) and its form (10-K, 10-Q, 8-K, 20-F, an earnings release). At
search, `scope_for` recognises those facts in a question: a company named by its name
(spaced or not: "American Water Works" finds AMERICANWATERWORKS), a ticker or a short form
written in capitals ("JPM", "MGM"), then among that company's documents the latest year the
question names that some of them report, then a form the question names. The result is a
scope with a reason a person can read; no company named means no scope.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from lectern.domain.books import JSONValue

FORMS = {
    "10k": "10-K",
    "10q": "10-Q",
    "8k": "8-K",
    "20f": "20-F",
    "earnings": "earnings release",
}
"""File-name tokens and cover words that name a form, and how it is shown."""

_LEGAL = frozenset(
    {"inc", "incorporated", "co", "corp", "corporation", "company", "companies", "ltd"}
    | {"limited", "plc", "llc", "lp", "sa", "ag", "nv", "the", "group", "holdings", "holding"}
    | {"international"}
)
_COVER_FORM = re.compile(r"\bFORM\s+(10-K|10-Q|8-K|20-F)\b", re.IGNORECASE)
_PERIOD = re.compile(
    r"for the (?:fiscal )?(?:year|quarterly period|quarter|period) ended\s+"
    r"[A-Za-z]+\.?\s+\d{1,2},?\s+((?:19|20)\d{2})",
    re.IGNORECASE,
)
_REGISTRANT = re.compile(r"\n([^\n]{2,80})\n\s*\(Exact name of (?:the )?registrant", re.IGNORECASE)
_TICKER_LINE = re.compile(
    r"\b([A-Z]{1,5})\s+(?:The\s+)?(?:New York Stock Exchange|NYSE|Nasdaq|NASDAQ)\b"
)
_TICKER_PAREN = re.compile(r"\((?:NYSE|NASDAQ|Nasdaq|Nyse)\s*:\s*([A-Z]{1,5})\)")
_YEAR = re.compile(r"(?<![0-9])((?:19|20)\d{2})(?![0-9])")
_QUESTION_YEAR = re.compile(r"(?<![0-9])(?:fy\s*'?)?((?:19|20)\d{2})(?![0-9])", re.IGNORECASE)
_QUESTION_FORM = re.compile(r"\b(10-?K|10-?Q|8-?K|20-?F)\b", re.IGNORECASE)
_NOT_TICKERS = frozenset({"LLC", "INC", "THE", "NYSE", "USD", "CEO", "CFO", "EPS", "FY"})


def _words(text: str) -> list[str]:
    text = re.sub(r"['’]s\b", "", text.replace("&", " "))
    return re.findall(r"[a-z0-9]+", text.lower())


def _core(name: str) -> str:
    """A company name without its legal words, run together: "Best Buy Co., Inc." -> bestbuy."""
    words = [w for w in _words(name) if w not in _LEGAL]
    return "".join(words)


def cover_facts(stem: str, first_page: str) -> dict[str, JSONValue]:
    """Company names, tickers, years and form from a file name and its first page's text.

    Empty when neither looks like a filing (a file name without a year and a cover
    without a form), so other PDFs carry no filing facts.
    """
    tokens = [t for t in re.split(r"[_\-\s.]+", stem) if t]
    lead: list[str] = []
    for token in tokens:
        if _YEAR.fullmatch(token[:4]) and (len(token) == 4 or not token[4:].isalpha()):
            break
        lead.append(token)
    file_years = [m for t in tokens for m in _YEAR.findall(t)][:1]
    form = next((FORMS[t.lower()] for t in tokens if t.lower() in FORMS), None)
    cover = _COVER_FORM.search(first_page)
    if cover is not None:
        form = cover.group(1).upper()
    if not file_years and cover is None:
        return {}
    names: list[str] = []
    if lead and len(lead) < len(tokens):
        names.append(_core(" ".join(lead)))
    registrant = _REGISTRANT.search(first_page)
    if registrant is not None:
        names.append(_core(registrant.group(1)))
    years = list(file_years)
    period = _PERIOD.search(first_page)
    if period is not None:
        years.append(period.group(1))
    tickers = {
        t
        for t in _TICKER_LINE.findall(first_page) + _TICKER_PAREN.findall(first_page)
        if len(t) >= 2 and t not in _NOT_TICKERS
    }
    company_names: list[JSONValue] = [n for n in sorted(set(names)) if len(n) >= 2]
    ticker_list: list[JSONValue] = []
    ticker_list.extend(sorted(tickers))
    year_list: list[JSONValue] = []
    year_list.extend(sorted({int(y) for y in years}))
    facts: dict[str, JSONValue] = {
        "company_names": company_names,
        "tickers": ticker_list,
        "years": year_list,
    }
    if registrant is not None:
        facts["company"] = " ".join(registrant.group(1).strip(" _-*").split())
    elif lead:
        facts["company"] = " ".join(lead).title()
    if form is not None:
        facts["form"] = form
    return facts


def is_filing(metadata: Mapping[str, object]) -> bool:
    """True when a document's metadata carries the cover facts of a filing."""
    return bool(metadata.get("company_names")) and bool(metadata.get("form"))


@dataclass(frozen=True, slots=True)
class DocumentScope:
    """The documents a question names, and why."""

    documents: frozenset[str]
    reason: str


def _list(value: object) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else []


def _capitalised(question: str) -> set[str]:
    """Words written with two or more capitals ("JPM", "JnJ", "AMEX"), lower-cased."""
    return {
        w.lower()
        for w in re.findall(r"[A-Za-z][A-Za-z0-9&]{1,6}", question)
        if sum(c.isupper() for c in w) >= 2
    }


def named_companies(question: str, documents: Mapping[str, Mapping[str, object]]) -> dict[str, str]:
    """{document id: what in the question named it} for the documents whose company it names."""
    words = _words(question)
    grams = {"".join(words[i : i + n]) for n in range(1, 6) for i in range(0, len(words) - n + 1)}
    capitals = {c.replace("&", "") for c in _capitalised(question)}
    found: dict[str, str] = {}
    for doc_id, metadata in documents.items():
        names = _list(metadata.get("company_names"))
        shown = str(metadata.get("company") or (names[0] if names else ""))
        for name in names:
            if name in grams:
                found[doc_id] = shown
                break
        else:
            for ticker in _list(metadata.get("tickers")):
                if ticker.lower() in capitals:
                    found[doc_id] = f"{shown} ({ticker})"
                    break
            else:
                for word in capitals:
                    if len(word) >= 3 and any(n.startswith(word) for n in names):
                        found[doc_id] = shown
                        break
    return found


def question_years(question: str) -> list[int]:
    """The years a question names, latest first."""
    return sorted({int(y) for y in _QUESTION_YEAR.findall(question)}, reverse=True)


def scope_for(question: str, documents: Mapping[str, Mapping[str, object]]) -> DocumentScope | None:
    """The documents a question names by company, narrowed by year and form; None if none."""
    named = named_companies(question, documents)
    if not named:
        return None
    chosen = set(named)
    companies = sorted(set(named.values()))
    reason = "the question names " + ", ".join(companies)
    for year in question_years(question):
        dated = {d for d in chosen if year in _ints(documents[d].get("years"))}
        if dated:
            chosen = dated
            reason += f"; its filings for {year}"
            break
    form = _QUESTION_FORM.search(question)
    if form is not None:
        wanted = FORMS.get(form.group(1).lower().replace("-", ""), "")
        typed = {d for d in chosen if documents[d].get("form") == wanted}
        if typed:
            chosen = typed
            reason += f"; form {wanted}"
    return DocumentScope(frozenset(chosen), reason)


def _ints(value: object) -> set[int]:
    return {int(v) for v in value if isinstance(v, int | str)} if isinstance(value, list) else set()


def describe(documents: Iterable[str], titles: Mapping[str, str]) -> str:
    """The scope's documents by title, for a reason line."""
    shown: Sequence[str] = sorted(titles.get(d, d) for d in documents)
    return ", ".join(shown[:5]) + (f" and {len(shown) - 5} more" if len(shown) > 5 else "")
