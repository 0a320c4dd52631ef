"""The one reader of spreadsheets the site imports: CSV, Excel (.xlsx) and LibreOffice (.ods).

Bytes in, rows of checked cell values out, streaming; nothing here knows about
members, hands or requests. The member import (``clubs.imports``) and the
results import (``scoring.exports.importers``) both read through
:func:`read_table`, so a file reads the same in both.

Use::

    table = read_table(data, filename, limits=LIMITS, known_titles=ALIASES)
    for number, cells in table.rows():  # number as the spreadsheet counts rows
        ...                              # cells: a list, index 0 is column A

``rows()`` yields every row that holds something, the first being the column
titles; it raises :class:`Rejected` (with a :class:`Problem` for the report)
when the file cannot be read, also half way. ``table.problems`` (merged cells)
and ``table.warnings`` are complete once ``rows()`` is exhausted.
``table.header(number, cells, aliases)`` maps the first row's titles to the
importer's column keys (:func:`title_aliases` builds ``aliases`` from the words
people write and our export's titles in every language), the same way in both
importers: an unknown title is a warning, a key twice or a bad title a problem,
and a row that names nothing gets a hint about its separator.

Decisions
---------
Values
    A cell is ``None`` (empty), a ``str`` (trimmed at both ends, never empty),
    an ``int`` or ``float`` (a number cell; an integral number is an int), a
    ``bool``, a ``date``/``datetime`` (a date cell), or a :class:`Bad` holding
    the message of a cell that must not be imported. The importer decides
    whether a Bad cell matters: one in a column it does not read is harmless.
Cell checks (one place, every format)
    A text holding a line break, tab, NUL or other control character is Bad
    (PostgreSQL cannot store NUL; a name is one line). A text longer than
    ``limits.max_cell_chars`` is Bad. A formula is Bad ("paste values"): its
    cached result may be stale or missing. Except the boolean formulas
    ``=TRUE()`` and ``=FALSE()`` (and ``TRUE``/``FALSE``), which is how
    LibreOffice and Excel save a true/false cell: they read as ``True`` and
    ``False``. An error cell (``#DIV/0!``) is Bad. Merged cells are a problem
    of the file naming the range.
Lost letters
    A text holding the replacement character U+FFFD (what a program writes for
    a letter it could not convert) is Bad, in every format. So is a value (not
    a title) holding ``?`` in a CSV file in an 8-bit character set
    (Windows-1252, or plain ASCII without a byte-order mark): LibreOffice and
    Excel write ``?`` for a letter that set lacks (``Łukasz Wąsowski`` becomes
    ``?ukasz W?sowski``), and no name, number or score holds one. The message
    says how to save the file as UTF-8 (:func:`save_as_utf8`). An importer
    that reads such a cell refuses its row, so a lost letter never renames a
    member or makes a new one.
The formula guard
    The site's CSV exports put an apostrophe before a text starting with
    ``= + - @`` (:data:`FORMULA_TRIGGERS`); LibreOffice keeps it as data when
    such a CSV is saved as .xlsx or .ods. The reader drops that apostrophe in
    every format (``'+31 6 1234`` reads ``+31 6 1234``; ``'t Hart`` stays).
CSV
    Encoding: UTF-8 with or without byte-order mark, UTF-16 with one (Excel's
    "Unicode text"), and otherwise Windows-1252, the Western European
    character set of most spreadsheet programs' plain CSV; then the report
    warns to check the accents, because a file from another character set
    would read with other letters. Anything else is refused with its line.
    Separator: ``;``, ``,`` or tab, the one that splits the first row into the
    most known column titles (then the most columns, then ``;``). When no
    title is known, :meth:`Table.header_hint` says which separator the first
    row has and which are expected. A first line with control characters is
    not text: refused.
.xlsx
    openpyxl in read-only mode, formulas as written: the first sheet is read
    row by row from the zip, never loaded whole; the shared strings (every
    distinct text of the workbook) are held in memory, so their part of the
    zip is limited to ``limits.max_shared_strings_bytes``. Merged ranges are
    found by scanning the sheet's XML as it streams.
.ods
    The first table of ``content.xml``, parsed with expat as it is unzipped
    (no document type declarations: an .ods has none). Repeated rows and
    columns (``number-rows-repeated``, ``number-columns-repeated``, millions of
    empty cells in every LibreOffice file) are counted, not expanded.
Limits (:class:`Limits`)
    The file size; the size of the unpacked parts of a workbook; the rows that
    hold something below the titles (a file with more is refused as soon as
    the reader gets there, before any checking); the columns (values further
    right are left out with a warning); the characters in a cell. Each
    importer states its own in one :class:`Limits`.
"""

from __future__ import annotations

import codecs
import csv
import io
import re
import sys
import xml.parsers.expat
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, datetime, time

from django.conf import settings
from django.core.exceptions import ValidationError
from django.template.defaultfilters import filesizeformat
from django.utils import translation
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from .csvfile import FORMULA_TRIGGERS, unguard

FORMULA_GUARD = "'"
SEPARATORS = (";", ",", "\t")
EXCEL_MAX_ROW = 1_048_576

_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")  # Unicode category Cc
#: What a program writes for a character it could not read or convert (U+FFFD).
REPLACEMENT = "\ufffd"
_BOOLEAN_FORMULAS = {"=TRUE()": True, "=TRUE": True, "=FALSE()": False, "=FALSE": False}
_CHUNK = 64 * 1024
ODS_TYPE = "application/vnd.oasis.opendocument.spreadsheet"
_ODS_MIMETYPE = ODS_TYPE.encode()
ACCEPT = (  # for <input type="file" accept="...">: what read_table reads
    ".csv,.txt,.xlsx,.ods,text/csv,"
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet," + ODS_TYPE
)


# ---------------------------------------------------------------- the report's vocabulary


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the file; ``row`` and ``column`` as the user sees them."""

    message: str
    row: int | None = None
    column: str | None = None

    def __str__(self):
        if self.row is not None and self.column:
            return _("Row %(row)s, column %(column)s: %(problem)s") % {
                "row": self.row,
                "column": self.column,
                "problem": self.message,
            }
        if self.row is not None:
            return _("Row %(row)s: %(problem)s") % {"row": self.row, "problem": self.message}
        return self.message


class ImportRejected(ValidationError):
    """The file (or the rows of a preview) cannot be imported; nothing was changed."""

    def __init__(self, problems):
        self.problems = list(problems)
        super().__init__([str(problem) for problem in self.problems])


class Rejected(Exception):
    """The reader cannot go on with this file; ``problems`` say why."""

    def __init__(self, *problems):
        super().__init__(*problems)
        self.problems = list(problems)


@dataclass(frozen=True, slots=True)
class Bad:
    """A cell whose value must not be imported; ``message`` says why."""

    message: str


@dataclass(frozen=True)
class Limits:
    """What one import reads at most; see the module's decisions."""

    max_bytes: int
    max_rows: int
    max_columns: int = 100
    max_cell_chars: int = 1000
    max_unpacked_bytes: int = 150 * 1024 * 1024
    max_shared_strings_bytes: int = 32 * 1024 * 1024

    def size_problem(self, size) -> Problem:
        return Problem(
            _("The file is too large (%(size)s); files up to %(limit)s can be imported.")
            % {"size": filesizeformat(size), "limit": filesizeformat(self.max_bytes)}
        )

    def rows_problem(self) -> Problem:
        return Problem(
            _(
                "The file has more than %(max)s rows below the column titles. Split it "
                "into smaller files and import them one after the other."
            )
            % {"max": number_format(self.max_rows, force_grouping=True)}
        )


# ---------------------------------------------------------------- helpers the importers share


def normalise_title(title) -> str:
    """A column title compared ignoring case, spaces and punctuation."""
    return "".join(ch for ch in str(title).casefold() if ch.isalnum())


def column_letter(index: int) -> str:
    """The spreadsheet's name of the column at ``index`` (0 is A)."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def is_empty(value) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def cell_text(value) -> str:
    """A cell's value as the text the user sees (a number cell 45 is "45", not "45.0")."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, datetime):
        return value.date().isoformat() if value.time() == time() else value.isoformat(" ")
    if isinstance(value, date | time):
        return value.isoformat()
    return str(value)


def title_aliases(words, titles) -> dict[str, str]:
    """Normalised column title -> column key, for :meth:`Table.header`.

    ``words``: key -> the titles people write for it (Dutch and English); then
    ``titles``: key -> our own export's title (lazily translated), in every
    language of the site, so a file exported in either language imports back.
    The first meaning a title gets is kept.
    """
    aliases = {}
    for key, written in words.items():
        for word in written:
            aliases.setdefault(normalise_title(word), key)
    for code, _language in settings.LANGUAGES:
        with translation.override(code):
            for key, title in titles.items():
                aliases.setdefault(normalise_title(title), key)
    return aliases


@dataclass
class Header:
    """The first row as an importer reads it (:meth:`Table.header`)."""

    row: int
    fields: dict[int, str] = field(default_factory=dict)  # column index -> key
    columns: dict[str, str] = field(default_factory=dict)  # key -> the file's title
    problems: list[Problem] = field(default_factory=list)  # bad cells, a key twice
    unknown: list[str] = field(default_factory=list)  # titles that are not imported
    hint: str = ""  # when no title is known: the separator the row has

    def missing(self, required) -> list[str]:
        """The keys of ``required`` that no column has."""
        return [key for key in required if key not in self.columns]

    def refused(self, message: str) -> list[Problem]:
        """The problems of a first row that lacks a column: the importer's ``message``
        (which columns it needs), then the separator hint when the row names none."""
        problems = [Problem(message, row=self.row)]
        if self.hint:
            problems.append(Problem(self.hint, row=self.row))
        return problems

    @property
    def warnings(self) -> list[str]:
        if not self.unknown:
            return []
        return [
            _("These columns are not imported: %(columns)s.")
            % {"columns": ", ".join(f"“{title}”" for title in self.unknown)}
        ]


def _separator_name(separator):
    return {
        ";": _("semicolon"),
        ",": _("comma"),
        "\t": _("tab"),
        "|": _("vertical bar"),
        ":": _("colon"),
    }.get(separator, separator)


def _quoted(separator):
    return _("a tab") if separator == "\t" else f"“{separator}” ({_separator_name(separator)})"


# ---------------------------------------------------------------- cells


def _too_long(limits):
    return Bad(
        _("the cell holds more than %(max)s characters.")
        % {"max": number_format(limits.max_cell_chars, force_grouping=True)}
    )


def _text_cell(text: str, limits: Limits, *, eight_bit=False):
    """A text cell as the importers get it: trimmed, unguarded, checked.

    ``eight_bit``: the cell is a value of a CSV file in an 8-bit character set,
    where a "?" stands for a letter the saving program could not write."""
    if len(text) > limits.max_cell_chars:
        return _too_long(limits)
    text = text.strip()
    if not text:
        return None
    text = unguard(text)  # the guard the site's exports put before = + - @
    if len(text) <= 40:
        text = sys.intern(text)  # names repeat on every row of a hand log: keep one copy
    if _CONTROL.search(text):
        return Bad(
            _(
                "the cell holds a line break, tab or other control character; "
                "keep the value on one line."
            )
        )
    if REPLACEMENT in text:
        return Bad(
            _(
                "the cell holds “%(mark)s” where a letter was lost when the file was "
                "converted. %(advice)s"
            )
            % {"mark": REPLACEMENT, "advice": save_as_utf8()}
        )
    if eight_bit and "?" in text:
        return Bad(
            _(
                "the cell holds “?” where the program that saved the file could not "
                "write a letter (Windows-1252 has no Ł or ą, for example): the letter is "
                "lost in this file. %(advice)s"
            )
            % {"advice": save_as_utf8()}
        )
    return text


def save_as_utf8() -> str:
    """How to save a file so that every letter survives: the advice of every report."""
    return _(
        "Save the list again from the original as CSV with the character set UTF-8 "
        "(Excel: “CSV UTF-8”; LibreOffice: “Unicode (UTF-8)”), or upload the workbook "
        "itself (.xlsx or .ods)."
    )


def _formula_cell(formula: str):
    """A formula as read: the value of ``=TRUE()``/``=FALSE()``, else Bad."""
    key = formula.upper().replace(" ", "")
    if key.startswith("OF:"):
        key = key[3:]
    if key in _BOOLEAN_FORMULAS:
        return _BOOLEAN_FORMULAS[key]
    shown = formula if len(formula) <= 40 else formula[:39] + "…"
    return Bad(
        _("the cell holds a formula (%(formula)s); copy the column and paste it back as values.")
        % {"formula": shown}
    )


def _error_cell(error):
    return Bad(_("the cell shows an error (%(error)s).") % {"error": error})


def _number(text: str):
    number = float(text)
    return int(number) if number.is_integer() and abs(number) < 2**53 else number


def _merged_problem(reference: str) -> Problem:
    first = reference.split(":")[0]
    row = int("".join(ch for ch in first if ch.isdigit()) or 0) or None
    return Problem(
        _("cells %(range)s are merged; unmerge them so that every cell holds its own value.")
        % {"range": reference},
        row=row,
    )


# ---------------------------------------------------------------- the table


@dataclass
class Table:
    """A file being read; see the module's docstring."""

    kind: str  # "csv", "xlsx" or "ods"
    limits: Limits
    _rows: Iterator = field(repr=False)
    separator: str | None = None
    first_line: str = ""
    problems: list[Problem] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    last_column: int = 0  # of the sheet as a workbook states it (1 is A), 0 if not known

    def rows(self) -> Iterator[tuple[int, list]]:
        """(row number, cells) of every row that holds something; the first is the titles."""
        limits = self.limits
        count = -1  # the titles do not count
        too_wide = 0
        for number, cells in self._rows:
            if len(cells) > limits.max_columns:
                # A workbook without a stated size (as write-only openpyxl writes
                # them) comes padded with empty cells: only values count as too wide.
                if any(value is not None for value in cells[limits.max_columns :]):
                    too_wide = too_wide or number
                del cells[limits.max_columns :]
            while cells and cells[-1] is None:
                cells.pop()
            if not cells:
                continue
            count += 1
            if count > limits.max_rows:
                raise Rejected(limits.rows_problem())
            yield number, cells
        last = column_letter(limits.max_columns - 1)
        if self.last_column > limits.max_columns:
            self.warnings.append(
                _("Only columns A to %(last)s are read; the sheet goes on to column %(far)s.")
                % {"last": last, "far": column_letter(self.last_column - 1)}
            )
        elif too_wide:
            self.warnings.append(
                _(
                    "Only columns A to %(last)s are read; row %(row)s has values further "
                    "to the right, which are left out."
                )
                % {"last": last, "row": too_wide}
            )

    def header(self, number: int, titles, aliases) -> Header:
        """Map the first row's ``titles`` (row ``number``) to column keys by ``aliases``
        (:func:`title_aliases`). A title that is no key is left out (``unknown``, a
        warning: a list has columns an importer does not need); a key twice, or a Bad
        title, is a problem."""
        header = Header(number)
        for index, title in enumerate(titles):
            if isinstance(title, Bad):
                header.problems.append(
                    Problem(title.message, row=number, column=column_letter(index))
                )
                continue
            text = cell_text(title).strip()
            if not text:
                continue
            key = aliases.get(normalise_title(text))
            if key is None:
                header.unknown.append(text)
            elif key in header.columns:
                header.problems.append(
                    Problem(
                        _("means the same as column “%(other)s”; keep one of them.")
                        % {"other": header.columns[key]},
                        row=number,
                        column=text,
                    )
                )
            else:
                header.columns[key] = text
                header.fields[index] = key
        if not header.fields:
            header.hint = self.header_hint()
        return header

    def header_hint(self) -> str:
        """When the first row holds no known title: which separator it has, which are expected."""
        if self.kind != "csv" or not self.first_line.strip():
            return ""
        cells = next(csv.reader([self.first_line], delimiter=self.separator), [])
        if len(cells) == 1:
            found = max(("|", ":", *SEPARATORS), key=cells[0].count)
            if cells[0].count(found):
                return _(
                    "The first row is one cell, “%(cell)s”, with %(found)s between the "
                    "titles, so the columns were not split. This import expects a "
                    "semicolon (;), a comma (,) or a tab between the columns, each title "
                    "in a cell of its own: open the file with %(found)s as the separator "
                    "and save it again."
                ) % {"cell": cells[0][:60], "found": _quoted(found)}
        return _(
            "The first row has %(found)s between its titles; none of them is a column "
            "this import knows. It expects a semicolon (;), a comma (,) or a tab "
            "between the columns."
        ) % {"found": _quoted(self.separator)}


def read_table(data: bytes, filename: str = "", *, limits: Limits, known_titles=()) -> Table:
    """Open a file for reading; raises :class:`Rejected` when it cannot be a table.

    ``known_titles`` are the normalised column titles of the importer
    (:func:`normalise_title`); they choose the CSV separator.
    """
    if not data:
        raise Rejected(Problem(_("The file is empty.")))
    if len(data) > limits.max_bytes:
        raise Rejected(limits.size_problem(len(data)))
    if data.startswith(b"PK\x03\x04"):
        return _open_zip(data, limits)
    if data.startswith(b"\xd0\xcf\x11\xe0"):
        raise Rejected(
            Problem(
                _(
                    "This is an old Excel file (.xls) or a workbook with a password. "
                    "Save it as .xlsx or .ods without a password, or as CSV UTF-8."
                )
            )
        )
    if filename.lower().endswith((".xlsx", ".xlsm", ".ods")):
        raise Rejected(_not_a_workbook())
    return _open_csv(data, limits, set(known_titles))


def _not_a_workbook():
    return Problem(
        _(
            "The file is not an Excel workbook (.xlsx) or a LibreOffice spreadsheet "
            "(.ods) that can be read."
        )
    )


# ---------------------------------------------------------------- CSV


def _check_encoding(data: bytes, encoding: str):
    """The offset of the first byte that is not ``encoding``, or None."""
    decoder = codecs.getincrementaldecoder(encoding)()
    for start in range(0, len(data), _CHUNK):
        try:
            decoder.decode(data[start : start + _CHUNK], final=start + _CHUNK >= len(data))
        except UnicodeDecodeError as exc:
            return start + exc.start
    return None


def _open_csv(data: bytes, limits: Limits, known) -> Table:
    warnings = []
    if data.startswith(codecs.BOM_UTF8):
        encoding = "utf-8-sig"
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        encoding = "utf-16"
    else:
        encoding = "utf-8"
    bad = _check_encoding(data, encoding)
    if bad is not None and encoding == "utf-8" and _check_encoding(data, "cp1252") is None:
        encoding, bad = "cp1252", None
        warnings.append(
            _(
                "The file is not saved as UTF-8, so it was read as Windows-1252 "
                "(Western European). Check that accented letters (é, ë, ü) look right "
                "here. If they do not, save the file again as CSV with the character "
                "set UTF-8 (Excel: “CSV UTF-8”; LibreOffice: “Unicode (UTF-8)”)."
            )
        )
    if bad is not None:
        raise Rejected(
            Problem(
                _(
                    "The file is not text in UTF-8 or Windows-1252 (line %(line)s has a "
                    "character in another encoding). Save it again as CSV with the "
                    "character set UTF-8 (Excel: “CSV UTF-8”; LibreOffice: “Unicode "
                    "(UTF-8)”), or upload the workbook itself (.xlsx or .ods)."
                )
                % {"line": data[:bad].count(b"\n") + 1}
            )
        )
    text = io.TextIOWrapper(io.BytesIO(data), encoding=encoding, newline="")
    first_line = text.readline(1_000_000).rstrip("\r\n")
    text.seek(0)
    if _CONTROL.search(first_line.replace("\t", "")):
        raise Rejected(
            Problem(_("The file is not a CSV text file or a spreadsheet (.xlsx, .ods)."))
        )

    def score(separator):
        titles = next(csv.reader([first_line], delimiter=separator), [])
        return (sum(normalise_title(title) in known for title in titles), len(titles))

    separator = max(SEPARATORS, key=score)  # max keeps the first (;) on a tie
    table = Table(
        kind="csv",
        limits=limits,
        # An 8-bit file (Windows-1252, or one that is plain ASCII) has "?" where the
        # saving program met a letter its character set lacks ("?ukasz W?sowski").
        _rows=_csv_rows(text, separator, limits, eight_bit=encoding == "cp1252" or data.isascii()),
        separator=separator,
        first_line=first_line,
        warnings=warnings,
    )
    return table


def _csv_rows(text, separator, limits, *, eight_bit=False):
    reader = csv.reader(text, delimiter=separator)
    number = 0
    width = limits.max_columns + 1
    titles = True  # a title may ask a question ("Betaald?"); a value may not
    try:
        for number, record in enumerate(reader, 1):  # noqa: B007 (used after the loop)
            if not any(record):
                continue  # a blank line, fast: a file may hold millions
            lossy = eight_bit and not titles
            titles = False
            yield number, [_text_cell(value, limits, eight_bit=lossy) for value in record[:width]]
    except csv.Error as exc:
        raise Rejected(
            Problem(
                _(
                    "The file could not be read as CSV after row %(row)s: a cell is "
                    'longer than %(max)s characters or a quote (") is never closed '
                    "(%(error)s)."
                )
                % {
                    "row": number,
                    "max": number_format(csv.field_size_limit(), force_grouping=True),
                    "error": exc,
                }
            )
        ) from exc


# ---------------------------------------------------------------- workbooks


def _open_zip(data: bytes, limits: Limits) -> Table:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = {info.filename: info for info in archive.infolist()}
    except (zipfile.BadZipFile, ValueError, OSError) as exc:
        raise Rejected(_not_a_workbook()) from exc
    if sum(info.file_size for info in infos.values()) > limits.max_unpacked_bytes:
        raise Rejected(Problem(_("The workbook is too large when unpacked.")))
    if "mimetype" in infos and "content.xml" in infos:
        try:
            mimetype = archive.read("mimetype").strip()
        except (zipfile.BadZipFile, OSError, ValueError) as exc:
            raise Rejected(_not_a_workbook()) from exc
        if mimetype != _ODS_MIMETYPE:
            raise Rejected(_not_a_workbook())
        table = Table(kind="ods", limits=limits, _rows=iter(()))
        table._rows = _ods_rows(archive, table)
        return table
    if "xl/workbook.xml" in infos:
        strings = sum(
            info.file_size
            for name, info in infos.items()
            if name.lower().endswith("sharedstrings.xml")
        )
        if strings > limits.max_shared_strings_bytes:
            raise Rejected(Problem(_("The workbook is too large when unpacked.")))
        table = Table(kind="xlsx", limits=limits, _rows=iter(()))
        table._rows = _xlsx_rows(data, archive, table)
        return table
    raise Rejected(_not_a_workbook())


_MERGE = re.compile(rb"<(?:\w+:)?mergeCell\s[^>]*?ref=\"([A-Z]+[0-9]+(?::[A-Z]+[0-9]+)?)\"")


class _MergeScanner:
    """Wraps the sheet's XML as openpyxl streams it, noting merged ranges on the way."""

    def __init__(self, source, found):
        self.source = source
        self.found = found
        self.tail = b""

    def read(self, size=-1):
        chunk = self.source.read(size)
        window = self.tail + chunk
        if b"ergeCell" in window:
            self.found.extend(
                match.group(1).decode()
                for match in _MERGE.finditer(window)
                if match.end() > len(self.tail)  # one in the tail was counted before
            )
        self.tail = window[-300:]
        return chunk

    def close(self):
        self.source.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _xlsx_rows(data, archive, table):
    import openpyxl

    archive.close()
    try:
        workbook = openpyxl.load_workbook(
            io.BytesIO(data), read_only=True, data_only=False, keep_links=False
        )
        sheet = workbook.worksheets[0]
    except Exception as exc:  # openpyxl raises many kinds on a damaged file
        raise Rejected(_not_a_workbook()) from exc
    if not hasattr(sheet, "_get_source"):
        workbook.close()
        raise Rejected(Problem(_("The workbook's first sheet holds no table.")))
    merged = []
    opener = sheet._get_source
    sheet._get_source = lambda: _MergeScanner(opener(), merged)
    limits = table.limits
    known_width = sheet.max_column if isinstance(sheet.max_column, int) else None
    width = min(known_width or limits.max_columns + 1, limits.max_columns + 1)
    table.last_column = known_width or 0
    try:
        gap = None
        for number, cells in enumerate(sheet.iter_rows(min_row=1, max_col=width), 1):
            if number > EXCEL_MAX_ROW:
                break
            if cells is gap:
                continue  # openpyxl fills a gap with one shared empty row
            values = [_xlsx_value(cell, limits) for cell in cells]
            if not any(value is not None for value in values):
                gap = cells
                continue
            yield number, values
    except Rejected:
        raise
    except Exception as exc:
        raise Rejected(_not_a_workbook()) from exc
    finally:
        workbook.close()
    table.problems.extend(_merged_problem(reference) for reference in merged)


def _xlsx_value(cell, limits):
    value = cell.value
    if value is None:
        return None
    data_type = cell.data_type
    if data_type == "s":
        return _text_cell(value, limits) if isinstance(value, str) else str(value)
    if data_type == "f":
        return _formula_cell(value if isinstance(value, str) else "=")
    if data_type == "e":
        return _error_cell(value)
    if isinstance(value, str):
        return _text_cell(value, limits)
    return value


# ---------------------------------------------------------------- .ods

_OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0 "
_TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0 "
_TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0 "
_T_TABLE = _TABLE + "table"
_T_ROW = _TABLE + "table-row"
_T_CELL = _TABLE + "table-cell"
_T_COVERED = _TABLE + "covered-table-cell"
_P = _TEXT + "p"
_SPACE = _TEXT + "s"
_TAB = _TEXT + "tab"
_BREAK = _TEXT + "line-break"
_ANNOTATION = _OFFICE + "annotation"


class _OdsParser:
    """Expat handlers building the first table's rows; see the module's decisions."""

    def __init__(self, limits: Limits, problems: list):
        self.limits = limits
        self.problems = problems
        self.ready = []  # finished rows: (number, cells)
        self.tables = 0
        self.done = False
        self.row_number = 0  # of the last row seen
        self.row = None
        self.row_repeat = 1
        self.cell = None  # the attributes of the open cell
        self.paragraphs = None  # the open cell's text, a list of paragraphs
        self.in_p = False
        self.annotation = 0
        self.column = 0

    def start(self, name, attrs):
        if self.done:
            return
        if name == _T_TABLE:
            self.tables += 1
        elif self.tables != 1:
            return
        elif name == _T_ROW:
            self.row = []
            self.column = 0
            self.row_repeat = _count(attrs.get(_TABLE + "number-rows-repeated"))
        elif name in (_T_CELL, _T_COVERED) and self.row is not None:
            self.cell = attrs
            self.paragraphs = []
        elif name == _ANNOTATION:
            self.annotation += 1
        elif self.annotation or self.paragraphs is None:
            return
        elif name == _P:
            self.paragraphs.append("")
            self.in_p = True
        elif self.in_p and name == _SPACE:
            self.paragraphs[-1] += " " * _count(attrs.get(_TEXT + "c"))
        elif self.in_p and name == _TAB:
            self.paragraphs[-1] += "\t"
        elif self.in_p and name == _BREAK:
            self.paragraphs[-1] += "\n"

    def text(self, data):
        if self.in_p and not self.annotation and self.paragraphs:
            self.paragraphs[-1] += data

    def end(self, name):
        if self.done or self.tables != 1:
            return
        if name == _T_TABLE:
            self.done = True
        elif name == _ANNOTATION:
            self.annotation -= 1
        elif name == _P and not self.annotation:
            self.in_p = False
        elif name in (_T_CELL, _T_COVERED) and self.cell is not None:
            self._end_cell()
        elif name == _T_ROW and self.row is not None:
            self._end_row()

    def _end_cell(self):
        attrs, paragraphs = self.cell, self.paragraphs
        self.cell = self.paragraphs = None
        repeat = _count(attrs.get(_TABLE + "number-columns-repeated"))
        value = self._value(attrs, paragraphs)
        spanned = (
            _count(attrs.get(_TABLE + "number-columns-spanned")),
            _count(attrs.get(_TABLE + "number-rows-spanned")),
        )
        if spanned != (1, 1):
            first_row = self.row_number + 1
            first = f"{column_letter(self.column)}{first_row}"
            last = f"{column_letter(self.column + spanned[0] - 1)}{first_row + spanned[1] - 1}"
            self.problems.append(_merged_problem(f"{first}:{last}"))
        width = self.limits.max_columns + 1
        if value is not None and self.column < width:
            self.row.extend([None] * (self.column - len(self.row)))
            self.row.extend([value] * min(repeat, width - self.column))
        self.column += repeat

    def _value(self, attrs, paragraphs):
        formula = attrs.get(_TABLE + "formula")
        if formula is not None:
            return _formula_cell(formula if formula.startswith(("of:", "=")) else "=" + formula)
        kind = attrs.get(_OFFICE + "value-type")
        try:
            if kind in ("float", "percentage", "currency"):
                return _number(attrs[_OFFICE + "value"])
            if kind == "boolean":
                return attrs.get(_OFFICE + "boolean-value", "").strip().lower() == "true"
            if kind == "date":
                text = attrs[_OFFICE + "date-value"]
                moment = datetime.fromisoformat(text)
                return moment.date() if "T" not in text else moment
        except (KeyError, ValueError):
            pass
        if kind == "string" and _OFFICE + "string-value" in attrs:
            return _text_cell(attrs[_OFFICE + "string-value"], self.limits)
        if not paragraphs:
            return None
        return _text_cell("\n".join(paragraphs), self.limits)

    def _end_row(self):
        cells, repeat = self.row, self.row_repeat
        self.row = None
        if not any(value is not None for value in cells):
            self.row_number += repeat
            return
        for _copy in range(min(repeat, self.limits.max_rows + 2)):
            self.row_number += 1
            self.ready.append((self.row_number, list(cells)))
        self.row_number += max(0, repeat - self.limits.max_rows - 2)


def _count(text) -> int:
    try:
        return max(1, int(text)) if text else 1
    except ValueError:
        return 1


def _ods_rows(archive, table):
    handler = _OdsParser(table.limits, table.problems)
    parser = xml.parsers.expat.ParserCreate(namespace_separator=" ")
    parser.buffer_text = True

    def refuse(*args):
        raise Rejected(_not_a_workbook())

    parser.StartDoctypeDeclHandler = refuse
    parser.EntityDeclHandler = refuse
    parser.StartElementHandler = handler.start
    parser.EndElementHandler = handler.end
    parser.CharacterDataHandler = handler.text
    try:
        with archive, archive.open("content.xml") as source:
            while not handler.done:
                chunk = source.read(_CHUNK)
                parser.Parse(chunk, not chunk)
                for number, cells in handler.ready:
                    if number > EXCEL_MAX_ROW:
                        return
                    yield number, cells
                handler.ready = []
                if not chunk:
                    break
    except Rejected:
        raise
    except (xml.parsers.expat.ExpatError, zipfile.BadZipFile, OSError, ValueError) as exc:
        raise Rejected(_not_a_workbook()) from exc


__all__ = [
    "ACCEPT",
    "FORMULA_GUARD",
    "FORMULA_TRIGGERS",
    "Bad",
    "ImportRejected",
    "Limits",
    "Problem",
    "Rejected",
    "Table",
    "column_letter",
    "is_empty",
    "normalise_title",
    "read_table",
    "save_as_utf8",
]
