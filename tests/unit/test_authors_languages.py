import pytest

from lectern.domain.normalize import (
    author_surname,
    fold,
    is_iso_639_1,
    normalize_language,
    split_authors,
    split_hyphenated_authors,
)


def test_goodbooks_authors_split_on_comma_with_roles_moved_aside() -> None:
    parsed = split_authors("J.K. Rowling, Mary GrandPré (Illustrator)", ",")
    assert parsed.names == ("J.K. Rowling", "Mary GrandPré")
    assert parsed.roles == {"Mary GrandPré": "illustrator"}


def test_name_suffix_stays_with_its_name() -> None:
    parsed = split_authors("Martin Luther King, Jr., Coretta Scott King", ",")
    assert parsed.names == ("Martin Luther King, Jr.", "Coretta Scott King")


def test_semicolon_authors_and_whitespace_collapse() -> None:
    parsed = split_authors("Charles  Osborne;Agatha Christie ; ", ";")
    assert parsed.names == ("Charles Osborne", "Agatha Christie")


def test_parenthesis_that_is_not_a_role_is_kept() -> None:
    parsed = split_authors("Thomas (Aquinas)", ";")
    assert parsed.names == ("Thomas (Aquinas)",)
    assert parsed.roles == {}


def test_several_roles_and_goodreads_author_marker() -> None:
    parsed = split_authors(
        "Neil Gaiman (Goodreads Author), Dave McKean (Illustrator, Cover Artist)", ","
    )
    assert parsed.names == ("Neil Gaiman", "Dave McKean")
    assert parsed.roles == {"Dave McKean": "illustrator, cover artist"}


def test_hyphenated_first_name_joins_the_next_fragment() -> None:
    parsed = split_hyphenated_authors("Jean-Paul Sartre-Carol Cosman", frozenset())
    assert parsed.names == ("Jean-Paul Sartre", "Carol Cosman")


def test_plain_hyphen_separated_authors() -> None:
    parsed = split_hyphenated_authors("J.K. Rowling-Mary GrandPré", frozenset())
    assert parsed.names == ("J.K. Rowling", "Mary GrandPré")


def test_known_names_win_over_the_heuristic() -> None:
    # Without knowledge, "Homer" would be read as the first half of a hyphenated name.
    known = frozenset({fold("Homer"), fold("Robert Fagles")})
    assert split_hyphenated_authors("Homer-Robert Fagles", known).names == (
        "Homer",
        "Robert Fagles",
    )
    assert split_hyphenated_authors("Homer-Robert Fagles", frozenset()).names == (
        "Homer-Robert Fagles",
    )


def test_hyphenated_surname_at_the_end_stays_joined_when_known() -> None:
    known = frozenset({fold("Catherine Zeta-Jones")})
    parsed = split_hyphenated_authors("Catherine Zeta-Jones", known)
    assert parsed.names == ("Catherine Zeta-Jones",)


def test_hostile_author_strings_do_not_explode() -> None:
    long = "-".join(["A B"] * 40)
    assert split_hyphenated_authors(long, frozenset()).names
    assert split_hyphenated_authors("---", frozenset()).names == ()
    assert split_authors("", ",").names == ()


def test_surname() -> None:
    assert author_surname("Suzanne Collins") == "collins"
    assert author_surname("Martin Luther King, Jr.") == "king"
    assert author_surname("Gabriel García Márquez") == "marquez"


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("eng", "en"),
        ("en-US", "en"),
        ("en-GB", "en"),
        ("en-CA", "en"),
        ("EN", "en"),
        ("spa", "es"),
        ("fre", "fr"),
        ("fra", "fr"),
        ("ger", "de"),
        ("deu", "de"),
        ("jpn", "ja"),
        ("ara", "ar"),
        ("nl", "nl"),
        ("per", "fa"),
        ("rum", "ro"),
    ],
)
def test_language_codes_map_to_iso_639_1(raw: str, code: str) -> None:
    assert normalize_language(raw) == (code, None)


def test_unmappable_languages_give_reasons() -> None:
    assert normalize_language("mul") == (None, "language_not_single")
    assert normalize_language("grc") == (None, "language_unmapped")
    assert normalize_language("") == (None, None)
    assert normalize_language("x" * 500) == (None, "language_unmapped")


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("mal", "ml"),  # Malayalam: unmapped by the old hand-kept table
        ("mkd", "mk"),  # Macedonian, terminology code
        ("mac", "mk"),  # Macedonian, bibliographic code
        ("bel", "be"),  # Belarusian
        ("nep", "ne"),
        ("sin", "si"),
        ("tib", "bo"),
        ("bos", "bs"),
        ("cmn", "zh"),  # Mandarin, the main member of macrolanguage Chinese
        ("arb", "ar"),  # Standard Arabic
        ("iw", "he"),  # deprecated two-letter codes take their replacement
        ("in", "id"),
        ("mal-IN", "ml"),
    ],
)
def test_codes_the_hand_kept_table_missed_now_map(raw: str, code: str) -> None:
    assert normalize_language(raw) == (code, None)


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("fil", "tl"),
        ("tgl", "tl"),
        ("tl", "tl"),
        ("enm", "en"),
        ("frm", "fr"),
        ("gmh", "de"),
        ("tw", "tw"),
    ],
)
def test_catalog_choices_the_library_would_change_are_kept(raw: str, code: str) -> None:
    assert normalize_language(raw) == (code, None)


def test_iso_639_1_is_the_current_two_letter_codes() -> None:
    assert is_iso_639_1("en") and is_iso_639_1("ml") and is_iso_639_1("tl")
    assert not is_iso_639_1("eng")
    assert not is_iso_639_1("iw")  # deprecated: "he"
    assert not is_iso_639_1("xx")
    assert not is_iso_639_1("")
