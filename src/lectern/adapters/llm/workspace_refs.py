"""How the workspace rules turn a reader's words into references, and ask when one is open.

A task, project, blocker or person is named by the reader's words; `Refs` resolves them
against the stored names the reader may see (`mentions.py`), with the page's or the last
reply's task as "it": `task_ref`, `project_ref` and `person_ref` are what a plan's `Refs`
holds. A reference left open raises `_Unclear`, carrying the question to ask.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from lectern.adapters.understanding.layer import Clarification, blocker_on, name_it, which_of
from lectern.adapters.understanding.mentions import (
    Names,
    Resolution,
    covered,
    find_in,
    names_other,
    resolve,
    resolve_person,
)
from lectern.adapters.understanding.scaffold import clean as _clean
from lectern.adapters.understanding.workspace_patterns import IT, THIS_PROJECT
from lectern.adapters.understanding.workspace_plan import task_about_document

_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f-]{27,}", re.I)
"""A task's id, as replies write it (`[task:<id>]`): passed as it is."""


def task_words(value: str) -> str:
    """A task reference without its leading article or the word task."""
    text = _clean(value)
    text = re.sub(r"^(?:the\s+)?task\s+(?:called\s+|named\s+)?", "", text, flags=re.I)
    return re.sub(r"^the\s+", "", text, flags=re.I).strip()


def project_words(value: str | None) -> str | None:
    """A project reference without its article or the word project (None when empty)."""
    text = _clean(value)
    if not text:
        return None
    text = re.sub(r"\s+project$", "", text, flags=re.I)
    return re.sub(r"^(?:the|my|our)\s+", "", text, flags=re.I).strip() or None


class _Unclear(Exception):
    """A reference the request leaves open: ask instead of guessing."""

    def __init__(self, question: Clarification) -> None:
        super().__init__(question.question)
        self.question = question


def _bare(words: str) -> str:
    """A task's mention without the word that says it is one ("hunting task" -> "hunting")."""
    return re.sub(r"\s+(?:task|one)$", "", words, flags=re.I)


def task_ref(value: str | None, names: Names, it_task: str | None) -> str:
    """The task the reader's words name: a stored task's title, "it"'s task, or the words.

    `it_task`: the task "it" means. A task the words leave open is asked (`_Unclear`).
    """
    words = task_words(value or "")
    head = words.split(",", 1)[0].strip()
    if head != words and names.of("task") and resolve(head, names.of("task")).name:
        words = head  # "the netscaler task, nobody should own it for now"
    if (not words or IT.match(words)) and it_task is not None:
        return it_task
    tasks = names.of("task")
    if (not words or IT.match(words)) and tasks:
        raise _Unclear(name_it("task", "use", [f"{t}" for t in tasks]))
    owner = re.fullmatch(r"(?P<who>[a-z][\w.-]*)['’]s(?:\s+task)?", words, re.I)
    if owner and resolve_person(owner.group("who"), names).name is not None:
        # "close bob's task": a person's tasks, not one of them.
        raise _Unclear(name_it("task", "use", tasks))
    # A mention of a stored task ("the runbook") stands for its full title.
    found = resolve(words, tasks) if words else None
    if found is not None and found.name is not None and names_other(words, found.name):
        # "move the firewall review to done": "review" fits a stored title, "firewall" none
        found = Resolution(None)
    project = find_in(words, names.of("project")).name if words and tasks else None
    if found is not None and found.name is not None:
        if project is None or covered(words, found.name) >= covered(words, project):
            return found.name
    elif found is not None and found.ambiguous:
        raise _Unclear(which_of("task", found.candidates))
    elif found is not None and project is None and len(_bare(words).split()) == 1:
        # "the hunting task": one word, another form of a word of one stored title
        by_form = find_in(_bare(words), tasks)
        if by_form.name is not None:
            return by_form.name
    if project is not None:
        # "complete the VPN task": a project named where one of its tasks is meant.
        raise _Unclear(
            Clarification(
                f"{project!r} is a project. Which of its tasks do you mean?",
                tuple(tasks[:3]),
            )
        )
    linked = task_about_document(words, names) if tasks and words else None
    if linked is not None:
        return linked  # "the citrix one": the task about the document the words name
    if tasks and words and not _ID.fullmatch(words):
        # "the firewall audit task" when no task is called anything like it: ask,
        # rather than propose a change the tool can only refuse.
        asked = re.sub(r"\s+task$", "", words)
        raise _Unclear(
            Clarification(
                f"I can't find a task called {asked!r}. Which task do you mean?",
                tuple(tasks[:3]),
            )
        )
    return words or _clean(value)


def project_ref(value: str | None, names: Names, page_project: str | None) -> str | None:
    """The project the reader's words name: a stored project's name, the page's, or the words."""
    words = project_words(value)
    if words is None or THIS_PROJECT.match(f"{words} project") or words in ("this", "it"):
        return page_project
    # "the VPN project" stands for "VPN gateway hardening", as a task's mention does
    # for its title; two close projects get a question, none keeps the words.
    found = resolve(words, names.of("project"))
    if found.name is not None:
        return found.name
    if found.ambiguous:
        raise _Unclear(which_of("project", found.candidates))
    # "which blockers got resolved already in the vpn project": the words caught
    # around the name hold one stored project's rarer words.
    projects = names.of("project")
    caught = find_in(words, projects).name
    if caught is None and projects and not _ID.fullmatch(words):
        # "the data retention project" when none is called anything like it: ask, as for
        # a task, rather than act on a project the tools can only refuse.
        raise _Unclear(
            Clarification(
                f"I can't find a project called {words!r}. Which project do you mean?",
                tuple(f"In {p}" for p in projects[:3]),
            )
        )
    return caught or words


def person_ref(value: str | None, names: Names) -> str:
    """The team member the reader's words name ("me": the reader); anyone else is asked."""
    readers = names.of("reader")
    mention = _clean(value)
    found = resolve_person(mention, names, readers[0] if readers else None)
    members = names.of("member")
    if found.name is None and members and mention.casefold() not in ("me", "myself"):
        raise _Unclear(
            Clarification(
                f"{mention!r} is not on the team. Who should it go to?",
                tuple(f"Assign it to {m}" for m in members[:3]),
            )
        )
    return found.name or mention


class Refs:
    """How a plan turns the reader's words into references."""

    def __init__(
        self,
        task: Callable[[str | None], str],
        project: Callable[[str | None], str | None],
        page_project: str | None,
        on_workspace_page: bool,
        person: Callable[[str | None], str] = _clean,
        names: Names | None = None,
        page_document: str | None = None,
        page_task: str | None = None,
    ) -> None:
        self.task = task
        self.project = project
        self.page_project = page_project
        self.on_workspace_page = on_workspace_page
        self.person = person
        self.names = names or Names()
        self.page_document = page_document
        """The document whose page the reader is on ("what does this one say")."""
        self.page_task = page_task
        """The task whose page the reader is on ("what's the history on this one")."""

    def task_named(self, value: str | None) -> str | None:
        """The stored task a project-shaped reference names, or None when it may be a project.

        "status of the check point patching" names a task, not a project; "the vpn login
        hunt" a task too, its words all the task's and only one of them the project's.
        """
        words = project_words(value)
        if words is None:
            return None
        projects = self.names.of("project")
        if not projects:
            return None
        task = resolve(words, self.names.of("task")).name
        project = resolve(words, projects).name
        if task is None or (
            project is not None and covered(words, project) >= covered(words, task)
        ):
            # "details of the vpn login hunt": a task named by what it is about wins over
            # the project only some of its words are
            return None
        return task

    def blocker(self, mention: str, *, by_task: bool = False) -> str:
        """The stored blocker a mention means.

        `by_task`: the mention names the task it holds up ("unblock the check point task");
        two blockers on that task get a question.
        """
        blockers = self.names.of("blocker")
        if not blockers:
            return mention
        if not re.sub(r"\b(?:the|that|this|it|one)\b", "", mention, flags=re.I).strip():
            # "that blocker can be resolved": the one there is, or a question
            if len(blockers) == 1:
                return blockers[0]
            raise _Unclear(which_of("blocker", tuple(blockers), "Resolve"))
        if re.fullmatch(r"(?:its|the\s+task['’]s)", mention.strip(), re.I):
            # "resolve its blocker": the one on the task "it" is
            its = self.task("it")
            on_it = [b for b in blockers if self.names.display.get(b) == f"on {its}"]
            if len(on_it) == 1:
                return on_it[0]
            if len(on_it) > 1:
                raise _Unclear(which_of("blocker", tuple(on_it), "Resolve"))
        found = resolve(mention, blockers)
        if found.name is not None and not by_task:
            return found.name
        task = find_in(mention, self.names.of("task")).name
        holds = task is not None and any(
            self.names.display.get(b) == f"on {task}" for b in blockers
        )
        if task is not None and (holds or (by_task and found.name is None)):
            # the blocker on the task named; "resolve the blocker on the runbook" when nothing
            # holds the runbook up is said, never another task's blocker
            return self._on_task(task, blockers)
        return self._blocker_named(mention, found, blockers)

    def blocker_for(self, mention: str, told: str) -> str:
        """The blocker a pointer means ("so that blocker can go"), read with what was told.

        The one on the task the telling names ("legal signed off on the runbook"); a task
        told of that holds none is said, not swapped for the blocker there is.
        """
        blockers = self.names.of("blocker")
        task = find_in(told, self.names.of("task")).name if blockers else None
        if task is None or re.sub(r"\b(?:the|that|this|it|one)\b", "", mention, flags=re.I).strip():
            return self.blocker(mention, by_task=not mention.strip())
        return self._on_task(task, blockers)

    def _on_task(self, task: str, blockers: Sequence[str]) -> str:
        """The one blocker on `task` (`layer.blocker_on`); a question is raised."""
        held = blocker_on(task, blockers, self.names.display)
        if isinstance(held, Clarification):
            raise _Unclear(held)
        return held

    @staticmethod
    def _blocker_named(mention: str, found: Resolution, blockers: Sequence[str]) -> str:
        """The blocker a mention names by its own words, a question, or the words as said."""
        if found.name is not None:
            return found.name
        if found.ambiguous:
            raise _Unclear(which_of("blocker", found.candidates, "Resolve"))
        return find_in(mention, blockers).name or mention

    def mentions_workspace(self, query: str) -> bool:
        """Whether a search's words are the workspace's, not a book's.

        A stored name's words, or an advisory or technique id ("T1190", "CVE-2023-4966").
        """
        if re.search(r"\b(?:books?|novels?|authors?|reading)\b", query, re.I):
            return False
        if re.search(r"\bT\d{4}(?:\.\d{3})?\b|\bCVE-\d{4}-\d{3,}\b", query, re.I):
            return True
        kinds = ("task", "project", "blocker", "document")
        return any(find_in(query, self.names.of(kind)).name for kind in kinds)

    def task_in(self, text: str) -> str | None:
        """The one stored task a whole message names by its words, if any."""
        return find_in(text, self.names.of("task")).name

    def project_in(self, text: str) -> str | None:
        """The one stored project a whole message names by its words ("which VPN tasks")."""
        return find_in(text, self.names.of("project")).name

    def in_workspace(self) -> Refs:
        """The same references, read as if asked from a workspace page."""
        return Refs(self.task, self.project, self.page_project, True, self.person, self.names)

    def with_it(self, task: object) -> Refs:
        """The same references, where "it" means this task (named earlier in the request)."""
        if not isinstance(task, str):
            return self
        outer = self.task

        def task_ref(value: str | None) -> str:
            words = task_words(value or "")
            return task if not words or IT.match(words) else outer(value)

        return Refs(
            task_ref,
            self.project,
            self.page_project,
            self.on_workspace_page,
            self.person,
            self.names,
            self.page_document,
        )
