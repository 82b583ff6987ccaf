"""A review of session 23's readings found inputs where they rewrote the reader's own words or
lost a condition or a denial; each is pinned here (the reader's words are kept, the change
not asked for is not proposed).
"""

from __future__ import annotations

import pytest

from lectern.adapters.llm.meant_instead import put_right
from lectern.adapters.understanding.due_extended import due_moved
from lectern.adapters.understanding.list_by_name import list_request
from lectern.adapters.understanding.mentions import names_from_prompt
from lectern.adapters.understanding.spoken_marks import marks_written
from lectern.adapters.understanding.unless_already import unless_already
from lectern.adapters.understanding.workspace_cleared_told import cleared_told
from lectern.adapters.understanding.workspace_members_named import members_named
from lectern.adapters.understanding.workspace_refused import instead_of_refused
from lectern.adapters.understanding.workspace_ticked import ticked_done
from tests.unit.test_workspace_phrasings import SYSTEM

NAMES = names_from_prompt(SYSTEM)
TASKS = NAMES.of("task")


@pytest.mark.parametrize(
    "said",
    [
        "comment on the runbook: remove the trailing comma in the config",
        "blocker on the hunt: parser breaks on new line characters",
        "create a task in VPN called Review the grace period",
        "create a list called the victorian period",
        "note on the hunt that the config has a trailing comma",
    ],
)
def test_a_kept_text_keeps_its_mark_words(said: str) -> None:
    assert marks_written(said) == said


@pytest.mark.parametrize(
    "said",
    [
        "note on the hunt that I met with Bob Builder about it",
        "add a comment to the drill asking the Builder for the dates",
        "create a task in VPN called Sync with the Builder on tokens",
        "ping Bob Builder about the drill",
    ],
)
def test_a_member_in_a_kept_text_or_not_asked_for_stays_as_said(said: str) -> None:
    assert members_named(said, NAMES) == said


def test_the_instead_naming_its_own_task_keeps_its_it() -> None:
    said = "don't mark the drill done, mark the runbook done and put it in review"
    assert instead_of_refused(said, TASKS) == "mark the runbook done and put it in review"


@pytest.mark.parametrize(
    "said",
    [
        "don't close the hunt, close it once bob confirms",
        "don't close the drill, close it when HR signs off",
        "do not assign it to bob, give it to alice if she has time",
    ],
)
def test_a_condition_on_the_instead_is_said_first(said: str) -> None:
    read = instead_of_refused(said, TASKS)
    assert read.split()[0] in ("once", "when", "if")


@pytest.mark.parametrize(
    "said",
    [
        "no blocker is cleared, the vendor still hasn't answered",
        "the blocker is cleared as far as I know, but wait for bob to confirm",
        "if the blocker is cleared, mark the patch done",
        "the blocker is probably sorted, I think the vendor replied",
    ],
)
def test_a_denied_conditional_or_hedged_clearing_is_no_resolution(said: str) -> None:
    assert cleared_told(said) is None


def test_a_tick_list_with_one_still_waiting_is_not_all_done() -> None:
    assert ticked_done("✅ hunt ✅ runbook ⏳", TASKS) is None


def test_forward_is_no_later_date() -> None:
    assert due_moved("move the runbook forward a week") is None


@pytest.mark.parametrize(
    "said",
    [
        "rate Dune 5 stars unless I already rated it",
        "remove Dune from Summer if I haven't finished it yet",
        "delete my Summer list if it isn't empty already",
    ],
)
def test_only_an_adding_or_making_loses_its_condition(said: str) -> None:
    assert unless_already(said) is None


@pytest.mark.parametrize("said", ["not Summer, not yet", "not Kids, the other one", "no, not now"])
def test_no_bare_value_is_put_right(said: str) -> None:
    assert not put_right(said)


def test_a_book_told_as_the_x_one_is_no_list() -> None:
    read = list_request("take the horror one off my TBR", ["Horror", "TBR"])
    assert read is None or "horror list" not in read.casefold()
