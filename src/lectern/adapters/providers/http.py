"""A polite JSON client for public APIs: timeouts, retries on transient errors, a rate limit.

- every request waits until `min_interval` seconds have passed since the previous one
  (the providers ask for moderate use; Open Library blocks clients that hammer it);
- 408, 425, 429 and 5xx answers and transport errors are retried with exponential backoff
  (a `Retry-After` of a few seconds is honoured); other 4xx answers are errors at once;
- 404 means "no such record", not an error: the caller gets None;
- a body that is not JSON is an error naming the URL (providers answer HTML when down).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

import httpx
from tenacity import retry, retry_if_exception, stop_after_attempt, wait_exponential

from lectern.errors import ProviderError

TRANSIENT = frozenset({408, 425, 429, 500, 502, 503, 504})
MAX_RETRY_AFTER = 10.0
"""A longer Retry-After than this is not waited for: the request fails instead."""


class _Transient(Exception):
    """A retryable answer or transport failure."""


class PoliteJsonClient:
    """GET JSON from one base URL, politely."""

    def __init__(
        self,
        base_url: str,
        *,
        name: str,
        timeout: float = 10.0,
        attempts: int = 3,
        min_interval: float = 1.0,
        user_agent: str = "lectern",
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """`name` says which provider failed in error messages."""
        self.base_url = base_url.rstrip("/")
        self.name = name
        self.attempts = attempts
        self.min_interval = min_interval
        self._sleep = sleep
        self._clock = clock
        self._last: float | None = None
        self._lock = threading.Lock()
        self._client = httpx.Client(
            timeout=timeout,
            follow_redirects=True,
            headers={"User-Agent": user_agent, "Accept": "application/json"},
            transport=transport,
        )

    def close(self) -> None:
        """Close the connection pool."""
        self._client.close()

    def get_json(self, path: str, params: Mapping[str, str | int] | None = None) -> Any:
        """The decoded JSON at `path`, or None for a 404; ProviderError otherwise."""
        url = f"{self.base_url}/{path.lstrip('/')}"
        fetch = retry(
            retry=retry_if_exception(lambda e: isinstance(e, _Transient)),
            stop=stop_after_attempt(self.attempts),
            wait=wait_exponential(multiplier=0.5, max=8),
            sleep=self._sleep,
            reraise=True,
        )(self._get)
        try:
            return fetch(url, dict(params or {}))
        except _Transient as error:
            raise ProviderError(
                f"{self.name}: {url} failed after {self.attempts} attempts: {error}"
            ) from None

    def _get(self, url: str, params: dict[str, str | int]) -> Any:
        self._wait_turn()
        try:
            response = self._client.get(url, params=params)
        except httpx.TransportError as error:
            raise _Transient(f"{type(error).__name__}: {error}") from error
        if response.status_code == 404:
            return None
        if response.status_code in TRANSIENT:
            self._honour_retry_after(response)
            raise _Transient(f"HTTP {response.status_code} {_detail(response)}")
        if response.status_code >= 400:
            raise ProviderError(
                f"{self.name}: {url} answered HTTP {response.status_code} {_detail(response)}"
            )
        try:
            return response.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise ProviderError(
                f"{self.name}: {url} did not answer JSON "
                f"({response.headers.get('content-type', 'no content type')})"
            ) from None

    def _wait_turn(self) -> None:
        with self._lock:
            now = self._clock()
            if self._last is not None and now - self._last < self.min_interval:
                self._sleep(self.min_interval - (now - self._last))
                now = self._clock()
            self._last = now

    def _honour_retry_after(self, response: httpx.Response) -> None:
        value = response.headers.get("retry-after", "")
        if value.isdigit() and 0 < int(value) <= MAX_RETRY_AFTER:
            self._sleep(float(value))


def _detail(response: httpx.Response) -> str:
    """What an error answer says: Google's `error.message`, else the start of the body."""
    try:
        body = response.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        return response.text[:120].strip()
    if isinstance(body, dict) and isinstance(body.get("error"), dict):
        return str(body["error"].get("message", ""))[:200]
    return str(body)[:120]
