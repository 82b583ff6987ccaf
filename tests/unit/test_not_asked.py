"""Messages that speak of a change without asking for it now ask back instead of acting.

Found by trying messages by hand (issue 26, wrong actions): a change ruled out, reported as
done, asked about, planned or supposed, someone else's wish, or an earlier request recalled.
Beside each construct, a message that asks for one change still makes it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, cast

import pytest

from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.understanding.intent_examples import BOOK_TOOLS, WORKSPACE_TOOLS
from lectern.adapters.understanding.intents import (
    IntentReading,
    IntentScore,
    NearestExampleClassifier,
)
from lectern.adapters.understanding.layer import CHANGES, Understanding
from lectern.adapters.understanding.not_asked import asked_whether, not_asked
from lectern.application.assistant.names import NAMES_HEADER
from lectern.domain.assistant import Message, ToolCall, ToolSpec

BOOKS = {"dune": "Dune", "rebecca": "Rebecca", "the hobbit": "The Hobbit", "dracula": "Dracula"}
BOOK_SYSTEM = "\n".join([NAMES_HEADER, "- reader: ana", "- list: TBR", "- list: Travel"])
WORK_SYSTEM = "\n".join(
    [
        NAMES_HEADER,
        "- project: Phishing awareness",
        "- task: Schedule the phishing drill",
        "- task: Hunt for unusual VPN logins",
        "- task: Write the incident runbook",
        "- member: alice (Alice Analyst)",
        "- member: bob (Bob Builder)",
        "- reader: alice",
    ]
)


def _policy() -> RulePolicy:
    def books(title: str) -> list[tuple[str, str, int]]:
        found = BOOKS.get(" ".join(title.casefold().split()))
        return [(found, "Someone", 10)] if found else []

    return RulePolicy(titles=lambda w: " ".join(w.casefold().split()) in BOOKS, books=books)


def _reply(
    text: str, system: str, tools: tuple[str, ...]
) -> list[tuple[str, dict[str, Any]]] | str:
    specs = [ToolSpec(name, "", {}) for name in tools]
    reply = _policy().complete_with_tools([Message("user", text)], specs, system=system)
    return [(c.name, dict(c.arguments)) for c in reply.tool_calls] or reply.text


@pytest.mark.parametrize(
    "said",
    [
        # ruled out
        "don't add The Hobbit to my TBR",
        "do not delete my Travel list",
        "I won't be adding Dracula to Travel",
        "no, don't create a list called Horror",
        # reported, or already so
        "Rebecca is already on Travel",
        "I added Dracula to my TBR yesterday",
        "my friend gave Dune 5 stars",
        # whether to
        "should I give The Hobbit 5 stars?",
        "do you think I should delete the Travel list?",
        "can you tell me if Dune is worth 5 stars?",
        # planned or supposed
        "if I finish Dracula I'll add it to Travel",
        "maybe I'll add Dracula to Travel next week",
        "I plan to give Dune 4 stars when I finish it",
        # someone else's wish, an earlier request recalled
        "my book club said to rate Rebecca 5 stars",
        "my partner wants me to delete Travel",
        "earlier I told you to rate Dune 3 stars",
    ],
)
def test_a_book_change_spoken_of_but_not_asked_is_not_asked(said: str) -> None:
    assert not_asked(said)


@pytest.mark.parametrize(
    "said",
    [
        "don't close the runbook yet",
        "don't assign the hunt to bob",
        "should I mark the hunt as done?",
        "do I need to close the drill?",
        "I might assign the runbook to bob later",
        "I'm going to close the drill tomorrow",
        "once the runbook is reviewed, close it",
        "alice asked me to close the drill",
        "bob finished the hunt last week",
        "yesterday I asked you to close the drill",
        "I never asked you to close the drill",
        "leave the hunt open",
        "I'm not sure the hunt is done",
    ],
)
def test_a_task_change_spoken_of_but_not_asked_is_not_asked(said: str) -> None:
    assert not_asked(said)


@pytest.mark.parametrize(
    ("said", "tool"),
    [
        ("don't add Dracula, add The Hobbit to TBR instead", "add_to_list"),
        ("I already rated Dune, but add it to Travel please", "add_to_list"),
        ("when you get a chance, add Dracula to TBR", "add_to_list"),
    ],
)
def test_one_change_asked_beside_such_a_clause_is_made(said: str, tool: str) -> None:
    del tool  # the change each message asks for; the clause beside it does not hold it
    assert not not_asked(said)


@pytest.mark.parametrize(
    "said",
    [
        "close the drill, the hunt is next",
        "assign the hunt to bob, alice already has the drill",
        "if you can, close the drill",
        "I'm going to need you to add Dune to TBR",
        "add Dune to TBR please",
        # a value said as it should be, after a mistake owned; another's future is an assignment
        "i made a typo, the list 'Horor' should be 'Horror'",
        "I put the wrong date, the drill should be due friday",
        "alice will do this",
        "bob is going to take the hunt",
        # a clause that opens with the change, whatever reason follows it
        "ok remove dune from travel i already watched the film",
        "take Rebecca off TBR we already read it last month",
        "comment on the hunt that the logs are from last week",
        # asked as whether it may be done, or as a wish for the book
        "would it be ok to mark the drill as complete?",
        "is it possible to remove Dune from Travel? I already have it",
        "my sister told me about Dune - could it go on TBR?",
        "I finished Dune yesterday. I would like to give it five stars.",
        "Dune shouldn't be on Travel, I read it last year",
        "I finished Dune last night, so it can come off TBR",
        # a book "says" a stored value: a correction, not someone's wish
        "Middlesex says 1999 but it was published in 2002",
        "Dune says Spanish but it's in English",
    ],
)
def test_a_plain_request_is_asked(said: str) -> None:
    assert not not_asked(said)


@pytest.mark.parametrize(
    ("said", "system", "tools"),
    [
        ("add Dune to TBR", BOOK_SYSTEM, BOOK_TOOLS),
        ("close the phishing drill", WORK_SYSTEM, WORKSPACE_TOOLS),
    ],
)
def test_the_front_asks_back_instead_of_a_change_not_asked(
    said: str, system: str, tools: tuple[str, ...]
) -> None:
    assert isinstance(_reply(said, system, tools), list)
    for unasked in (f"yesterday I asked you to {said}", f"should I {said}?", f"don't {said}"):
        reply = _reply(unasked, system, tools)
        made = [] if isinstance(reply, str) else [name for name, _ in reply]
        assert not set(made) & CHANGES, (unasked, reply)


class _AddMinded:
    """A fake of the intent model that reads every message as adding a book to a list."""

    def classify(
        self, text: str, allowed: Iterable[str], boosts: Mapping[str, float] | None = None
    ) -> IntentReading:
        del text, allowed, boosts
        ranked = (IntentScore("add_to_list", 0.3), IntentScore("get_list_details", 0.1))
        return IntentReading(ranked, confidence=0.97, margin=0.2)


def _read_by_meaning(text: str) -> str:
    policy = _policy()
    policy.layer = Understanding(cast(NearestExampleClassifier, _AddMinded()))
    specs = [ToolSpec(name, "", {}) for name in BOOK_TOOLS]
    reply = policy.complete_with_tools([Message("user", text)], specs, system=BOOK_SYSTEM)
    assert not reply.tool_calls, (text, reply.tool_calls)
    return reply.text


def test_the_reply_names_the_change_and_offers_it_unless_it_was_ruled_out() -> None:
    # Read by meaning, each of these is an add of Dune to TBR: the front keeps it unmade.
    told = _read_by_meaning("my sister wants to add Dune to TBR")
    assert told.endswith("Do you want me to add Dune to TBR?"), told
    ruled_out = _read_by_meaning("don't add Dune to TBR")
    assert ruled_out.startswith("All right, I won't add Dune to TBR"), ruled_out
    assert "?" not in ruled_out


def test_the_offered_reply_is_read_as_the_request_it_names() -> None:
    offer = asked_whether(
        "my sister wants Dune on TBR",
        [ToolCall("t", "add_to_list", {"book": "Dune", "list": "TBR"})],
    )
    assert offer.suggestions[0] == "Add Dune to TBR"
    assert _reply(offer.suggestions[0], BOOK_SYSTEM, BOOK_TOOLS) == [
        ("add_to_list", {"book": "Dune", "list": "TBR"})
    ]


def test_a_change_whose_book_is_no_catalog_title_is_not_named_back() -> None:
    # "should I rate atonement 5 stars?" was offered as "rate should atonement 5 stars".
    asked = _read_by_meaning("should I add the wrong book to TBR?")
    assert asked.endswith("If so, tell me which."), asked


@pytest.mark.parametrize(
    "said",
    [
        "Kindly pull Dune off my Winter list, I gave up on it.",
        "pop Rebecca on Travel, my sister gave it to me",
        "chuck Dracula off TBR please, I already read it",
    ],
)
def test_an_everyday_verb_asks_beside_a_reported_clause(said: str) -> None:
    assert not not_asked(said)


@pytest.mark.parametrize(
    "said",
    [
        "um so like remove the hobbit from summer i already read it",
        "uh take dune off tbr, finished it last week",
        "well, add emma to summer, my sister loved it",
        "like put dracula on tbr my friend says it's great",
        "erm delete the list Old, I never use it",
        "yeah rate it 4, I enjoyed it",
    ],
)
def test_a_spoken_filler_before_the_change_does_not_make_it_a_report(said: str) -> None:
    assert not not_asked(said)


@pytest.mark.parametrize(
    "said", ["um I took dune off tbr yesterday", "so like, I already removed the hobbit"]
)
def test_a_report_after_a_filler_is_still_a_report(said: str) -> None:
    assert not_asked(said)
