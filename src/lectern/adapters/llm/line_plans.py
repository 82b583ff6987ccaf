"""A message set out in lines, planned line by line (`understanding/message_lines.py`).

"Right, a few things for the group:", then "1. make a list called Spring Picks" and "2. add
... to it", a line each: each item is a request of its own, read in order. Books: by the
reading of several requests (`book_compound.py`), a later item's "it" the book or list an
earlier one named. Workspace: each line read alone as a whole message is, a line's "it" the
task an earlier line changed. Every item must be read as a change (or, for books, a look-up
a pattern reads) with no question; otherwise the message is read as before. A chat thread
pasted before the request is what was told beside it, and "vera's point" is the words vera
said: quoted in its place, said after the request, or told before it (`told_first.py`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from typing import Any

from lectern.adapters.llm.by_meaning import WORKSPACE_ACTIONS
from lectern.adapters.llm.rule_steps import BookSteps
from lectern.adapters.llm.told_first import told_first
from lectern.adapters.understanding.mentions import find_in, names_from_prompt
from lectern.adapters.understanding.message_lines import (
    listed,
    thread,
    with_points_said,
    with_verbs_carried,
)
from lectern.adapters.understanding.scaffold import Done, Step
from lectern.adapters.understanding.workspace_parts import once_each
from lectern.domain.assistant import Message, ToolCall


class LineReading:
    """Plans a message of requests one a line, or a request after a pasted thread."""

    steps: BookSteps
    _plan: Callable[..., Any]
    _compound: Callable[..., Callable[[str, Callable[[str], str]], list[Step]]]

    def _by_lines(
        self,
        said: str,
        history: Sequence[Message],
        system: str,
        available: set[str],
        *,
        workspace: bool,
    ) -> list[Step] | None:
        """The steps of a message whose requests are its lines, or None to read it whole."""
        items = listed(said)
        if items is not None:
            if workspace:
                calls = self._workspace_lines(items.items, history, system, available)
                return self.steps.single_calls(calls) if calls else None
            for given in dict.fromkeys((items.items, with_verbs_carried(items.items))):
                # "- put Dune on it\n- Gilead too": a verbless line adds, as the one before
                compound = self._compound(history, system, available, nested=False, given=given)
                steps = compound("; ".join(given), lambda name: name)
                if steps:
                    return steps
            return None
        found = thread(said) if workspace else None
        pointed = with_points_said(found) if found is not None else None
        if found is None or pointed is None:
            return None
        # "[14:02] vera: HR wants ...\n\ncan you put vera's point as a comment on the drill"
        plan = functools.partial(
            self._plan, history=history, system=system, available=available, whole=True
        )
        # the words quoted where the point was ('resolve it with "..."'), or said after the
        # request ("comment on the drill: ..."), or told before it ("comment that ...")
        for asked in (pointed.quoted, pointed.said_after):
            read = plan(asked)
            first = read.steps[0](Done([], [])) if read.steps else None
            if (
                isinstance(first, list)
                and first
                and all(c.name in WORKSPACE_ACTIONS for c in first)
            ):
                return list(read.steps)
        return list(told_first(pointed.as_told, plan).steps) or None

    def _workspace_lines(
        self, items: Sequence[str], history: Sequence[Message], system: str, available: set[str]
    ) -> list[ToolCall]:
        """Every line's changes in order, or [] when a line is no change read without a question.

        Each line is read alone as a whole message is; a line that points back ("- close
        it") means the task the line before changed.
        """
        found: list[ToolCall] = []
        task: str | None = None
        tasks = names_from_prompt(system).of("task")
        for item in items:
            points_back = task is not None and find_in(item, tasks).name is None
            said = _IT.sub(task, item, count=1) if task is not None and points_back else item
            planned = self._plan(said, history, system, available, nested=True)
            first = planned.steps[0](Done([], [])) if planned.steps else None
            if not isinstance(first, list) or not first:
                return []
            if any(call.name not in WORKSPACE_ACTIONS for call in first):
                return []
            found += first
            named = [c.arguments.get("task_id") for c in first if c.arguments.get("task_id")]
            task = str(named[-1]) if named else task
        return once_each(found)


_IT = re.compile(r"\b(?:it|that\s+one|that\s+task|this\s+task)\b", re.I)
"""A line's pointer back at the task an earlier line changed ("- assign it to bob")."""
