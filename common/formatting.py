"""Numbers and dates as people read them: one rounding, one way to write a decimal
and a date in a file.

Decisions
---------
Rounding
    Half up (away from zero) on the exact value: an average of 1625.05 (a
    fraction of points over games) is 1625.1, 1625.08 is 1625.1, 1625.04 is
    1625.0. A float is taken as it is written (``1625.05`` is the half it looks
    like, not the binary number just below it). The screen, the PDF, the CSV and
    the spreadsheet all show this rounded value; ``round()`` (half to even, on the
    binary value) and ``number_format`` (which cuts the digits off) are not used
    for it.
Writing
    In the active language's decimal sign (a comma in Dutch), no grouping.
Dates written as text in a file (a PDF, a title line of a spreadsheet)
    As the site's pages write them, in the active language, through Django's
    formats: :func:`date_text` "8 december 2026" (``DATE_FORMAT``),
    :func:`day_text` "di 8 dec 2026" (an evening: the weekday matters). Never
    ``06-10-2026``. A date that is data (a spreadsheet's date column, the hand
    log's ``YYYY-MM-DD``) stays a date.
Short months
    A month's abbreviation takes the case of the language's month names: "8 dec"
    in Dutch, "8 Dec" in English. Django's ``M`` capitalises it in every language,
    so pages and tables write a format with ``M`` through :func:`date_written`
    (in templates the ``dated`` filter, ``common.templatetags.dates``).
"""

import re
from decimal import Decimal
from fractions import Fraction

from django.utils.dates import MONTHS, MONTHS_3
from django.utils.formats import date_format, get_format

#: Decimals of an average (points per game) everywhere it is shown.
AVERAGE_DECIMALS = 1


def _exact(value) -> Fraction:
    if isinstance(value, float):
        return Fraction(repr(value))
    return Fraction(value)


def _units_half_up(value, decimals: int) -> int:
    """``value`` in units of ``10 ** -decimals``, rounded half away from zero (in integers:
    a standings page writes hundreds of averages)."""
    exact = _exact(value)
    numerator, denominator = abs(exact.numerator) * 10**decimals, exact.denominator
    units = (2 * numerator + denominator) // (2 * denominator)
    return -units if exact < 0 else units


def round_half_up(value, decimals: int) -> Decimal:
    """``value`` (int, Fraction, Decimal or float) rounded half away from zero."""
    return Decimal(_units_half_up(value, decimals)).scaleb(-decimals)


def format_decimal(value, decimals: int) -> str:
    """``value`` rounded half up, written with the active language's decimal sign (no
    grouping): what ``number_format`` writes of :func:`round_half_up`."""
    units = _units_half_up(value, decimals)
    whole, part = divmod(abs(units), 10**decimals)
    sign = "-" if units < 0 else ""
    if not decimals:
        return f"{sign}{whole}"
    return f"{sign}{whole}{get_format('DECIMAL_SEPARATOR')}{part:0{decimals}d}"


def average_value(value) -> Decimal:
    """An average as every file and page shows it (one decimal, half up)."""
    return round_half_up(value, AVERAGE_DECIMALS)


def format_average(value) -> str:
    return format_decimal(value, AVERAGE_DECIMALS)


def date_text(value) -> str:
    """A date as the site writes it in the active language ("8 december 2026"); empty for None."""
    return date_format(value, "DATE_FORMAT") if value else ""


def day_text(value) -> str:
    """A date with its weekday, short: "di 8 dec 2026", "Tue 8 Dec 2026"; empty for None."""
    return date_written(value, "D j M Y")


#: ``M`` in a date format, unless escaped (``\\M``).
_MONTH_ABBREVIATION = re.compile(r"(?<!\\)M")


def date_written(value, pattern: str) -> str:
    """``value`` in Django's date ``format`` (``"j M"``, ``"j M Y H:i"``), with ``M``, the
    month's abbreviation, in the case of the language's month names: "1 dec" in Dutch,
    "1 Dec" in English (Django's own ``M`` writes "Dec" in every language). Empty for None.
    """
    if not value:
        return ""
    month = str(MONTHS_3[value.month])
    if not str(MONTHS[value.month])[:1].islower():
        month = month.title()
    return month.join(
        date_format(value, piece) if piece else "" for piece in _MONTH_ABBREVIATION.split(pattern)
    )
