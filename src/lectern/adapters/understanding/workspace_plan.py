"""Workspace requests the patterns missed, read by meaning and filled from the message.

Given the intent the layer read, the slots come from the message (people, statuses,
priorities, comment text, titles) and the task, blocker or project from the names the reader
may see (`mentions.py`), with the page's task or project as the default referent ("this",
"it"). A request whose referent is missing or ambiguous gets a question, never a guess.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from rapidfuzz import fuzz

from lectern.adapters.understanding.layer import (
    Clarification,
    blocker_on,
    name_it,
    which_of,
)
from lectern.adapters.understanding.mentions import (
    Names,
    covered,
    find_in,
    resolve,
    resolve_person,
)
from lectern.adapters.understanding.scaffold import clean
from lectern.adapters.understanding.slots import (
    blocker_status_of,
    comment_of,
    due_date_of,
    priority_of,
    status_of,
    without_status,
)
from lectern.adapters.understanding.workspace_blocker_label import (
    KEEP_AS_BLOCKER,
    NO_BLOCKER,
    new_blocker_said,
    says_no_blocker,
    still_holds,
    told_after_name,
)
from lectern.adapters.understanding.workspace_cleared_told import without_go_ahead
from lectern.adapters.understanding.workspace_documents import said_document
from lectern.adapters.understanding.workspace_people import person_in
from lectern.adapters.understanding.workspace_projects_said import (
    project_status_of,
    scoped_project,
    unknown_project,
)
from lectern.adapters.understanding.workspace_quoted import names_unquoted
from lectern.adapters.understanding.workspace_register import stored_blocker_quoted
from lectern.adapters.understanding.workspace_shorthand import spelt_out
from lectern.adapters.understanding.workspace_unassign import unassign_said
from lectern.domain.assistant import ToolCall

CallMaker = Callable[..., ToolCall]
_DEICTIC = re.compile(r"\b(?:this|it|that)(?:\s+(?:one|task|project|blocker))?\b", re.I)
_TITLES = tuple(
    re.compile(pattern, re.I)
    for pattern in (
        r"[\"“'‘](?P<q>[^\"”'’]+)[\"”'’]",
        # "we need someone to update the MFA policy": the work that needs doing
        r"\b(?:need|needs|want|wants)\s+(?:someone|somebody|one\s+of\s+us|a\s+person)\s+to\s+"
        r"(?P<n>.+?)(?=\s*(?:,|\band\b|\bcan you\b|$))",
        r":\s*(?P<a>[^,]+?)(?=,|[.!]\s|\s+and\s+assign|$)",
        r"\b(?:called|named)\s+(?P<c>.+?)(?=\s+(?:in|for|and|due)\b|$)",
        r"\b(?:task|todo|to-do)\s+(?:to|for)\s+(?P<t>.+?)(?=\s+(?:in the|and|,|-)\b|\s+in\s+\w+\s+"
        r"(?:project|awareness|hardening)|$)",
        r"\b(?:to|for)\s+(?P<t2>[a-z].+?)(?=\s*(?:,|-|\band\b|\bcan you\b|\bmake it\b|$))",
    )
)
"""Where a new task's title stands, clearest marker first: quotes, a colon, "called", "task
to/for", "to/for" ("add an urgent task to the VPN project: Disable legacy SSL ciphers")."""


_READING = re.compile(
    r"^(?:any|are there|is there|what|which|who|show|list|read|see|has|have|did|does)\b|"
    r"\?(?:\s|$)|"
    # "there's a new comment on the patch task, what does it say": asked after a telling
    r"\bwhat\s+(?:does|did|do)\s+(?:it|that|they|he|she|the\s+comments?|[a-z]+)\s+(?:say|said|"
    r"write|mean)\W*$",
    re.I,
)
"""A message that asks to see (comments, history), not to write ("has Bob written anything
on the patch task? he mentioned a lab test": a question, then a remark)."""

_ISO_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")


@dataclass(frozen=True, slots=True)
class Where:
    """What the page gives: the task and project "this" and "it" mean."""

    task: str | None
    project: str | None
    reader: str | None
    document: str | None = None
    """The document whose page the reader is on ("what does this one say")."""


def _without(text: str, *patterns: str) -> str:
    for pattern in patterns:
        text = re.sub(pattern, " ", text, flags=re.I)
    return " ".join(text.split())


def _task(text: str, names: Names, where: Where, action: str) -> str | Clarification:
    """The task the message names, the page's when it says "this"/"it" or names none."""
    # with a task in view, what is single-quoted is what is said ("comment 'ready for bob to
    # check'"), not a task's name; with none, a quoted title may be the task ("rename 'X'")
    quote = r"[\"“]|(?<!\w)['‘](?=[^'’]+['’](?!\w))" if where.task is not None else r"[\"“]"
    mention = re.split(rf":|\b(?:that|saying)\b|{quote}", text, maxsplit=1)[0]
    mention = re.sub(r"\bto\s+(?:me|[a-z]+)\s*$", "", mention, flags=re.I)
    tasks = names.of("task")
    found = find_in(mention, tasks)
    if found.name is not None:
        return found.name
    if found.ambiguous:
        return which_of("task", found.candidates, action)
    if where.task is not None and _DEICTIC.search(mention):
        return where.task  # "let bob take it over": the task in view, whatever else is said
    linked = task_about_document(mention, names)
    if linked is not None:
        return linked
    if where.task is not None:
        return where.task
    return name_it("task", action.lower() or "use", [f"{action} {t}" for t in tasks])


def _says_a_word_of(mention: str, name: str) -> bool:
    """Whether the mention holds a whole word of the name, spelt (nearly) alike.

    A matched prefix is not enough here: "take it over" does not name "Buffer Overflow".
    """
    said = re.findall(r"[a-z][a-z0-9-]{3,}", mention.casefold())
    words = re.findall(r"[a-z][a-z0-9-]{3,}", name.casefold())
    return any(
        a == b or (min(len(a), len(b)) >= 5 and fuzz.ratio(a, b) >= 85) for a in said for b in words
    )


def task_about_document(mention: str, names: Names) -> str | None:
    """The one task whose title points at the document a mention names, if any.

    "give bob the citrix one": "citrix" is in no task's title but in one linked document's,
    and one task's title ("Review NetScaler session tokens") points at that document by
    its rarer words. Two such tasks, or none, name nothing.
    """
    documents = names.of("document")
    document = find_in(mention, documents).name if documents else None
    if document is None or not _says_a_word_of(mention, document):
        return None
    about = [t for t in names.of("task") if find_in(t, documents).name == document]
    return about[0] if len(about) == 1 else None


def _project(text: str, names: Names, where: Where) -> str | None:
    for project in names.of("project"):
        words = [w for w in project.casefold().split() if len(w) >= 3]
        if any(w in text.casefold() for w in words) or project.casefold() in text.casefold():
            return project
    return where.project


def base_form(word: str) -> str:
    """The verb of a gerund that leads a title; other words as they are.

    "reviewing" -> "review", "updating" -> "update", "setting" -> "set". No dictionary: a
    doubled last consonant is one; a stem ending as "updat", "writ", "schedul", "configur"
    or "clos" ends in "e" (English spelling's silent e).
    """
    lower = word.casefold()
    if not lower.endswith("ing") or len(lower) < 6:
        return word
    stem = word[:-3]
    if len(stem) >= 3 and stem[-1] == stem[-2] and stem[-1].casefold() not in "lsz":
        return stem[:-1]
    silent_e = r"(?:[^aeiou](?:at|ut|iz|is|ov|ur|ar|ul|os|us|ag|uc|ac|ir|iv|ak)|rg|rc|dg|vit|nit)$"
    # "writ(e)", "cit(e)", but "audit", "edit", "limit"
    if re.search(silent_e, stem, re.I) or re.fullmatch(r"(?:wr|c|b|sp|qu|sm|sl)it", stem, re.I):
        return stem + "e"
    return stem


def _title(text: str, names: Names | None = None) -> str | None:
    for found in (m for m in (p.search(text) for p in _TITLES) if m):
        title = clean(next((g for g in found.groups() if g), ""))
        title = re.sub(r"^(?:the\s+team\s+to\s+)", "", title, flags=re.I)
        if names is not None and resolve_person(title, names).name is not None:
            continue  # "a task for bob": who it is for, not what it is
        if names is not None and _only_a_place(title, names):
            continue  # "a new task in the vpn project": where it goes, not what it is
        if _ONLY_ASKS_FOR_A_TASK.fullmatch(title):
            continue  # "would it be ok to add a new task?": the request, not its title
        first, _, rest = title.partition(" ")
        title = " ".join(w for w in (base_form(first), rest) if w)
        return title[:1].upper() + title[1:] if title else None
    return None


_ONLY_ASKS_FOR_A_TASK = re.compile(
    r"(?:(?:add|create|make|open|log|start|set\s+up)\s+)?(?:a|an|one|another|one\s+more)?\s*"
    r"(?:new\s+|fresh\s+|extra\s+)?(?:task|todo|to-do|ticket|item)(?:\s+(?:please|pls|for\s+me))?\W*",
    re.I,
)
"""A new task's "title" that only says a task is wanted ("add a new task")."""


def _only_a_place(title: str, names: Names) -> bool:
    """Whether a new task's title is only a stored project's name ("the vpn project")."""
    place = re.fullmatch(
        r"(?:(?:to|in|into|for|under|on)\s+)?(?:the\s+|my\s+|our\s+)?(?P<p>.+?)(?:\s+project)?\W*",
        title,
        re.I,
    )
    if place is None:
        return False
    project = resolve(place.group("p"), names.of("project")).name
    return project is not None and covered(place.group("p"), project) == 1.0


_REASON = re.compile(
    r"(?:[,:;(—–-]|[.?!]\s+(?=[A-Za-z])|\b(?:because|since|as|now\s+that|after)\b)\s*"
    r"(?P<after>[^,:;()?]{3,}?)\)?\W*$|"
    r"^(?P<before>.{3,}?),?\s+so\b",
    re.I,
)


def _reason(text: str) -> str:
    """What a resolution says happened: after a comma, "because" or a sentence, or before ", so".

    "close the window blocker? The vendor confirmed it.": the sentence after the request.
    """
    found = _REASON.search(text)
    if not found:
        return ""
    return clean(found.group("after") or found.group("before"))


_ASKS_TO_RESOLVE = re.compile(
    r"^(?:(?:so|and|then)\s+)?(?:please\s+|pls\s+|(?:can|could|would)\s+you\s+)?(?:resolve|close|"
    r"clear|lift|remove|unblock|mark)\b",
    re.I,
)
"""A clause that asks for the resolution rather than saying what resolved it."""


def _says_something(said: str) -> bool:
    """Whether a resolution holds words beyond pointing at the blocker ("that blocker please")."""
    pointing = r"\b(?:the|that|this|it|blocker|one|please|pls|now|too|with|as)\b|\W"
    return bool(re.sub(pointing, "", said, flags=re.I))


def _told_beside_request(text: str) -> str:
    """What happened, beside the clause asking to resolve ("the part came - lift the blocker")."""
    # "mw confirmed for thu, resolve the blocker": a request with no words of its own after
    ask = _ASKS_TO_RESOLVE.pattern.lstrip("^") + r"[^,;.]*?\bblocker(?:\s+(?:please|now))?\W*$"
    clauses = re.split(
        rf"\s+[-–—]\s+|\s*[;:]\s*|(?<=[.!?])\s+|,\s+(?=so\b|{ask})", text, flags=re.I
    )
    told = [
        clean(c) for c in clauses if not _ASKS_TO_RESOLVE.search(clean(c)) and len(clean(c)) >= 3
    ]
    return told[-1] if told else ""


def _relative_due(text: str, now: datetime | None, *, moved: bool = False) -> str | None:
    return None if now is None else due_date_of(text, now, moved=moved)


_REOPENED = re.compile(
    r"\bre-?open(?:ed)?\b|\bback\s+to\s+(?:todo|to\s*-?\s*do|open)\b|\bun-?(?:done|complete)\b",
    re.I,
)
"""A task asked back to its start: never a completion, whatever else the message says."""
_DONE_BY = re.compile(
    r"\b(?:needs?|needed|wants?|wanted|has\s+to|have\s+to|must|should|got\s+to|gotta|to\s+be|get)\b"
    r"[^.?!]{0,40}?\b(?:done|finished|complete[d]?)\s+(?:by|before|until|till|no\s+later\s+than)\b",
    re.I,
)
""""we need the runbook done by friday": when it is due, not that it is done ("bob had the
runbook done by monday, close it out" is a completion: nothing there is needed)."""
_NOT_DONE = re.compile(
    r"\b(?:isn['’]?t|is\s+not|not|never|hasn['’]?t\s+been|wasn['’]?t)\s+(?:\w+\s+)?"
    r"(?:done|finished|complete[d]?|closed)\b",
    re.I,
)
"""Done said not to be so ("isn't actually done", "we never finished it")."""
_CHANGES_OF_A_TASK = frozenset({"assign_task", "complete_task", "update_task"})
_NEW_TASK = re.compile(
    r"\b(?:add|create|make|open\s+up|set\s+up|log)\s+(?:a\s+|an\s+|one\s+more\s+|another\s+)?"
    r"(?:new\s+)?task\b|\bnew\s+task\b",
    re.I,
)
"""A message asking for a task that is not there yet ("add task in VPN project ...")."""


def plan_workspace(
    intent: str,
    text: str,
    names: Names,
    where: Where,
    call: CallMaker,
    now: datetime | None = None,
) -> list[ToolCall] | Clarification | None:
    """The calls for `intent` read from `text`, a question, or None (not a workspace tool).

    `now` reads relative due dates ("by Friday", "push it to next week"); without it only
    dates written as YYYY-MM-DD are read.
    """
    text = spelt_out(text)
    arguments: dict[str, Any] = {}
    if intent in _CHANGES_OF_A_TASK and _NEW_TASK.search(text):
        # "add task in VPN project, ..., assign to alice" read as an assignment would change
        # a task the message never named: a new task was asked for, so ask what it is.
        return Clarification(
            "Should I create a new task? Tell me its title and project, in quotes if you can.",
            (),
        )
    if intent != "create_task" and (asked := unknown_project(text, names)) is not None:
        return asked
    if intent == "get_attention_summary" and where.reader is not None:
        scope = scoped_project(text, names)
        if scope is not None and re.search(r"\b(?:my|me|i|mine)\b", text, re.I):
            # "what have I got on in phishing awareness": the summary spans every project,
            # so the reader's tasks in the one named answer it
            return [call("get_tasks", project_id=scope, assignee_id=where.reader)]
        if scope is not None:
            # "anything late in phishing awareness?": the project named, in its details
            return [call("get_project_details", project_id=scope)]
    if intent == "get_projects" and (state := project_status_of(text)) is not None:
        return [call(intent, status=state)]
    if intent in ("get_attention_summary", "get_projects"):
        return [call(intent)]
    if intent in ("get_project_details", "get_tasks", "get_documents"):
        one = find_in(text, names.of("task")).name
        if intent == "get_tasks" and one and re.search(r"\btask\b", text, re.I):
            # "who has worked on the phishing drill task?": one task named, its details
            return [call("get_task_details", task_id=one)]
        project = _project(text, names, where)
        if project is None and intent == "get_tasks" and status_of(text) == "in_review":
            # "what's waiting in review": across every project, as the summary tells it
            return [call("get_attention_summary")]
        if project is None:
            return name_it("project", "look at")
        arguments["project_id"] = project
        if intent == "get_tasks":
            # "what's bob working on": whose tasks, not a state (his open work is todo too)
            status = status_of(re.sub(r"\bworking\s+on\b", " ", text, flags=re.I))
            if status is not None:
                arguments["status"] = status
            if re.search(r"\b(?:my|mine)\b", text, re.I) and where.reader:
                arguments["assignee_id"] = where.reader
            else:
                person = person_in(text, names, None)
                # the reader is a filter only when named ("tasks for alice", said by alice)
                by_name = person is not None and re.search(rf"\b{re.escape(person)}\b", text, re.I)
                if person is not None and (person != where.reader or by_name):
                    arguments["assignee_id"] = person
        return [call(intent, **arguments)]
    if intent in ("get_blockers", "get_team_members"):
        project = _project(text, names, where)
        if project is not None:
            arguments["project_id"] = project
        # "show the resolved blockers": the ones that ended (the tool's default is open).
        if intent == "get_blockers" and blocker_status_of(text) == "resolved":
            arguments["status"] = "resolved"
        return [call(intent, **arguments)]
    if intent == "search_content":
        query = clean(
            _without(
                text,
                r"^(?:search|find|look\s+(?:for|up)|where did we (?:talk|discuss))"
                r"\s+(?:the\s+project\s+for\s+|for\s+|about\s+|anything\s+(?:mentioning|"
                r"about)\s+|in\s+our\s+notes\s+)?",
                r"\bin our notes\b",
            )
        )
        return [call(intent, query=query or text)]
    if intent == "get_document_details":
        # "show me the T1133 doc", "what does the Citrix advisory say": a linked document's
        # title by its rarer words; the page's document when the message names none.
        documents = names.of("document")
        named = find_in(text, documents)
        if named.name is not None:
            return [call(intent, document_id=named.name)]
        if named.ambiguous:
            return which_of("document", named.candidates, "Open")
        if where.document is not None:
            return [call(intent, document_id=where.document)]
        said = said_document(text)
        if said is not None and not documents:
            # documents not listed by name: the tool matches the title by the words said
            return [call(intent, document_id=said)]
        return name_it("document", "open", [f"Open {d}" for d in documents])
    if intent == "get_task_details":
        task = _task(text, names, where, "Show")
        return task if isinstance(task, Clarification) else [call(intent, task_id=task)]
    if intent == "complete_task":
        task = _task(text, names, where, "Complete")
        if isinstance(task, Clarification):
            return task
        deadline = due_date_of(text, now) if now is not None and _DONE_BY.search(text) else None
        if deadline is not None:
            return [call("update_task", task_id=task, due_date=deadline)]
        if _NOT_DONE.search(text) and not _REOPENED.search(text):
            # "the runbook isn't actually done": a state denied is no completion
            return Clarification(
                "That sounds like it isn't done. Should I leave it as it is, or reopen it?",
                ("Leave it as it is", "Reopen it"),
            )
        if _REOPENED.search(text):
            # "we never finished the drill, can you reopen it": its opposite, read by meaning
            # near "finished"
            return [call("update_task", task_id=task, status="todo")]
        return [call(intent, task_id=task)]
    if intent == "assign_task":
        task = _task(text, names, where, "Assign")
        if isinstance(task, Clarification):
            return task
        person = person_in(text, names, where.reader, owners=False)
        if person is None and (priority_of(text) or status_of(text)):
            # "bob's patch doesn't need to be high anymore, drop it to medium": whose task it
            # is named, and a new value for it: a change of the task, no one to hand it to
            return plan_workspace("update_task", text, names, where, call, now)
        unassigned = unassign_said(text) if person is None else None
        if unassigned == "refused":
            shown = task if task in names.of("task") else "it"  # the page's task is its id
            return Clarification(f"All right, I won't unassign {shown}: nothing has changed.", ())
        if unassigned == "asked":
            # "nobody owns this for now, unassign it": no one is its assignee (the tool's null)
            return [call(intent, task_id=task, assignee_id=None)]
        if person is None:
            return Clarification(
                "Who should I assign it to?",
                tuple(f"Assign it to {m}" for m in names.of("member")[:3]),
            )
        return [call(intent, task_id=task, assignee_id=person)]
    if intent == "update_task":
        task = _task(without_status(text), names, where, "Change")
        if isinstance(task, Clarification):
            return task
        renamed = re.search(r"\brename\b.*?\bto\s+(?P<title>.+)$", text, re.I)
        if renamed:
            return [call(intent, task_id=task, title=clean(renamed.group("title")))]
        priority = priority_of(text)
        status = None if priority else status_of(text)
        if status == "done" and _DONE_BY.search(text):
            status = None  # "can we get the runbook done by next friday": a deadline
        due = _ISO_DATE.search(text)
        when = due.group(0) if due else _relative_due(text, now, moved=True)
        if priority is None and status is None and when is not None:
            # "the deadline slipped, new due date is 2026-12-05", "push it to next friday"
            return [call(intent, task_id=task, due_date=when)]
        if priority is None and status is None:
            return Clarification("What should I change: its status, priority or due date?", ())
        key, value = ("priority", priority) if priority else ("status", status)
        # "shift the deadline to monday and bump it to high": both fields, not the first read
        dated = {"due_date": when} if when is not None else {}
        return [call(intent, task_id=task, **{key: value}, **dated)]
    if intent == "add_comment":
        # "put a comment on 'Hunt for unusual VPN logins' saying ...": the quoted words are the
        # task's name, what follows "saying" is the comment
        text = names_unquoted(text, names)
        content = comment_of(text)
        if not content and _READING.search(text):
            # "any comments on this one?": a question about the comments, not a new one
            task = _task(text, names, where, "Show")
            return (
                task
                if isinstance(task, Clarification)
                else [call("get_task_details", task_id=task)]
            )
        task = _task(text, names, where, "Comment on")
        if isinstance(task, Clarification):
            return task
        if not content:
            return Clarification("What should the comment say?", ())
        return [call(intent, task_id=task, content=content[:1].upper() + content[1:])]
    if intent == "create_task":
        title = _title(text, names)
        if not title:
            return Clarification("What should the new task be called?", ())
        arguments["title"] = title
        project = _project(text, names, where)
        if project is not None:
            arguments["project_id"] = project
        person = person_in(text, names, where.reader)
        if re.search(r"\b(?:give it to me|for me|to me)\b", text, re.I) and where.reader:
            person = where.reader
        if person is not None and re.search(
            rf"\b(?:assign\w*|give|for|to)\b.*\b{re.escape(person)}\b|\bme\b", text, re.I
        ):
            arguments["assignee_id"] = person
        priority = priority_of(text)
        if priority is not None:
            arguments["priority"] = priority
        when = _relative_due(text, now)
        if when is not None and "due_date" not in arguments:
            arguments["due_date"] = when
        return [call(intent, **arguments)]
    if intent in ("create_blocker", "resolve_blocker") and says_no_blocker(text):
        return NO_BLOCKER  # "blocker: nope, all good": none holds, none is recorded
    if intent == "create_blocker":
        # "we're stuck waiting on legal, log that as a blocker": the request is no reason
        text = KEEP_AS_BLOCKER.sub("", text) or text
        found = re.search(
            r"(?::|\s[-–—]\s|\bby\b|\buntil\b|\bwaiting (?:for|on)\b|\bon\b.*?:)\s*(?P<d>.+)$",
            text,
            re.I,
        )
        description = clean(found.group("d")) if found else ""
        if not description:
            return Clarification("What is it blocked by?", ())
        quoted = stored_blocker_quoted(text, names)  # "the exception 'X' was raised by ..."
        if quoted is not None:
            return Clarification(
                f"'{quoted}' is already recorded as a blocker. Should I resolve it (and with "
                "what resolution), or record a new one?",
                (),
            )
        # "hold up the drill task - the venue fell through": the task named before the reason
        # (not a project named there, nor a task "it" means that the message has just made)
        head = text[: found.start()] if found else text
        held = find_in(head, names.of("task")).name
        place = find_in(head, names.of("project")).name
        if held is not None and place is not None and covered(head, place) >= covered(head, held):
            held = None
        if where.task is not None and _DEICTIC.search(text):
            arguments["task_id"] = where.task
        elif held is not None and not _DEICTIC.search(text):
            arguments["task_id"] = held
        if "task_id" not in arguments and where.task is not None:
            named_project = _project(text, names, Where(None, None, where.reader))
            if named_project is None:
                arguments["task_id"] = where.task  # nothing named: the task whose page it is
        project = _project(text, names, where)
        if project is not None and "task_id" not in arguments:
            arguments["project_id"] = project
        if not arguments:
            # neither a task nor a project is named or in view: what is held up is asked
            return name_it(
                "task", "record the blocker on", [f"Block {t}" for t in names.of("task")]
            )
        return [call(intent, description=description[:1].upper() + description[1:], **arguments)]
    if intent == "resolve_blocker" and new_blocker_said(text):
        # "blocker: the change board hasn't approved it": a new blocker, said as one; an
        # open blocker is resolved only when the message says it ended
        return plan_workspace("create_blocker", text, names, where, call, now)
    if intent == "resolve_blocker" and still_holds(text):
        # "the change board still hasn't approved the window, note that": nothing ended
        return Clarification(
            "That sounds like it is still held up. Should I record it as a new blocker (on "
            "which task), or resolve an open one?",
            (),
        )
    if intent == "resolve_blocker":
        blockers = names.of("blocker")
        found_blocker = find_in(text.split(":")[0], blockers)
        if found_blocker.name is None:
            told = find_in(text, names.of("task")).name
            # "resolve the blocker on the runbook": the runbook's, never another task's
            holding = blocker_on(told, blockers, names.display) if told is not None else None
            if isinstance(holding, Clarification):
                return holding
            if holding is not None:
                found_blocker = type(found_blocker)(holding)
            elif len(blockers) == 1 and re.search(r"\bblocker\b", text, re.I):
                found_blocker = type(found_blocker)(blockers[0])
            else:
                return name_it("blocker", "resolve", [f"Resolve {b}" for b in blockers])
        # "window got scheduled for sat 02:00, yep do it": the go-ahead is no resolution
        told = without_go_ahead(text)
        resolution = comment_of(told) or _reason(told) or (clean(told) if told != text else "")
        if resolution and (_ASKS_TO_RESOLVE.search(resolution) or not _says_something(resolution)):
            # "the part arrived - please lift the blocker": the request is not what happened,
            # nor is "blocker" after the "that" of "close that blocker"
            resolution = _told_beside_request(text)
        if not resolution:
            # "resolve the blocker about the vendor window we got a slot on the 7th": run on
            resolution = told_after_name(text, found_blocker.name or "")
        if not resolution:
            # "resolve the blocker": what resolved it is the record's point; ask for it
            return Clarification(
                f"What resolved '{found_blocker.name}'? I'll record it with the blocker.", ()
            )
        return [call(intent, blocker_id=found_blocker.name, resolution=resolution)]
    return None
