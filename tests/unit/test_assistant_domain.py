import pytest

from lectern.domain.assistant import (
    FieldDiff,
    args_digest,
    book_source,
    cite,
    field_diff,
    parse_citations,
    validate_citations,
)
from lectern.domain.library import check_stars, clean_list_name, clean_note, same_list_name
from lectern.domain.privacy import PiiFinding, mask, masked_notice
from lectern.errors import InvalidQueryError


def test_digest_is_over_canonical_json_and_sees_every_change() -> None:
    a = args_digest("rate_book", {"book_id": "x", "stars": 4, "review": None})
    b = args_digest("rate_book", {"review": None, "stars": 4, "book_id": "x"})
    assert a == b and len(a) == 64
    assert args_digest("rate_book", {"book_id": "x", "stars": 5, "review": None}) != a
    assert args_digest("add_to_list", {"book_id": "x", "stars": 4, "review": None}) != a


def test_field_diff_lists_changed_fields_only() -> None:
    assert field_diff({"name": "A", "books": 2}, {"name": "B", "books": 2}) == (
        FieldDiff("name", "A", "B"),
    )
    assert field_diff(None, {"stars": 4}) == (FieldDiff("stars", None, 4),)
    assert field_diff({"stars": 4}, None) == (FieldDiff("stars", 4, None),)


def test_citations_must_be_literal_in_this_turns_sources() -> None:
    source = book_source("b1", "description")
    evidence = {source: "Set on the desert planet   Arrakis, Dune is a story."}
    text = (
        f"It is set on Arrakis: {cite('the desert planet arrakis', source)}. "
        f"Also {cite('a planet of water', source)} and "
        f"{cite('Arrakis', book_source('b2', 'description'))}."
    )
    checked = validate_citations(text, evidence)
    assert [c.snippet for c in checked.citations] == ["the desert planet arrakis"]
    assert checked.dropped == 2
    assert "a planet of water" not in checked.text and "b2" not in checked.text
    assert parse_citations(checked.text)[0].source == source


def test_masking_replaces_findings_and_says_what() -> None:
    text = "mail me at a@b.org or call 555-0100"
    masked = mask(text, [PiiFinding("EMAIL_ADDRESS", 11, 18), PiiFinding("PHONE_NUMBER", 27, 35)])
    assert masked.text == "mail me at <EMAIL_ADDRESS> or call <PHONE_NUMBER>"
    assert masked_notice(masked.kinds) == (
        "(I masked an email address and a phone number in your message before processing it.)"
    )
    overlapping = mask(
        "123-45-6789", [PiiFinding("US_SSN", 0, 11), PiiFinding("PHONE_NUMBER", 4, 11)]
    )
    assert overlapping.text == "<US_SSN>"


def test_library_rules() -> None:
    assert clean_list_name("  Autumn   reads ") == "Autumn reads"
    assert same_list_name("autumn READS", "Autumn reads")
    assert clean_note("   ") is None
    assert check_stars(5) == 5
    for bad in (0, 6, True):
        with pytest.raises(InvalidQueryError):
            check_stars(bad)
    with pytest.raises(InvalidQueryError):
        clean_list_name("   ")
    with pytest.raises(InvalidQueryError):
        clean_list_name("x" * 81)
