"""The workspace rules' look-ups of projects by state: tasks in one state, a state, a count.

"anything finished yet in the vpn project?" lists that project's done tasks; "what's the
state of the VPN gateway project, anything overdue?" opens its details (the summary spans
every project); "how many projects are there?" lists them, with their open blockers.
The readings are in `understanding/workspace_by_state.py`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lectern.adapters.llm.workspace_questions import MODEL_ID, CallMaker, Stage
from lectern.adapters.llm.workspace_refs import Refs
from lectern.adapters.llm.workspace_replies import _project_reply, _projects_reply, _tasks_reply
from lectern.adapters.understanding.workspace_by_state import (
    project_state_asked,
    projects_counted,
    tasks_by_state,
)
from lectern.adapters.understanding.workspace_projects_said import project_status_of
from lectern.domain.assistant import AIResponse, ToolCall


class WorkspaceByState:
    """A project's tasks asked for by state, or the project's state, over `_call`."""

    _call: CallMaker

    def _by_state(self, text: str, refs: Refs) -> list[Stage]:
        projects = refs.names.of("project")
        by_state = tasks_by_state(text, projects)
        if by_state is not None:
            project, status = by_state
            call = self._call("get_tasks", project_id=project, status=status)
            return _one(call, _tasks_reply)
        if projects_counted(text):
            state = project_status_of(text)  # "how many active projects?"
            arguments = {"status": state} if state else {}
            return _one(self._call("get_projects", **arguments), _projects_reply)
        state_of = project_state_asked(text, projects)
        if state_of is not None:
            return _one(self._call("get_project_details", project_id=state_of), _project_reply)
        return []


def _one(call: ToolCall, reply: Callable[[Any], str]) -> list[Stage]:
    return [lambda _: [call], lambda done: AIResponse(reply(done), model=MODEL_ID)]
