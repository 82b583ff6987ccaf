"""The workspace rules' questions: what the reader asks to see, read by pattern.

Attention, blockers, the team, tasks, a task's or a project's details, documents, projects
and searches: each matcher returns the stages of a plan (the call, then the reply written
from its result), or nothing when the message is not that question. `WorkspaceRules`
(`workspace_rules.py`) tries them after the changes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from lectern.adapters.llm.workspace_refs import Refs, _Unclear, task_words
from lectern.adapters.llm.workspace_replies import (
    _as_dict,
    _blockers_reply,
    _document_reply,
    _documents_reply,
    _project_reply,
    _projects_reply,
    _search_reply,
    _task_reply,
    _tasks_reply,
    _team_reply,
    attention_reply,
)
from lectern.adapters.understanding.layer import name_it, which_of
from lectern.adapters.understanding.mentions import (
    covered,
    find_in,
    resolve,
    resolve_person,
)
from lectern.adapters.understanding.scaffold import Done
from lectern.adapters.understanding.scaffold import clean as _clean
from lectern.adapters.understanding.slots import attention_sections_of, blocker_status_of
from lectern.adapters.understanding.workspace_document_asked import document_asked
from lectern.adapters.understanding.workspace_document_kinds import (
    called_a_document,
    only_a_source,
    without_kind,
)
from lectern.adapters.understanding.workspace_documents import document_named, said_document
from lectern.adapters.understanding.workspace_in_view import asks_of_the_task_in_view
from lectern.adapters.understanding.workspace_patterns import (
    ASSIGNED,
    ATTENTION,
    BLOCKER_QUESTION,
    BLOCKERS,
    DOCUMENT_DETAILS,
    DOCUMENTS,
    IN_PROJECT,
    IT,
    PROJECT_DETAILS,
    PROJECTS,
    SAYS,
    SEARCH,
    STATUS_WORDS,
    TASK_DETAILS,
    TASKS,
    TEAM,
    WORKSPACE_SEARCH,
)
from lectern.adapters.understanding.workspace_projects_said import (
    project_status_of,
    scoped_project,
)
from lectern.adapters.understanding.workspace_status_said import (
    each_said,
    every_project_status_asked,
    is_this,
    project_status_asked,
)
from lectern.adapters.understanding.workspace_summary_asked import summary_asked
from lectern.adapters.understanding.workspace_unsaid import pointed_at_nothing
from lectern.domain.assistant import AIResponse, ToolCall

MODEL_ID = "rules:assistant-v1"

_COMMENTS_ON = re.compile(
    r"^(?:(?:is|are|were|was)\s+there\s+)?any\s+(?:new\s+)?(?:comments?|notes?)\s+"
    r"(?:on|about|for|under|in)\s+(?P<q>.+?)"
    # "any comments on the runbook yet?": when it is asked is no part of the thing
    r"(?:\s+(?:yet|so\s+far|at\s+all|by\s+now|since|lately|recently|today))?\W*$",
    re.I,
)
"""Whether a thing has comments: of a task named whole, its details; else a search."""

_DOCUMENT_WORD = re.compile(r"\s+(?:advisory\s+)?(?:document|doc|advisory|write-?up|record)$", re.I)
"""The word that only says a document, after the words of its title."""

_GIST = (
    r"(?:(?:the\s+)?(?:tl;?\s?dr|tldr)|(?:give\s+me\s+)?(?:the\s+|a\s+)?(?:gist|short\s+version|"
    r"quick\s+summary|summary|recap|rundown|key\s+points)(?:\s+(?:of|on))?|sum\s+up|recap|"
    r"boil\s+down|break\s+down|summari[sz]e)"
)
"""A summary asked for by its everyday words ("tl;dr this", "the gist of it")."""
_ABOUT_THIS = re.compile(
    r"^(?:(?:can|could|would)\s+(?:you|u)\s+|please\s+)?"
    r"(?:(?:tell\s+me\s+(?:more\s+|a\s+bit\s+(?:more\s+)?)?about|more\s+(?:on|about)|"
    rf"what(?:'s|\s+is)\s+in|{_GIST}|explain|open|show(?:\s+me)?|read|go\s+over)\s+"
    r"(?:this|it|this\s+one|this\s+(?:document|doc|page|advisory|write-?up|cve|vuln\w*))"
    rf"|(?:the\s+)?(?:tl;?\s?dr|tldr|gist|short\s+version|quick\s+summary|summary)(?:\s+please)?)"
    r"(?:\s+(?:please|for\s+me|quickly|briefly|real\s+quick))*"
    # "summarize this for me, short version", "tl;dr this in two lines"
    r"(?:\s*[,;:–—-]?\s*(?:(?:the|a|in\s+a)\s+)?(?:short|quick|brief|one-?line|two-?line)\s+"
    r"(?:version|one|summary|form)|\s+in\s+(?:a\s+few|one|two|three|\d)\s+(?:lines?|sentences?|"
    r"words|bullets?)|\s+(?:briefly|quickly))?(?:\s+please)?\W*$",
    re.I,
)
"""A detail request pointing at the page ("tell me more about this one"): on a document's
page, that document."""

Stage = Callable[[Any], "AIResponse | list[ToolCall]"]
CallMaker = Callable[..., ToolCall]


_ANYWHERE = re.compile(
    r"\s*(?:(?:across|through|in|over)\s+(?:everything|all(?:\s+of\s+it)?|the\s+whole\s+"
    r"workspace)|everywhere|anywhere)?\W*",
    re.I,
)
"""Where a search looks when it says it looks everywhere: no narrower place."""
_ANYWHERE_AFTER = re.compile(
    r"\s+(?:(?:across|through)\s+(?:everything|all(?:\s+of\s+it)?)|everywhere|anywhere)\W*$",
    re.I,
)


_KIND_AFTER_PROJECT = re.compile(
    r"^(?:show|list|what|which|get|give)\b(?:\s+(?:me|us|all|are|the|our|of))*\s+(?P<w>.+?)\s+"
    r"(?:documents|docs|files|attachments|advisories|references)\b",
    re.I,
)
"""A listing of a project's documents with the project's words before the kind."""


_THIS_BLOCKED = re.compile(
    r"^(?:so\W+)?(?:is|are)\s+(?:this|it)(?:\s+(?:one|task))?\s+(?:still\s+|currently\s+)?"
    r"(?:blocked|held\s+up|stuck)\b(?!.*\bprojects?\b)",
    re.I,
)
"""Whether the task in view is blocked: its details, which list its blockers."""


class WorkspaceQuestions:
    """The question matchers, over the rules' call maker (`_call`)."""

    _call: CallMaker

    def _single(self, call: ToolCall, reply: Callable[[Any], str]) -> list[Stage]:
        return [lambda _: [call], lambda done: AIResponse(reply(done), model=MODEL_ID)]

    def _attention(self, text: str, refs: Refs) -> list[Stage]:
        if not ATTENTION.search(text):
            return []
        named = IN_PROJECT.search(text)
        if named and re.fullmatch(
            r"(?:all|every|each)(?:\s+(?:of\s+)?(?:the|my|our))?", named.group("p"), re.I
        ):
            named = None  # "my tasks in every project": no one project
        project = refs.project(named.group("p")) if named else scoped_project(text, refs.names)
        if project is not None and re.search(r"\b(?:my|me|i|mine)\b", text, re.I):
            # "what's on my plate in the phishing project": the summary spans every project,
            # so the reader's tasks in the one named answer it
            readers = refs.names.of("reader")
            mine = readers[0] if readers else "me"
            call = self._call("get_tasks", project_id=project, assignee_id=mine)
            return self._single(call, _tasks_reply)
        if project is not None:
            # "what's overdue in the vpn project": the summary spans every project; the one
            # named has its own counts and tasks in its details
            call = self._call("get_project_details", project_id=project)
            return self._single(call, _project_reply)
        told = attention_reply(attention_sections_of(text))
        return self._single(self._call("get_attention_summary"), told)

    def _blockers(self, text: str, refs: Refs) -> list[Stage]:
        if refs.page_task is not None and _THIS_BLOCKED.match(text):
            # "is this one blocked by anything?" on a task's page: that task's own blockers
            call = self._call("get_task_details", task_id=refs.page_task)
            return self._single(call, _task_reply)
        if not (
            BLOCKER_QUESTION.search(text)
            or re.search(r"\bholding up\b|^what(?:'?s| is) stopping\b", text, re.I)
        ):
            return []
        match = BLOCKERS.search(text)
        named = None
        if match:
            named = match.group("p1") or match.group("p2") or match.group("p3")
        # "what's holding up the phishing drill": a task's blockers are on its own page (the
        # blocker list is a project's); its name wins where a project's shares words.
        said_project = re.search(r"\bprojects?\b", text, re.I) is not None
        task = refs.task_named(named) if named and not said_project else None
        if named and task is not None:
            rival = refs.project_in(named)
            if rival is not None and covered(named, rival) >= covered(named, task):
                task = None  # "what's blocking vpn": the project's word as much as the task's
        if not named and not said_project:
            task = refs.task_in(text)
            rival = refs.project_in(text)
            if task and rival and covered(text, rival) >= covered(text, task):
                task = None  # "what's blocking vpn": the project's word as much as the task's
        if task is not None:
            return self._single(self._call("get_task_details", task_id=task), _task_reply)
        project = refs.project(named) if named else refs.project_in(text) or refs.page_project
        arguments: dict[str, Any] = {"project_id": project} if project else {}
        status = blocker_status_of(text)  # said, so asked for, not left to the default
        if status is not None:
            arguments["status"] = status
        return self._single(self._call("get_blockers", **arguments), _blockers_reply)

    def _team(self, text: str, refs: Refs) -> list[Stage]:
        if not TEAM.search(text):
            return []
        named = IN_PROJECT.search(text)
        # "list members of phishing awareness": a stored project named without the word.
        project = (
            refs.project(named.group("p")) if named else refs.project_in(text) or refs.page_project
        )
        arguments = {"project_id": project} if project else {}
        return self._single(self._call("get_team_members", **arguments), _team_reply)

    def _tasks(self, text: str, refs: Refs) -> list[Stage]:
        if PROJECT_DETAILS.match(text) and re.search(
            r"\b(?:numbers|stats|statistics|figures|counts|breakdown|tally|metrics)\b", text, re.I
        ):
            return []  # "the numbers on VPN hardening: how many tasks done?": its counts
        if not TASKS.search(text) or (
            re.search(r"\bprojects\b", text, re.I) and not re.search(r"\btasks?\b", text, re.I)
        ):
            return []
        assigned = ASSIGNED.search(text)
        someones = assigned is not None and any(
            assigned.group(g) for g in ("c", "e", "f", "g", "h", "i")
        )
        if (
            not re.search(r"\btasks\b|\b(?:every|all|each|any)\s+(?:\w+\s+)?tasks?\b", text, re.I)
            and not IN_PROJECT.search(text)
            and not someones  # "what am I working on in vpn hardening": the reader's tasks
        ):
            # "show the phishing drill task", "show me this task": one task, named or on the
            # page, is that task's details.
            # "the status of the task?" names none: the task in view, else asked which
            deictic = re.search(
                r"\b(?:this|that)\s+task\b|\bthe\s+task(?=\s*(?:please\W*)?[?.!]*$)", text, re.I
            )
            task = refs.task("this task") if deictic else refs.task_in(text)
            if task is not None:
                return self._single(self._call("get_task_details", task_id=task), _task_reply)
        arguments: dict[str, Any] = {}
        if re.search(
            r"\b(?:waiting|awaiting|up|ready|needs?|pending)\s+(?:for\s+)?review|"
            # everyday words for the state: "in revision", "being reviewed", "under review"
            r"\b(?:in|under)\s+(?:review|revision)\b|\b(?:being|getting)\s+reviewed\b",
            text,
            re.I,
        ):
            arguments["status"] = "in_review"
        for word, status in sorted(STATUS_WORDS.items(), key=lambda kv: -len(kv[0])):
            if "status" in arguments:
                break
            if word in ("open", "review", "complete"):
                continue
            if re.search(rf"\b{re.escape(word)}\b", text, re.I):
                arguments["status"] = status
                break
        who = next((g for g in assigned.groups() if g), "") if assigned else ""
        if who.casefold() in ("me", "my", "i"):
            readers = refs.names.of("reader")
            arguments["assignee_id"] = readers[0] if readers else "me"
        elif who and (
            not refs.names.of("member") or resolve_person(who, refs.names).name is not None
        ):
            # "waiting for review" names no one: only a member is an assignee
            arguments["assignee_id"] = who
        named = IN_PROJECT.search(text)
        project = (
            refs.project(named.group("p")) if named else refs.project_in(text) or refs.page_project
        )
        if project is not None:
            call = self._call("get_tasks", project_id=project, **arguments)
            return self._single(call, _tasks_reply)
        listing = self._call("get_projects")

        def each_project(done: Any) -> list[ToolCall] | AIResponse:
            listed = next(
                (
                    r
                    for c, r in zip(done.calls, done.results, strict=False)
                    if c.name == "get_projects"
                ),
                None,
            )
            projects = _as_dict(listed).get("projects")
            if not isinstance(projects, list) or not projects:
                return AIResponse("You have no projects yet.", model=MODEL_ID)
            return [
                self._call("get_tasks", project_id=_as_dict(p).get("project_id"), **arguments)
                for p in projects
            ]

        return [
            lambda _: [listing],
            each_project,
            lambda done: AIResponse(_tasks_reply(done), model=MODEL_ID),
        ]

    def _task_details(self, text: str, refs: Refs) -> list[Stage]:
        if refs.page_task is not None and refs.page_document is None and _ABOUT_THIS.match(text):
            # "tl;dr this" on a task's page: that task, as its details tell it
            call = self._call("get_task_details", task_id=refs.page_task)
            return self._single(call, _task_reply)
        if refs.page_task is not None and asks_of_the_task_in_view(text):
            # "who is this assigned to, and are there comments?": the task's details say both
            call = self._call("get_task_details", task_id=refs.page_task)
            return self._single(call, _task_reply)
        match = TASK_DETAILS.match(text)
        if not match:
            return []
        target = next(v for k, v in match.groupdict().items() if v and k.startswith("t"))
        if called_a_document(target, refs.names):
            return []  # "open the citrix netscaler kev entry": a document, not the task
        whose = match.group("t7") or match.group("t8") or match.group("t11")
        if whose:
            # "who's on phishing awareness", "who has access to the logs", "show me the
            # project details": whose a task is or its page, only of a task named by (most
            # of) its words
            found = resolve(task_words(whose), refs.names.of("task")).name
            if found is None or covered(task_words(whose), found) < 0.6:
                return []
        if match.group("t13"):
            # a stored task's words, more of them its than any project's; else not this
            named = refs.task_named(match.group("t13"))
            if named is None or covered(task_words(match.group("t13")), named) < 0.6:
                return []
            return self._single(self._call("get_task_details", task_id=named), _task_reply)
        if match.group("t12"):
            # "what's it about": the task in view only; a document's page, or none, is not this
            if refs.page_document is not None:
                return []
            try:
                task = refs.task(target)
            except _Unclear:
                return []
            return self._single(self._call("get_task_details", task_id=task), _task_reply)
        return self._single(self._call("get_task_details", task_id=refs.task(target)), _task_reply)

    def _documents(self, text: str, refs: Refs) -> list[Stage]:
        match = DOCUMENTS.match(text)
        if not match:
            return []
        project = refs.project(match.group("p")) if match.group("p") else refs.page_project
        before = _KIND_AFTER_PROJECT.match(text) if project is None else None
        if before is not None:
            # "list the vpn docs": the project named by its words before the kind
            named = refs.project_in(before.group("w"))
            project = named if named and covered(before.group("w"), named) == 1.0 else None
        if project is None:
            return []
        return self._single(self._call("get_documents", project_id=project), _documents_reply)

    def _document_details(self, text: str, refs: Refs) -> list[Stage]:
        if refs.page_document is not None and _ABOUT_THIS.match(text):
            # "tell me more about this one" on a document's page: that document
            call = self._call("get_document_details", document_id=refs.page_document)
            return self._single(call, _document_reply)
        match = DOCUMENT_DETAILS.match(text)
        says = SAYS.match(text)
        named = None if match or says else document_named(text, refs.names)
        # "what does the citrix netscaler record say, the CVE-2023-4966 one"
        named = document_asked(text, refs.names) or named
        if named is not None:
            # "pull up exploit public facing application": a document by its title's words
            call = self._call("get_document_details", document_id=named)
            return self._single(call, _document_reply)
        if match:
            target = next(v for k, v in match.groupdict().items() if v)
        elif says and not (
            re.search(r"\b(?:task|project|blocker|list|book|catalog)s?\b", says.group("d"), re.I)
            or refs.task_in(says.group("d"))
            or refs.project_in(says.group("d"))
            # "what did bob say about the gateways": a person says things in comments
            or resolve_person(says.group("d"), refs.names).name is not None
        ):
            target = says.group("d")
        else:
            return []
        # "the External Remote Services document": the title's words, not the word document
        target = without_kind(_DOCUMENT_WORD.sub("", _clean(target)) or _clean(target))
        if only_a_source(target):
            return []  # "show me the ATT&CK technique": which one is not said
        if refs.page_document is not None and re.fullmatch(
            r"(?:it|this|that|this\s+one|that\s+one|this\s+(?:document|doc|advisory|page))",
            target,
            re.I,
        ):
            # "what does this one recommend?" on a document's page: that document
            call = self._call("get_document_details", document_id=refs.page_document)
            return self._single(call, _document_reply)
        documents = refs.names.of("document")
        if refs.page_document is None and pointed_at_nothing(target):
            # "what does this document say?", "pull up that record" with no document in view:
            # which one is asked
            raise _Unclear(name_it("document", "open", [f"Open {d}" for d in documents[:3]]))
        found = find_in(target, documents) if documents else None
        if found is not None and found.name is not None:
            target = found.name  # "the CVE-2023-4966 document": its stored title
        elif found is not None and found.ambiguous:
            raise _Unclear(which_of("document", found.candidates, "Open"))
        elif (
            documents
            and refs.task_in(target)
            and covered(target, refs.task_in(target) or "") == 1.0
        ):
            return []  # "open the runbook record": a task's words, no document's
        call = self._call("get_document_details", document_id=target)
        return self._single(call, _document_reply)

    def _project_summary(self, text: str, refs: Refs) -> list[Stage]:
        """A project's summary asked with its task counts: its details, counts and all."""
        summarised = summary_asked(text)
        project = refs.project(summarised) if summarised is not None else None
        if project is None:
            return []
        return self._single(self._call("get_project_details", project_id=project), _project_reply)

    def _status_said(self, text: str, refs: Refs) -> list[Stage]:
        """A project's state asked in people's words (`workspace_status_said`)."""
        if every_project_status_asked(text):
            return self._single(self._call("get_projects"), _projects_reply)
        said = project_status_asked(text)
        if said is None:
            return []
        if is_this(said):
            # only on the project's own page; on a task's page or none: read as before
            project = refs.page_project if refs.page_task is None else None
            return self._one_project(project)
        if refs.task_named(said) is not None:
            return []  # "what's left on the runbook": a task's, read as before
        # "where are we on VPN and on phishing?": each stored project said, in order
        each = [resolve(p, refs.names.of("project")).name for p in each_said(said)]
        found = [p for p in each if p is not None]
        if len(each) < 2 or len(found) < len(each) or len(set(found)) < len(found):
            return self._one_project(resolve(said, refs.names.of("project")).name)
        calls = [self._call("get_project_details", project_id=p) for p in found]

        def reply(done: Any) -> AIResponse:
            texts = [
                _project_reply(Done(done.calls[n : n + 1], done.results[n : n + 1]))
                for n in range(len(done.results))
            ]
            return AIResponse("\n\n".join(texts), model=MODEL_ID)

        return [lambda _: calls, reply]

    def _one_project(self, project: str | None) -> list[Stage]:
        if project is None:
            return []
        return self._single(self._call("get_project_details", project_id=project), _project_reply)

    def _project_details(self, text: str, refs: Refs) -> list[Stage]:
        match = PROJECT_DETAILS.match(text)
        if not match:
            return []
        named = next((v for v in match.groupdict().values() if v), None)
        if refs.page_task is not None and named is not None and IT.match(named.strip()):
            # "what's the history on this one?" on a task's page: the task, not a project
            call = self._call("get_task_details", task_id=refs.page_task)
            return self._single(call, _task_reply)
        if not refs.names.of("project") and not re.search(r"\bproject\b", text, re.I):
            # The reader has no project to name: "details for The Goldfinch" is a book.
            return []
        task = refs.task_named(named)
        if task is not None:
            return self._single(self._call("get_task_details", task_id=task), _task_reply)
        project = refs.project(named)
        if project is None:
            return []
        return self._single(self._call("get_project_details", project_id=project), _project_reply)

    def _projects(self, text: str, refs: Refs) -> list[Stage]:
        del refs
        if not PROJECTS.search(text):
            return []
        arguments: dict[str, Any] = {}
        status = re.search(r"\b(active|on hold|completed|archived)\b", text, re.I)
        state = status.group(1).lower().replace(" ", "_") if status else project_status_of(text)
        if state:
            arguments["status"] = state
        return self._single(self._call("get_projects", **arguments), _projects_reply)

    def _search(self, text: str, refs: Refs) -> list[Stage]:
        asked = _COMMENTS_ON.match(text)
        said = task_words(asked.group("q")) if asked else ""
        task = refs.task_in(said) if said else None
        project = refs.project_in(said) if said else None
        if (
            task is not None
            and covered(said, task) == 1.0
            and (project is None or covered(said, task) > covered(said, project))
        ):
            # "any notes on the drill task?": a task's comments are in its details
            return self._single(self._call("get_task_details", task_id=task), _task_reply)
        document = said_document(asked.group("q")) if asked else None
        if document is not None and (task is None or covered(said, task) < 1.0):
            # "any comments on the T1133 document?", "... on the checkpoint gateway vuln doc?":
            # a document's comments are in its details (a task's words said with others and
            # the word "doc" are the document's)
            found = find_in(document, refs.names.of("document")).name
            call = self._call("get_document_details", document_id=found or document)
            return self._single(call, _document_reply)
        match = SEARCH.match(text)
        if not match:
            return []
        query = _clean(match.group("q"))
        quoted = re.fullmatch(r"\s*[\"“'‘](?P<q>[^\"”'’]+)[\"”'’](?P<where>.*)", match.group("q"))
        if quoted and _ANYWHERE.fullmatch(quoted.group("where")):
            query = quoted.group("q")  # "look up 'remote access' everywhere": the quoted words
        query = _ANYWHERE_AFTER.sub("", query)
        query = re.sub(r"^(?:the|our|any)\s+", "", query, flags=re.I)
        if (
            not query
            or IT.match(query)
            or not (
                refs.on_workspace_page
                or WORKSPACE_SEARCH.search(text)
                or refs.mentions_workspace(query)
                or re.match(r"^(?:where|is|was)\b", text, re.I)
            )
        ):
            return []
        arguments: dict[str, Any] = {"query": query}
        named = match.group("p") or match.group("p0")
        project = refs.project(named) if named else None
        if project:
            arguments["project_id"] = project
        return self._single(self._call("search_content", **arguments), _search_reply)
