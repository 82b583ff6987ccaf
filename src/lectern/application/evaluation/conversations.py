"""Multi-turn conversations: is each later turn read in the thread and answered from its page?

Two parts, both a dev set (the rules were written before the first run; no test split):
- FastAPI (`kb_conversations.json`, 15 conversations written by hand): follow-ups that lean
  on the thread ("can they have sub-dependencies?") and topic switches that must not.
- ClapNQ (generated here, deterministic): for consecutive answerable questions q_i, q_i+1
  whose passages write a name of theirs capitalised (E), conversation i is
  `[q_i, "tell me about E_i+1", q_i+1 with E_i+1 replaced by a pronoun]`: the first turn
  stands alone, the second switches topic (q_i's words must not be carried), the third
  leans on the second (E_i+1 must be carried in). So every question is asked once as a
  first turn and once as a later, pronoun-led turn: the two rates compare the same
  questions.

Per turn: the standalone rewrite (right: every `carries` word in it, no `not_carried` word),
whether a reply was sent, and whether it cites the right page (FastAPI: the source id;
ClapNQ: a source whose title is the passage's).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import cast

from lectern.application.answering.service import KnowledgeBaseReplier
from lectern.application.evaluation.packaged import packaged_text
from lectern.application.evaluation.perturbed import _entity_spans, _passage, read_rows
from lectern.domain.answering import (
    Conversation,
    ConversationMessage,
    RequestContext,
    content_terms,
)
from lectern.domain.books import JSONValue
from lectern.errors import DatasetError

CONVERSATIONS_FILE = "kb_conversations.json"
CLAPNQ_CONVERSATIONS = 50
USER, BOT = "asker", "bot"


@dataclass(frozen=True, slots=True)
class Turn:
    """One turn, the page that answers it and what its rewrite must (not) carry."""

    text: str
    source: str | None
    """A source id (FastAPI) or `title:<passage title>` (ClapNQ); None: no page answers it."""
    carries: tuple[str, ...] = ()
    not_carried: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ThreadCase:
    """A conversation of 2 to 8 turns over one collection."""

    id: str
    collection: str
    turns: tuple[Turn, ...]


def load_fastapi_conversations(collection: str, path: Path | None = None) -> list[ThreadCase]:
    """The hand-written FastAPI conversations."""
    try:
        text = packaged_text(CONVERSATIONS_FILE, path)
        data = json.loads(text)
        return [
            ThreadCase(
                str(c["id"]),
                collection,
                tuple(
                    Turn(
                        str(t["text"]),
                        t.get("source"),
                        tuple(t.get("carries") or ()),
                        tuple(t.get("not_carried") or ()),
                    )
                    for t in c["turns"]
                ),
            )
            for c in data["conversations"]
        ]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise DatasetError(f"cannot read the conversations: {error}") from None


def clapnq_conversations(
    folder: Path, collection: str, count: int = CLAPNQ_CONVERSATIONS
) -> list[ThreadCase]:
    """Conversations from consecutive ClapNQ questions (see the module's docstring)."""
    usable: list[tuple[str, str, str]] = []
    for row, answerable in read_rows(folder):
        if not answerable:
            continue
        question = str(row["input"])
        passage = _passage(row)
        spans = [s for s in _entity_spans(question, passage) if len(s) > 3]
        if not spans:
            continue
        name = max(spans, key=len)
        pattern = re.compile(rf"\b{re.escape(name)}\b", re.I)
        if len(pattern.findall(question)) != 1 or not content_terms(pattern.sub("", question)):
            continue
        usable.append((question, name, passage.title))
    cases: list[ThreadCase] = []
    for i in range(min(count, len(usable) - 1)):
        question, _, title = usable[i]
        following, name, following_title = usable[i + 1]
        pronoun = re.sub(rf"\b{re.escape(name)}\b", "it", following, count=1, flags=re.I)
        own = set(content_terms(question))
        switched = tuple(t for t in own if t not in set(content_terms(following)) | {"it"})
        cases.append(
            ThreadCase(
                f"clapnq-c{i:02d}",
                collection,
                (
                    Turn(question, f"title:{title}"),
                    Turn(f"tell me about {name}", f"title:{following_title}", (), switched[:3]),
                    Turn(pronoun, f"title:{following_title}", tuple(name.split()), ()),
                ),
            )
        )
    return cases


@dataclass
class TurnRecord:
    """What one turn got."""

    case: str
    position: int
    text: str
    standalone: str
    rewrite_checked: bool
    rewrite_right: bool
    answerable: bool
    replied: bool
    right_source: bool
    kind: str
    """`first`, `follow_up` (carries words), `switch` (must not carry) or `other`."""
    latency_ms: float = 0.0
    cited: list[str] = field(default_factory=list)


def _holds(text: str, word: str) -> bool:
    terms = set(content_terms(text))
    return all(t in terms for t in content_terms(word))


def run_threads(
    replier: KnowledgeBaseReplier,
    cases: Sequence[ThreadCase],
    progress: Callable[[], None] | None = None,
    clock: Callable[[], float] | None = None,
) -> list[TurnRecord]:
    """Each conversation turn by turn (the bot's replies in between), every turn recorded."""
    import time

    now = clock or time.perf_counter
    records: list[TurnRecord] = []
    for case in cases:
        messages: list[ConversationMessage] = []
        context = RequestContext(case.collection, USER, "evaluation")
        for position, turn in enumerate(case.turns):
            messages.append(ConversationMessage(USER, turn.text))
            started = now()
            result = replier.reply(Conversation(tuple(messages)), context)
            latency = (now() - started) * 1000
            standalone = result.standalone_query or " ".join(turn.text.split())
            checked = bool(turn.carries or turn.not_carried or position == 0)
            right = all(_holds(standalone, w) for w in turn.carries) and not any(
                _holds(standalone, w) for w in turn.not_carried
            )
            if position == 0:
                right = standalone == " ".join(turn.text.split())
            cited = [c.source_id for c in result.citations]
            titles = {c.title for c in result.citations}
            if turn.source is None:
                hit = False
            elif turn.source.startswith("title:"):
                hit = turn.source.removeprefix("title:") in titles
            else:
                hit = turn.source in cited
            kind = (
                "first"
                if position == 0
                else "follow_up"
                if turn.carries
                else "switch"
                if turn.not_carried
                else "other"
            )
            records.append(
                TurnRecord(
                    case=case.id,
                    position=position,
                    text=turn.text,
                    standalone=standalone,
                    rewrite_checked=checked,
                    rewrite_right=right,
                    answerable=turn.source is not None,
                    replied=result.should_reply,
                    right_source=hit and result.should_reply,
                    kind=kind,
                    latency_ms=round(latency, 2),
                    cited=cited,
                )
            )
            reply = result.reply_text if result.should_reply else "(no reply)"
            messages.append(ConversationMessage(BOT, reply[:300]))
            if progress is not None:
                progress()
    return records


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def thread_figures(records: Sequence[TurnRecord]) -> dict[str, JSONValue]:
    """Rewrite accuracy, right-page rate of first and later turns, carried topic switches."""
    checked = [r for r in records if r.rewrite_checked]
    answerable = [r for r in records if r.answerable]
    first = [r for r in answerable if r.position == 0]
    later = [r for r in answerable if r.position > 0]
    follow = [r for r in answerable if r.kind == "follow_up"]
    switches = [r for r in records if r.kind == "switch"]
    return {
        "conversations": len({r.case for r in records}),
        "turns": len(records),
        "rewrite_accuracy": _share(sum(r.rewrite_right for r in checked), len(checked)),
        "follow_up_rewrite_accuracy": _share(sum(r.rewrite_right for r in follow), len(follow)),
        "switches_carrying_context": sum(1 for r in switches if not r.rewrite_right),
        "switches": len(switches),
        "first_turn_right_page": _share(sum(r.right_source for r in first), len(first)),
        "later_turn_right_page": _share(sum(r.right_source for r in later), len(later)),
        "follow_up_right_page": _share(sum(r.right_source for r in follow), len(follow)),
        "later_turns_replied": _share(sum(r.replied for r in later), len(later)),
    }


def thread_records_json(records: Sequence[TurnRecord]) -> list[JSONValue]:
    """Records as JSON for the artifact."""
    return [cast(JSONValue, asdict(r)) for r in records]
