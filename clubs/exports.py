"""The member list as a file: .xlsx and CSV. Members in, bytes out; no requests.

Both files have the columns the importer reads (name, membership number,
e-mail, phone, active, guest), titled in the current language, so an export
imports back into any club of the site (see ``clubs.imports``).

Decisions
---------
.xlsx
    One sheet, the title row bold and frozen (``A2``) with a filter on it,
    columns as wide as their longest value (between 8 and 50 characters).
    Texts as text (a membership number "0012" keeps its zeros; an empty field
    is an empty cell); the membership number and phone columns are formatted
    as text (``@``) as columns, so every row is, also the empty ones below the
    list where a secretary types a new member, and so is each of their cells,
    an empty one too: a number typed there in LibreOffice or Excel keeps its
    leading zero (tests/clubs/fixtures has LibreOffice's re-saves). Active and
    guest as the words ja/nee (yes/no in English), not true/false cells:
    LibreOffice and Excel save those as ``=TRUE()`` formulas, and a word reads
    the same everywhere. A text starting with ``=``, ``+``, ``-`` or ``@`` is
    written as a string cell with Excel's quote prefix, so no spreadsheet reads
    it as a formula, not even after the cell is edited; the value itself is
    unchanged.
CSV
    UTF-8 with a byte-order mark, so Excel shows accents right; the site's one
    dialect (``;`` between fields in Dutch, ``,`` in English: see
    :func:`common.csvfile.dialect`) and CRLF line ends; active
    and guest as ja/nee (yes/no in English). A CSV cell has no "text" type, so a
    value a spreadsheet could run as a formula gets a leading apostrophe, and a
    value holding ``,`` or ``;`` is quoted (see :mod:`common.csvfile`; a phone
    number "+31 6 ..." shows as "'+31 6 ..."). The importer drops that
    apostrophe again. Nor can a CSV say that 0045 is text: a spreadsheet that
    opens it with "Standard" columns reads 45, and the importer matches that
    to 0045 again (see ``clubs.imports``, "Leading zeros").

Both files are written by the one writer layer, :mod:`common.xlsxfile` and
:mod:`common.csvfile`.
"""

from django.utils.translation import gettext as _

from common.csvfile import csv_bytes
from common.xlsxfile import XlsxWriter, table_sheet

from .imports import FIELDS, column_titles

TEXT_COLUMNS = ("membership_number", "phone")  # digits that must stay text


def _rows(members):
    for member in members:
        yield [getattr(member, name) for name in FIELDS]


def members_xlsx(members) -> bytes:
    """The members as an .xlsx workbook, one row each, in the order given."""
    out = XlsxWriter()
    text_columns = [FIELDS.index(name) for name in TEXT_COLUMNS]
    rows = ([_csv_value(value) for value in row] for row in _rows(members))
    table_sheet(out, _("Members"), column_titles().values(), rows, text_columns=text_columns)
    return out.save()


def _csv_value(value):
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return value


def members_csv(members) -> bytes:
    """The members as CSV for Excel: UTF-8 with BOM, the active language's dialect, CRLF."""
    rows = ([_csv_value(value) for value in values] for values in _rows(members))
    return csv_bytes(column_titles().values(), rows)
