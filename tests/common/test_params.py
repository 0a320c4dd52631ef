"""The one parser of ids and small numbers from query strings and forms."""

import pytest
from django.http import Http404

from common.params import ID_MAX, id_or_404, parse_id, parse_int

NOT_NUMBERS = [
    "",
    " ",
    "²",
    "١٢",
    "１２",
    "12²",
    "+5",
    "-1",
    " 12",
    "12 ",
    "1_000",
    "0x1F",
    "1e3",
    "3.5",
    "x\x00",
    None,
    [],
    3.0,
    True,
    "9" * 41,
]


@pytest.mark.parametrize("value", NOT_NUMBERS)
def test_anything_but_ascii_digits_is_no_number(value):
    assert parse_int(value) is None
    assert parse_int(value, default=7) == 7
    assert parse_id(value) is None
    with pytest.raises(Http404):
        id_or_404(value)


@pytest.mark.parametrize(("value", "number"), [("0", 0), ("12", 12), ("007", 7), (12, 12)])
def test_ascii_digits_are_a_number(value, number):
    assert parse_int(value) == number


def test_a_maximum_caps_the_number():
    assert parse_int("5000", maximum=80) == 80


@pytest.mark.parametrize("value", ["0", str(ID_MAX + 1), "9" * 40])
def test_an_id_is_positive_and_fits_a_database_column(value):
    assert parse_id(value) is None


def test_an_id_in_ascii_digits_is_found():
    assert id_or_404("42") == 42 and parse_id(str(ID_MAX)) == ID_MAX
