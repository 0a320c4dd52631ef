"""One rounding of averages: half up on the exact value, the language's decimal sign."""

import datetime
from decimal import Decimal
from fractions import Fraction

import pytest
from django.utils import translation

from common.formatting import (
    average_value,
    date_text,
    date_written,
    day_text,
    format_average,
    round_half_up,
)


@pytest.mark.parametrize(
    ("value", "rounded"),
    [
        (Fraction(162508, 100), "1625.1"),
        (Fraction(32501, 20), "1625.1"),  # exactly 1625.05
        (1625.05, "1625.1"),  # a float as written, not the binary number below it
        (1625.04, "1625.0"),
        (Fraction(1, 3), "0.3"),
        (Fraction(2, 3), "0.7"),
        (0, "0.0"),
        (1625, "1625.0"),
        (-2.25, "-2.3"),  # half away from zero
        (Decimal("2.675"), "2.7"),
    ],
)
def test_an_average_is_rounded_half_up_to_one_decimal(value, rounded):
    assert average_value(value) == Decimal(rounded)
    assert str(average_value(value)) == rounded


def test_more_decimals():
    assert round_half_up(Fraction(1, 8), 2) == Decimal("0.13")


def test_the_average_is_written_with_the_languages_decimal_sign():
    with translation.override("nl"):
        assert format_average(Fraction(162508, 100)) == "1625,1"
        assert format_average(123456) == "123456,0"  # no grouping
    with translation.override("en"):
        assert format_average(Fraction(162508, 100)) == "1625.1"


@pytest.mark.parametrize(
    ("language", "day", "date"),
    [
        ("nl", "di 8 dec 2026", "8 december 2026"),
        ("en", "Tue 8 Dec 2026", "Dec. 8, 2026"),
    ],
)
def test_dates_in_files_are_written_in_the_language(language, day, date):
    value = datetime.date(2026, 12, 8)
    with translation.override(language):
        assert (day_text(value), date_text(value)) == (day, date)
    assert day_text(None) == date_text(None) == ""


@pytest.mark.parametrize("language", ["nl", "en"])
@pytest.mark.parametrize("decimals", [0, 1, 2])
def test_a_decimal_is_written_as_djangos_number_format_writes_its_rounded_value(language, decimals):
    from django.utils.formats import number_format

    from common.formatting import format_decimal

    values = [Fraction(n, d) for n in range(-3001, 3002, 37) for d in (1, 3, 7, 20, 40, 48)]
    values += [0, 5, -5, 123456, 1625.05, -2.25, Decimal("2.675")]
    with translation.override(language):
        for value in values:
            expected = number_format(
                round_half_up(value, decimals), decimals, use_l10n=True, force_grouping=False
            )
            assert format_decimal(value, decimals) == expected, value


@pytest.mark.parametrize(
    ("language", "pattern", "written"),
    [
        ("nl", "j M", "1 dec"),
        ("en", "j M", "1 Dec"),
        ("nl", "j M Y H:i", "1 dec 2026 20:15"),
        ("nl", "D j M Y", "di 1 dec 2026"),
        ("nl", r"j \M M", "1 M dec"),
    ],
)
def test_a_short_month_is_written_in_the_case_of_the_language(language, pattern, written):
    value = datetime.datetime(2026, 12, 1, 20, 15)
    with translation.override(language):
        assert date_written(value, pattern) == written
    assert date_written(None, pattern) == ""


def test_the_dated_filter_writes_dutch_months_in_lower_case():
    from django.template import Context, Template

    template = Template('{% load dates %}{{ day|dated:"j M" }}')
    with translation.override("nl"):
        assert template.render(Context({"day": datetime.date(2026, 12, 1)})) == "1 dec"
