import pytest
from hypothesis import given
from hypothesis import strategies as st

from lectern.domain.normalize import (
    isbn10_to_isbn13,
    isbn13_to_isbn10,
    normalize_isbn10,
    normalize_isbn13,
    parse_isbn_query,
)


def test_lost_leading_zero_is_restored_and_flagged() -> None:
    result = normalize_isbn10("439023483")
    assert result.value == "0439023483"
    assert result.repaired


def test_two_lost_zeros_are_restored() -> None:
    # goodbooks row "The Diary of a Young Girl": isbn 553296981 -> 0553296981
    assert normalize_isbn10("61120081").value == "0061120081"


def test_x_check_digit_is_accepted_in_either_case() -> None:
    assert normalize_isbn10("043965548X").value == "043965548X"
    assert normalize_isbn10("043965548x").value == "043965548X"


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("0439023484", "isbn10_bad_check_digit"),
        ("12345", "isbn10_too_short"),
        ("04390X3483", "isbn10_malformed"),
        ("abc", "isbn10_malformed"),
        ("4.39023483e8", "isbn10_malformed"),
    ],
)
def test_invalid_isbn10_is_dropped_with_reason(raw: str, reason: str) -> None:
    result = normalize_isbn10(raw)
    assert result.value is None
    assert result.reason == reason


def test_empty_isbn_is_not_an_error() -> None:
    assert normalize_isbn10("  ").reason is None
    assert normalize_isbn13(None).reason is None


def test_isbn13_hyphens_and_spaces_are_ignored() -> None:
    assert normalize_isbn13("978-0-439-02348-1").value == "9780439023481"
    assert normalize_isbn13(" 978 0439023481 ").value == "9780439023481"


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("9.78043902348e+12", "isbn13_float_lost_digits"),
        ("9780439023480", "isbn13_bad_check_digit"),
        ("978043902348", "isbn13_wrong_length"),
        ("1234567890123", "isbn13_bad_prefix"),
        ("97804390234X1", "isbn13_malformed"),
    ],
)
def test_invalid_isbn13_is_dropped_with_reason(raw: str, reason: str) -> None:
    assert normalize_isbn13(raw) == normalize_isbn13(raw)
    assert normalize_isbn13(raw).value is None
    assert normalize_isbn13(raw).reason == reason


def test_isbn13_is_derived_from_isbn10() -> None:
    assert isbn10_to_isbn13("0439023483") == "9780439023481"
    assert isbn10_to_isbn13("043965548X") == "9780439655484"


def test_979_isbn13_has_no_isbn10() -> None:
    assert isbn13_to_isbn10("9791032305690") is None
    assert isbn13_to_isbn10("9780439023481") == "0439023483"


def test_parse_isbn_query_accepts_user_forms() -> None:
    assert parse_isbn_query("978-0-439-02348-1") == ("isbn13", "9780439023481")
    assert parse_isbn_query("0-439-02348-3") == ("isbn10", "0439023483")
    assert parse_isbn_query("9780439023480") is None
    assert parse_isbn_query("hello") is None


nine_digits = st.text(alphabet="0123456789", min_size=9, max_size=9)


@given(nine_digits)
def test_any_isbn10_built_with_its_check_digit_validates(first9: str) -> None:
    from lectern.domain.normalize.isbn import _isbn10_check_digit

    isbn = first9 + _isbn10_check_digit(first9)
    assert normalize_isbn10(isbn).value == isbn
    assert normalize_isbn13(isbn10_to_isbn13(isbn)).value == isbn10_to_isbn13(isbn)
    assert isbn13_to_isbn10(isbn10_to_isbn13(isbn)) == isbn


@given(nine_digits, st.integers(0, 8), st.integers(1, 9))
def test_changing_one_digit_breaks_both_check_digits(first9: str, pos: int, delta: int) -> None:
    from lectern.domain.normalize.isbn import _isbn10_check_digit

    good10 = first9 + _isbn10_check_digit(first9)
    bad10 = good10[:pos] + str((int(good10[pos]) + delta) % 10) + good10[pos + 1 :]
    assert normalize_isbn10(bad10).value is None
    good13 = isbn10_to_isbn13(good10)
    bad13 = good13[: pos + 3] + str((int(good13[pos + 3]) + delta) % 10) + good13[pos + 4 :]
    assert normalize_isbn13(bad13).value is None
