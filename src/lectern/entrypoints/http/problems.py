"""RFC 9457 problem responses: one table from exception to status and title.

Every error leaves as `application/problem+json` with the request id; no stack trace leaves
the process.
"""

from __future__ import annotations

import uuid
from typing import Any

import structlog
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from lectern.entrypoints.http.schemas import ProblemOut
from lectern.errors import (
    ActionAlreadyDecidedError,
    ActionChangedError,
    ActionConflictError,
    ActionExpiredError,
    ActionNotFoundError,
    ActionNotReadyError,
    AssistantDisabledError,
    BookNotFoundError,
    CatalogPermissionError,
    CollectionInputError,
    CollectionNotFoundError,
    CorrectionNotFoundError,
    DocumentNotFoundError,
    EvaluationBusyError,
    EvaluationRunNotFoundError,
    InvalidQueryError,
    LecternError,
    ModelNotFoundError,
    NotFoundError,
    NotReadyError,
    ReadingListNotFoundError,
    UploadJobNotFoundError,
    UploadQuotaError,
    UploadRejectedError,
    WorkspaceConflictError,
    WorkspaceNotFoundError,
    WorkspacePermissionError,
)

log = structlog.get_logger("lectern.http")
PROBLEM = "application/problem+json"

UPLOAD_STATUS = {"too_large": 413, "unsupported": 415, "invalid": 400, "unreadable": 422}
"""A refused upload's status by its reason."""

ERROR_TABLE: tuple[tuple[type[Exception], int, str, dict[str, str]], ...] = (
    (BookNotFoundError, 404, "Book not found", {}),
    (CollectionNotFoundError, 404, "Collection not found", {}),
    (DocumentNotFoundError, 404, "Document not found", {}),
    (UploadRejectedError, 400, "Upload refused", {}),
    (CollectionInputError, 422, "Invalid collection input", {}),
    (EvaluationRunNotFoundError, 404, "Evaluation run not found", {}),
    (WorkspaceNotFoundError, 404, "Not found", {}),
    (WorkspacePermissionError, 403, "Forbidden", {}),
    (CatalogPermissionError, 403, "Forbidden", {}),
    (CorrectionNotFoundError, 404, "Correction not found", {}),
    (WorkspaceConflictError, 409, "Conflict", {}),
    (ActionNotFoundError, 404, "Action not found", {}),
    (ReadingListNotFoundError, 404, "Reading list not found", {}),
    (ModelNotFoundError, 404, "Model not found", {}),
    (UploadJobNotFoundError, 404, "Job not found", {}),
    (NotFoundError, 404, "Not found", {}),
    (UploadQuotaError, 429, "Upload quota reached", {"Retry-After": "30"}),
    (AssistantDisabledError, 404, "Assistant is switched off", {}),
    (ActionExpiredError, 409, "Action expired", {}),
    (ActionAlreadyDecidedError, 409, "Action already decided", {}),
    (ActionChangedError, 409, "Changed since preview", {}),
    (ActionNotReadyError, 409, "Action waits for another", {}),
    (ActionConflictError, 409, "Action cannot run", {}),
    (InvalidQueryError, 422, "Invalid request", {}),
    (NotReadyError, 503, "Search is not ready", {"Retry-After": "10"}),
    (EvaluationBusyError, 409, "An evaluation is running", {}),
    (LecternError, 503, "Service unavailable", {}),
)
"""Our exceptions, most specific first: the first row the error is an instance of wins."""

HTTP_TITLES = {
    400: "Bad request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not found",
    405: "Method not allowed",
    409: "Conflict",
    413: "Request body too large",
    429: "Too many requests",
}


def problem(
    request: Request,
    status: int,
    title: str,
    detail: str | None = None,
    *,
    errors: list[dict[str, str]] | None = None,
    headers: dict[str, str] | None = None,
    fresh_action_id: str | None = None,
) -> JSONResponse:
    """An RFC 9457 problem response carrying the request id."""
    request_id = getattr(request.state, "request_id", None) or uuid.uuid4().hex
    body = ProblemOut(
        title=title,
        status=status,
        detail=detail,
        instance=request.url.path,
        request_id=request_id,
        errors=errors,
        fresh_action_id=fresh_action_id,
    )
    return JSONResponse(
        body.model_dump(exclude_none=True),
        status_code=status,
        media_type=PROBLEM,
        headers={"X-Request-ID": request_id, **(headers or {})},
    )


def documented(*codes: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI entries for error statuses: problem details, as application/problem+json."""
    return {
        code: {
            "model": ProblemOut,
            "content": {PROBLEM: {"schema": ProblemOut.model_json_schema()}},
        }
        for code in codes
    }


async def _invalid(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = [
        {
            "field": ".".join(str(p) for p in e.get("loc", ()) if p != "body") or "body",
            "message": str(e.get("msg", "invalid")),
        }
        for e in exc.errors()
    ]
    detail = "; ".join(f"{e['field']}: {e['message']}" for e in errors)
    return problem(request, 422, "Invalid request", detail, errors=errors)


async def _http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    headers = dict(getattr(exc, "headers", None) or {})
    if exc.status_code == 405:
        headers["Allow"] = _allowed_methods(request)
    return problem(
        request,
        exc.status_code,
        HTTP_TITLES.get(exc.status_code, "HTTP error"),
        str(exc.detail) if exc.detail else None,
        headers=headers or None,
    )


def _allowed_methods(request: Request) -> str:
    """Every method some route serves at this path (Starlette names only the first route's)."""
    methods: set[str] = set()
    for route in request.app.router.routes:
        match, _ = route.matches(request.scope)
        if match != Match.NONE:
            methods.update(getattr(route, "methods", None) or ())
    return ", ".join(sorted(methods))


async def _ours(request: Request, exc: Exception) -> JSONResponse:
    for kind, status, title, headers in ERROR_TABLE:
        if isinstance(exc, kind):
            if isinstance(exc, UploadRejectedError):
                status = UPLOAD_STATUS.get(exc.reason, status)
            fresh = exc.fresh_action_id if isinstance(exc, ActionChangedError) else None
            return problem(
                request, status, title, str(exc), headers=headers or None, fresh_action_id=fresh
            )
    return await _crashed(request, exc)


async def _crashed(request: Request, exc: Exception) -> JSONResponse:
    log.exception("http.unhandled", error=type(exc).__name__)
    return problem(request, 500, "Internal error", "the error was logged with this request id")


def install_problem_handlers(app: FastAPI) -> None:
    """Turn validation errors, HTTP errors, our exceptions and crashes into problems."""
    app.add_exception_handler(RequestValidationError, _invalid)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    for kind in dict.fromkeys(row[0] for row in ERROR_TABLE):
        app.add_exception_handler(kind, _ours)
    app.add_exception_handler(Exception, _crashed)
