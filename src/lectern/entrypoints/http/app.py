"""The HTTP API and the web page: `create_app(services)`.

Routers live in `routers/` (one per resource), middleware in `middleware.py`, error mapping
in `problems.py`. Indexes load once at start-up; /health/ready says when.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import structlog
from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from limits import parse_many
from starlette.middleware.trustedhost import TrustedHostMiddleware

from lectern import __version__
from lectern.bootstrap import Services
from lectern.domain.search import SearchQuery
from lectern.entrypoints.http.middleware import (
    BodyLimit,
    Guard,
    LimitWindow,
    Observe,
    SecurityHeaders,
)
from lectern.entrypoints.http.problems import install_problem_handlers
from lectern.entrypoints.http.routers import (
    answering,
    assistant,
    books,
    chat,
    collections,
    corrections,
    evaluate,
    health,
    jobs,
    library,
    openai_compat,
    organizations,
    pages,
    projects,
    search,
    tasks,
)
from lectern.entrypoints.http.routers.pages import STATIC
from lectern.entrypoints.mcp.server import McpEndpoint, build_mcp_server
from lectern.errors import ConfigurationError, IndexMismatchError, IndexMissingError

log = structlog.get_logger("lectern.http")


def create_app(services: Services, *, load_indexes: bool = True) -> FastAPI:
    """The FastAPI app over these services; indexes load in the lifespan."""
    settings = services.settings
    window = LimitWindow(settings.rate_limit_storage)
    mcp = McpEndpoint(build_mcp_server(services), settings.mcp_allowed_host_list)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if load_indexes and app.state.search is None:
            try:
                loaded = services.search()
                # One search pages in the memory-mapped indexes and the model's weights.
                loaded.search(SearchQuery("lectern warm-up"), mmr_lambda=None)
                services.understanding()  # reads the catalog's vocabulary once, up front
                app.state.search = loaded
                app.state.not_ready = None
            except (IndexMissingError, IndexMismatchError, ConfigurationError) as error:
                app.state.not_ready = str(error)
                log.warning("http.not_ready", reason=str(error))
        # Settle what a crash left behind before serving, then keep checking on a timer.
        await asyncio.to_thread(services.recover)
        await asyncio.to_thread(services.recover_uploads)
        await asyncio.to_thread(services.clean_uploads)
        upkeep = asyncio.create_task(_upkeep(services, settings.recovery_interval_seconds))
        try:
            async with mcp.serving():
                yield
        finally:
            upkeep.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await upkeep
            await window.close()
            services.stop_uploads()

    app = FastAPI(
        title="Lectern",
        version=__version__,
        description="Hybrid book search with explanations whose quotes the code verifies.",
        lifespan=lifespan,
        docs_url=None,  # served below from the packaged Swagger UI files, not a CDN
        redoc_url=None,
    )
    app.state.services = services
    app.state.search = None
    app.state.not_ready = "starting" if load_indexes else "indexes are not loaded by this app"
    install_problem_handlers(app)

    # Middleware, innermost first: Starlette wraps each new one around the ones before.
    app.add_middleware(
        Guard,
        keyring=settings.api_keyring,
        limits=parse_many(settings.rate_limit),
        failure_limits=parse_many(settings.auth_failure_limit),
        window=window,
        chat_limits=parse_many(settings.rate_limit_chat),
        guide_limits=parse_many(settings.rate_limit_chat_guide),
    )
    # Inside Observe: a body refused mid-stream is logged and counted as the 413 it is.
    app.add_middleware(
        BodyLimit, limit=settings.max_body_bytes, upload_limit=settings.max_upload_bytes
    )
    app.add_middleware(Observe, observe=services.metrics.observe_http)
    if settings.cors_origin_list:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=settings.cors_origin_list,
            allow_methods=["GET", "POST", "PUT", "PATCH", "DELETE"],
            allow_headers=[
                "Content-Type",
                "X-API-Key",
                "Authorization",
                "X-Request-ID",
                "x-vercel-ai-ui-message-stream",
            ],
        )
    if settings.allowed_host_list:
        # DNS rebinding: a page on another name must not reach a keyless local install.
        app.add_middleware(TrustedHostMiddleware, allowed_hosts=settings.allowed_host_list)
    app.add_middleware(SecurityHeaders)

    for module in (
        health,
        search,
        books,
        collections,
        answering,
        evaluate,
        assistant,
        chat,
        library,
        corrections,
        openai_compat,
        organizations,
        projects,
        jobs,
        tasks,
        pages,
    ):
        app.include_router(module.router)
    app.router.routes.append(mcp.route())
    _api_docs(app)
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    return app


SWAGGER_ASSETS = "/static/swagger-ui"


def _api_docs(app: FastAPI) -> None:
    """The interactive API docs at /docs, Swagger UI's files served by this app.

    FastAPI's default page loads them from a CDN, which left it blank without network. The
    files come from the swagger-ui-py package (Swagger UI 5, which reads OpenAPI 3.1); its
    folder is found without importing the package, whose code serves other frameworks.
    """
    from importlib.util import find_spec
    from pathlib import Path

    from fastapi.openapi.docs import get_swagger_ui_html

    spec = find_spec("swagger_ui")
    if spec is None or not spec.submodule_search_locations:
        raise ConfigurationError("the swagger-ui-py package is missing: run `make setup`")
    assets = Path(next(iter(spec.submodule_search_locations))) / "static"

    @app.get("/docs", include_in_schema=False)
    def api_docs() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=app.openapi_url or "/openapi.json",
            title=f"{app.title} API",
            swagger_js_url=f"{SWAGGER_ASSETS}/swagger-ui-bundle.js",
            swagger_css_url=f"{SWAGGER_ASSETS}/swagger-ui.css",
            swagger_favicon_url=f"{SWAGGER_ASSETS}/favicon-32x32.png",
        )

    # Before the /static mount, which would otherwise answer these paths with 404.
    app.mount(SWAGGER_ASSETS, StaticFiles(directory=str(assets)), name="swagger-ui")


async def _upkeep(services: Services, interval: float) -> None:
    """Every `interval` seconds: stranded approvals settled, kept reviews handed on."""
    while True:
        await asyncio.sleep(interval)
        await asyncio.to_thread(services.recover)
        await asyncio.to_thread(services.flush_reviews)


def app_from_environment() -> FastAPI:
    """The app for `uvicorn --factory` (used by `lectern serve`, one per worker)."""
    from lectern.bootstrap import bootstrap
    from lectern.observability import configure_logging
    from lectern.settings import load_settings

    settings = load_settings()
    configure_logging(settings.log_level, settings.log_format)
    return create_app(bootstrap(settings))
