"""A message whose structure is in its lines: an e-mail's frame, a list of requests, a thread.

Each test holds the dev18 messages beside phrasings of our own (other greetings, sign-offs,
names and signatures; other bullets, numbers and headings; other chat formats).
"""

from __future__ import annotations

import pytest

from lectern.adapters.understanding.message_lines import (
    listed,
    thread,
    unframed_mail,
    with_points_said,
)


@pytest.mark.parametrize(
    ("said", "body"),
    [
        # dev18
        (
            "Hi,\n\nGood news: Check Point confirmed our maintenance window (ticket 88213). "
            "Please close the blocker on the patching task.\n\nBest,\nAlice",
            "Good news: Check Point confirmed our maintenance window (ticket 88213). "
            "Please close the blocker on the patching task.",
        ),
        (
            'Hi,\n\nThe vendor moved our slot, so please push the due date on "Patch the Check '
            'Point gateways" to 13 November.\n\nThanks,\nAlice',
            'The vendor moved our slot, so please push the due date on "Patch the Check '
            'Point gateways" to 13 November.',
        ),
        (
            "Hi,\n\nCould you pull up the T1190 write-up please?\n\nThanks\nA.",
            "Could you pull up the T1190 write-up please?",
        ),
        # ours
        ("Hello team,\nplease delete my Winter list\nCheers,\nBob", "please delete my Winter list"),
        (
            "Dear Lectern,\n\nKindly rate Gilead 5 stars.\n\nKind regards,\nMargaret Hale",
            "Kindly rate Gilead 5 stars.",
        ),
        (
            "Good morning!\nCould you close the drill task?\n\nMany thanks,\nJ.\n\n--\nJo Smith\n"
            "SOC | on call",
            "Could you close the drill task?",
        ),
        (
            "hey there,\nmark the runbook as done\nthx\n- Sam",
            "mark the runbook as done",
        ),
        (
            "Morning all,\n\nadd Beloved to Book Club\n\nBest wishes,\nPriya\n\nThis e-mail and "
            "any attachments are confidential.",
            "add Beloved to Book Club",
        ),
        (
            "Please resolve the blocker on the hunt.\n\nRegards,\nAlice Analyst\nDemo Security",
            "Please resolve the blocker on the hunt.",
        ),
    ],
)
def test_an_e_mails_frame_is_no_part_of_the_request(said: str, body: str) -> None:
    assert unframed_mail(said) == body


@pytest.mark.parametrize(
    "said",
    [
        "add Beloved to Book Club",
        "Thanks, now add Beloved to Book Club",
        "Best books of 2020\nshow me some",
        "Hi there,\n\nBest,\nTom",  # all frame: kept as said
    ],
)
def test_a_message_with_no_frame_is_kept(said: str) -> None:
    assert unframed_mail(said) == said


def test_a_thanks_line_alone_after_the_request_is_dropped() -> None:
    assert unframed_mail("rate it 4\nthanks") == "rate it 4"


@pytest.mark.parametrize(
    ("said", "items"),
    [
        # dev18
        (
            "Right, a few things for the group:\n1. make a list called Spring Picks\n"
            "2. add The Remains of the Day to it\n3. add Gilead as well",
            (
                "make a list called Spring Picks",
                "add The Remains of the Day to it",
                "add Gilead as well",
            ),
        ),
        (
            "Admin bits for the new term:\n• Delete Autumn 2025 (we've finished it)\n"
            "• New list: Winter 2026\n• Add Anna Karenina to Winter 2026",
            (
                "Delete Autumn 2025",
                "create a list called Winter 2026",
                "Add Anna Karenina to Winter 2026",
            ),
        ),
        (
            "After last night:\n- rate Atonement 4 stars\n- take it off Book Club, we're done "
            "with it",
            ("rate Atonement 4 stars", "take it off Book Club, we're done with it"),
        ),
        (
            "* Check Point patch: status in progress\n* Runbook: due Nov 16\n"
            "* new blocker on the hunt: waiting for SIEM access",
            (
                "Check Point patch: status in progress",
                "Runbook: due Nov 16",
                "new blocker on the hunt: waiting for SIEM access",
            ),
        ),
        # ours
        (
            "todo\n1) close the drill\n2) give the hunt to bob",
            ("close the drill", "give the hunt to bob"),
        ),
        (
            "- rate Emma 3\n\n- put it on Classics\nthat's it, ta",
            ("rate Emma 3", "put it on Classics"),
        ),
        (
            "Quick ones:\n  a) new task: rotate keys\n  b) assign it to alice",
            ("create a task called rotate keys", "assign it to alice"),
        ),
        (
            "– add Dune to Sci-fi\n– add Emma to Classics",
            ("add Dune to Sci-fi", "add Emma to Classics"),
        ),
    ],
)
def test_requests_one_a_line_are_each_a_request(said: str, items: tuple[str, ...]) -> None:
    found = listed(said)
    assert found is not None
    assert found.items == items


@pytest.mark.parametrize(
    "said",
    [
        "Housekeeping before the new season:\n- please delete Spring Picks\nThat's all, thanks!",
        "add Dune to my list",
        "- rate Emma 3\nand then a line of its own\n- put it on Classics",
        "1984 is great\nadd it to Classics",
    ],
)
def test_fewer_than_two_items_in_a_run_is_no_list(said: str) -> None:
    assert listed(said) is None


@pytest.mark.parametrize(
    ("said", "asked", "expected"),
    [
        # dev18
        (
            "[14:02] vera: HR wants the drill after the 20th, not before\n[14:03] bob: noted\n\n"
            "can you put vera's point as a comment on the drill task",
            "can you put vera's point as a comment on the drill task",
            'can you put "HR wants the drill after the 20th, not before" as a comment on the '
            "drill task",
        ),
        # ours
        (
            "[09:15] bob: checkpoint confirmed the window for 23:00\n[09:16] dana: great\n"
            "resolve the vendor blocker with bob's note",
            "resolve the vendor blocker with bob's note",
            'resolve the vendor blocker with "checkpoint confirmed the window for 23:00"',
        ),
        (
            "10:02 AM <dana> the runbook needs a legal review first\n10:04 AM <me> ok\n"
            "comment what dana said on the runbook",
            "comment what dana said on the runbook",
            'comment "the runbook needs a legal review first" on the runbook',
        ),
        (
            "[2026-11-02 14:02] @sam: hunt is waiting on SIEM access\nadd sam's update as a "
            "blocker on the hunt",
            "add sam's update as a blocker on the hunt",
            'add "hunt is waiting on SIEM access" as a blocker on the hunt',
        ),
        (
            "14:02 - lee: drill moved to the 18th\nput Lee's message on the drill as a comment",
            "put Lee's message on the drill as a comment",
            'put "drill moved to the 18th" on the drill as a comment',
        ),
    ],
)
def test_a_speakers_point_is_what_they_said(said: str, asked: str, expected: str) -> None:
    found = thread(said)
    assert found is not None
    assert found.request == asked
    pointed = with_points_said(found)
    assert pointed is not None
    assert pointed.quoted == expected
    assert pointed.as_told.request == expected.replace(f'"{pointed.words}"', "that")


def test_a_request_naming_no_speaker_is_left_to_the_thread_reading() -> None:
    found = thread("[16:20] bob: drill date locked: 18 Nov\n\ncomment that on the drill task")
    assert found is not None
    assert with_points_said(found) is None
    assert thread("Runbook: due Nov 16\nclose the drill") is None


@pytest.mark.parametrize(
    "said",
    [
        "Hey, add Dune to my list\nand Gilead too",
        "Hi can you close the drill\nthanks",
        "rate Dune 4\nThanks, and add it to Book Club too",
        "Morning add Dune to Winter\nBest, Al",
    ],
)
def test_a_greeting_or_thanks_that_holds_a_request_is_kept(said: str) -> None:
    first = said.splitlines()[0]
    assert unframed_mail(said).startswith(first.split()[0])
    assert "add" in unframed_mail(said) or "close" in unframed_mail(said)
