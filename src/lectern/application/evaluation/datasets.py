"""The evaluation's inputs: judged queries, graded judgments and negative tests.

They ship inside the package (`lectern/evaluation/*.json`), versioned with the code; each
file carries a `version` and the run records the sha256 of the bytes it read.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from lectern.application.evaluation.constraints import (
    EXCLUSIONS_FILE,
    ExclusionSet,
    load_exclusion_requests,
)
from lectern.application.evaluation.packaged import (
    DATA_PACKAGE as DATA_PACKAGE,  # re-exported: the CLI and tests import it from here
)
from lectern.application.evaluation.packaged import packaged_bytes
from lectern.domain.retrieval import Strategy
from lectern.domain.search import Intent, SearchFilters
from lectern.errors import DatasetError

QUERIES_FILE = "test_queries.json"
JUDGMENTS_FILE = "relevance_judgments.json"
NEGATIVE_FILE = "negative_tests.json"


ModelT = TypeVar("ModelT", bound=BaseModel)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class FiltersIn(_Strict):
    """Explicit filters of a judged query, as a reader would set them in the page."""

    language: str | None = None
    category: str | None = None
    min_year: int | None = None
    max_year: int | None = None

    def to_domain(self) -> SearchFilters:
        """The search filters."""
        return SearchFilters(self.language, self.category, self.min_year, self.max_year)


class Facet(_Strict):
    """One aspect of what the reader wants: satisfied when any term occurs in any field."""

    name: str
    any: tuple[str, ...] = Field(min_length=1)
    fields: tuple[Literal["title", "authors", "categories", "description"], ...] = (
        "title",
        "categories",
        "description",
    )
    weight: float = Field(default=1.0, gt=0)


class Criteria(_Strict):
    """Labelling rules of one query (see docs/evaluation.md, "How the judgments were made")."""

    facets: tuple[Facet, ...] = ()
    language: str | None = None
    """A language the reader asked for in words; other languages grade at most 1."""
    min_year: int | None = None
    max_year: int | None = None
    exclude_titles: tuple[str, ...] = ()
    """Titles that cannot be relevant (the book a "books like X" query names)."""
    exact_titles: tuple[str, ...] = ()
    """Titles that are the answer (grade 3) for known-item queries."""
    pool_texts: tuple[str, ...] = ()
    """Other phrasings of the need (the correct spelling, the genre of X), searched only to
    find candidates to judge: a query the search gets wrong still has its answers judged."""


FallbackOutcome = Literal["better", "not_in_catalog", "which_one"]
"""What a trigger-set request must get: better books (nDCG@k up); "X is not in the catalog"
with the nearest books marked as such; or the two or three books X may mean."""


class JudgedQuery(_Strict):
    """A query of the judged set."""

    id: str = Field(pattern=r"^[a-z0-9_-]{1,40}$")
    text: str = Field(min_length=1, max_length=1_000)
    intent: Intent
    tags: tuple[str, ...] = ()
    filters: FiltersIn = FiltersIn()
    strategy: Strategy | None = None
    criteria: Criteria
    outcome: FallbackOutcome = "better"
    """The search fallback's trigger set only: what the right answer is (see below)."""


class QueriesFile(_Strict):
    """`test_queries.json`."""

    version: str
    description: str = ""
    queries: tuple[JudgedQuery, ...] = Field(min_length=1)


class JudgmentIn(_Strict):
    """One graded (query, book) pair and who or what graded it."""

    book_id: str
    title: str
    grade: int = Field(ge=0, le=3)
    labeller: str
    matched: tuple[str, ...] = ()
    note: str = ""


class JudgmentsFile(_Strict):
    """`relevance_judgments.json`."""

    version: str
    procedure: str
    queries_version: str
    pool: Mapping[str, int | tuple[str, ...]]
    judgments: Mapping[str, tuple[JudgmentIn, ...]]


Expectation = Literal["results", "empty", "error"]


class NegativeTest(_Strict):
    """A query that must be handled in a stated way."""

    id: str = Field(pattern=r"^[a-z0-9_-]{1,40}$")
    kind: Literal[
        "out_of_catalog", "ambiguous", "contradictory_filters", "injection", "empty", "garbage"
    ]
    text: str = Field(max_length=20_000)
    filters: FiltersIn | None = None
    """Filters given as raw values: building them is part of what is tested."""
    expect: Expectation
    error_contains: str | None = None
    max_confidence: float | None = None
    """Every explanation's confidence must be at most this (the catalog lacks the subject)."""
    must_not_contain: tuple[str, ...] = ()
    """Strings no explanation may contain (an injection's payload)."""
    top_title_contains: str | None = None
    nothing_fits: bool | None = None
    """True: the search must say nothing fits; False: it must not (None: not checked)."""
    min_readings: int | None = None
    """The search must offer at least this many readings (an ambiguous request)."""
    readings_include: tuple[str, ...] = ()
    """Titles the readings must offer (the book a reader most likely means)."""
    not_in_catalog: bool | None = None
    """True: the search must say the X of "books like X" is not in the catalog; False: it
    must not (a misspelt X the catalog holds); None: not checked."""
    why: str


class NegativeFile(_Strict):
    """`negative_tests.json`."""

    version: str
    tests: tuple[NegativeTest, ...] = Field(min_length=1)


@dataclass(frozen=True, slots=True)
class DatasetFile:
    """Where an input came from, its version and the sha256 of its bytes."""

    name: str
    version: str
    sha256: str


@dataclass(frozen=True, slots=True)
class EvaluationDataset:
    """Everything one run reads."""

    queries: tuple[JudgedQuery, ...]
    qrels: Mapping[str, Mapping[str, int]]
    negative_tests: tuple[NegativeTest, ...]
    files: tuple[DatasetFile, ...]
    exclusions: ExclusionSet | None = None
    """The exclusion dev set (`constraints.py`); a folder without one measures none."""


def _parse(model: type[ModelT], name: str, raw: bytes) -> ModelT:
    try:
        return model.model_validate(json.loads(raw))
    except json.JSONDecodeError as error:
        raise DatasetError(f"{name} is not valid JSON: {error}") from error
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise DatasetError(f"{name}: {where}: {first['msg']}") from error


def load_queries(directory: Path | None = None) -> QueriesFile:
    """Only the judged queries (labelling needs them before any judgment exists)."""
    return _parse(QueriesFile, QUERIES_FILE, packaged_bytes(QUERIES_FILE, directory))


def load_judgments(directory: Path | None = None) -> JudgmentsFile | None:
    """The judgments file, or None when there is none yet."""
    try:
        raw = packaged_bytes(JUDGMENTS_FILE, directory)
    except DatasetError:
        return None
    return _parse(JudgmentsFile, JUDGMENTS_FILE, raw)


def load_dataset(directory: Path | None = None) -> EvaluationDataset:
    """Read and check the files (from `directory`, or the packaged ones).

    The exclusion dev set is read when the folder has one (the packaged set always does).
    """
    raw = {
        name: packaged_bytes(name, directory)
        for name in (QUERIES_FILE, JUDGMENTS_FILE, NEGATIVE_FILE)
    }
    queries = _parse(QueriesFile, QUERIES_FILE, raw[QUERIES_FILE])
    judgments = _parse(JudgmentsFile, JUDGMENTS_FILE, raw[JUDGMENTS_FILE])
    negative = _parse(NegativeFile, NEGATIVE_FILE, raw[NEGATIVE_FILE])
    ids = [q.id for q in queries.queries]
    if len(set(ids)) != len(ids):
        raise DatasetError(f"{QUERIES_FILE}: query ids must be unique")
    if judgments.queries_version != queries.version:
        raise DatasetError(
            f"{JUDGMENTS_FILE} judges queries version {judgments.queries_version}, but "
            f"{QUERIES_FILE} is version {queries.version}: re-run `lectern evaluate label`"
        )
    unjudged = [i for i in ids if not any(j.grade > 0 for j in judgments.judgments.get(i, ()))]
    if unjudged:
        raise DatasetError(
            f"{JUDGMENTS_FILE}: no relevant book judged for {', '.join(unjudged[:5])}"
        )
    qrels = {
        query_id: {j.book_id: j.grade for j in pairs}
        for query_id, pairs in judgments.judgments.items()
        if query_id in set(ids)
    }
    files: tuple[DatasetFile, ...] = (
        DatasetFile(QUERIES_FILE, queries.version, hashlib.sha256(raw[QUERIES_FILE]).hexdigest()),
        DatasetFile(
            JUDGMENTS_FILE, judgments.version, hashlib.sha256(raw[JUDGMENTS_FILE]).hexdigest()
        ),
        DatasetFile(
            NEGATIVE_FILE, negative.version, hashlib.sha256(raw[NEGATIVE_FILE]).hexdigest()
        ),
    )
    exclusions = None
    if directory is None or (directory / EXCLUSIONS_FILE).exists():
        exclusions = load_exclusion_requests(directory)
        files += (DatasetFile(EXCLUSIONS_FILE, exclusions.file.version, exclusions.sha256),)
    return EvaluationDataset(queries.queries, qrels, negative.tests, files, exclusions)
