"""The understanding sets (issue 26): did the assistants do what people's words ask?

The sets live in `lectern/evaluation/understanding/<split>/<surface>.json` (splits `dev` and
`test`; the test split is written by someone who has not read the rules and run once; `dev2`
and `test2` halve a second pool written the same way, test2 held out until the end; `dev3`
is a third pool of book assistant and workspace requests, for tuning; `dev4` and `test3`
halve a fourth pool of all four surfaces, test3 held out until the end; `dev5` and `test4`
halve a fifth pool of book assistant and workspace requests, test4 held out; `dev6` and
`test5` halve a sixth pool of guideline chat and KB reply questions, test5 held out; `dev7`
and `test6` halve a seventh pool of book assistant and workspace requests, test6 held out). The
book assistant and workspace sets use the schemas of the conversation sets and run through
their runners (`evaluation/assistant.py`, `evaluation/workspace.py`); two keys are added:
`expect_clarify` (the right reply is one clarifying question: no tool, nothing changed) and
`expect_intent` (greeting, thanks, capabilities, off_topic: no tool). Figures per surface and
split:
- `tool_accuracy`: the expected tools with the expected arguments (for a clarifying case: no
  tool and a question back; for an intent: no tool and no question back);
- `state_accuracy`: the end state after approvals;
- `clarify_precision` / `clarify_recall`: of the replies that asked back, the share that
  should have; of the messages that should have, the share that did;
- `wrong_action_rate`: the share of messages where an action was proposed though none, or
  another, was expected;
- `latency_p50_ms` / `latency_p95_ms`: per message.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from importlib.abc import Traversable
from typing import Any

from lectern.application.evaluation.assistant import CaseOutcome, ConversationCase
from lectern.application.evaluation.metrics import percentile
from lectern.application.evaluation.understanding_splits import MORE_SPLITS, SPLITS, SURFACES
from lectern.application.evaluation.workspace import WorkspaceCase, WorkspaceOutcome

__all__ = ["MORE_SPLITS", "SPLITS", "SURFACES"]


def split_file(split: str, surface: str) -> Traversable | None:
    """The packaged file of one surface's split, or None when that split is not there."""
    folder = resources.files("lectern.evaluation").joinpath("understanding").joinpath(split)
    found = folder.joinpath(f"{surface}.json")
    return found if found.is_file() else None


def splits_present(surface: str, wanted: Iterable[str]) -> list[tuple[str, Traversable]]:
    """The (split, file) pairs among `wanted` that exist for `surface`."""
    return [(split, found) for split in wanted if (found := split_file(split, surface)) is not None]


@dataclass(frozen=True, slots=True)
class Judged:
    """One judged message: what was expected of it and what came of it."""

    tools_ok: bool
    state_ok: bool
    clarify_expected: bool
    clarified: bool
    wrong_action: bool
    ms: float


def _wrong_action(proposed: Sequence[str], expected: Sequence[Mapping[str, Any]]) -> bool:
    wanted = {str(call["tool"]) for call in expected}
    return any(tool not in wanted for tool in proposed)


def judge_assistant(case: ConversationCase, outcome: CaseOutcome) -> Judged:
    """The last message of a book assistant case (earlier turns set up its context)."""
    expected = [{"tool": c.tool} for c in case.calls]
    tools_ok = outcome.tools_ok
    if case.expect_clarify:
        tools_ok = tools_ok and outcome.clarified
    elif case.expect_intent is not None:
        tools_ok = tools_ok and not outcome.clarified
    return Judged(
        tools_ok,
        outcome.state_ok,
        case.expect_clarify,
        outcome.clarified,
        _wrong_action(outcome.proposed, expected),
        outcome.turn_ms[-1] if outcome.turn_ms else 0.0,
    )


def judge_workspace(case: WorkspaceCase, outcome: WorkspaceOutcome) -> list[Judged]:
    """Every checked turn of a workspace case; the end state counts for each."""
    judged = []
    case_tools_ok = outcome.tools_ok
    for index, turn in enumerate(case.turns):
        if turn.expect_calls is None or index >= len(outcome.calls):
            continue
        made = outcome.calls[index]
        clarified = outcome.clarified[index] if index < len(outcome.clarified) else False
        names = [c["name"] for c in made]
        ok = names == [c["tool"] for c in turn.expect_calls] and case_tools_ok
        if turn.expect_clarify:
            ok = ok and clarified
        elif turn.expect_intent is not None:
            ok = ok and not clarified
        proposed = outcome.proposed[index] if index < len(outcome.proposed) else ()
        judged.append(
            Judged(
                ok,
                outcome.state_ok,
                turn.expect_clarify,
                clarified,
                _wrong_action(proposed, turn.expect_calls),
                outcome.turn_ms[index] if index < len(outcome.turn_ms) else 0.0,
            )
        )
    return judged


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def figures(judged: Sequence[Judged]) -> dict[str, Any]:
    """The surface's figures over its judged messages."""
    asked = [j for j in judged if j.clarified]
    due = [j for j in judged if j.clarify_expected]
    times = [j.ms for j in judged]
    return {
        "messages": len(judged),
        "tool_accuracy": _share(sum(j.tools_ok for j in judged), len(judged)),
        "state_accuracy": _share(sum(j.state_ok for j in judged), len(judged)),
        "clarify_precision": _share(sum(j.clarify_expected for j in asked), len(asked)),
        "clarify_recall": _share(sum(j.clarified for j in due), len(due)),
        "wrong_action_rate": _share(sum(j.wrong_action for j in judged), len(judged)),
        "latency_p50_ms": round(percentile(times, 0.5), 1),
        "latency_p95_ms": round(percentile(times, 0.95), 1),
    }


_BASE_VOLUME = re.compile(r"^\[NIST SP 800-63 §")


def canonical_label(label: str) -> str:
    """A label as the NIST collection writes it: the base volume is "SP 800-63-3".

    People (and pool-v8's writers) call it "SP 800-63"; the collection labels it with its
    revision, as its file names do. The volumes A, B and C keep their letters.
    """
    return _BASE_VOLUME.sub("[NIST SP 800-63-3 §", label)


def judge_guideline(question: Mapping[str, Any], answer: Mapping[str, Any]) -> Judged:
    """A guideline question: the expected page cited and numbers stated, or a refusal."""
    labels = [canonical_label(str(label)) for label in question.get("expect_labels", [])]
    text = str(answer.get("answer", ""))
    if labels:
        cited = {canonical_label(str(label)) for label in answer.get("labels", [])}
        right = bool(set(labels) & cited) and all(
            str(n) in text for n in question.get("expect_numbers", [])
        )
    else:
        right = bool(answer.get("refused"))
    right = right and not any(str(f) in text for f in question.get("forbidden", []))
    return Judged(right, right, False, False, False, float(answer.get("ms", 0.0)))


def judge_reply(answerable: bool, replied: bool, ms: float) -> Judged:
    """A KB question: a reply when the knowledge base answers it, silence otherwise."""
    right = answerable == replied
    return Judged(right, right, False, False, False, ms)
