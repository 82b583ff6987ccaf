"""The HTTP API and the web page: `create_app(services)`.

Every error is an RFC 9457 problem (application/problem+json) with the request id; no
stack trace leaves the process. Indexes load once at start-up; /health/ready says when.
"""

from __future__ import annotations

import hmac
import time
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from typing import Annotated, Any

import structlog
from fastapi import APIRouter, Depends, FastAPI, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from limits import parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from lectern import __version__
from lectern.application.catalog_queries import find_book
from lectern.application.evaluation.runner import RunConfig
from lectern.application.evaluation.service import EvaluationBusyError
from lectern.application.search import MAX_RESULTS, BookSearchService
from lectern.bootstrap import Services
from lectern.domain.search import SearchQuery
from lectern.entrypoints.http.schemas import (
    BookOut,
    ComponentOut,
    EvaluateAccepted,
    EvaluateRequest,
    FacetsOut,
    LiveOut,
    ProblemOut,
    ReadyOut,
    RunStatusOut,
    RunSummaryOut,
    SearchOut,
    SearchRequest,
)
from lectern.errors import (
    BookNotFoundError,
    ConfigurationError,
    EvaluationRunNotFoundError,
    IndexMismatchError,
    IndexMissingError,
    InvalidQueryError,
    LecternError,
)

log = structlog.get_logger("lectern.http")
PROBLEM = "application/problem+json"
PUBLIC_PATHS = frozenset({"/health", "/health/ready"})
"""Never rate-limited and never behind an API key: probes must always get through."""
STATIC = resources.files("lectern.entrypoints.http") / "static"


class NotReadyError(LecternError):
    """The search indexes are not loaded (yet, or at all)."""


def problem(
    request: Request,
    status: int,
    title: str,
    detail: str | None = None,
    *,
    errors: list[dict[str, str]] | None = None,
    headers: dict[str, str] | None = None,
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
    )
    return JSONResponse(
        body.model_dump(exclude_none=True),
        status_code=status,
        media_type=PROBLEM,
        headers={"X-Request-ID": request_id, **(headers or {})},
    )


class BodyLimit:
    """Refuses request bodies over `limit` bytes (declared or streamed) with 413."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        """Wrap the app."""
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Check Content-Length first, then count what actually arrives."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await self._refuse(scope, send)
            return
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise _TooLargeError
            return message

        try:
            await self.app(scope, counted, send)
        except _TooLargeError:
            await self._refuse(scope, send)

    async def _refuse(self, scope: Scope, send: Send) -> None:
        response = problem(
            Request(scope),
            413,
            "Request body too large",
            f"bodies are limited to {self.limit} bytes",
        )
        await response(scope, _no_receive, send)


def _request_id(scope: Scope) -> str:
    """The caller's X-Request-ID when it is sane, else a new one."""
    given = dict(scope.get("headers") or []).get(b"x-request-id", b"").decode("latin-1")
    cleaned = "".join(c for c in given if c.isalnum() or c in "-_.")[:64]
    return cleaned or uuid.uuid4().hex


class Observe:
    """Request id, access log, and the latency histogram per route template.

    Plain ASGI rather than `@app.middleware`: Starlette's BaseHTTPMiddleware runs every
    request through extra tasks and streams, measurable at 100 requests a second.
    """

    def __init__(self, app: ASGIApp) -> None:
        """Wrap the app."""
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Time the request and log it once it has been answered."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request_id = _request_id(scope)
        scope.setdefault("state", {})["request_id"] = request_id
        status = 500
        started = time.perf_counter()

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = list(message.get("headers", []))
                if not any(k.lower() == b"x-request-id" for k, _ in headers):
                    headers.append((b"x-request-id", request_id.encode()))
                message["headers"] = headers
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            elapsed = time.perf_counter() - started
            template = getattr(scope.get("route"), "path", "unmatched")
            method = scope.get("method", "")
            services: Services = scope["app"].state.services
            services.metrics.http_latency.labels(template, method, str(status)).observe(elapsed)
            log.info(
                "http.request",
                request_id=request_id,
                method=method,
                route=template,
                path=scope.get("path"),
                status=status,
                latency_ms=round(elapsed * 1000, 2),
            )


class RateLimit:
    """Per-client limits (API key, else address) with `limits`, slowapi's own engine.

    slowapi's middleware cannot see routes of included routers on this FastAPI version (it
    treats them as exempt), so the engine is used directly. /health is never limited.
    """

    def __init__(self, app: ASGIApp, limits: list[Any]) -> None:
        """Wrap the app; `limits` come from `limits.parse_many`."""
        self.app = app
        self.limits = limits
        self.window = MovingWindowRateLimiter(MemoryStorage())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer 429 with Retry-After once a client is over any of its limits."""
        if scope["type"] != "http" or scope.get("path") in PUBLIC_PATHS:
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        key = _client_key(request)
        for limit in self.limits:
            if not self.window.hit(limit, key):
                reset, _ = self.window.get_window_stats(limit, key)
                wait = max(1, int(reset - time.time()) + 1)
                response = problem(
                    request,
                    429,
                    "Too many requests",
                    f"at most {limit} per client; retry in {wait} s",
                    headers={"Retry-After": str(wait)},
                )
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


class _TooLargeError(Exception):
    pass


async def _no_receive() -> Message:
    return {"type": "http.disconnect"}


def _client_key(request: Request) -> str:
    key = request.headers.get("x-api-key")
    if key:
        return "key:" + key
    return "ip:" + (request.client.host if request.client else "unknown")


def search_service(request: Request) -> BookSearchService:
    """The loaded search service, or 503 while the indexes are missing or loading."""
    search: BookSearchService | None = request.app.state.search
    if search is None:
        raise NotReadyError(request.app.state.not_ready or "starting")
    return search


Search = Annotated[BookSearchService, Depends(search_service)]


def app_services(request: Request) -> Services:
    """The services the app was created with (tests may swap them before serving)."""
    services: Services = request.app.state.services
    return services


AppServices = Annotated[Services, Depends(app_services)]


def create_app(services: Services, *, load_indexes: bool = True) -> FastAPI:
    """The FastAPI app over these services; indexes load in the lifespan."""
    settings = services.settings
    keys = settings.api_key_set

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if load_indexes and app.state.search is None:
            try:
                search = services.search()
                # One search pages in the memory-mapped indexes and the model's weights.
                search.search(SearchQuery("lectern warm-up"), mmr_lambda=None)
                services.understanding()  # reads the catalog's vocabulary once, up front
                app.state.search = search
                app.state.not_ready = None
            except (IndexMissingError, IndexMismatchError, ConfigurationError) as error:
                app.state.not_ready = str(error)
                log.warning("http.not_ready", reason=str(error))
        yield

    app = FastAPI(
        title="Lectern",
        version=__version__,
        description="Hybrid book search with explanations whose quotes the code verifies.",
        lifespan=lifespan,
        docs_url="/docs",
        redoc_url=None,
    )
    app.state.services = services
    app.state.search = None
    app.state.not_ready = "starting" if load_indexes else "indexes are not loaded by this app"
    # --- errors ----------------------------------------------------------------------------

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = [
            {
                "field": ".".join(str(p) for p in e.get("loc", ()) if p != "body") or "body",
                "message": str(e.get("msg", "invalid")),
            }
            for e in exc.errors()
        ]
        detail = "; ".join(f"{e['field']}: {e['message']}" for e in errors)
        return problem(request, 422, "Invalid request", detail, errors=errors)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        titles = {
            400: "Bad request",
            401: "Unauthorized",
            404: "Not found",
            405: "Method not allowed",
        }
        return problem(
            request,
            exc.status_code,
            titles.get(exc.status_code, "HTTP error"),
            str(exc.detail) if exc.detail else None,
            headers=getattr(exc, "headers", None),
        )

    @app.exception_handler(BookNotFoundError)
    async def missing(request: Request, exc: BookNotFoundError) -> JSONResponse:
        return problem(request, 404, "Book not found", str(exc))

    @app.exception_handler(InvalidQueryError)
    async def bad_query(request: Request, exc: InvalidQueryError) -> JSONResponse:
        return problem(request, 422, "Invalid request", str(exc))

    @app.exception_handler(NotReadyError)
    async def not_ready(request: Request, exc: NotReadyError) -> JSONResponse:
        return problem(request, 503, "Search is not ready", str(exc), headers={"Retry-After": "10"})

    @app.exception_handler(EvaluationRunNotFoundError)
    async def no_run(request: Request, exc: EvaluationRunNotFoundError) -> JSONResponse:
        return problem(request, 404, "Evaluation run not found", str(exc))

    @app.exception_handler(EvaluationBusyError)
    async def busy(request: Request, exc: EvaluationBusyError) -> JSONResponse:
        return problem(request, 409, "An evaluation is running", str(exc))

    @app.exception_handler(LecternError)
    async def lectern_error(request: Request, exc: LecternError) -> JSONResponse:
        return problem(request, 503, "Service unavailable", str(exc))

    @app.exception_handler(Exception)
    async def crashed(request: Request, exc: Exception) -> JSONResponse:
        log.exception("http.unhandled", error=type(exc).__name__)
        return problem(request, 500, "Internal error", "the error was logged with this request id")

    # --- middleware (outermost last) -------------------------------------------------------

    app.add_middleware(RateLimit, limits=parse_many(settings.rate_limit))
    app.add_middleware(Observe)
    if settings.cors_origin_list:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=settings.cors_origin_list,
            allow_methods=["GET", "POST"],
            allow_headers=["Content-Type", "X-API-Key", "X-Request-ID"],
        )
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)

    # --- dependencies ----------------------------------------------------------------------

    def require_key(request: Request) -> None:
        if not keys:
            return
        given = request.headers.get("x-api-key", "")
        if not any(hmac.compare_digest(given.encode(), k.encode()) for k in keys):
            raise StarletteHTTPException(
                401, "a valid X-API-Key header is required", headers={"WWW-Authenticate": "ApiKey"}
            )

    problems = _documented(400, 401, 413, 422, 429, 503)

    # --- routes ----------------------------------------------------------------------------

    health = APIRouter(tags=["health"])

    @health.get("/health")
    async def live() -> LiveOut:
        """Liveness: the process answers."""
        return LiveOut(status="ok", version=__version__)

    @health.get("/health/ready", responses={503: {"model": ReadyOut}})
    def ready(request: Request, response: Response) -> ReadyOut:
        """Readiness of the catalog, both indexes, the embedder and the LLM."""
        state = request.app.state
        components = _components(state.services, state.search, state.not_ready)
        statuses = {c.status for c in components.values()}
        overall = "down" if "down" in statuses else ("degraded" if "degraded" in statuses else "ok")
        if overall == "down":
            response.status_code = 503
        return ReadyOut(status=overall, components=components)  # type: ignore[arg-type]

    api = APIRouter(dependencies=[Depends(require_key)], responses=problems)

    @api.post("/search", tags=["search"], response_model=SearchOut)
    def search(body: SearchRequest, service: Search, app_services: AppServices) -> Response:
        """Hybrid search, with verified quotes (`use_explanations`) and planning (`understand`).

        With `understand`, filters, variations and a strategy are read from the text first;
        the response's `plan` says what was understood; `ignore` leaves parts of it out.
        """
        query = body.to_domain()
        plan = None
        if body.understand:
            plan = app_services.understanding().plan(query.text)
            if body.ignore:
                plan = plan.without(*dict.fromkeys(body.ignore))
        response = service.search(
            query, strategy=body.strategy, mmr_lambda=body.mmr_lambda, plan=plan
        )
        return _json(SearchOut.of(response))

    @api.get("/books/{isbn_or_id}", tags=["books"], responses=_documented(404))
    def book(isbn_or_id: str, app_services: AppServices) -> BookOut:
        """One book by ISBN-10, ISBN-13 (any punctuation) or id."""
        return BookOut.of(find_book(app_services.catalog, isbn_or_id).entry.book)

    @api.get(
        "/books/{isbn_or_id}/similar",
        tags=["books"],
        responses=_documented(404),
        response_model=SearchOut,
    )
    def similar(
        isbn_or_id: str,
        service: Search,
        app_services: AppServices,
        k: Annotated[int, Query(ge=1, le=MAX_RESULTS)] = 10,
    ) -> Response:
        """Books nearest by embedding, without the book's other editions."""
        found = find_book(app_services.catalog, isbn_or_id).entry.book
        return _json(SearchOut.of(service.similar(found.id, k)))

    @api.get("/facets", tags=["books"])
    def facets(app_services: AppServices) -> FacetsOut:
        """Languages, top categories and years, for filters."""
        return FacetsOut.of(app_services.catalog.facets(top_categories=60))

    evaluation = APIRouter(
        prefix="/evaluate",
        tags=["evaluation"],
        dependencies=[Depends(require_key)],
        responses=_documented(400, 401, 413, 422, 429, 503),
    )

    @evaluation.post(
        "", status_code=202, responses=_documented(409), response_model=EvaluateAccepted
    )
    def evaluate(body: EvaluateRequest, service: Search, app_services: AppServices) -> Response:
        """Start an evaluation run in the background (one at a time); poll its status URL."""
        del service  # the run searches with the loaded indexes; 503 until they are
        run_id = app_services.evaluation().start(
            RunConfig(
                config=body.config,
                disabled=tuple(dict.fromkeys(body.disable)),
                force_strategy=body.force_strategy,
                judge_repeats=body.judge_repeats,
                limit=body.limit,
                mmr_lambda=app_services.settings.mmr_lambda,
            )
        )
        accepted = EvaluateAccepted(
            run_id=run_id, status="running", status_url=f"/evaluate/runs/{run_id}"
        )
        return Response(
            accepted.model_dump_json(),
            status_code=202,
            media_type="application/json",
            headers={"Location": accepted.status_url},
        )

    @evaluation.get("/runs")
    def runs(app_services: AppServices) -> list[RunSummaryOut]:
        """Stored runs, newest first."""
        return [RunSummaryOut.model_validate(s) for s in app_services.evaluation().store.list()]

    @evaluation.get(
        "/runs/{run_id}",
        responses={**_documented(404), 202: {"model": RunStatusOut}},
        response_model=RunStatusOut,
    )
    def run_status(run_id: str, app_services: AppServices) -> Response:
        """A run's status; when finished, its whole artifact (202 while it runs)."""
        status, artifact, error = app_services.evaluation().status(run_id)
        body = RunStatusOut(run_id=run_id, status=status, error=error, artifact=artifact)
        return Response(
            body.model_dump_json(),
            status_code=202 if status == "running" else 200,
            media_type="application/json",
        )

    @app.get("/metrics", include_in_schema=False, dependencies=[Depends(require_key)])
    def metrics(app_services: AppServices) -> Response:
        """Prometheus exposition."""
        body = app_services.metrics.exposition()
        return Response(body, media_type="text/plain; version=0.0.4")

    @app.get("/", include_in_schema=False)
    def page() -> FileResponse:
        """The web page."""
        return FileResponse(str(STATIC / "index.html"), media_type="text/html")

    app.include_router(health)
    app.include_router(api)
    app.include_router(evaluation)
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    return app


def _json(model: SearchOut) -> Response:
    """A model built by our own mapping, serialised once (FastAPI would validate it again)."""
    return Response(model.model_dump_json(), media_type="application/json")


def _documented(*codes: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI entries for error statuses: problem details, as application/problem+json."""
    return {
        code: {
            "model": ProblemOut,
            "content": {PROBLEM: {"schema": ProblemOut.model_json_schema()}},
        }
        for code in codes
    }


def _components(
    services: Services, search: BookSearchService | None, reason: str | None
) -> dict[str, ComponentOut]:
    out: dict[str, ComponentOut] = {}
    try:
        books = services.catalog.counts().books
        out["catalog"] = ComponentOut(status="ok" if books else "down", count=books)
    except Exception as error:  # noqa: BLE001 - readiness reports, never raises
        out["catalog"] = ComponentOut(status="down", detail=type(error).__name__)
    if search is None:
        down = ComponentOut(status="down", detail=reason or "starting")
        out.update(lexical_index=down, vector_index=down, embedder=down)
    else:
        retriever = search.retriever
        out["lexical_index"] = ComponentOut(status="ok", count=len(retriever.lexical))
        if retriever.vector is not None and retriever.embedder is not None:
            out["vector_index"] = ComponentOut(
                status="ok", count=len(retriever.vector), version=retriever.vector.model_id
            )
            out["embedder"] = ComponentOut(status="ok", version=retriever.embedder.model_id)
        else:
            degraded = ComponentOut(status="degraded", detail=retriever.unavailable_reason)
            out.update(vector_index=degraded, embedder=degraded)
    try:
        out["llm"] = ComponentOut(status="ok", version=services.llm().model_id)
    except LecternError as error:
        out["llm"] = ComponentOut(status="degraded", detail=str(error))
    return out


def app_from_environment() -> FastAPI:
    """The app for `uvicorn --factory` (used by `lectern serve`, one per worker)."""
    from lectern.bootstrap import bootstrap
    from lectern.observability import configure_logging
    from lectern.settings import load_settings

    settings = load_settings()
    configure_logging(settings.log_level)
    return create_app(bootstrap(settings))
