"""Text that may reach a query, a file or a page: one definition of "a clean line".

A control character (Unicode category ``Cc``: NUL, tab, line feed, carriage
return, escape, DEL and the C1 range) or a line/paragraph separator has no place
in a name or an id: PostgreSQL refuses NUL in text, a line break splits a CSV
row for many readers, and openpyxl refuses most control characters in a cell.

- :func:`has_control_character` is the test;
- :func:`clean_line` is for values used before any form has checked them (an
  id looked up in the database): the value, or None;
- :func:`validate_member_name` is the one validator of a member's name, on the
  model field (so forms, model forms, the admin and the member import, which
  calls ``full_clean``, all use it).
"""

import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

#: The longest member name (the model field's ``max_length``).
MEMBER_NAME_MAX = 120
_SEPARATORS = {"Cc", "Zl", "Zp"}


def has_control_character(text: str) -> bool:
    """True when ``text`` holds a control character or a line/paragraph separator."""
    return any(unicodedata.category(char) in _SEPARATORS for char in text)


def clean_line(value, *, max_length: int):
    """``value`` when it is a non-empty text of at most ``max_length`` characters
    with no control character, else None (for a value used before a form checks
    it, such as an id that is looked up first)."""
    if not isinstance(value, str) or not value or len(value) > max_length:
        return None
    if has_control_character(value):
        return None
    return value


def validate_one_line(value):
    """A Django validator: no line break, tab, NUL or other control character."""
    if has_control_character(str(value)):
        raise ValidationError(
            _("Keep it on one line: no line break, tab or other control character."),
            code="control_character",
        )


def validate_member_name(value):
    """The one check of a member's name: one line, not only spaces.

    Surrounding spaces are stripped by the forms, the importer and
    ``Member.clean()``; the length is the field's ``max_length``
    (:data:`MEMBER_NAME_MAX`), whose own validator says so."""
    value = str(value)
    if has_control_character(value):
        raise ValidationError(
            _("The name holds a line break, tab or other control character; keep it on one line."),
            code="control_character",
        )
    if not value.strip():
        raise ValidationError(_("A member needs a name."), code="blank")
