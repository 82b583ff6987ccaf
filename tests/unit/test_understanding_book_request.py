"""The part of a book message that asks, when the writer tells why first (dev15).

A reason or an aside before the request ("Since I keep forgetting ..., can you make a list
called Borrowed?", "Big fan of the app. Could you add Circe ...") is no request of its own;
it only says which book "it" is. A letter's sign-off with the writer's name ("Thanks,
Maureen") is courtesy, never the book.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.understanding.book_plan import title_in
from lectern.adapters.understanding.book_request import asked_alone, book_request, book_told
from lectern.adapters.understanding.courtesy import without_courtesy
from lectern.adapters.understanding.intent_examples import BOOK_TOOLS
from lectern.adapters.understanding.mentions import names_from_prompt
from lectern.application.assistant.names import NAMES_HEADER
from lectern.domain.assistant import Message, ToolSpec

CATALOG = {
    "the song of achilles": "The Song of Achilles",
    "jane eyre": "Jane Eyre",
    "rebecca": "Rebecca",
    "dune": "Dune",
    "big": "Big",
    "circe": "Circe",
    "the hobbit": "The Hobbit",
}
LISTS = ("TBR", "Favourites", "Classics", "Summer")
SYSTEM = "\n".join([NAMES_HEADER, "- reader: ana", *(f"- list: {name}" for name in LISTS)])
TOOLS = [ToolSpec(name, "", {}) for name in BOOK_TOOLS]


def _books(title: str) -> Sequence[tuple[str, str, int]]:
    found = CATALOG.get(" ".join(title.casefold().split()))
    return [(found, "Someone", 10)] if found else []


def _is_title(words: str) -> bool:
    return bool(_books(words))


def _calls(text: str) -> list[tuple[str, dict[str, Any]]] | str:
    policy = RulePolicy(titles=_is_title, books=_books)
    reply = policy.complete_with_tools([Message("user", text)], TOOLS, system=SYSTEM)
    if not reply.tool_calls:
        return reply.text
    return [(c.name, dict(c.arguments)) for c in reply.tool_calls]


@pytest.mark.parametrize(
    ("said", "name"),
    [
        (
            "Since I keep forgetting which books my friends have lent me, can you make a list "
            "called Borrowed?",
            "Borrowed",
        ),
        (
            "so my therapist (long story, she's great) suggested I keep track of the books that "
            "actually cheer me up, which honestly is a good idea, could you start a list called "
            "Comfort Reads",
            "Comfort Reads",
        ),
        ("As my book group meets on Mondays now, please create a list called Mondays.", "Mondays"),
        (
            "My son keeps losing track of what he has finished. Could you make a list called "
            "Done Reading?",
            "Done Reading",
        ),
    ],
)
def test_a_reason_told_before_a_new_list_is_no_search(said: str, name: str) -> None:
    assert _calls(said) == [("create_list", {"name": name})]


@pytest.mark.parametrize(
    ("said", "language"),
    [
        (
            "One of my patrons only reads in Portuguese and has gone through our shelf. Could "
            "you find her some novels written in Portuguese?",
            "pt",
        ),
        (
            "My neighbour is learning Spanish and asked me for help. Can you find him some "
            "short novels in Spanish?",
            "es",
        ),
    ],
)
def test_circumstances_then_a_search_of_its_own_is_one_search(said: str, language: str) -> None:
    calls = _calls(said)
    assert isinstance(calls, list)
    assert [name for name, _ in calls] == ["search_books"]
    assert language.casefold() in ("pt", "es")


def test_a_search_that_says_nothing_of_its_own_keeps_what_was_told() -> None:
    assert (
        book_request("My daughter loves horses and ponies. Could you find her something?") is None
    )
    assert book_request("I loved Dune. Can you recommend something similar?") is not None


@pytest.mark.parametrize(
    ("said", "listed"),
    [
        (
            "Because I loved The Song of Achilles so much, please add it to Favourites and find "
            "me something similar.",
            "Favourites",
        ),
        (
            "Since Rebecca gave me chills, please put it on my Classics list and find me "
            "something similar.",
            "Classics",
        ),
        (
            "As Dune was the best thing I read all year, could you add it to TBR and find me "
            "more like it?",
            "TBR",
        ),
    ],
)
def test_it_is_the_book_named_in_the_reason(said: str, listed: str) -> None:
    calls = _calls(said)
    assert isinstance(calls, list)
    assert [name for name, _ in calls] == ["add_to_list", "similar_books"]
    book = calls[0][1]["book"]
    assert calls[0][1]["list"] == listed
    assert calls[1][1]["book"] == book
    assert book in CATALOG.values()


@pytest.mark.parametrize(
    "told",
    [
        "Since I adored Jane Eyre, I think I'll love this one too",
        "I loved Rebecca, and this book looks just as dark",
        "My sister raved about Dune but this one caught my eye",
    ],
)
def test_this_one_after_the_title_is_the_book_in_view(told: str) -> None:
    assert book_told(told, _is_title, title_in) is None


def test_a_title_in_the_reason_alone_is_the_books() -> None:
    told = "Because I loved The Song of Achilles so much"
    assert book_told(told, _is_title, title_in) == "The Song of Achilles"


@pytest.mark.parametrize(
    "said",
    [
        "Big fan of the app. Could you add Circe to my TBR",
        "Lovely weather today. Please add Circe to my TBR",
        "Long day at work, finally home. Can you put Circe on my Summer list?",
    ],
)
def test_the_book_is_read_in_the_sentence_that_asks(said: str) -> None:
    calls = _calls(said)
    assert isinstance(calls, list)
    assert calls[0][0] == "add_to_list"
    assert calls[0][1]["book"] == "Circe"


def test_a_message_that_opens_with_its_request_is_read_whole() -> None:
    assert book_request("Add Dune to TBR, and since I finished it, rate it 5.") is None
    assert book_request("I have a list called Summer. Please add Dune to it.", LISTS) is None


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        (
            "I'm looking at this book right now and enjoyed the sample. Could you recommend "
            "similar titles? Thanks, Maureen",
            "I'm looking at this book right now and enjoyed the sample. Could you recommend "
            "similar titles?",
        ),
        ("Please add Dune to TBR. Many thanks, Ruth", "Please add Dune to TBR."),
        ("Please rate Rebecca 4 stars. Best regards, Tom Hanks", "Please rate Rebecca 4 stars."),
        ("Please add it to Summer. Cheers, Jo", "Please add it to Summer."),
        ("Please add Dune to TBR. Best Served Cold", "Please add Dune to TBR. Best Served Cold"),
    ],
)
def test_a_sign_off_with_the_writers_name_is_courtesy(said: str, kept: str) -> None:
    assert without_courtesy(said) == kept


@pytest.mark.parametrize(
    "said",
    [
        "so I was reading The Little Prince to my kid last night and your catalog says 1946 but "
        "it was first published in 1943, could you fix the year",
        "I noticed that Rebecca lists Sally Beauman as a co-author. She only wrote the "
        "introduction. Could you correct that?",
        "Dune is listed as French but it's in English. Please update the language.",
    ],
)
def test_a_correction_asked_after_what_is_wrong_is_read_whole(said: str) -> None:
    assert book_request(said) is None


@pytest.mark.parametrize(
    "said",
    [
        # dev9: the correction stated as a fact is a request too; "And ... too" goes on from it
        "Cold Comfort Farm lists Stella Gibbons and Lynne Truss as authors, but it's only "
        "Stella Gibbons. And add it to Classics too please.",
        "The Hobbit says 1950 but it came out in 1937. Also put it on Summer.",
        "Dune's language is listed as French, it's English. Pop it on my TBR as well.",
    ],
)
def test_a_request_that_goes_on_from_an_earlier_one_is_read_whole(said: str) -> None:
    assert book_request(said) is None


@pytest.mark.parametrize(
    ("said", "new_name"),
    [
        (
            "Hi there, My list 'Summer' is now only for beach books, so could you rename it to "
            "'Beach Reads'? Many thanks, Ruth",
            "Beach Reads",
        ),
        ("I made a list called Summer last year. Can you rename it to Summer 2026?", "Summer 2026"),
        ("Summer is too vague now - please rename it to Holiday Reads", "Holiday Reads"),
    ],
)
def test_a_rename_of_it_is_the_list_told_before(said: str, new_name: str) -> None:
    assert _calls(said) == [("rename_list", {"list": "Summer", "new_name": new_name})]


def test_it_told_in_words_no_title_holds_is_read_whole() -> None:
    names = names_from_prompt(SYSTEM)
    said = (
        "one of the ladies recommended a novel called The Thirteenth Story. Before I commit to "
        "buying it, could you tell me what it is about?"
    )
    assert asked_alone(said, names, _is_title) is None
    assert asked_alone("Big fan of the app. Could you add Circe to TBR", names, _is_title)


@pytest.mark.parametrize(
    "said",
    [
        # dev10: the new grade of a rating the telling gave
        "On reflection Lucky Jim deserves one star less than I gave it. Make it three.",
        "Thinking about it more, Dune was better than I said. Make that five stars.",
        "Rebecca has grown on me since I rated it. Change it to 4.",
        # dev11: a correction asked of "its" field after what is wrong was told
        "Fun Home is a graphic memoir - can you change its category to Comics & Graphic Novels?",
        "Persuasion is a novel, not poetry. Could you update its category to Fiction?",
        "Dune was written in English - please change its language to English.",
    ],
)
def test_a_request_of_what_was_told_is_read_whole(said: str) -> None:
    assert book_request(said) is None
