"""The workspace rules' blocker changes: logging a blocker, and resolving one.

Each matcher returns the call for the reader's own message, or nothing when the message is
not that change; `WorkspaceRules` (`workspace_rules.py`) tries them among its changes.
"""

from __future__ import annotations

import re

from lectern.adapters.llm.workspace_questions import CallMaker
from lectern.adapters.llm.workspace_refs import Refs, _Unclear, project_words, task_words
from lectern.adapters.understanding.layer import Clarification
from lectern.adapters.understanding.mentions import covered, resolve
from lectern.adapters.understanding.scaffold import clean as _clean
from lectern.adapters.understanding.workspace_blocker_label import (
    ENDED,
    NO_BLOCKER,
    labelled_blocker,
    says_no_blocker,
)
from lectern.adapters.understanding.workspace_parts import CHANGE_VERB
from lectern.adapters.understanding.workspace_patterns import (
    BLOCKER_VERB,
    CREATE_BLOCKER,
    IT,
    RESOLVE,
)
from lectern.adapters.understanding.workspace_recorded import recorded
from lectern.domain.assistant import ToolCall


def _reason_marked(text: str, refs: Refs) -> str:
    """A blocker put on a thing named whole, its reason run on without a colon, given one.

    "raise a blocker on phishing awareness project posters not printed": what is held up is
    a stored project's (or task's) whole name, and the words after it are the reason.
    """
    for kind, said in (("project", r"(?:\s+project)?"), ("task", r"(?:\s+task)?")):
        for name in refs.names.of(kind):
            found = re.match(
                rf"^(?P<head>{BLOCKER_VERB}\s+(?:a\s+)?(?:new\s+)?blocker\s+(?:on|for|against)\s+"
                rf"(?:the\s+)?){re.escape(name)}{said}\s+(?P<why>(?![:,;(—–-])\S.+)$",
                text,
                re.I,
            )
            if found:
                place = f"{name} project" if kind == "project" else name
                return f"{found.group('head')}{place}: {found.group('why')}"
    return _reason_after_comma(text, refs)


_COMMA_REASON = re.compile(
    rf"^(?P<v>{BLOCKER_VERB})\s+(?:a|an|one|another)?\s*(?:new\s+)?blocker\s+(?P<on>on|for|"
    r"against|to)\s+(?P<t>[^,:;]+?)\s*,\s*(?P<why>(?!(?:and|then|also|so|please|pls|can|could|"
    rf"would|{CHANGE_VERB})\b)\S[^,;]{{8,}})$",
    re.I,
)


def _reason_after_comma(text: str, refs: Refs) -> str:
    """A blocker put on a stored task by its words, the reason after a comma, given a colon.

    "kindly raise one blocker on the runbook task, legal has not shared the template yet":
    the words before the comma name a task of the reader's; what follows is why (a later
    request, "..., and assign it to bob", is none).
    """
    found = _COMMA_REASON.match(text)
    if found is None:
        return text
    words = task_words(found.group("t"))
    if not IT.match(words) and resolve(words, refs.names.of("task")).name is None:
        return text
    said = f"{found.group('v')} a blocker {found.group('on')} {found.group('t')}"
    return f"{said}: {found.group('why')}"


_SHORT_BLOCKED = re.compile(
    r"^(?P<t>[^,:;?]+?)\s+(?=(?:blocked|stuck|held\s+up)\s*(?:[:,;—–-]|\s(?:by|on|because|since)\s))",
    re.I,
)


def _blocked_said_short(text: str, refs: Refs) -> str:
    """A blocker said short ("<task> blocked, <why>"), given its verb, when a task is named.

    "netscaler review blocked, waiting on citrix support ticket": typed in a hurry, "is" is
    left out; only a stored task's name before "blocked" makes it a statement of a blocker.
    """
    short = _SHORT_BLOCKED.match(text)
    if short is None:
        return text
    said = task_words(short.group("t"))
    task = resolve(said, refs.names.of("task")).name
    if task is None or covered(said, task) < 1.0:
        return text
    return f"{short.group('t')} is {text[short.end() :]}"


class WorkspaceBlockers:
    """The blocker matchers, over the rules' call maker (`_call`)."""

    _call: CallMaker

    def _create_blocker(self, text: str, refs: Refs) -> list[ToolCall]:
        labelled = labelled_blocker(text)
        if labelled is not None and says_no_blocker(text):
            raise _Unclear(NO_BLOCKER)  # "blocker: none at the moment": nothing to record
        if labelled is not None:
            # "blocker: change board hasn't approved the window yet": a new blocker, on the
            # task the words name or the one in view; words that say one ended are asked
            if ENDED.search(labelled):
                raise _Unclear(
                    Clarification(
                        "Should I record that as a new blocker, or resolve an open one? "
                        "Say which, and on what.",
                        (),
                    )
                )
            named = refs.task_in(labelled)
            if refs.page_task is not None and (named is None or covered(labelled, named) < 1.0):
                named = None  # "new blocker - no access to the gateway console": the page's
            return [self._call("create_blocker", task_id=refs.task(named), description=labelled)]
        kept = recorded(text, refs.names)
        if kept is not None and kept.task is None and kept.project is None:
            # a telling that names no task for sure: the blocker's own shapes read it first
            # ("the drill cannot go on because ..., please register this as blocker")
            said = _blocked_said_short(text, refs)
            if CREATE_BLOCKER.match(said) or CREATE_BLOCKER.match(_reason_marked(said, refs)):
                kept = None
        if kept is not None and kept.tool == "create_blocker":
            # "the vendor went quiet on the drill, log that as a blocker": what was said
            if kept.project is not None:
                return [
                    self._call("create_blocker", project_id=kept.project, description=kept.text)
                ]
            return [
                self._call("create_blocker", task_id=refs.task(kept.task), description=kept.text)
            ]
        text = _blocked_said_short(text, refs)
        match = CREATE_BLOCKER.match(text) or CREATE_BLOCKER.match(_reason_marked(text, refs))
        if not match:
            if re.fullmatch(
                rf"(?:{BLOCKER_VERB}|new)\s+(?:a\s+)?(?:new\s+)?blocker\W*",
                text,
                re.I,
            ):
                # "add a blocker": on what, and blocked by what, are both missing
                raise _Unclear(Clarification("What is blocked, and by what?", ()))
            return []
        said = match.group("target3")
        tasks = refs.names.of("task")
        words = task_words(said or "")
        if said and tasks and not IT.match(words) and resolve(words, tasks).name is None:
            return []  # "I can't go on because I'm tired": only a task is held up
        target = _clean(match.group("target") or match.group("target2") or said)
        description = _clean(match.group("d") or match.group("d2") or match.group("d3"))
        # "add a blocker on the hunt for that: ERROR ...": the colon leads the words, is none
        description = description.lstrip(" :;,–—-")
        if match.group("until"):
            description = f"waiting until {description}"  # "can't start until we get access"
        if description.endswith(")") and "(" not in description:
            description = description[:-1].rstrip()  # the reason was said in parentheses
        description = description[0].upper() + description[1:] if description else description
        named = resolve(project_words(target) or "", refs.names.of("project")).name
        on_task = resolve(task_words(target), refs.names.of("task")).name
        if named is not None and (
            on_task is None or covered(task_words(target), named) > covered(target, on_task)
        ):
            # "blocker for phishing awareness: ...": a stored project named without the word
            target = f"{named} project"
        if re.search(r"\bproject$", target, re.I) or target.casefold() in ("we", "this project"):
            project = refs.project(target)
            if project is None:
                return []
            return [self._call("create_blocker", project_id=project, description=description)]
        return [self._call("create_blocker", task_id=refs.task(target), description=description)]

    def _resolve(self, text: str, refs: Refs) -> list[ToolCall]:
        # "close the vendor blocker too (resolution: window approved)": "too" before what
        # resolved it, and the resolution labelled as one, are neither blocker nor reason.
        text = re.sub(r"\s+(?:too|as\s+well|also)(?=\s*[(:;,—–-])", "", text, flags=re.I)
        text = re.sub(
            r"([(:;,—–-]\s*)(?:resolution|reason|resolved\s+by|fix)\s*[:=—–-]\s*",
            r"\1",
            text,
            flags=re.I,
        )
        match = RESOLVE.match(text)
        if not match:
            return []
        quoted = match.group("b7")
        if quoted and resolve(quoted, refs.names.of("blocker")).name is None:
            return []  # "close 'Patch the gateways': done": quoted words no blocker's
        said = next((match.group(g) for g in ("b", "b2", "b3", "b5", "b7") if match.group(g)), None)
        blocker = _clean(said or match.group("b4") or match.group("b6") or "")
        blocker = re.sub(r"^(?:about|on|the)\s+", "", blocker, flags=re.I)
        reasons = ("r", "r2", "r3", "r4", "r5", "r6", "r7")
        resolution = _clean(next((match.group(g) for g in reasons if match.group(g)), ""))
        resolution = resolution[0].upper() + resolution[1:] if resolution else resolution
        if re.sub(r"\b(?:the|that|this|it|one)\b", "", blocker, flags=re.I).strip():
            blocker = refs.blocker(blocker, by_task=said is None)
        else:
            # "legal signed off on the runbook, so that blocker can go": the runbook's blocker
            blocker = refs.blocker_for(blocker, resolution)
        return [self._call("resolve_blocker", blocker_id=blocker, resolution=resolution)]
