"""A reaction before a request ("ok sold. add it to Autumn") leads it without being a title.

From dev19: after "tell me about The Secret History", "ok sold. add it to my Autumn list"
added the catalog's *Sold* (a one-word lower-case title said before "it"). "Sold",
"convinced", "hooked" after an interjection are the reader's verdict on what was shown.
"""

from __future__ import annotations

import pytest

from lectern.adapters.llm.rule_policy import _LEAD_FILLER


@pytest.mark.parametrize(
    ("said", "asked"),
    [
        ("ok sold. add it to my Autumn list", "add it to my Autumn list"),
        ("alright, convinced! put it on TBR", "put it on TBR"),
        ("yeah I'm sold, add it to Summer", "add it to Summer"),
        ("okay I'm hooked. rate it 5 stars", "rate it 5 stars"),
        ("yep, in. stick it on my Winter list", "stick it on my Winter list"),
        ("fine, persuaded; add it to the pile", "add it to the pile"),
    ],
)
def test_a_reaction_leads_the_request(said: str, asked: str) -> None:
    assert _LEAD_FILLER.sub("", said) == asked


@pytest.mark.parametrize(
    "said",
    [
        "sold is great, add it to Autumn",  # no interjection: the words may name the book
        "ok add Sold to Autumn",
        "ok in the Autumn list put Dune",
    ],
)
def test_a_title_or_a_place_is_not_a_reaction(said: str) -> None:
    assert _LEAD_FILLER.sub("", said).split()[0].casefold() in {"sold", "add", "in"}
