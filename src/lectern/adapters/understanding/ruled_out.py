"""Words that rule intents out, whatever a message's meaning scores (issue 26).

A list request says "list" or names one of the reader's lists; creating, renaming and
deleting a list, correcting a book and dismissing a request each need a word that says so;
a question changes nothing; a task spoken of as "a task" is new. The intents ruled out leave
the reading (`IntentReading.without`) and the rest is decided on the same floor and margin.
"""

from __future__ import annotations

import re

from lectern.adapters.understanding.layer import CHANGES, CUES
from lectern.adapters.understanding.list_told import (
    entry_not_list,
    tells_a_list_holds,
    unwanted_on_a_list,
)
from lectern.adapters.understanding.mentions import Names, find_in, names_from_prompt, resolve
from lectern.adapters.understanding.slots import list_name_of

_ASKS = re.compile(
    r"^(?:what(?:'s| is| are)?|whats|who(?:'s| is)?|when|which|whose|why|how\s+come|is|are|"
    r"does|did)\b",
    re.I,
)
_ASKS_AFTER = re.compile(
    r"[,;:]\s*(?:so\s+|but\s+)?(?:what(?:'s| is| are)?|whats|who(?:'s| is)?|which|why|"
    r"how\s+come)\b",
    re.I,
)
"""A question in a later clause ("ugh the vpn thing is stuck, whats blocking it")."""
_DELETE_CUE = re.compile(
    r"\b(?:delete|remove|drop|get rid of|trash|erase|bin|throw away|don't need|do not need|"
    r"cancel|eliminate|suppress|"
    r"no longer need)\b(?!.*\b(?:from|off|out of|onto|on|into|to|for)\b.*\blist\b)",
    re.I,
)
_LIST_INTENTS = (
    "get_list_details",
    "add_to_list",
    "remove_from_list",
    "rename_list",
    "delete_list",
)
_CREATE_CUE = re.compile(
    r"\b(?:new|create|make|start|set\s+(?:me\s+|us\s+)?up|fresh|another|open\s+a|begin)\b|"
    r"\b(?:have|want|need|get|like)\s+a\s+(?:\w+\s+)?list\b",
    re.I,
)
_DISMISS_CUE = re.compile(
    r"\b(?:never\s*mind|nvm|forget|cancel|scratch|nope|nah|no|don'?t|do\s+not|stop|ignore|"
    r"leave\s+(?:it|things|them)|changed\s+my\s+mind)\b",
    re.I,
)
_CORRECT_CUE = re.compile(
    r"\b(?:wrong|incorrect|should\s+(?:be|say|read)|isn'?t|is\s+not|wasn'?t|not|actually|"
    r"mistake|error|typo|fix|correct\w*|really|says|listed\s+as|your\s+(?:page|record|entry)|"
    r"you\s+have|you['’]ve\s+got|reprint|re-?issue)\b",
    re.I,
)
"""A correction says something is wrong; "published after 2010" says nothing is."""
_ASKS_FOR_A_STATUS = re.compile(
    r"^(?:what(?:['’]s|\s+is|\s+are)?|whats|which|anything|show|list)\b.{0,20}?"
    r"\b(?:in[\s-]progress|to[\s-]?do|in[\s-]review|done|finished|still\s+open)\b",
    re.I,
)
_NEW_TASK = re.compile(r"\b(?:a|an)\s+(?:new\s+|\w+\s+)?(?:task|todo|to-do)\b", re.I)
_ENTRY_VERB = re.compile(
    r"^(?:please\s+)?(?:add|put|pop|stick|throw|toss|remove|take\s+out|drop)\s+(?!(?:a|an)\b)",
    re.I,
)
"""A request led by putting a book on, or taking it off, something: a list entry."""
_RENAMES = re.compile(r"^(?:please\s+)?(?:rename|re-name|retitle)\b", re.I)
"""A request led by renaming: of the reader's things, only a list is renamed."""
_RENAME_CUE = re.compile(
    r"\b(?:rename|re-name|retitle|name\b.*\binstead|call\b.*\binstead|"
    r"(?:be|been)\s+(?:called|named|renamed)|call\b.*\bfrom\s+now\s+on|"
    r"change\s+(?:the|its|my)?\s*(?:\w+\s+)?(?:name|title))\b|->",
    re.I,
)


def _names_a_list(text: str, names: Names) -> bool:
    """Whether the message says one of the reader's lists by its whole name."""
    return any(re.search(rf"\b{re.escape(n)}\b", text, re.I) for n in names.of("list"))


def ruled_out(text: str, names: Names) -> set[str]:
    """Intents the message's words rule out, whatever its meaning scores.

    A list request says "list" or names one of the reader's lists; creating, renaming and
    deleting a list happen only on a word that says so (deleting cannot be undone), and so
    do correcting a book and dismissing a request; a question asks, it changes nothing.
    The next likeliest reading is then decided on the same terms (`IntentReading.without`).
    """
    gone: set[str] = set()
    if not re.search(r"\blists?\b", text, re.I) and find_in(text, names.of("list")).name is None:
        gone.update(_LIST_INTENTS)
        if _ENTRY_VERB.match(text) and names.of("list"):
            # "add Jane Eyre" to one of the reader's lists, which one unsaid: the plan asks.
            gone -= {"add_to_list", "remove_from_list"}
        if _RENAMES.match(text) and names.of("list"):
            # "rename it to Holiday 2027": only a list is renamed here; which one is asked.
            gone.discard("rename_list")
    named = list_name_of(text)
    if named and resolve(named, names.of("list"), cutoff=85).name is None:
        # "a list called Gifts" that the reader does not have: only creating one fits, or
        # renaming one to it ("Summer should be called Beach").
        gone.update(set(_LIST_INTENTS) - ({"rename_list"} if _RENAME_CUE.search(text) else set()))
    if tells_a_list_holds(text) or unwanted_on_a_list(text):
        # "this is on my Spooky list by mistake": what a list holds already is told, and
        # nothing asks to put it there ("I don't want X on Travel" asks the opposite);
        # "..., remove it" takes the book off, not the list.
        gone.add("add_to_list")
    if not _DELETE_CUE.search(text) or entry_not_list(text):
        gone.add("delete_list")
    if not _CREATE_CUE.search(text):
        gone.add("create_list")
    if not _RENAME_CUE.search(text):
        gone.add("rename_list")
    if _ASKS.match(text) or (
        _ASKS_AFTER.search(text) and not any(CUES[c].search(text) for c in CHANGES if c in CUES)
    ):
        # A question changes nothing, unless an earlier clause plainly asks for a change
        # ("wrap up the runbook, what's next?").
        gone.update(CHANGES)
    if _NEW_TASK.search(text):
        # "we need a task in the phishing project for ..., assign it to me": a task spoken
        # of as "a task" does not exist yet, so no change to a stored one is meant.
        gone.update(("assign_task", "complete_task", "update_task", "add_comment"))
    if _ASKS_FOR_A_STATUS.search(text):
        # "what's in progress on the VPN project?" asks for the tasks in that state; a
        # project's overview filters nothing.
        gone.add("get_project_details")
    if not _CORRECT_CUE.search(text) or _names_a_list(text, names):
        # A message naming one of the reader's lists is about the list: in "The Road
        # shouldn't be on Read in 2026" the year is the list's, not the book's.
        gone.add("propose_correction")
    if not _DISMISS_CUE.search(text):
        # "remove it" is close in meaning to "cancel that", but only a word of refusal
        # dismisses: without one, the request wants something done.
        gone.add("dismiss")
    return gone


def mentioned_kinds(text: str, names: Names) -> list[str]:
    """The kinds of stored things (task, list, project) the message names."""
    kinds = [k for k in ("task", "list") if find_in(text, names.of(k)).name is not None]
    lowered = text.casefold()
    if any(
        p.casefold() in lowered or p.split()[0].casefold() in lowered.split()
        for p in names.of("project")
    ):
        kinds.append("project")
    return kinds


def names_workspace_thing(text: str, system: str) -> bool:
    """Whether the message names a stored task or project, or speaks of tasks or blockers."""
    names = names_from_prompt(system)
    return bool(set(mentioned_kinds(text, names)) & {"task", "project"}) or bool(
        re.search(r"\b(?:task|project|blocker)s?\b", text, re.I) and names.of("project")
    )
