"""CSV files: standings and results for a spreadsheet, and the hand log (the import format).

Decisions
---------
Standings and results
    Like the member export: UTF-8 with a byte-order mark (Excel shows accents
    right), ``;`` between fields as Dutch Excel expects, CRLF. The header row
    has the column titles in the active language, no lines above it (a CSV
    file has one table; the settings are in the .xlsx and the PDF). A shared
    rank is written ``3=``, a rank below the attendance line stays empty, an
    average has one decimal with the active language's decimal sign (a comma
    in Dutch), so Excel reads it as a number.
Hand log
    The import format of :mod:`.handlog`: the column names ``date``, ``round``,
    ... in every language, commas, UTF-8 with a byte-order mark, CRLF, dates
    ``YYYY-MM-DD``. Importing it back gives the same standings.
Both
    A text starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return
    gets a leading apostrophe; the importer drops it again.
"""

import csv
import io
from datetime import date

from django.utils.formats import number_format

from . import CSV_TRIGGERS
from .handlog import COLUMNS
from .reports import DECIMAL, RANK, TEXT, Report

REPORT_DELIMITER = ";"
HAND_LOG_DELIMITER = ","


def _text(value) -> str:
    if value is None:
        return ""
    text = str(value)
    return "'" + text if text.startswith(CSV_TRIGGERS) else text


def report_csv(report: Report) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=REPORT_DELIMITER, lineterminator="\r\n")
    writer.writerow([_text(column.title) for column in report.columns])
    for row in report.rows:
        values = []
        for column in report.columns:
            value = row.get(column.key)
            if value is None:
                values.append("")
            elif column.kind == TEXT:
                values.append(_text(value))
            elif column.kind == RANK:
                values.append(f"{value}=" if row.get("shared") else str(value))
            elif column.kind == DECIMAL:
                values.append(
                    number_format(round(value, 1), 1, use_l10n=True, force_grouping=False)
                )
            else:
                values.append(str(value))
        writer.writerow(values)
    return buffer.getvalue().encode("utf-8-sig")


def _log_value(value):
    if value is None:
        return ""
    if isinstance(value, str):
        return _text(value)
    if isinstance(value, date):
        return value.isoformat()
    return value


def hand_log_csv_lines(rows):
    """The hand log as CSV text, a chunk at a time (the first holds the header)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=HAND_LOG_DELIMITER, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    for count, row in enumerate(rows, 1):
        writer.writerow([_log_value(value) for value in row])
        if count % 2000 == 0:
            yield buffer.getvalue()
            buffer.seek(0)
            buffer.truncate()
    yield buffer.getvalue()


def hand_log_csv(rows) -> bytes:
    """The hand log in the import format (see :mod:`.handlog`)."""
    return ("\ufeff" + "".join(hand_log_csv_lines(rows))).encode("utf-8")
