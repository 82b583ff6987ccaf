"""The workspace rules' replies: what a read or a change came back with, in words and citations.

The rules (`workspace_rules.py`) decide which calls to make; these render what the calls
returned, each line cited to the task, project, blocker or document it states.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from lectern.adapters.understanding.slots import attention_sections_of
from lectern.domain.assistant import cite


def _as_dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _last(done: Any) -> dict[str, Any]:
    return _as_dict(done.results[-1] if done.results else None)


def _error(done: Any) -> str | None:
    for result in reversed(done.results):
        error = _as_dict(result).get("error")
        if error:
            return str(error)
    return None


def _summary(done: Any) -> str:
    error = _error(done)
    return f"I could not do that: {error}" if error else "Done."


def _task_line(number: int, task: dict[str, Any]) -> str:
    details = [str(task.get("status", "")).replace("_", " "), f"{task.get('priority')} priority"]
    if task.get("assignee_id"):
        details.append(f"assigned to {task['assignee_id']}")
    if task.get("due_date"):
        details.append(f"due {task['due_date']}")
    return f"{number}. {task.get('title')} ({', '.join(details)}) [task:{task.get('task_id')}]"


def _projects_reply(done: Any) -> str:
    error = _error(done)
    if error:
        return f"I could not list the projects: {error}"
    projects = [_as_dict(p) for p in _last(done).get("projects", [])]
    if not projects:
        return "You have no projects yet."
    lines = [f"You can see {len(projects)} project{'s' if len(projects) != 1 else ''}:"]
    for number, project in enumerate(projects, start=1):
        tasks = _as_dict(project.get("tasks"))
        open_tasks = sum(v for k, v in tasks.items() if k != "done" and isinstance(v, int))
        lines.append(
            f"{number}. {project.get('name')} ({project.get('status')}; {open_tasks} open tasks, "
            f"{project.get('open_blockers')} open blockers) [project:{project.get('project_id')}]"
        )
    return "\n".join(lines)


def _project_reply(done: Any) -> str:
    error = _error(done)
    if error:
        return f"I could not open that project: {error}"
    result = _last(done)
    project, stats = _as_dict(result.get("project")), _as_dict(result.get("stats"))
    lines = [
        f"{project.get('name')} ({project.get('status')}) [project:{project.get('project_id')}]: "
        f"{stats.get('total')} tasks: {stats.get('todo')} to do, {stats.get('in_progress')} in "
        f"progress, {stats.get('in_review')} in review, {stats.get('done')} done; "
        f"{stats.get('overdue')} overdue; {stats.get('open_blockers')} open blockers; "
        f"{stats.get('documents')} documents."
    ]
    lines.extend(_task_line(n, _as_dict(t)) for n, t in enumerate(result.get("tasks", []), start=1))
    return "\n".join(lines)


def _tasks_reply(done: Any) -> str:
    error = _error(done)
    if error:
        return f"I could not list the tasks: {error}"
    tasks: list[dict[str, Any]] = []
    for call, result in zip(done.calls, done.results, strict=False):
        if call.name == "get_tasks":
            tasks.extend(_as_dict(t) for t in _as_dict(result).get("tasks", []))
    if not tasks:
        return "No tasks match that."
    head = f"{len(tasks)} task{'s' if len(tasks) != 1 else ''}:"
    return "\n".join([head, *(_task_line(n, t) for n, t in enumerate(tasks, start=1))])


def _task_reply(done: Any) -> str:
    error = _error(done)
    if error:
        return f"I could not find that task: {error}"
    result = _last(done)
    task = _as_dict(result.get("task"))
    task_id = str(task.get("task_id"))
    lines = [_task_line(1, task)[3:]]
    if task.get("description"):
        lines.append(f"Description: {cite(str(task['description']), f'passage:task:{task_id}')}")
    for comment in (_as_dict(c) for c in result.get("comments", [])):
        source = f"passage:comment:{comment.get('comment_id')}"
        text = str(comment.get("text", ""))
        first = text.splitlines()[0] if text.strip() else ""
        more = " (...)" if first != text else ""
        # A line holding double quotes (a review's own quotes) is shown, not re-quoted.
        shown = first if '"' in first or not first else cite(first, source)
        lines.append(f"- {comment.get('author')}: {shown}{more}")
    for blocker in (_as_dict(b) for b in result.get("blockers", [])):
        lines.append(f"Blocked ({blocker.get('status')}): {blocker.get('description')}")
    return "\n".join(lines)


def _blockers_reply(done: Any) -> str:
    error = _error(done)
    if error:
        return f"I could not look at the blockers: {error}"
    result = _last(done)
    project = _as_dict(result.get("project")).get("name")
    where = f" {project}" if project else " your projects"
    blockers = [_as_dict(b) for b in result.get("blockers", [])]
    if not blockers:
        return f"Nothing is blocking{where} right now."
    lines = [f"What is blocking{where}:"]
    for number, blocker in enumerate(blockers, start=1):
        on = f" (blocks the task '{blocker['task_title']}')" if blocker.get("task_title") else ""
        lines.append(
            f"{number}. {blocker.get('description')}{on} [blocker:{blocker.get('blocker_id')}]"
        )
    return "\n".join(lines)


def _team_reply(done: Any) -> str:
    error = _error(done)
    if error:
        return f"I could not list the team: {error}"
    members = [_as_dict(m) for m in _last(done).get("members", [])]
    if not members:
        return "I found no team members."
    names = [f"{m.get('name')} ({m.get('user_id')}, {m.get('role')})" for m in members]
    return "The team: " + ", ".join(names) + "."


def _documents_reply(done: Any) -> str:
    error = _error(done)
    if error:
        return f"I could not list the documents: {error}"
    result = _last(done)
    documents = [_as_dict(d) for d in result.get("documents", [])]
    project = _as_dict(result.get("project")).get("name", "The project")
    if not documents:
        return f"{project} has no documents yet."
    lines = [f"{project} has {len(documents)} document{'s' if len(documents) != 1 else ''}:"]
    lines.extend(
        f"{n}. {d.get('title')} [document:{d.get('document_id')}]"
        for n, d in enumerate(documents, start=1)
    )
    return "\n".join(lines)


def _document_reply(done: Any) -> str:
    error = _error(done)
    if error:
        return f"I could not open that document: {error}"
    document = _as_dict(_last(done).get("document"))
    text = str(document.get("text", ""))
    first = re.split(r"(?<=[.!?])\s", text.strip(), maxsplit=2)
    quote = " ".join(first[:2])[:300].replace('"', "").strip()
    if quote not in text:
        quote = text[:200].replace('"', "").strip()
    source = f"passage:document:{document.get('document_id')}"
    return f"{document.get('title')} {document.get('label')}: {cite(quote, source)}"


def _search_reply(done: Any) -> str:
    error = _error(done)
    if error:
        return f"I could not search: {error}"
    results = [_as_dict(r) for r in _last(done).get("results", [])]
    if not results:
        return "I found nothing in your projects for that."
    lines = [f"I found {len(results)} result{'s' if len(results) != 1 else ''}:"]
    for number, hit in enumerate(results, start=1):
        label = f" {hit['label']}" if hit.get("label") else ""
        snippet = str(hit.get("snippet", "")).replace('"', "")
        quoted = (
            cite(snippet, str(hit.get("source")))
            if snippet and '"' not in str(hit.get("snippet"))
            else ""
        )
        lines.append(f"{number}. {hit.get('kind')} '{hit.get('title')}'{label}: {quoted}")
    return "\n".join(lines)


_ATTENTION_PARTS = (
    ("Overdue", "overdue", "Nothing is overdue right now."),
    ("Blocked", "blocked", "Nothing is blocked right now."),
    ("In review", "in_review", "Nothing is waiting in review right now."),
    ("Assigned to you", "assigned_to_me", "Nothing is assigned to you right now."),
)


def attention_reply(sections: Sequence[str] = ()) -> Callable[[Any], str]:
    """The attention summary told whole, or only the parts the request asked for."""

    def told(done: Any) -> str:
        error = _error(done)
        if error:
            return f"I could not look: {error}"
        result = _last(done)
        lines: list[str] = []
        for title, key, empty in _ATTENTION_PARTS:
            if sections and key not in sections:
                continue
            tasks = [_as_dict(t) for t in result.get(key, [])]
            if not tasks:
                if sections:
                    lines.append(empty)
                continue
            lines.append(f"{title} ({len(tasks)}):")
            lines.extend(_task_line(n, t) for n, t in enumerate(tasks, start=1))
        if sections:
            return "\n".join(lines)
        if not lines:
            return "Nothing needs your attention right now."
        return "\n".join(["What needs your attention:", *lines])

    return told


def task_reference(result: Any) -> str:
    """`[task:<id>]` for a decision's result that names a task, else ''."""
    for value in _as_dict(result).values():
        task_id = _as_dict(value).get("task_id")
        if isinstance(task_id, str):
            return f" [task:{task_id}]"
    return ""


READ_REPLIES: dict[str, Callable[[Any], str]] = {
    "get_projects": _projects_reply,
    "get_project_details": _project_reply,
    "get_tasks": _tasks_reply,
    "get_task_details": _task_reply,
    "get_blockers": _blockers_reply,
    "get_team_members": _team_reply,
    "get_documents": _documents_reply,
    "get_document_details": _document_reply,
    "search_content": _search_reply,
    "get_attention_summary": attention_reply(),
}
"""How each workspace read is told, for the plans the understanding layer fills."""


def read_reply(intent: str, text: str) -> Callable[[Any], str] | None:
    """How a workspace read is told for this request ("which tasks are overdue": those only)."""
    if intent == "get_attention_summary":
        return attention_reply(attention_sections_of(text))
    return READ_REPLIES.get(intent)
