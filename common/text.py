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
  calls ``full_clean``, all use it);
- :func:`validate_club_slug` is the one validator of a club's short name in
  links, on the model field likewise: not a word the site's own addresses use.
"""

import re
import unicodedata
from functools import lru_cache

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


#: Short names kept for the site's own addresses besides those its URL conf has
#: today (:func:`reserved_slugs` adds every literal segment of those).
RESERVED_SLUGS = frozenset({"admin", "api", "media", "static", "www"})
#: The URL parameters that carry a club's short name.
_CLUB_PARAMETERS = ("<slug:club>", "<str:club>")
_LITERAL = re.compile(r"[-\w.]+")


def _routes(patterns, prefix=""):
    from django.urls import URLResolver

    for pattern in patterns:
        route = prefix + str(pattern.pattern).removeprefix("^")
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, route)
        else:
            yield route


def reserved_slugs() -> set[str]:
    """The words a club's short name may not be: :data:`RESERVED_SLUGS`, the
    static and media folders, and every literal segment of the URL conf where a
    short name could stand: the first of every address (``accounts``,
    ``new-club``, ``import-club``, ...) and, after the segments that lead to a
    club (``clubs/``), the one in the club's place. Read from the URL conf each
    time, so a new page is covered the day it is added."""
    from django.conf import settings
    from django.urls import get_resolver

    routes = [route.split("/") for route in _routes(get_resolver().url_patterns)]
    club_prefixes = {
        tuple(parts[:index])
        for parts in routes
        for index, part in enumerate(parts)
        if part in _CLUB_PARAMETERS
    }
    reserved = set(RESERVED_SLUGS)
    for parts in routes:
        positions = [0] + [len(p) for p in club_prefixes if tuple(parts[: len(p)]) == p]
        reserved.update(
            parts[i].casefold()
            for i in positions
            if i < len(parts) and _LITERAL.fullmatch(parts[i])
        )
    for url in (settings.STATIC_URL, settings.MEDIA_URL):
        reserved.add((url or "").strip("/").split("/")[0].casefold())
    reserved.discard("")
    return reserved


def validate_club_slug(value):
    """The one check of a club's short name in links (beyond a slug's characters):
    a letter or digit in it, and not one of the site's own words
    (:func:`reserved_slugs`)."""
    value = str(value)
    if not any(char.isascii() and char.isalnum() for char in value):
        raise ValidationError(
            _("A short name needs at least one letter or digit."), code="no_letter"
        )
    if value.casefold() in reserved_slugs():
        raise ValidationError(
            _("%(slug)s is a word of the site's own addresses; choose another short name."),
            code="reserved",
            params={"slug": value},
        )


@lru_cache(maxsize=8192)
def name_key(name: str) -> str:
    """A name as compared: ignoring case, accents' composition (NFC) and spacing, so
    "Jan  de Vries" and "jan de vries" are one name (a member's, in both importers)."""
    return " ".join(unicodedata.normalize("NFC", name).casefold().split())


def _letters(name: str) -> str:
    """A name's letters and digits, without accents, case or spacing."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    return "".join(ch for ch in decomposed if ch.isalnum() and not unicodedata.combining(ch))


def names_close(first: str, second: str, *, typos: bool = True) -> bool:
    """True when two names differ only in accents, case, spacing or punctuation
    (Renee, Renée, René-e), or, with at least 5 letters, in one letter typed wrong,
    left out, added or swapped with its neighbour (Janssen, Jansen, Jnassen): a
    name a person would take for the other. Without ``typos`` only the first kind
    (two new players of one file, Speler 721 and Speler 722, are often one letter apart)."""
    a, b = _letters(first), _letters(second)
    if a == b:
        return bool(a)
    if not typos:
        return False
    if min(len(a), len(b)) < 5 or abs(len(a) - len(b)) > 1:
        return False
    return _one_edit_apart(a, b)


def _one_edit_apart(a: str, b: str) -> bool:
    """At most one substitution, insertion, deletion or swap of neighbours."""
    if len(a) > len(b):
        a, b = b, a
    start = 0
    while start < len(a) and a[start] == b[start]:
        start += 1
    if len(a) == len(b):
        if a[start + 1 :] == b[start + 1 :]:
            return True  # one letter typed wrong
        return (
            a[start : start + 2] == b[start : start + 2][::-1] and a[start + 2 :] == b[start + 2 :]
        )
    return a[start:] == b[start + 1 :]  # one letter added
