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
    as text (``@``), so a number typed there in LibreOffice or Excel keeps its
    leading zero too. Active and guest as the words ja/nee (yes/no in English),
    not true/false cells: LibreOffice and Excel save those as ``=TRUE()``
    formulas, and a word reads the same everywhere. A text starting with
    ``=``, ``+``, ``-`` or ``@`` is written as a string cell with Excel's
    quote prefix, so no spreadsheet reads it as a
    formula, not even after the cell is edited; the value itself is unchanged.
CSV
    UTF-8 with a byte-order mark, so Excel shows accents right; ``;`` between
    fields, as Dutch Excel (decimal comma) expects, and CRLF line ends; active
    and guest as ja/nee (yes/no in English). A CSV cell has no "text" type, so a
    value starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets
    a leading apostrophe (the OWASP advice against CSV injection; a phone number
    "+31 6 ..." shows as "'+31 6 ..."). The importer drops that apostrophe again.
"""

import csv
import io

from django.utils.translation import gettext as _

from .imports import FIELDS, FORMULA_TRIGGERS, column_titles

CSV_DELIMITER = ";"
TEXT_COLUMNS = ("membership_number", "phone")  # digits that must stay text
CSV_TRIGGERS = (*FORMULA_TRIGGERS, "\t", "\r")
MIN_WIDTH, MAX_WIDTH = 8, 50


def _rows(members):
    for member in members:
        yield [getattr(member, name) for name in FIELDS]


def members_xlsx(members) -> bytes:
    """The members as an .xlsx workbook, one row each, in the order given."""
    from openpyxl import Workbook
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    workbook = Workbook()
    sheet = workbook.active
    sheet.title = _("Members")[:31]
    titles = list(column_titles().values())
    sheet.append(titles)
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    widths = [len(title) for title in titles]
    for values in _rows(members):
        row = []
        for index, value in enumerate(values):
            if isinstance(value, bool):
                value = _("yes") if value else _("no")
            if isinstance(value, str):
                # openpyxl refuses control characters; the importer never stores them.
                value = ILLEGAL_CHARACTERS_RE.sub("", value)
                widths[index] = max(widths[index], len(value))
            row.append(None if value == "" else value)  # an empty cell, not an empty text
        sheet.append(row)
        for index, cell in enumerate(sheet[sheet.max_row]):
            if isinstance(cell.value, str) and cell.value.startswith(FORMULA_TRIGGERS):
                cell.data_type = "s"  # openpyxl took a leading "=" for a formula
                cell.quotePrefix = True
            if FIELDS[index] in TEXT_COLUMNS:
                cell.number_format = "@"
    for index, width in enumerate(widths, 1):
        column = sheet.column_dimensions[get_column_letter(index)]
        column.width = min(max(width + 2, MIN_WIDTH), MAX_WIDTH)
        if FIELDS[index - 1] in TEXT_COLUMNS:
            column.number_format = "@"  # new cells typed there stay text
    sheet.freeze_panes = "A2"
    sheet.auto_filter.ref = sheet.dimensions
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def _csv_value(value) -> str:
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    text = str(value)
    return "'" + text if text.startswith(CSV_TRIGGERS) else text


def members_csv(members) -> bytes:
    """The members as CSV for Excel: UTF-8 with BOM, ``;``-separated, CRLF."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=CSV_DELIMITER, lineterminator="\r\n")
    writer.writerow(column_titles().values())
    for values in _rows(members):
        writer.writerow([_csv_value(value) for value in values])
    return buffer.getvalue().encode("utf-8-sig")
