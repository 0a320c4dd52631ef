"""Excel workbooks (.xlsx, openpyxl write-only mode): standings, evening result, hand log.

Decisions
---------
- One sheet per purpose (the standings' side rankings each a sheet of their own,
  after the main ranking's); the header row bold, frozen and filtered; columns as
  wide as their title or longest name.
- Real values: numbers are number cells, dates date cells (``yyyy-mm-dd``), an
  empty value an empty cell. A shared rank is the number with the format
  ``0"="`` (it shows "3=" and sorts as 3); an average is the exact fraction as
  a number shown with one decimal.
- Standings: the club, the title and the ranking settings in plain words stand
  above the table; everything above its header stays in view when scrolling.
  What a column counts (its help) is a comment on its header cell and a line of
  notes under the table, after an empty row (outside the filter), as the page
  has it under its table; the footnotes (who is not ranked) follow.
- Names starting with ``=``, ``+``, ``-`` or ``@`` are text cells with the quote
  prefix: no spreadsheet runs them as a formula.
- Written by the one writer layer, :mod:`common.xlsxfile` (write-only mode:
  a 48,000-hand log never sits in memory as cells).
"""

from django.utils.translation import gettext as _

from common.columns import column_notes
from common.csvfile import FORMULA_TRIGGERS
from common.formatting import date_text
from common.xlsxfile import XlsxWriter, column_sheet, set_widths

from .handlog import COLUMNS, HandLogRow, titles
from .reports import Report


def report_xlsx(report: Report) -> bytes:
    """A standings or result report as a workbook: a sheet for the report, then one
    per further ranking (the standings' side rankings), in the same columns."""
    out = XlsxWriter()
    _report_sheet(
        out,
        report,
        name=report.sheet or report.title,
        heading=report.title,
        notes=report.notes,
        rows=report.rows,
        footnotes=report.footnotes,
    )
    for section in report.sections:
        _report_sheet(
            out,
            report,
            name=section.title,
            heading=section.title,
            notes=section.notes,
            rows=section.rows,
            footnotes=section.footnotes,
        )
    return out.save()


def _report_sheet(out, report, *, name, heading, notes, rows, footnotes):
    lines = [report.subtitle]
    if report.printed:
        lines.append(_("Printed %(date)s") % {"date": date_text(report.printed)})
    column_sheet(
        out,
        name,
        report.columns,
        rows,
        title=f"{heading} · {report.club}",
        lines=[*lines, *notes],
        below=[[column.note for column in column_notes(report.columns)], footnotes],
    )


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

    out = XlsxWriter()
    sheet = out.sheet(_("Hands"))
    header = titles()
    widths = []
    for key, title in zip(COLUMNS, header, strict=True):
        width = max(name_width + 2, 10) if key in ("north", "south", "east", "west") else 9
        widths.append(max(HAND_LOG_WIDTHS.get(key, width), len(title) + 2))
    set_widths(sheet, widths)
    sheet.freeze_panes = "A2"
    sheet.append(out.header(sheet, header))
    guarded, illegal, text = FORMULA_TRIGGERS, out.illegal, out.text
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
