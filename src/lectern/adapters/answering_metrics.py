"""Prometheus counters of the answering workflows: outcomes, gate decisions, reflections."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter


class PrometheusAnsweringObserver:
    """`AnsweringObserver` on the app's Prometheus registry."""

    def __init__(self, registry: CollectorRegistry) -> None:
        """Register the counters on this registry (one per app)."""
        self.requests = Counter(
            "lectern_ai_requests_total",
            "Knowledge-base reply requests by outcome (success: replied, skip: stayed silent, "
            "error: a step failed or timed out).",
            ("outcome",),
            registry=registry,
        )
        self.gates = Counter(
            "lectern_ai_gate_total",
            "Question-gate decisions (question, not_a_question, chit_chat, off_topic, empty, "
            "error).",
            ("decision",),
            registry=registry,
        )

        self.reflections = Counter(
            "lectern_ai_reflections_total",
            "Drafts rejected by verification (or by the citation check) and written once more "
            "with the reason as feedback, by outcome (rescued: the retry passed; failed).",
            ("workflow", "outcome"),
            registry=registry,
        )

    def request(self, outcome: str) -> None:
        """Count one request."""
        self.requests.labels(outcome).inc()

    def gate(self, decision: str) -> None:
        """Count one gate decision."""
        self.gates.labels(decision).inc()

    def reflection(self, outcome: str) -> None:
        """Count one retry of the reply graph."""
        self.reflections.labels("kb_reply", outcome).inc()

    def research_reflection(self, outcome: str) -> None:
        """Count one retry of the research chain."""
        self.reflections.labels("research", outcome).inc()
