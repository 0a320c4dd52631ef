"""Excel workbooks (.xlsx): one writer, openpyxl's write-only mode.

Decisions
---------
- Write-only: rows stream to the file, so a 48,000-hand log never sits in
  memory as cells. Column widths, the frozen header and the filter are set on
  the sheet before (widths, panes) or after (filter) its rows, as write-only
  mode allows.
- Real values: numbers are number cells, dates date cells (``yyyy-mm-dd``),
  booleans true/false cells (WAAR/ONWAAR in a Dutch Excel), an empty value an
  empty cell.
- A text starting with ``=``, ``+``, ``-`` or ``@`` is a string cell with Excel's
  quote prefix: no spreadsheet runs it as a formula, not even after the cell is
  edited; the value itself is unchanged. Characters a workbook cannot hold
  (control characters) are dropped.
- Sheet names lose the characters Excel forbids and are at most 31 characters,
  made unique within the workbook.
"""

import io
from datetime import date, datetime

from .columns import DATE, DECIMAL, RANK, TEXT
from .csvfile import FORMULA_TRIGGERS, needs_guard

SHEET_NAME_MAX = 31
MIN_WIDTH, MAX_WIDTH = 8, 50
_FORBIDDEN_IN_SHEET_NAMES = str.maketrans(dict.fromkeys("[]:*?/\\", " "))


class XlsxWriter:
    """A write-only workbook with the few cell kinds the site's files need."""

    def __init__(self):
        from openpyxl import Workbook
        from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE, WriteOnlyCell
        from openpyxl.styles import Font

        self.workbook = Workbook(write_only=True)
        self.illegal = ILLEGAL_CHARACTERS_RE
        self._Cell = WriteOnlyCell
        self.bold = Font(bold=True)
        self.title_font = Font(bold=True, size=14)
        self._names = set()

    def sheet(self, name):
        """A new sheet named ``name`` (cleaned, shortened, made unique)."""
        text = str(name).translate(_FORBIDDEN_IN_SHEET_NAMES).strip() or "Sheet"
        title, n = text[:SHEET_NAME_MAX], 2
        while title.casefold() in self._names:
            suffix = f" ({n})"
            title = text[: SHEET_NAME_MAX - len(suffix)] + suffix
            n += 1
        self._names.add(title.casefold())
        return self.workbook.create_sheet(title)

    def clean_text(self, value) -> str:
        return self.illegal.sub("", str(value))

    def text(self, sheet, value, *, font=None, as_text=False):
        """A text cell that is never read as a formula (None for an empty value).
        ``as_text``: formatted as text (``@``), so digits typed or pasted there later
        (a phone number, a membership number) keep their leading zeros; an empty one
        is an empty cell formatted so, not a missing cell."""
        if value is None or value == "":
            if not as_text:
                return None
            cell = self._Cell(sheet, value=None)
            cell.number_format = "@"
            return cell
        value = self.clean_text(value)
        if value.startswith("'") and needs_guard(value[1:]):
            # An apostrophe before = + - @ is what a guarded value looks like once a
            # spreadsheet program saved our CSV: the importers drop one, so a text
            # that itself starts so gets a second one (as the CSV writer does).
            value = "'" + value
        guarded = value.startswith(FORMULA_TRIGGERS)
        if not guarded and font is None and not as_text:
            return value
        cell = self._Cell(sheet, value=value)
        if guarded:
            cell.data_type = "s"
            cell.quotePrefix = True
        if font is not None:
            cell.font = font
        if as_text:
            cell.number_format = "@"
        return cell

    def number(self, sheet, value, number_format=None):
        """A number cell, with ``number_format`` when given (None for no value)."""
        if value is None or value == "":
            return None
        if number_format is None:
            return value
        cell = self._Cell(sheet, value=value)
        cell.number_format = number_format
        return cell

    def date(self, sheet, value):
        return self.number(sheet, value, "yyyy-mm-dd")

    def value(self, sheet, value):
        """A cell of the kind ``value`` is: text, number, date, true/false or empty."""
        if isinstance(value, str):
            return self.text(sheet, value)
        if isinstance(value, date) and not isinstance(value, datetime):
            return self.date(sheet, value)
        return value

    def header(self, sheet, titles, comments=()):
        """The header row: bold titles; ``comments`` (by position, empty for none)
        become the cells' comments, shown when pointing at the title."""
        from openpyxl.comments import Comment

        cells = [self.text(sheet, title, font=self.bold) for title in titles]
        for cell, comment in zip(cells, comments, strict=False):
            if comment and cell is not None:
                # Excel draws a comment in a box of a fixed size: one tall enough for
                # the text at about 55 characters a line of 14 points.
                lines = len(comment) // 55 + 2
                cell.comment = Comment(self.clean_text(comment), "", height=14 * lines, width=320)
        return cells

    def save(self) -> bytes:
        if not self.workbook.worksheets:
            self.sheet("Sheet")
        buffer = io.BytesIO()
        self.workbook.save(buffer)
        return buffer.getvalue()


def set_widths(sheet, widths):
    """Column widths in characters, first column first (before the rows are written)."""
    from openpyxl.utils import get_column_letter

    for index, width in enumerate(widths, 1):
        sheet.column_dimensions[get_column_letter(index)].width = width


def _shown_length(value) -> int:
    if value is None:
        return 0
    if isinstance(value, date):
        return 10
    return len(str(value))


def table_sheet(out: XlsxWriter, name, titles, rows, *, text_columns=()):
    """A sheet holding one table: the title row bold, frozen and filtered, columns
    as wide as their longest value (between 8 and 50 characters). ``rows`` are
    lists of plain values (text, number, date, bool, None); the columns whose
    indexes are in ``text_columns`` are text: the column's style is text (``@``),
    so every row of it is, also below the table, where a secretary types a new
    member, and so is each of its cells in the table, also an empty one."""
    from openpyxl.utils import get_column_letter

    titles = [str(title) for title in titles]
    rows = [list(row) for row in rows]
    sheet = out.sheet(name)
    widths = [len(title) for title in titles]
    for row in rows:
        for index, value in enumerate(row):
            widths[index] = max(widths[index], _shown_length(value))
    set_widths(sheet, [min(max(width + 2, MIN_WIDTH), MAX_WIDTH) for width in widths])
    for index in text_columns:  # before the first row: write-only sheets write columns first
        sheet.column_dimensions[get_column_letter(index + 1)].number_format = "@"
    sheet.freeze_panes = "A2"
    sheet.append(out.header(sheet, titles))
    for row in rows:
        sheet.append(
            [
                out.text(sheet, value, as_text=True)
                if index in text_columns
                else out.value(sheet, value)
                for index, value in enumerate(row)
            ]
        )
    sheet.auto_filter.ref = f"A1:{get_column_letter(max(len(titles), 1))}{len(rows) + 1}"
    return sheet


def column_cells(out: XlsxWriter, sheet, columns, row) -> list:
    """One row of a column spec's table (:class:`common.columns.Column`) as cells:
    each value as :meth:`~common.columns.Column.cell` gives it (a decimal rounded as
    the page shows it), a text as a guarded text cell, a date as a date cell, a
    shared rank as the number with the format ``0"="`` (it shows "3=" and sorts as
    3), a decimal with its decimals."""
    cells = []
    for column in columns:
        value = column.cell(row)
        if column.kind == TEXT:
            cells.append(out.text(sheet, value))
        elif column.kind == DATE:
            cells.append(out.date(sheet, value))
        elif column.kind == RANK:
            cells.append(out.number(sheet, value, '0"="' if row.get("shared") else None))
        elif column.kind == DECIMAL:
            cells.append(out.number(sheet, value, "0." + "0" * column.decimals))
        else:
            cells.append(out.number(sheet, value))
    return cells


def column_sheet(out: XlsxWriter, name, columns, rows, *, title="", lines=(), below=()):
    """A sheet holding one table of a column spec: above it ``title`` (large, bold)
    and ``lines`` of text, then an empty row; the header row bold, with each
    column's help as its comment, frozen with everything above it, filtered and
    repeated on every printed page; a row of :func:`column_cells` per row; under it
    each group of ``below`` (lists of texts: notes, footnotes) after an empty row.
    Columns as wide as the spec says (:meth:`~common.columns.Column.fitted`)."""
    from openpyxl.utils import get_column_letter

    sheet = out.sheet(name)
    set_widths(sheet, [column.width for column in columns])
    top = [[out.text(sheet, title, font=out.title_font)]] if title else []
    top += [[out.text(sheet, line)] for line in lines]
    if top:
        top.append([])
    header_row = len(top) + 1
    last = get_column_letter(max(len(columns), 1))
    sheet.freeze_panes = f"A{header_row + 1}"
    sheet.auto_filter.ref = f"A{header_row}:{last}{header_row + max(len(rows), 1)}"
    sheet.print_title_rows = f"{header_row}:{header_row}"
    for line in top:
        sheet.append(line)
    titles = [column.title for column in columns]
    sheet.append(out.header(sheet, titles, [column.help for column in columns]))
    for row in rows:
        sheet.append(column_cells(out, sheet, columns, row))
    for group in below:
        if group:
            sheet.append([])
            for text in group:
                sheet.append([out.text(sheet, text)])
    return sheet
