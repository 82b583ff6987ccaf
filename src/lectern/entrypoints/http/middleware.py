"""Plain ASGI middleware: security headers, body limit, request ids and access log, limits.

Plain ASGI rather than `@app.middleware`: Starlette's BaseHTTPMiddleware runs every request
through extra tasks and streams, measurable at 100 requests a second.
"""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Callable, Mapping, Sequence

import redis.asyncio
import structlog
from fastapi import Request
from limits import RateLimitItem
from limits.aio.strategies import MovingWindowRateLimiter
from limits.errors import StorageError
from limits.storage import storage_from_string
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from lectern.application.identity import LOCAL_USER, ApiKeyring
from lectern.entrypoints.http.problems import problem

HttpObserver = Callable[[str, str, int, float], None]
"""Records one answered request: route template, method, status, seconds."""
log = structlog.get_logger("lectern.http")

HEALTH_PATHS = frozenset({"/health", "/health/ready"})
"""Never rate-limited and never behind an API key: probes must always get through."""
OPEN_PATHS = frozenset(
    {
        "/",
        "/reading-lists",
        "/workspace",
        "/guidelines",
        "/docs",
        "/openapi.json",
        "/docs/oauth2-redirect",
    }
)
"""Served without a key (the page asks for one), but rate-limited by address."""
OPEN_PREFIXES = ("/static/",)
CHAT_PATHS = re.compile(
    r"^/(?:assistant/chat|assistant/actions/[^/]+/(?:approve|reject)|v1/chat/completions)$"
)
"""POSTs that run an assistant turn: counted against LECTERN_RATE_LIMIT_CHAT as well."""


GUIDE_PATHS = frozenset({"/chat", "/chat/stream"})
"""POSTs that ask the guideline agent: counted per address against LECTERN_RATE_LIMIT_CHAT_GUIDE."""


def is_chat_turn(method: str, path: str) -> bool:
    """True for the requests that run an assistant turn."""
    return method == "POST" and CHAT_PATHS.match(path) is not None


def is_guide_question(method: str, path: str) -> bool:
    """True for the requests that ask the guideline agent a question."""
    return method == "POST" and path in GUIDE_PATHS


def presented_key(headers: Mapping[str, str]) -> str | None:
    """The API key a request carries: `X-API-Key`, else `Authorization: Bearer <key>`."""
    key = headers.get("x-api-key")
    if key:
        return key
    scheme, _, credentials = (headers.get("authorization") or "").partition(" ")
    if scheme.casefold() == "bearer" and credentials.strip():
        return credentials.strip()
    return None


class _TooLargeError(Exception):
    pass


async def _no_receive() -> Message:
    return {"type": "http.disconnect"}


UPLOAD_PATH = re.compile(r"^/collections/[^/]+/documents$|^/projects/[^/]+/uploads$")
"""Document uploads (to a collection, to a project): the routes whose bodies may exceed the
general limit."""


class BodyLimit:
    """Refuses request bodies over their limit (declared or streamed) with 413.

    Uploads (POST to UPLOAD_PATH) get `upload_limit`; every other request `limit`. A
    streamed (chunked) body is refused the moment it passes the limit: the 413 is sent
    then, and whatever the app makes of the cut-off body (a JSON parse error, an
    exception) is dropped, so the caller, the access log and the metrics all see 413.
    """

    def __init__(self, app: ASGIApp, limit: int, upload_limit: int | None = None) -> None:
        """Wrap the app."""
        self.app = app
        self.general_limit = limit
        self.upload_limit = upload_limit or limit

    def _limit_of(self, scope: Scope) -> int:
        upload = scope.get("method") == "POST" and UPLOAD_PATH.match(scope.get("path", ""))
        return self.upload_limit if upload else self.general_limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Check Content-Length first, then count what actually arrives."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self._limit_of(scope)
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            await self._refuse(scope, send, limit)
            return
        seen = 0
        started = refused = False

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if refused:
                return  # the 413 is already on its way
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        async def counted() -> Message:
            nonlocal seen, refused
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    if not started and not refused:
                        refused = True
                        await self._refuse(scope, send, limit)
                    raise _TooLargeError
            return message

        try:
            await self.app(scope, counted, guarded_send)
        except Exception:
            if not refused:
                raise
            log.debug("request body over its limit", path=scope.get("path"), limit=limit)

    async def _refuse(self, scope: Scope, send: Send, limit: int) -> None:
        response = problem(
            Request(scope),
            413,
            "Request body too large",
            f"bodies are limited to {limit:,} bytes",
        )
        await response(scope, _no_receive, send)


PAGE_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'self'; "
    "form-action 'self'; frame-ancestors 'none'"
)
"""The Content-Security-Policy of every response: the pages load scripts, styles and data
only from the server (no inline script or style), images also from https (the catalog's
cover links), and nothing may frame them."""
DOCS_POLICY = (
    "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self'; "
    "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; "
    "frame-ancestors 'none'"
)
"""/docs only: FastAPI's Swagger UI page is an inline script (over files this server serves)."""
DOCS_PATHS = frozenset({"/docs", "/docs/oauth2-redirect"})


class SecurityHeaders:
    """Security headers on every response: CSP, nosniff, no framing, referrer policy."""

    def __init__(self, app: ASGIApp) -> None:
        """Wrap the app (outermost, so refusals by the other middleware carry them too)."""
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Add each header the response does not set itself."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        policy = DOCS_POLICY if scope.get("path") in DOCS_PATHS else PAGE_POLICY
        added = (
            (b"content-security-policy", policy.encode()),
            (b"x-content-type-options", b"nosniff"),
            (b"x-frame-options", b"DENY"),
            (b"referrer-policy", b"no-referrer"),
            (b"cross-origin-opener-policy", b"same-origin"),
        )

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {k.lower() for k, _ in headers}
                headers.extend((k, v) for k, v in added if k not in present)
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _request_id(scope: Scope) -> str:
    """The caller's X-Request-ID when it is sane, else a new one."""
    given = dict(scope.get("headers") or []).get(b"x-request-id", b"").decode("latin-1")
    cleaned = "".join(c for c in given if c.isalnum() or c in "-_.")[:64]
    return cleaned or uuid.uuid4().hex


class Observe:
    """Request id, access log, and the latency histogram per route template."""

    def __init__(self, app: ASGIApp, observe: HttpObserver) -> None:
        """Wrap the app; `observe` feeds the latency histogram."""
        self.app = app
        self.observe = observe

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
            self.observe(template, method, status, elapsed)
            log.info(
                "http.request",
                request_id=request_id,
                method=method,
                route=template,
                path=scope.get("path"),
                status=status,
                latency_ms=round(elapsed * 1000, 2),
                user=scope["state"].get("user"),
            )


class LimitWindow:
    """The moving-window limiter over LECTERN_RATE_LIMIT_STORAGE (memory:// or redis://).

    For Redis the connection pool is ours (redis-py, the project's one Redis client), so the
    app can close it when it stops instead of leaving sockets to the garbage collector.
    """

    def __init__(self, uri: str) -> None:
        """Nothing connects yet: connections open inside the serving event loop."""
        self._pool: redis.asyncio.ConnectionPool | None = None
        if uri.startswith("memory://"):
            storage = storage_from_string("async+" + uri)
        else:
            self._pool = redis.asyncio.ConnectionPool.from_url(uri, socket_connect_timeout=2)
            # limits types storage options as scalars, but hands them to redis-py, which
            # takes a pool of ours here.
            storage = storage_from_string(
                "async+" + uri,
                implementation="redispy",
                wrap_exceptions=True,
                connection_pool=self._pool,  # type: ignore[arg-type]
            )
        self.strategy = MovingWindowRateLimiter(storage)

    async def close(self) -> None:
        """Close the Redis connections (they reopen if the app serves again)."""
        if self._pool is not None:
            await self._pool.disconnect()


class Guard:
    """Authentication and rate limits, in that order of trust.

    Requests are counted against the validated identity: a valid API key's user, else the
    client address (never a header the client can change). A request whose key is missing or
    wrong counts against its address like any other, and also against a second, tighter
    limit of failed authentications per address, so keys cannot be guessed at speed.
    Requests that run an assistant turn count against `chat_limits` too, in their own
    bucket per identity; guideline questions against `guide_limits`, per client address
    whatever key they carry. /health is never limited. The key comes in `X-API-Key` or as
    `Authorization: Bearer <key>` (OpenAI and MCP clients send that); the user lands in
    `scope["state"]["user"]`.
    """

    def __init__(
        self,
        app: ASGIApp,
        keyring: ApiKeyring,
        limits: list[RateLimitItem],
        failure_limits: list[RateLimitItem],
        window: LimitWindow,
        chat_limits: Sequence[RateLimitItem] = (),
        guide_limits: Sequence[RateLimitItem] = (),
    ) -> None:
        """Wrap the app; limits come from `limits.parse_many`."""
        self.app = app
        self.keyring = keyring
        self.limits = limits
        self.failure_limits = failure_limits
        self.chat_limits = list(chat_limits)
        self.guide_limits = list(guide_limits)
        self.window = window.strategy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer 401 or 429 (with Retry-After) before the app sees the request."""
        path = scope.get("path", "")
        if scope["type"] != "http" or path in HEALTH_PATHS:
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        address = "ip:" + (request.client.host if request.client else "unknown")
        if self.keyring.required:
            user = self.keyring.authenticate(presented_key(request.headers))
        else:
            user = LOCAL_USER
        scope.setdefault("state", {})["user"] = user
        # Without keys everyone is the local user: only the address tells clients apart.
        bucket = "user:" + user if user is not None and self.keyring.required else address
        if await self._limited(scope, receive, send, bucket, self.limits):
            return
        if user is None and not (path in OPEN_PATHS or path.startswith(OPEN_PREFIXES)):
            failures = "auth-failures:" + address
            if await self._limited(scope, receive, send, failures, self.failure_limits):
                return
            log.warning("http.auth_failed", path=path, client=address)
            response = problem(
                request,
                401,
                "Unauthorized",
                "a valid API key is required: X-API-Key: <key> or Authorization: Bearer <key>",
                headers={"WWW-Authenticate": 'ApiKey, Bearer realm="lectern"'},
            )
            await response(scope, receive, send)
            return
        if (
            self.chat_limits
            and is_chat_turn(scope.get("method", ""), path)
            and await self._limited(scope, receive, send, "chat:" + bucket, self.chat_limits)
        ):
            return
        if (
            self.guide_limits
            and is_guide_question(scope.get("method", ""), path)
            and await self._limited(
                scope, receive, send, "chat-guide:" + address, self.guide_limits
            )
        ):
            return
        await self.app(scope, receive, send)

    async def _limited(
        self, scope: Scope, receive: Receive, send: Send, bucket: str, limits: list[RateLimitItem]
    ) -> bool:
        """Count one hit on every limit; answer 429 and return True when one is exhausted."""
        request = Request(scope)
        for limit in limits:
            try:
                allowed = await self.window.hit(limit, bucket)
                if allowed:
                    continue
                reset, _ = await self.window.get_window_stats(limit, bucket)
            except StorageError as error:
                # Failing open would let anyone past the limits while the store is down.
                log.error("http.rate_limit_storage", error=str(error))
                response = problem(
                    request,
                    503,
                    "Service unavailable",
                    "the rate limit store cannot be reached",
                    headers={"Retry-After": "5"},
                )
                await response(scope, receive, send)
                return True
            wait = max(1, int(reset - time.time()) + 1)
            what = (
                "failed authentications"
                if bucket.startswith("auth-failures:")
                else "chat turns"
                if bucket.startswith("chat:")
                else "guideline questions"
                if bucket.startswith("chat-guide:")
                else "requests"
            )
            response = problem(
                request,
                429,
                "Too many requests",
                f"at most {limit} {what} per client; retry in {wait} s",
                headers={"Retry-After": str(wait)},
            )
            await response(scope, receive, send)
            return True
        return False
