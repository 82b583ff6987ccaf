"""Prometheus metrics: HTTP latency per route and LLM calls per model and outcome."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest

from lectern.application.ports import LLMTracer
from lectern.domain.tracing import LLMCallTrace

LATENCY_BUCKETS = (0.005, 0.01, 0.02, 0.04, 0.06, 0.1, 0.15, 0.25, 0.5, 1.0, 2.5, 5.0, 15.0, 60.0)
"""Seconds; dense around the search budget (p95 100 ms) so quantiles can be read off."""


class PrometheusMetrics:
    """One registry per app, so tests and workers never share counters by accident."""

    def __init__(self) -> None:
        """Create the collectors."""
        self.registry = CollectorRegistry()
        self.http_latency = Histogram(
            "lectern_http_request_duration_seconds",
            "HTTP request latency by route template, method and status.",
            ("route", "method", "status"),
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.llm_calls = Counter(
            "lectern_llm_calls_total",
            "LLM calls by model, operation and outcome (ok or error).",
            ("model", "operation", "outcome"),
            registry=self.registry,
        )
        self.llm_latency = Histogram(
            "lectern_llm_call_duration_seconds",
            "LLM call latency by model and operation.",
            ("model", "operation"),
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )

    def observe_http(self, route: str, method: str, status: int, seconds: float) -> None:
        """Count one answered HTTP request in the latency histogram."""
        self.http_latency.labels(route, method, str(status)).observe(seconds)

    def exposition(self) -> bytes:
        """The text format Prometheus scrapes."""
        return generate_latest(self.registry)


class MeteredTracer:
    """Counts every traced LLM call, then hands the trace on."""

    def __init__(self, inner: LLMTracer, metrics: PrometheusMetrics) -> None:
        """Wrap the trace writer."""
        self.inner = inner
        self.metrics = metrics

    def record(self, trace: LLMCallTrace) -> None:
        """Count, time, and write the trace."""
        outcome = "error" if trace.parse_error else "ok"
        self.metrics.llm_calls.labels(trace.model, trace.operation, outcome).inc()
        self.metrics.llm_latency.labels(trace.model, trace.operation).observe(
            trace.latency_ms / 1000
        )
        self.inner.record(trace)

    def last(self, count: int) -> list[LLMCallTrace]:
        """The wrapped writer's newest traces."""
        return self.inner.last(count)
