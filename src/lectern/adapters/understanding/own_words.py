"""What a request keeps as text (a blocker's reason, a comment, a resolution) in its own words.

The workspace rules read shorthand and a tracker's words spelt out ("ticket" is a task, "eod"
today, "w/" with: `workspace_shorthand.spelt_out`), so "drill blocked pending the citrix
ticket, log it" was recorded as "Pending the citrix task": the reader's words changed in the
record they asked to keep. Here each piece of a kept text that is exactly such a spelling-out
of the message's own words is put back as they were typed. Only those rewrites are undone
(the message's words aligned with the text by `difflib`), so a reason the rules rephrased on
purpose ("waiting until ..." for "can't start until ...") stays as the rules wrote it.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence

from lectern.adapters.understanding.workspace_shorthand import spelt_out
from lectern.domain.assistant import ToolCall

KEPT_TEXT = {
    "create_blocker": ("description",),
    "add_comment": ("content",),
    "resolve_blocker": ("resolution",),
}
"""The arguments that keep the reader's words as a record's text."""

_EDGE = "\"'“”‘’.,;:!?()[]"


def _fold(token: str) -> str:
    return token.strip(_EDGE).casefold()


def restored(text: str, said: str) -> str:
    """`text` with each spelt-out piece of `said` put back as typed; else `text` unchanged."""
    kept = text.split()
    typed = said.split()
    if not kept or not typed:
        return text
    matcher = difflib.SequenceMatcher(
        None, [_fold(t) for t in kept], [_fold(t) for t in typed], autojunk=False
    )
    out: list[str] = []
    changed = False
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        piece = kept[i1:i2]
        # the typed words a piece stands for start where it does (what follows them in the
        # message, "please record that", is no part of the kept text)
        spans = (" ".join(typed[j1 : j1 + n]) for n in range(1, min(j2 - j1, 4) + 1))
        if op == "replace":
            original = next(
                (o for o in spans if _fold(spelt_out(f"{o} ")) == _fold(" ".join(piece))), None
            )
            if original is not None:
                # "task," for "ticket,": the typed words, with the kept text's own edges
                core = original.strip(_EDGE)
                lead = piece[0][: len(piece[0]) - len(piece[0].lstrip(_EDGE))]
                tail = piece[-1][len(piece[-1].rstrip(_EDGE)) :]
                if i1 == 0 and piece[0][:1].isupper():
                    core = core[:1].upper() + core[1:]
                out.append(f"{lead}{core}{tail}")
                changed = True
                continue
        out.extend(piece)
    return " ".join(out) if changed else text


def in_own_words(calls: Sequence[ToolCall], said: str) -> list[ToolCall]:
    """The calls with each kept text in the words the reader typed (see the module)."""
    result: list[ToolCall] = []
    for call in calls:
        arguments = dict(call.arguments)
        for name in KEPT_TEXT.get(call.name, ()):
            value = arguments.get(name)
            if isinstance(value, str) and value:
                arguments[name] = restored(value, said)
        changed = arguments != dict(call.arguments)
        result.append(ToolCall(call.id, call.name, arguments) if changed else call)
    return result
