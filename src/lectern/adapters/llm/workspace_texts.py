"""The workspace rules' changes that carry the reader's words: a comment, a title, a description.

Each matcher returns the call for the reader's own message, or nothing when the message is
not that change; `WorkspaceRules` (`workspace_rules.py`) tries them among its changes. A
comment's words are the reader's (cleaned of quotes, given a capital and a full stop);
"the rollout went fine, note that on the runbook" makes what was said the comment.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from lectern.adapters.llm.workspace_questions import MODEL_ID, CallMaker
from lectern.adapters.llm.workspace_refs import _ID, Refs, _Unclear
from lectern.adapters.llm.workspace_replies import _summary
from lectern.adapters.understanding.layer import Clarification
from lectern.adapters.understanding.mentions import resolve_person
from lectern.adapters.understanding.scaffold import clean as _clean
from lectern.adapters.understanding.workspace_patterns import COMMENT, DESCRIBE, RENAME_TASK
from lectern.adapters.understanding.workspace_recorded import kept_on_some_task, recorded
from lectern.adapters.understanding.workspace_run_on import run_on_comment
from lectern.adapters.understanding.workspace_unsaid import described
from lectern.domain.assistant import AIResponse, ToolCall


class WorkspaceTexts:
    """The comment, rename and description matchers, over the rules' call maker (`_call`)."""

    _call: CallMaker

    def _rename(self, text: str, refs: Refs) -> list[ToolCall]:
        match = RENAME_TASK.match(text)
        if not match:
            return []
        target = match.group("t") or match.group("t2") or match.group("t3")
        return [
            self._call("update_task", task_id=refs.task(target), title=_clean(match.group("title")))
        ]

    def _describe(self, text: str, refs: Refs) -> list[ToolCall]:
        match = DESCRIBE.match(text)
        said = None if match else described(text)
        if said is None and not match:
            return []
        target = match.group("t") if match else said.task if said else None
        words = match.group("d") if match else said.description if said else None
        task = refs.task(target)
        if not words:
            # "add a description to the runbook": what it should say is the change; ask
            shown = task if not _ID.fullmatch(task) else "it"
            raise _Unclear(Clarification(f"What should the description of {shown!r} say?", ()))
        return [self._call("update_task", task_id=task, description=_clean(words))]

    def _comment(self, text: str, refs: Refs) -> list[ToolCall]:
        if kept_on_some_task(text):
            raise _Unclear(
                Clarification(
                    "Which task is it on, and should I add it as a comment or a blocker?",
                    tuple(refs.names.of("task")[:3]),
                )
            )
        kept = recorded(text, refs.names)
        if kept is not None and kept.tool == "add_comment":
            # "the rollout went fine, note that on the runbook": what was said is the comment
            content = kept.text if kept.text.endswith((".", "!", "?")) else f"{kept.text}."
            return [self._call("add_comment", task_id=refs.task(kept.task), content=content)]
        match = COMMENT.match(text)
        if not match:
            # "comment on the check point patch two of four gateways done": no colon between
            run_on = run_on_comment(text, refs.names.of("task"))
            if run_on is None:
                return []
            return [self._call("add_comment", task_id=run_on.task, content=_said(run_on.content))]
        told = match.group("w10") or match.group("w11") or match.group("w12")
        if (
            told
            and told.casefold() not in ("him", "her", "them")
            and resolve_person(told, refs.names).name is None
        ):
            return []  # "update the drill on ...": only a person is told
        target = next(
            (
                match.group(g)
                for g in ("t", "t3", "t4", "t6", "t8", "t9", "t10", "t12")
                if match.group(g)
            ),
            None,
        )
        said = ("c", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9", "c10", "c11", "c12")
        # "... saying, three of the five are patched": the comma after "saying" leads it
        content = _clean(next((match.group(g) for g in said if match.group(g)), ""))
        content = content.lstrip(" ,;:–—-").strip()
        if not content:
            return []
        return [self._call("add_comment", task_id=refs.task(target), content=_said(content))]


def _said(content: str) -> str:
    """A comment's words as written down: a capital first and a full stop last."""
    content = content[0].upper() + content[1:]
    return content if content.endswith((".", "!", "?")) else f"{content}."


_ADDED = re.compile(
    r"\b(?:also|too|as\s+well|in\s+addition|additionally)\b"
    r"|\b(?:add|append)\b[^.?!]{0,40}\b(?:to|onto)\s+(?:the\s+|its\s+)?description\b",
    re.I,
)
"""A description said as an addition ("should also say ...", "add to its description ...")."""
_TOO_SET_APART = re.compile(r"\s*[,;(–—-]\s*(?:too|as\s+well|also)\W*$", re.I)
"""A "too" the reader set apart after the words ("..., too"): the request's, not the text's."""


def _addition_asked(text: str, words: str) -> bool:
    """Whether the request (not the words it says) asks to add to the description.

    "should also say X", "add to the description: X", "X, too", "should mention X" add;
    "change the description to: check the VPN logs as well as the Citrix logs" replaces:
    its "as well" is the new words'.
    """
    said = described(text)
    if said is not None and said.added:
        return True  # "the description of the hunt should mention the Citrix logs"
    if _TOO_SET_APART.search(words):
        return True
    key = words.strip().rstrip(".!").casefold()
    at = text.casefold().rfind(key) if key else -1
    if at < 0:
        return bool(_ADDED.search(text))
    after = text[at + len(key) :]
    return bool(_ADDED.search(text[:at]) or _TOO_SET_APART.match(after))


def added_to_description(text: str, calls: Sequence[ToolCall], call: CallMaker) -> list[Any]:
    """Stages that add the words to the task's description, or [] when it is not an addition.

    `update_task` replaces a description: "the description of the hunt should also say to
    check the Citrix logs" proposed the new words alone, so approving it would have dropped
    what the description said. The task is looked up first (a look-up changes nothing) and
    the change proposed is its description with the words after it.
    """
    if len(calls) != 1 or "description" not in calls[0].arguments:
        return []
    words = str(calls[0].arguments["description"])
    if not _addition_asked(text, words):
        return []
    words = _TOO_SET_APART.sub("", words)  # "..., too": no word of the description
    task = str(calls[0].arguments["task_id"])
    look = call("get_task_details", task_id=task)

    def appended(done: Any) -> list[ToolCall]:
        result = done.results[-1] if done.results else None
        record = result.get("task") if isinstance(result, dict) else None
        record = record if isinstance(record, dict) else {}
        before = str(record.get("description") or "").rstrip()
        whole = f"{before}\n\n{words}" if before and words not in before else before or words
        return [call("update_task", task_id=str(record.get("task_id") or task), description=whole)]

    return [lambda _: [look], appended, lambda done: AIResponse(_summary(done), model=MODEL_ID)]
