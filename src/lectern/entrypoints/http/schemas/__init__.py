"""Request and response bodies of the HTTP API, one module per resource, mapped explicitly.

Every name is re-exported here, so `from lectern.entrypoints.http.schemas import X` keeps
working for the routers and the MCP server.
"""

from __future__ import annotations

from lectern.entrypoints.http.schemas.base import StrictIn, json_response
from lectern.entrypoints.http.schemas.books import BookOut, CountOut, FacetsOut
from lectern.entrypoints.http.schemas.evaluation import (
    EvaluateAccepted,
    EvaluateRequest,
    RunStatusOut,
    RunSummaryOut,
)
from lectern.entrypoints.http.schemas.health import ComponentOut, ComponentStatus, LiveOut, ReadyOut
from lectern.entrypoints.http.schemas.plans import (
    ExclusionOut,
    FallbackCallOut,
    FallbackOut,
    PlanFiltersOut,
    PlanOut,
    RecognitionOut,
)
from lectern.entrypoints.http.schemas.problems import ProblemOut
from lectern.entrypoints.http.schemas.search import (
    IGNORE_PATTERN,
    MAX_EXCLUDED,
    CitationOut,
    ExcludedNames,
    ExplanationOut,
    FiltersIn,
    ResultOut,
    SearchOut,
    SearchRequest,
    Timings,
)

__all__ = [
    "BookOut",
    "CitationOut",
    "ComponentOut",
    "ComponentStatus",
    "CountOut",
    "EvaluateAccepted",
    "EvaluateRequest",
    "ExcludedNames",
    "ExclusionOut",
    "ExplanationOut",
    "FacetsOut",
    "FallbackCallOut",
    "FallbackOut",
    "FiltersIn",
    "IGNORE_PATTERN",
    "LiveOut",
    "MAX_EXCLUDED",
    "PlanFiltersOut",
    "PlanOut",
    "ProblemOut",
    "ReadyOut",
    "RecognitionOut",
    "ResultOut",
    "RunStatusOut",
    "RunSummaryOut",
    "SearchOut",
    "SearchRequest",
    "Timings",
    "StrictIn",
    "json_response",
]
