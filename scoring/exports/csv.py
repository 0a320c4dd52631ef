"""CSV files: standings and results for a spreadsheet, and the hand log (the import format).

Decisions
---------
Standings and results
    Like the member export: UTF-8 with a byte-order mark (Excel shows accents
    right), the site's one dialect (``;`` and a decimal comma in Dutch, ``,``
    and a point in English: :func:`common.csvfile.dialect`), CRLF. The header row
    has the column titles in the active language, no lines above or below it: a
    CSV file is one table for a program to read, and lines of text around it
    would be read as rows of players (a pandas or spreadsheet import, a sort).
    The standings' side rankings (puntenkampioen, most marsen) are rows of the same
    table after the main ranking's, with a first column "Ranking" naming each
    row's ranking (only when the competition has side rankings).
    The settings and what each column counts (the columns' help) are in the
    .xlsx and the PDF, and on the page. A shared
    rank is written ``3=``, a rank below the attendance line stays empty, an
    average has one decimal with the active language's decimal sign (a comma
    in Dutch), so Excel reads it as a number.
Hand log
    The import format of :mod:`.handlog`, in the same dialect: the column
    titles in the active language (as the .xlsx hand log), teams as ``wij`` and
    ``zij``, dates ``YYYY-MM-DD``. The importer reads these titles in either
    language, the old column names (``date``, ``round``, ...), either separator
    and ``A``/``B`` too. Importing it back gives the same standings.
Both
    Written by :mod:`common.csvfile`: a text a spreadsheet could run as a
    formula gets a leading apostrophe (the importer drops it again), and a
    field holding ``,`` or ``;`` is quoted whatever the file's separator.
"""

from datetime import date

from django.utils.translation import gettext as _

from common.columns import TEXT
from common.csvfile import Verbatim, csv_bytes, csv_lines

from .handlog import titles
from .reports import Report


def _report_value(column, row):
    if row.get(column.key) is None:
        return None
    if column.kind == TEXT:
        return column.text(row)  # guarded by the writer
    return Verbatim(column.text(row))  # as the page shows it: 3=, 1625,1


def report_csv(report: Report) -> bytes:
    """The report's table; a report with more rankings (the standings' side rankings)
    has a first column naming each row's ranking, the main one's rows first."""
    header = [str(column.title) for column in report.columns]
    rows = ([_report_value(column, row) for column in report.columns] for row in report.rows)
    if report.sections:
        header = [_("Ranking"), *header]
        tables = [(report.title, report.rows)]
        tables += [(section.title, section.rows) for section in report.sections]
        rows = (
            [str(title), *(_report_value(column, row) for column in report.columns)]
            for title, table in tables
            for row in table
        )
    return csv_bytes(header, rows)


def _log_value(value):
    return value.isoformat() if isinstance(value, date) else value


def hand_log_csv_lines(rows):
    """The hand log as CSV text, a chunk at a time (the first holds the byte-order
    mark and the header)."""
    rows = ([_log_value(value) for value in row] for row in rows)
    return csv_lines(titles(), rows)


def hand_log_csv(rows) -> bytes:
    """The hand log in the import format (see :mod:`.handlog`)."""
    return "".join(hand_log_csv_lines(rows)).encode("utf-8")
