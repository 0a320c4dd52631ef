"""Excel workbooks (.xlsx, openpyxl write-only mode): standings, evening result, hand log.

Decisions
---------
- One sheet per purpose; the header row bold, frozen and filtered; columns as
  wide as their title or longest name.
- Real values: numbers are number cells, dates date cells (``yyyy-mm-dd``), an
  empty value an empty cell. A shared rank is the number with the format
  ``0"="`` (it shows "3=" and sorts as 3); an average is the exact fraction as
  a number shown with one decimal.
- Standings: the club, the title and the ranking settings in plain words stand
  above the table; everything above its header stays in view when scrolling.
- Names starting with ``=``, ``+``, ``-`` or ``@`` are text cells with the quote
  prefix: no spreadsheet runs them as a formula.
- Write-only mode streams the rows, so a 48,000-hand log never sits in memory
  as cells.
"""

import io

from django.utils.translation import gettext as _

from . import FORMULA_TRIGGERS
from .handlog import COLUMNS, TITLES, HandLogRow
from .reports import DECIMAL, RANK, TEXT, Report

SHEET_NAME_MAX = 31
_FORBIDDEN_IN_SHEET_NAMES = str.maketrans(dict.fromkeys("[]:*?/\\", " "))


def _sheet_name(name):
    return str(name).translate(_FORBIDDEN_IN_SHEET_NAMES).strip()[:SHEET_NAME_MAX] or "Sheet"


class _Writer:
    """A write-only workbook with the few cell kinds the exports need."""

    def __init__(self):
        from openpyxl import Workbook
        from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
        from openpyxl.cell.cell import WriteOnlyCell as Cell
        from openpyxl.styles import Font

        self.workbook = Workbook(write_only=True)
        self._illegal = ILLEGAL_CHARACTERS_RE
        self._Cell = Cell
        self.bold = Font(bold=True)
        self.title_font = Font(bold=True, size=14)

    def sheet(self, name):
        return self.workbook.create_sheet(_sheet_name(name))

    def text(self, sheet, value, *, font=None):
        """A text cell that is never read as a formula."""
        if value is None or value == "":
            return None
        value = self._illegal.sub("", str(value))
        if not value.startswith(FORMULA_TRIGGERS) and font is None:
            return value
        cell = self._Cell(sheet, value=value)
        if value.startswith(FORMULA_TRIGGERS):
            cell.data_type = "s"
            cell.quotePrefix = True
        if font is not None:
            cell.font = font
        return cell

    def number(self, sheet, value, number_format=None):
        if value is None or value == "":
            return None
        if number_format is None:
            return value
        cell = self._Cell(sheet, value=value)
        cell.number_format = number_format
        return cell

    def header(self, sheet, titles):
        return [self.text(sheet, title, font=self.bold) for title in titles]

    def save(self):
        buffer = io.BytesIO()
        self.workbook.save(buffer)
        return buffer.getvalue()


def _widths(sheet, widths):
    from openpyxl.utils import get_column_letter

    for index, width in enumerate(widths, 1):
        sheet.column_dimensions[get_column_letter(index)].width = width


def report_xlsx(report: Report) -> bytes:
    """A standings or result report as a workbook of one sheet."""
    from openpyxl.utils import get_column_letter

    out = _Writer()
    sheet = out.sheet(report.sheet or report.title)
    _widths(sheet, [column.width for column in report.columns])
    top = [
        [out.text(sheet, f"{report.title} · {report.club}", font=out.title_font)],
        [out.text(sheet, report.subtitle)],
    ]
    if report.printed:
        printed = _("Printed %(date)s") % {"date": f"{report.printed:%d-%m-%Y}"}
        top.append([out.text(sheet, printed)])
    top += [[out.text(sheet, note)] for note in report.notes]
    top.append([])
    header_row = len(top) + 1
    last = get_column_letter(len(report.columns))
    sheet.freeze_panes = f"A{header_row + 1}"
    sheet.auto_filter.ref = f"A{header_row}:{last}{header_row + max(len(report.rows), 1)}"
    sheet.print_title_rows = f"{header_row}:{header_row}"
    for row in top:
        sheet.append(row)
    sheet.append(out.header(sheet, [column.title for column in report.columns]))
    for row in report.rows:
        cells = []
        for column in report.columns:
            value = row.get(column.key)
            if column.kind == TEXT:
                cells.append(out.text(sheet, value))
            elif column.kind == RANK:
                cells.append(out.number(sheet, value, '0"="' if row.get("shared") else None))
            elif column.kind == DECIMAL:
                cells.append(out.number(sheet, value, "0.0"))
            else:
                cells.append(out.number(sheet, value))
        sheet.append(cells)
    if report.footnotes:
        sheet.append([])
        for note in report.footnotes:
            sheet.append([out.text(sheet, note)])
    return out.save()


HAND_LOG_WIDTHS = {
    "date": 11,
    "round": 7,
    "table": 7,
    "hand": 7,
    "playing": 8,
    "trump": 7,
    "pit": 6,
    "verzaakt": 9,
    "nat": 6,
    "sitout": 9,
}


_NAME_INDEXES = tuple(HandLogRow._fields.index(key) for key in ("north", "south", "east", "west"))


def hand_log_xlsx(rows, *, name_width: int = 20) -> bytes:
    """The hand log (see :mod:`.handlog`): one row per hand, titled in the active language.

    ``rows`` is an iterable of :class:`~.handlog.HandLogRow`, streamed to the file.
    """
    from openpyxl.utils import get_column_letter

    out = _Writer()
    sheet = out.sheet(_("Hands"))
    titles = [str(TITLES[key]) for key in COLUMNS]
    widths = []
    for key, title in zip(COLUMNS, titles, strict=True):
        width = max(name_width + 2, 10) if key in ("north", "south", "east", "west") else 9
        widths.append(max(HAND_LOG_WIDTHS.get(key, width), len(title) + 2))
    _widths(sheet, widths)
    sheet.freeze_panes = "A2"
    sheet.append(out.header(sheet, titles))
    guarded, illegal, text = FORMULA_TRIGGERS, out._illegal, out.text
    count = 0
    for row in rows:
        cells = list(row)
        for index in _NAME_INDEXES:  # the names are the only free text
            value = cells[index]
            if value and (value.startswith(guarded) or illegal.search(value)):
                cells[index] = text(sheet, value)
        sheet.append(cells)
        count += 1
    # The filter is written after the rows, so it can cover them all.
    sheet.auto_filter.ref = f"A1:{get_column_letter(len(COLUMNS))}{count + 1}"
    return out.save()
