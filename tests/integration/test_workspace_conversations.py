"""The workspace conversation set through the rule policy: tools, arguments, end state."""

from __future__ import annotations

from pathlib import Path

from lectern.application.evaluation.workspace import (
    load_workspace_conversations,
    run_workspace_set,
)
from tests.workspace_world import conversation_worlds


def test_the_rule_policy_gets_the_workspace_set_right(tmp_path: Path) -> None:
    cases = load_workspace_conversations()
    assert len(cases) >= 30
    assert sum(len(c.turns) > 1 or c.kind.startswith("two") for c in cases) >= 4
    report = run_workspace_set(cases, conversation_worlds(tmp_path))
    failures = {o.id: o.problems for o in report.outcomes if not o.ok}
    print(
        f"workspace set: {report.cases} cases, tools {report.tools_right}, "
        f"state {report.state_right}, both {report.both_right}; failures {failures}"
    )
    assert report.share(report.tools_right) >= 0.9, failures
    assert report.share(report.state_right) >= 0.9, failures
