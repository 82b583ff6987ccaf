"""The workspace conversation set: the right tools and arguments, and the right end state.

Each case runs on a freshly seeded demo workspace (`seed_demo`, with alice owner, bob member,
vera viewer; mallory owns another organization). A case is one or more turns; a turn may
approve (or reject) every action it proposed, in the order proposed. Scored per case:
- tools: every turn's calls, in order, against the expected tool names and arguments
  (equal, case-insensitive for text; `contains` for substrings); `$task:<title>` and
  `$project:<name>` stand for the seeded ids;
- end state: the tasks, blockers and comments the case names hold the expected fields
  (or, with `unchanged`, nothing changed at all).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from lectern.application.assistant.service import AssistantService
from lectern.application.evaluation.assistant import asked_back
from lectern.application.evaluation.packaged import packaged_text
from lectern.application.workspace.demo import DemoWorkspace
from lectern.application.workspace.service import WorkspaceService
from lectern.domain.assistant import PageContext, PageType
from lectern.errors import DatasetError, LecternError

CONVERSATIONS_FILE = "workspace_conversations.json"


@dataclass
class WorkspaceWorld:
    """A seeded workspace, the assistant over it, and the rival organization's project."""

    workspace: WorkspaceService
    assistant: AssistantService
    demo: DemoWorkspace
    rival_project: str
    rival_task: str


@dataclass(frozen=True, slots=True)
class Turn:
    """One message of a case and what it should call."""

    say: str
    user: str = "alice"
    page: Mapping[str, str] | None = None
    approve: bool = False
    reject: bool = False
    expect_calls: tuple[Mapping[str, Any], ...] | None = None
    """None: not checked; () : no tool at all."""
    expect_clarify: bool = False
    """The right reply is one clarifying question: no tool call, nothing changed."""
    expect_intent: str | None = None
    """A conversational intent (greeting, thanks, capabilities, off_topic): no tool call."""


@dataclass(frozen=True, slots=True)
class WorkspaceCase:
    """A scripted request (one or more turns) and its expected end state."""

    id: str
    kind: str
    turns: tuple[Turn, ...]
    expect: Mapping[str, Any] = field(default_factory=dict)
    today: date | None = None
    """The day the case is read on (its relative dates, "by Friday", count from it); else
    the runner's clock."""


@dataclass(frozen=True, slots=True)
class WorkspaceOutcome:
    """How one case went."""

    id: str
    kind: str
    tools_ok: bool
    state_ok: bool
    calls: list[list[dict[str, Any]]]
    replies: list[str]
    problems: list[str]
    seconds: float
    clarified: tuple[bool, ...] = ()
    """Per turn: the reply asked a question back instead of calling a tool."""
    proposed: tuple[tuple[str, ...], ...] = ()
    """Per turn: the tools of the actions proposed."""
    turn_ms: tuple[float, ...] = ()
    """Per turn: how long the message took to answer."""

    @property
    def ok(self) -> bool:
        """Both right."""
        return self.tools_ok and self.state_ok


def load_workspace_conversations(path: Path | None = None) -> list[WorkspaceCase]:
    """The packaged set, or the file at `path`."""
    try:
        text = packaged_text(CONVERSATIONS_FILE, path)
        raw = json.loads(text)
        return [
            WorkspaceCase(
                id=case["id"],
                kind=case["kind"],
                turns=tuple(
                    Turn(
                        say=turn["say"],
                        user=turn.get("user", "alice"),
                        page=turn.get("page"),
                        approve=bool(turn.get("approve", False)),
                        reject=bool(turn.get("reject", False)),
                        expect_calls=_expected_calls(turn),
                        expect_clarify=bool(turn.get("expect_clarify", False)),
                        expect_intent=turn.get("expect_intent"),
                    )
                    for turn in case["turns"]
                ),
                expect=case.get("expect", {}),
                today=date.fromisoformat(case["today"]) if case.get("today") else None,
            )
            for case in raw["cases"]
        ]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise DatasetError(f"the workspace conversation set cannot be read: {error}") from error


def _ids(world: WorkspaceWorld) -> dict[str, str]:
    demo = world.demo
    ids = {f"$task:{title}": task_id for title, task_id in demo.tasks.items()}
    ids.update({f"$document:{title}": doc for title, doc in demo.documents.items()})
    ids.update({f"$blocker:{text}": blocker for text, blocker in demo.blockers.items()})
    ids["$project:VPN gateway hardening"] = demo.vpn.id
    ids["$project:Phishing awareness"] = demo.phishing.id
    ids["$project:rival"] = world.rival_project
    ids["$task:rival"] = world.rival_task
    return ids


def _resolve(value: Any, ids: Mapping[str, str]) -> Any:
    if isinstance(value, str) and value.startswith("$"):
        return ids.get(value, value)
    return value


def _same(expected: Any, actual: Any) -> bool:
    if isinstance(expected, str) and isinstance(actual, str):
        return expected.casefold() == actual.casefold()
    return bool(expected == actual)


def _same_reference(expected: Any, actual: Any, ids: Mapping[str, str]) -> bool:
    """Equal, or a `$task:`/`$project:`/`$blocker:`/`$document:` reference given by its words.

    The tools take a task's title, a project's name, a blocker's words or a document's title
    as well as its id (they resolve it, and refuse what is ambiguous), so either names the
    seeded thing.
    """
    if _same(_resolve(expected, ids), actual):
        return True
    if (
        isinstance(expected, str)
        and expected in ids
        and expected.startswith(("$task:", "$project:", "$blocker:", "$document:"))
    ):
        return _same(expected.split(":", 1)[1], actual)
    return False


def _page(
    spec: Mapping[str, str] | None, ids: Mapping[str, str], world: WorkspaceWorld
) -> PageContext | None:
    if spec is None:
        return None
    kind: PageType = spec["type"]  # type: ignore[assignment]
    ident = _resolve(spec.get("id"), ids)
    project = _resolve(spec.get("project_id"), ids)
    if kind in ("task", "document") and project is None and ident is not None:
        store = world.workspace.store
        owner = store.task(ident) if kind == "task" else store.document(ident)
        project = owner.project_id if owner is not None else None
    return PageContext(kind, ident, spec.get("name"), project_id=project)


def _check_calls(
    expected: tuple[Mapping[str, Any], ...], calls: list[dict[str, Any]], ids: Mapping[str, str]
) -> list[str]:
    problems: list[str] = []
    if len(expected) != len(calls):
        problems.append(
            f"expected {[e['tool'] for e in expected]}, called {[c['name'] for c in calls]}"
        )
        return problems
    for want, call in zip(expected, calls, strict=True):
        if want["tool"] != call["name"]:
            problems.append(f"expected {want['tool']}, called {call['name']}")
            continue
        arguments = call["arguments"]
        for name, value in want.get("args", {}).items():
            if not _same_reference(value, arguments.get(name), ids):
                problems.append(
                    f"{call['name']}.{name}: expected {value!r}, got {arguments.get(name)!r}"
                )
        for name, piece in want.get("contains", {}).items():
            if str(piece).casefold() not in str(arguments.get(name, "")).casefold():
                problems.append(f"{call['name']}.{name}: {arguments.get(name)!r} lacks {piece!r}")
        for name in want.get("absent", []):
            if arguments.get(name) is not None:
                problems.append(f"{call['name']}.{name}: expected nothing, got {arguments[name]!r}")
    return problems


def _snapshot(world: WorkspaceWorld) -> Any:
    store = world.workspace.store
    projects = [world.demo.vpn.id, world.demo.phishing.id, world.rival_project]
    return (
        list(store.tasks(projects)),
        list(store.blockers(projects)),
        [c.text for c in store.project_comments(projects)],
    )


def _check_state(world: WorkspaceWorld, expect: Mapping[str, Any], before: Any) -> list[str]:
    problems: list[str] = []
    store = world.workspace.store
    projects = [world.demo.vpn.id, world.demo.phishing.id, world.rival_project]
    tasks = store.tasks(projects)
    if expect.get("unchanged") and _snapshot(world) != before:
        problems.append("the workspace changed")
    for want in expect.get("tasks", []):
        named = [t for t in tasks if t.title.casefold() == want["title"].casefold()]
        if not named:
            problems.append(f"no task {want['title']!r}")
            continue
        # The rival organization holds a task of the same title; the caller never sees it,
        # so the seeded task is the one whose fields the case is about.
        seeded = world.demo.tasks.get(want["title"])
        task = next((t for t in named if t.id == seeded), named[-1])
        actual = {
            "status": task.status,
            "assignee": task.assignee,
            "priority": task.priority,
            "due_date": task.due_date.isoformat() if task.due_date else None,
            "description": task.description,
        }
        for name, value in want.items():
            if name != "title" and actual.get(name) != value:
                problems.append(
                    f"task {task.title!r}: {name} is {actual.get(name)!r}, not {value!r}"
                )
    for title in expect.get("absent_tasks", []):
        if any(t.title.casefold() == title.casefold() for t in tasks):
            problems.append(f"a task {title!r} exists")
    blockers = store.blockers(projects)
    for want in expect.get("blockers", []):
        found = [b for b in blockers if want["contains"].casefold() in b.description.casefold()]
        if not found:
            problems.append(f"no blocker about {want['contains']!r}")
            continue
        last = found[-1]
        if "status" in want and last.status != want["status"]:
            problems.append(f"blocker {last.description!r} is {last.status}")
        if "task" in want and last.task_id != world.demo.tasks.get(want["task"]):
            problems.append(f"blocker {last.description!r} is on another task")
        wanted = want.get("resolution_contains")
        if wanted and wanted.casefold() not in (last.resolution or "").casefold():
            problems.append(f"blocker resolution is {last.resolution!r}")
    for want in expect.get("comments", []):
        task_id = world.demo.tasks.get(want["task"]) or next(
            (t.id for t in tasks if t.title == want["task"]), None
        )
        texts = [c.text for c in store.comments(task_id=task_id)] if task_id else []
        if not any(want["contains"].casefold() in t.casefold() for t in texts):
            problems.append(f"no comment on {want['task']!r} with {want['contains']!r}")
    return problems


def run_workspace_case(case: WorkspaceCase, world: WorkspaceWorld) -> WorkspaceOutcome:
    """Run one case on its own fresh world."""
    started = time.perf_counter()
    ids = _ids(world)
    before = _snapshot(world)
    problems: list[str] = []
    tool_problems: list[str] = []
    calls: list[list[dict[str, Any]]] = []
    replies: list[str] = []
    conversations: dict[str, str] = {}
    clarified: list[bool] = []
    proposed: list[tuple[str, ...]] = []
    turn_ms: list[float] = []
    for turn in case.turns:
        asked = time.perf_counter()
        try:
            reply = world.assistant.chat(
                turn.user,
                turn.say,
                conversation=conversations.get(turn.user),
                page=_page(turn.page, ids, world),
            )
        except LecternError as error:
            tool_problems.append(f"{turn.say!r} failed: {error}")
            calls.append([])
            clarified.append(False)
            proposed.append(())
            turn_ms.append((time.perf_counter() - asked) * 1000)
            continue
        turn_ms.append((time.perf_counter() - asked) * 1000)
        clarified.append(asked_back(reply))
        proposed.append(tuple(a.preview.tool_name for a in reply.actions))
        conversations[turn.user] = reply.conversation
        made = [{"name": c.name, "arguments": dict(c.arguments)} for c in reply.tool_calls]
        calls.append(made)
        replies.append(reply.text)
        if turn.expect_calls is not None:
            tool_problems.extend(_check_calls(turn.expect_calls, made, ids))
        for action in reply.actions:
            try:
                if turn.approve:
                    decided = world.assistant.approve(turn.user, action.id)
                    replies.append(decided.text)
                elif turn.reject:
                    replies.append(world.assistant.reject(turn.user, action.id).text)
            except LecternError as error:
                problems.append(f"deciding {action.preview.description!r} failed: {error}")
    problems.extend(_check_state(world, case.expect, before))
    return WorkspaceOutcome(
        case.id,
        case.kind,
        not tool_problems,
        not problems,
        calls,
        replies,
        tool_problems + problems,
        time.perf_counter() - started,
        tuple(clarified),
        tuple(proposed),
        tuple(turn_ms),
    )


@dataclass(frozen=True, slots=True)
class WorkspaceReport:
    """The set's figures."""

    cases: int
    tools_right: int
    state_right: int
    both_right: int
    outcomes: tuple[WorkspaceOutcome, ...]

    def share(self, count: int) -> float:
        """A count as a share of the cases."""
        return round(count / self.cases, 4) if self.cases else 0.0


def run_workspace_set(
    cases: list[WorkspaceCase], make_world: Callable[[], WorkspaceWorld]
) -> WorkspaceReport:
    """Every case on its own fresh world."""
    outcomes = tuple(run_workspace_case(case, make_world()) for case in cases)
    return WorkspaceReport(
        cases=len(outcomes),
        tools_right=sum(o.tools_ok for o in outcomes),
        state_right=sum(o.state_ok for o in outcomes),
        both_right=sum(o.ok for o in outcomes),
        outcomes=outcomes,
    )


def _expected_calls(turn: Mapping[str, Any]) -> tuple[Mapping[str, Any], ...] | None:
    """The calls a turn expects; a clarifying question or a greeting expects none.

    A turn that names neither is a set-up turn and is not checked (None).
    """
    if "expect_calls" in turn:
        return tuple(turn["expect_calls"])
    if turn.get("expect_clarify") or turn.get("expect_intent"):
        return ()
    return None
