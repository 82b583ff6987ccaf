"""Prometheus counters of the assistant: chats, tool calls, actions, guardrail flags."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter


class PrometheusAssistantObserver:
    """`AssistantObserver` on the app's Prometheus registry."""

    def __init__(self, registry: CollectorRegistry) -> None:
        """Register the counters on this registry (one per app)."""
        self.chats = Counter(
            "lectern_assistant_chats_total",
            "Chat turns by outcome (answered, preview).",
            ("outcome",),
            registry=registry,
        )
        self.tool_calls = Counter(
            "lectern_assistant_tool_calls_total",
            "Assistant tool calls by tool and outcome (ok, error, preview).",
            ("tool", "outcome"),
            registry=registry,
        )
        self.actions = Counter(
            "lectern_assistant_actions_total",
            "Pending actions reaching each status.",
            ("status",),
            registry=registry,
        )
        self.flags = Counter(
            "lectern_assistant_grounding_flags_total",
            "Guardrail flags raised on replies.",
            ("flag",),
            registry=registry,
        )

    def chat(self, outcome: str) -> None:
        """Count one chat turn."""
        self.chats.labels(outcome).inc()

    def tool_call(self, tool: str, outcome: str) -> None:
        """Count one tool call."""
        self.tool_calls.labels(tool, outcome).inc()

    def action(self, status: str) -> None:
        """Count an action reaching a status."""
        self.actions.labels(status).inc()

    def flag(self, flag: str) -> None:
        """Count a guardrail flag."""
        self.flags.labels(flag).inc()
