"""Numbers as people read them: one rounding, one way to write a decimal.

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
"""

from decimal import Decimal
from fractions import Fraction

from django.utils.formats import number_format

#: Decimals of an average (points per game) everywhere it is shown.
AVERAGE_DECIMALS = 1


def _exact(value) -> Fraction:
    if isinstance(value, float):
        return Fraction(repr(value))
    return Fraction(value)


def round_half_up(value, decimals: int) -> Decimal:
    """``value`` (int, Fraction, Decimal or float) rounded half away from zero."""
    exact = _exact(value)
    scale = 10**decimals
    whole, rest = divmod(abs(exact) * scale, 1)
    units = int(whole) + (1 if rest >= Fraction(1, 2) else 0)
    if exact < 0:
        units = -units
    return Decimal(units).scaleb(-decimals)


def format_decimal(value, decimals: int) -> str:
    """``value`` rounded half up, written with the active language's decimal sign."""
    return number_format(
        round_half_up(value, decimals), decimals, use_l10n=True, force_grouping=False
    )


def average_value(value) -> Decimal:
    """An average as every file and page shows it (one decimal, half up)."""
    return round_half_up(value, AVERAGE_DECIMALS)


def format_average(value) -> str:
    return format_decimal(value, AVERAGE_DECIMALS)
