"""CSV files for spreadsheets: one writer, with the formula guard done right.

Decisions
---------
Encoding
    UTF-8 with a byte-order mark (Excel shows accents right) and CRLF line ends.
Dialect (one for every CSV file of the site: :func:`dialect`)
    Follows the active language's decimal sign, as a spreadsheet in that
    language expects: in Dutch ``;`` between fields and a decimal comma, in
    English ``,`` and a decimal point. The language is the request's (a view)
    or the command's ``--language`` (else ``settings.LANGUAGE_CODE``). The
    importers read either separator, so a file made in one language imports in
    the other.
Quoting
    A field holding either separator (``,`` or ``;``), a double quote, a line
    break or a tab is quoted, whatever the file's own separator: Dutch Excel
    splits on ``;``, others on ``,``, and neither may split a name in two.
Formula guard (the OWASP advice against CSV injection)
    A text a spreadsheet could run as a formula gets a leading apostrophe: one
    that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return, and
    also one with such a part after a ``,`` or ``;`` (``Jan;=cmd|' /C calc'!A0``:
    a reader that ignores the quotes would make a cell of ``=cmd...``). A text
    that starts with an apostrophe before such a value gets a second one, so
    :func:`unguard` (the importers' inverse) gives back exactly what was written.
    Only texts are guarded: numbers are written as they are (``-12`` stays a
    number), and so is a :class:`Verbatim` text (a formatted number, ``3=``).
"""

import re
from collections.abc import Iterable, Iterator
from typing import NamedTuple

from django.utils.formats import get_format

#: A text starting with one of these is a formula to a spreadsheet.
FORMULA_TRIGGERS = ("=", "+", "-", "@")
#: What a CSV cell must not start with: the formula triggers, a tab, a carriage return.
CSV_TRIGGERS = (*FORMULA_TRIGGERS, "\t", "\r")
SEPARATORS = (",", ";")
_SPLIT = re.compile("[,;]")
_NEEDS_QUOTES = re.compile('[,;"\r\n\t]')
ROWS_PER_CHUNK = 2000


class Dialect(NamedTuple):
    """How a CSV file separates fields and writes a decimal."""

    delimiter: str
    decimal: str


def dialect() -> Dialect:
    """The CSV dialect of the active language: ``;`` with a decimal comma, ``,`` with a point."""
    decimal = get_format("DECIMAL_SEPARATOR")
    return Dialect(delimiter=";" if decimal == "," else ",", decimal=decimal)


class Verbatim(str):
    """A text written as it is, never guarded: a formatted number (``-12,5``, ``3=``)."""

    __slots__ = ()


def needs_guard(text: str) -> bool:
    """True when a spreadsheet could read ``text`` (or a part of it after a ``,`` or
    ``;``) as a formula, or when ``text`` is an apostrophe before such a value."""
    if any(part.startswith(CSV_TRIGGERS) for part in _SPLIT.split(text)):
        return True
    return text.startswith("'") and needs_guard(text[1:])


def guard(text: str) -> str:
    """``text`` with the leading apostrophe that keeps a spreadsheet from running it."""
    return "'" + text if needs_guard(text) else text


def unguard(text: str) -> str:
    """The inverse of :func:`guard`: what an import of our own CSV file should store."""
    return text[1:] if text.startswith("'") and needs_guard(text[1:]) else text


def field(value) -> str:
    """One CSV field: empty for None, a text guarded, everything quoted that holds a
    separator, a quote or a line break."""
    if value is None:
        text = ""
    elif isinstance(value, Verbatim) or not isinstance(value, str):
        text = str(value)
    else:
        text = guard(value)
    if _NEEDS_QUOTES.search(text):
        return '"' + text.replace('"', '""') + '"'
    return text


def line(values: Iterable, *, delimiter: str) -> str:
    """One row of fields, with its CRLF."""
    return delimiter.join(field(value) for value in values) + "\r\n"


def csv_lines(header: Iterable, rows: Iterable[Iterable]) -> Iterator[str]:
    """The file as text, a chunk of rows at a time (the first chunk starts with the
    byte-order mark and the header), for a streaming response. The dialect is the
    active language's at the call (:func:`dialect`), not when the chunks are read."""
    delimiter = dialect().delimiter

    def chunks():
        chunk = ["\ufeff", line(header, delimiter=delimiter)]
        for count, row in enumerate(rows, 1):
            chunk.append(line(row, delimiter=delimiter))
            if count % ROWS_PER_CHUNK == 0:
                yield "".join(chunk)
                chunk = []
        yield "".join(chunk)

    return chunks()


def csv_bytes(header: Iterable, rows: Iterable[Iterable]) -> bytes:
    """The whole file: UTF-8 with a byte-order mark, CRLF, the active language's dialect."""
    return "".join(csv_lines(header, rows)).encode("utf-8")
