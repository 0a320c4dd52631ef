"""Ids and small numbers from query strings and form posts: one parser.

A value counts as a number only when it is ASCII digits and nothing else:
``"12"`` is 12; ``" 12"``, ``"+5"``, ``"1_000"``, ``"²"``, ``"١٢"`` and fullwidth
``"１２"`` are not numbers. (``str.isdigit()`` is true for ``"²"``, on which
``int()`` fails, and ``int()`` itself reads Arabic-Indic and fullwidth digits:
neither is the test for a value typed into an address bar.)

Views call :func:`id_or_404` for an id that names an object (no such id and no
id at all are the same "not found") and :func:`parse_int` where a missing or
malformed value falls back to a default.
"""

import re

from django.http import Http404

#: The largest id a database column holds (a signed 64-bit integer).
ID_MAX = 2**63 - 1
_ASCII_DIGITS = re.compile(r"[0-9]+")


def parse_int(value, *, default=None, maximum=None):
    """The whole number ``value`` spells in ASCII digits, else ``default``.

    Above ``maximum`` (when given) is ``maximum``: a page that shows at most 999
    rows shows 999 when asked for a million. ``value`` may be anything a query
    string, a form or a JSON body holds; an ``int`` (not a ``bool``) is taken
    as it is when it is not negative.
    """
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        number = value
    elif isinstance(value, str) and len(value) <= 40 and _ASCII_DIGITS.fullmatch(value):
        number = int(value)
    else:
        return default
    return number if maximum is None else min(number, maximum)


def parse_id(value):
    """The id ``value`` names (a positive integer a database can hold), else None."""
    number = parse_int(value)
    if number is None or not 1 <= number <= ID_MAX:
        return None
    return number


def id_or_404(value) -> int:
    """The id ``value`` names; anything else (missing, not ASCII digits, out of
    range) is a 404, as an id that names no object."""
    number = parse_id(value)
    if number is None:
        raise Http404
    return number
