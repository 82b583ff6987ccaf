"""The workspace tools: their names and schemas, isolation per tool, viewers, previews."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage

from lectern.adapters.llm.tool_calling import LangChainToolModel
from lectern.application.assistant.service import AssistantService
from lectern.application.assistant.tools import ActionTool, QueryTool, ToolContext
from lectern.domain.assistant import PageContext
from lectern.errors import ActionChangedError, LecternError
from tests.fakes import ScriptedChatModel
from tests.workspace_world import Seeded, seeded, workspace_assistant

QUERY_TOOLS = [
    "get_projects",
    "get_project_details",
    "get_tasks",
    "get_task_details",
    "get_blockers",
    "get_documents",
    "get_document_details",
    "search_content",
    "get_attention_summary",
    "get_team_members",
]
ACTION_TOOLS = [
    "create_task",
    "update_task",
    "complete_task",
    "assign_task",
    "create_blocker",
    "resolve_blocker",
    "add_comment",
]


@pytest.fixture
def world(tmp_path: Path) -> Seeded:
    return seeded(tmp_path)


@pytest.fixture
def assistant(world: Seeded) -> AssistantService:
    return workspace_assistant(world.service, world.clock)


def _context(world: Seeded, user: str, page: PageContext | None = None) -> ToolContext:
    return ToolContext(user, "c1", world.clock(), page or PageContext())


def test_the_specifications_tools_are_registered_with_their_schemas(
    assistant: AssistantService,
) -> None:
    names = assistant.registry.names
    assert set(QUERY_TOOLS + ACTION_TOOLS) <= set(names)
    for name in QUERY_TOOLS:
        assert isinstance(assistant.registry.get(name), QueryTool)
    for name in ACTION_TOOLS:
        assert isinstance(assistant.registry.get(name), ActionTool)
    schemas = {s.name: s.input_schema for s in assistant.registry.specs()}
    get_tasks: Any = schemas["get_tasks"]
    assert get_tasks["required"] == ["project_id"]
    status = get_tasks["properties"]["status"]["anyOf"][0]
    assert status["enum"] == ["todo", "in_progress", "in_review", "done"]
    assert "assignee_id" in get_tasks["properties"]
    assert set(schemas["add_comment"]["required"]) == {"task_id", "content"}  # type: ignore[arg-type]
    assert set(schemas["assign_task"]["required"]) == {"task_id", "assignee_id"}  # type: ignore[arg-type]
    assert set(schemas["resolve_blocker"]["required"]) == {"blocker_id", "resolution"}  # type: ignore[arg-type]


# Each tool called by mallory (another organization) on Acme's things: nothing comes back.
FOREIGN_CALLS: dict[str, dict[str, Any]] = {
    "get_project_details": {"project_id": "{vpn}"},
    "get_tasks": {"project_id": "{vpn}"},
    "get_task_details": {"task_id": "{patch}"},
    "get_blockers": {"project_id": "{vpn}"},
    "get_documents": {"project_id": "{vpn}"},
    "get_document_details": {"document_id": "{advisory}"},
    "search_content": {"query": "gateway hotfix", "project_id": "{vpn}"},
    "get_team_members": {"project_id": "{vpn}"},
    "create_task": {"project_id": "{vpn}", "title": "Sneak in"},
    "update_task": {"task_id": "{patch}", "status": "done"},
    "complete_task": {"task_id": "{patch}"},
    "assign_task": {"task_id": "{patch}", "assignee_id": "mallory"},
    "create_blocker": {"project_id": "{vpn}", "description": "Sabotage"},
    "resolve_blocker": {"blocker_id": "{blocker}", "resolution": "gone"},
    "add_comment": {"task_id": "{patch}", "content": "hacked"},
}


def _arguments(world: Seeded, template: dict[str, Any]) -> dict[str, Any]:
    names = {
        "vpn": world.vpn.id,
        "patch": world.patch.id,
        "advisory": world.advisory.id,
        "blocker": world.blocker.id,
    }
    return {k: v.format(**names) if isinstance(v, str) else v for k, v in template.items()}


@pytest.mark.parametrize("name", sorted(FOREIGN_CALLS))
def test_every_tool_answers_not_found_for_another_organization(
    world: Seeded, assistant: AssistantService, name: str
) -> None:
    tool = assistant.registry.get(name)
    assert tool is not None
    args = tool.parse(_arguments(world, FOREIGN_CALLS[name]))
    with pytest.raises(LecternError, match="no "):
        if isinstance(tool, QueryTool):
            tool.run(args, _context(world, "mallory"))
        else:
            assert isinstance(tool, ActionTool)
            tool.preview(args, _context(world, "mallory"))


@pytest.mark.parametrize("name", ["get_projects", "get_attention_summary", "get_team_members"])
def test_listing_tools_show_only_the_callers_organization(
    world: Seeded, assistant: AssistantService, name: str
) -> None:
    tool = assistant.registry.get(name)
    assert isinstance(tool, QueryTool)
    output = str(tool.run(tool.parse({}), _context(world, "mallory")).data)
    for foreign in (world.vpn.id, world.patch.id, "alice", "bob"):
        assert foreign not in output


@pytest.mark.parametrize("name", ACTION_TOOLS)
def test_viewers_cannot_propose_any_action(
    world: Seeded, assistant: AssistantService, name: str
) -> None:
    tool = assistant.registry.get(name)
    assert isinstance(tool, ActionTool)
    template = dict(FOREIGN_CALLS[name])
    if name == "assign_task":
        template["assignee_id"] = "bob"
    with pytest.raises(LecternError, match="viewers"):
        tool.preview(tool.parse(_arguments(world, template)), _context(world, "vera"))


def test_a_viewer_in_the_chat_gets_an_error_and_no_pending_action(
    assistant: AssistantService,
) -> None:
    reply = assistant.chat("vera", "create a task to audit the firewall in the VPN project")
    assert reply.actions == ()
    assert "viewers can read" in reply.text
    assert assistant.pending("vera") == []


def test_update_preview_diff_shows_every_changed_field_and_only_those(
    world: Seeded, assistant: AssistantService
) -> None:
    tool = assistant.registry.get("update_task")
    assert isinstance(tool, ActionTool)
    args = tool.parse(
        {
            "task_id": "Hunt for unusual VPN logins",
            "status": "in_progress",
            "priority": "high",
            "due_date": "2026-12-24",
            "title": "Hunt for unusual VPN logins",  # unchanged: not in the diff
        }
    )
    preview = tool.preview(args, _context(world, "bob"))
    assert {d.field: (d.old, d.new) for d in preview.diff} == {
        "status": ("todo", "in_progress"),
        "priority": ("low", "high"),
        "due_date": (None, "2026-12-24"),
    }
    assert preview.tool_input["task_id"] == world.hunt.id


def test_create_task_preview_resolves_names_and_runs_the_previewed_input(
    world: Seeded, assistant: AssistantService
) -> None:
    page = PageContext("project", world.vpn.id, world.vpn.name)
    reply = assistant.chat(
        "alice", "create a task to review CVE-2025-48384 and assign it to Bob Builder", page=page
    )
    (action,) = reply.actions
    assert action.preview.tool_input["assignee"] == "bob"
    assert {d.field for d in action.preview.diff} == {
        "title",
        "description",
        "status",
        "priority",
        "assignee",
    }
    done = assistant.approve("alice", action.id)
    assert done.decision is not None and done.decision.action.status == "executed"
    created = world.service.task("alice", str(action.preview.tool_input["task_id"]))
    assert (created.title, created.assignee, created.created_by) == (
        "Review CVE-2025-48384",
        "bob",
        "alice",
    )
    assert f"[task:{created.id}]" in done.text


def test_a_task_field_changed_since_the_preview_is_not_overwritten(
    world: Seeded, assistant: AssistantService
) -> None:
    reply = assistant.chat("alice", "mark the task Hunt for unusual VPN logins as done")
    (action,) = reply.actions
    world.service.update_task("bob", world.hunt.id, {"status": "in_progress"})
    with pytest.raises(ActionChangedError):
        assistant.approve("alice", action.id)
    task = world.service.task("alice", world.hunt.id)
    assert task.status == "in_progress"


def test_a_change_to_another_field_does_not_stop_an_approved_one(
    world: Seeded, assistant: AssistantService
) -> None:
    reply = assistant.chat("alice", "mark the task Hunt for unusual VPN logins as done")
    (action,) = reply.actions
    world.service.update_task("bob", world.hunt.id, {"priority": "urgent"})
    assistant.approve("alice", action.id)
    task = world.service.task("alice", world.hunt.id)
    assert (task.status, task.priority) == ("done", "urgent")


def test_two_changes_to_one_task_from_one_message_both_run(
    world: Seeded, assistant: AssistantService
) -> None:
    reply = assistant.chat(
        "alice", "assign Hunt for unusual VPN logins to bob and make it high priority"
    )
    assert sorted(a.preview.tool_name for a in reply.actions) == ["assign_task", "update_task"]
    for action in reply.actions:
        assistant.approve("alice", action.id)
    task = world.service.task("alice", world.hunt.id)
    assert (task.assignee, task.priority) == ("bob", "high")


def test_losing_membership_before_approval_fails_the_action(
    world: Seeded, assistant: AssistantService
) -> None:
    reply = assistant.chat("bob", "add a comment to Hunt for unusual VPN logins: checked")
    (action,) = reply.actions
    world.service.remove_member("alice", world.acme, "bob")
    with pytest.raises(LecternError):
        assistant.approve("bob", action.id)
    assert world.service.comments("alice", task_id=world.hunt.id) == []


def test_a_hosted_model_sees_workspace_text_masked(world: Seeded) -> None:
    world.service.add_comment(
        "bob", "Call the vendor at 212-555-0199 or mail ops@vendor.example.", task_id=world.hunt.id
    )
    call = {"name": "get_task_details", "args": {"task_id": world.hunt.id}, "id": "c1"}
    chat = ScriptedChatModel(script=[AIMessage(content="", tool_calls=[call]), "Here it is."])
    model = LangChainToolModel(chat, "scripted")  # type: ignore[arg-type]
    assistant = workspace_assistant(world.service, world.clock, model, mask_pii=True)
    assistant.chat("alice", "show the task")
    seen = " ".join(str(m.content) for m in chat.received[-1])
    assert "212-555-0199" not in seen and "ops@vendor.example" not in seen
    assert "<PHONE_NUMBER>" in seen and "<EMAIL_ADDRESS>" in seen
