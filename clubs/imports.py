"""Member import: the list a secretary keeps in a spreadsheet, as CSV or .xlsx.

Bytes in, checked rows out; nothing here knows about requests. Two steps:

1. :func:`member_import_preview` reads the file and checks every row against
   the club as it is, writing nothing. The :class:`Preview` lists the members
   that will be added, the rows skipped because they are already members, the
   columns that are not imported, and every problem as (row, column, what is
   wrong).
2. :func:`member_import_apply` (the service) checks the rows again against the
   database as it is *then* (someone may have added a member meanwhile) and adds
   them all, or none: one row in error rejects the whole file. One ``ClubLog``
   entry records what was added and skipped.

Between the two steps the page carries the checked rows in a token signed with
the site's key (:func:`preview_token`, :func:`rows_from_token`): nothing is
stored on the server, and a token only works for the same club and user within
an hour.

Decisions
---------
Columns
    The first row names the columns (so a report's "row 5" is the spreadsheet's
    row 5). Names are compared ignoring case, spaces and punctuation, in Dutch or
    English: ``naam``/``name`` (required); ``lidnummer``/``nummer``/``lidnr``/
    ``membership number``; ``e-mail``/``email``; ``telefoon``/``tel``/``mobiel``/
    ``phone``; ``actief``/``active``; ``gast``/``guest``. The column titles of
    our own export, in either language, are accepted too, so an export imports
    back. A column the importer does not know (an address, a birthday) is *not*
    an error: the secretary's list usually has them. It is ignored and the
    preview says so before anything is applied. Two columns meaning the same
    thing, or no name column, reject the file.
Values
    Names and other text are trimmed at both ends and otherwise stored exactly:
    accents, apostrophes ("Yvonne 't Hart"), ``<`` and ``&`` are kept; pages
    escape them. A value holding a line break, tab or other control character is
    an error (PostgreSQL cannot even store NUL). ``actief`` and ``gast`` take
    ja/nee, yes/no, j/n, y/n, 1/0, waar/onwaar, true/false and x (a tick);
    empty means active, not a guest. Numbers from Excel become text ("1234",
    not "1234.0"). Rows whose imported columns are all empty are skipped.
Duplicates
    Within the file the same membership number twice, or the same name twice
    (ignoring case and spacing), is an error on the later row. Against the club:
    a row whose number or name (ignoring case) is already a member is skipped
    and reported as such; the import only adds members, it never changes one.
CSV
    Must be UTF-8 (with or without BOM; UTF-16 with a BOM is read too). A file in
    another encoding is rejected with the line of the first character that is
    not UTF-8, asking for "CSV UTF-8" or the .xlsx itself. Dutch Excel's plain
    CSV is cp1252, but cp1252 decodes almost any bytes, so a Mac or Latin-9 file
    would silently turn "é" into another letter in a name that is stored
    exactly; a clear error is the safer product. The delimiter (``;``, ``,`` or
    tab) is the one that splits the first row into the most known column names
    (``;`` on a tie, as Dutch Excel writes). A leading apostrophe before
    ``= + - @`` is dropped: it is the guard our CSV export adds.
.xlsx
    The active sheet is read with formulas as written (``data_only=False``): a
    cell holding a formula is an error ("paste values"), because the cached
    result may be stale or missing. Merged cells anywhere on the sheet are an
    error naming the range. An old .xls, an encrypted workbook or anything that
    is not an .xlsx is rejected with a clear message, and so is a workbook that
    unpacks to more than 50 MB.
Limits
    Files over 5 MB and more than 2,000 member rows are rejected (a club has
    hundreds; more means the wrong file, and keeps the signed token small).
"""

from __future__ import annotations

import codecs
import csv
import io
import unicodedata
import zipfile
from dataclasses import asdict, dataclass, field
from datetime import date, datetime, time

from django.conf import settings
from django.core import signing
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import IntegrityError, transaction
from django.template.defaultfilters import filesizeformat
from django.utils import translation
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from common.csvfile import unguard
from common.text import has_control_character, validate_member_name

from .models import Club, ClubLog, Member
from .permissions import Role, require_role

MAX_UPLOAD_BYTES = 5 * 1024 * 1024
MAX_UNPACKED_BYTES = 50 * 1024 * 1024
MAX_ROWS = 2000
TOKEN_MAX_AGE = 60 * 60

TEXT_FIELDS = ("name", "membership_number", "email", "phone")
BOOL_FIELDS = ("is_active", "is_guest")
FIELDS = TEXT_FIELDS + BOOL_FIELDS
BOOL_DEFAULTS = {"is_active": True, "is_guest": False}

# Column titles a secretary writes, compared after _normalise().
ALIASES = {
    "name": ("naam", "name", "volledige naam", "full name"),
    "membership_number": (
        "lidnummer",
        "lid nummer",
        "lidnr",
        "nummer",
        "nr",
        "membership number",
        "member number",
        "number",
    ),
    "email": ("email", "e-mail", "emailadres", "e-mailadres", "email address", "mail"),
    "phone": (
        "telefoon",
        "telefoonnummer",
        "tel",
        "telnr",
        "mobiel",
        "phone",
        "phone number",
        "telephone",
        "mobile",
    ),
    "is_active": ("actief", "active"),
    "is_guest": ("gast", "guest"),
}

TRUE_WORDS = {"ja", "j", "yes", "y", "1", "waar", "true", "x"}
FALSE_WORDS = {"nee", "n", "no", "0", "onwaar", "false"}

_SALT = "clubs.imports.member_import"


# ---------------------------------------------------------------- values


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the file; ``row`` and ``column`` as the secretary sees them."""

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


@dataclass(frozen=True)
class ImportRow:
    """One member as read from the file: row number and the values to store."""

    row: int
    name: str
    membership_number: str = ""
    email: str = ""
    phone: str = ""
    is_active: bool = True
    is_guest: bool = False

    def member(self, club) -> Member:
        return Member(club=club, **{name: getattr(self, name) for name in FIELDS})

    @classmethod
    def from_dict(cls, data) -> ImportRow:
        """Back from :meth:`asdict`; anything else is a bug, not a user error."""
        if set(data) != {"row", *FIELDS}:
            raise ValueError(f"not an import row: {sorted(data)}")
        row = cls(**data)
        types = [isinstance(row.row, int)]
        types += [isinstance(getattr(row, name), str) for name in TEXT_FIELDS]
        types += [isinstance(getattr(row, name), bool) for name in BOOL_FIELDS]
        if not all(types):
            raise ValueError(f"not an import row: {data!r}")
        return row


@dataclass(frozen=True)
class Skipped:
    """A row that is already a member of the club: reported, not added."""

    row: ImportRow
    reason: str


@dataclass
class Preview:
    """What importing a file would do.

    ``rows`` are the rows as read from the file (before the checks against each
    other and the club); ``to_add`` and ``skipped`` are what the checks made of them.
    """

    filename: str
    columns: dict[str, str] = field(default_factory=dict)
    rows: list[ImportRow] = field(default_factory=list)
    to_add: list[ImportRow] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def can_apply(self) -> bool:
        return self.ok and bool(self.to_add)


@dataclass(frozen=True)
class ImportResult:
    added: list[Member]
    skipped: list[Skipped]


# ---------------------------------------------------------------- columns


def _normalise(title) -> str:
    return "".join(ch for ch in str(title).casefold() if ch.isalnum())


def _field_label(name) -> str:
    return capfirst(Member._meta.get_field(name).verbose_name)


def column_titles() -> dict[str, str]:
    """The column title of each field in the current language (used by the export)."""
    return {name: str(_field_label(name)) for name in FIELDS}


def _aliases() -> dict[str, str]:
    """Normalised column title -> field, including our export's titles in every language."""
    aliases = {_normalise(title): name for name, titles in ALIASES.items() for title in titles}
    for code, _language in settings.LANGUAGES:
        with translation.override(code):
            for name in FIELDS:
                aliases.setdefault(_normalise(_field_label(name)), name)
    return aliases


def _bool_words():
    true, false = set(TRUE_WORDS), set(FALSE_WORDS)
    for code, _language in settings.LANGUAGES:
        with translation.override(code):
            true.add(_("yes").casefold())
            false.add(_("no").casefold())
    return true, false


# ---------------------------------------------------------------- reading


class _Rejected(Exception):
    def __init__(self, *problems):
        self.problems = list(problems)


@dataclass(frozen=True)
class _Bad:
    """A cell whose value must not be imported (a formula, an Excel error)."""

    message: str


@dataclass
class _Sheet:
    """A file as a grid: (row number, cell values); the first row holds the titles."""

    rows: list[tuple[int, list]]
    from_csv: bool
    problems: list[Problem] = field(default_factory=list)


def _column_letter(index):
    from openpyxl.utils import get_column_letter

    return get_column_letter(index + 1)


def _read_csv(data: bytes) -> _Sheet:
    if data.startswith(codecs.BOM_UTF8):
        encoding, data = "utf-8", data[len(codecs.BOM_UTF8) :]
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        encoding = "utf-16"
    else:
        encoding = "utf-8"
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise _Rejected(
            Problem(
                _(
                    "The file is not UTF-8 text (line %(line)s has a character in "
                    "another encoding). In Excel choose Save as, “CSV UTF-8”, or "
                    "upload the .xlsx workbook itself."
                )
                % {"line": line}
            )
        ) from exc
    first_line = text.split("\n", 1)[0].rstrip("\r")
    aliases = _aliases()

    def score(delimiter):
        titles = next(csv.reader([first_line], delimiter=delimiter), [])
        return (sum(_normalise(t) in aliases for t in titles), len(titles))

    delimiter = max([";", ",", "\t"], key=score)  # max keeps the first on a tie
    try:
        records = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))
    except csv.Error as exc:
        raise _Rejected(
            Problem(_("The file could not be read as CSV: %(error)s") % {"error": exc})
        ) from exc
    rows = [(number, dict(enumerate(cells))) for number, cells in enumerate(records, 1)]
    return _Sheet(rows=rows, from_csv=True)


def _read_xlsx(data: bytes) -> _Sheet:
    import openpyxl
    from openpyxl.worksheet.worksheet import Worksheet

    not_xlsx = Problem(_("The file is not an Excel workbook (.xlsx) that can be read."))
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
    except (zipfile.BadZipFile, ValueError) as exc:
        raise _Rejected(not_xlsx) from exc
    if unpacked > MAX_UNPACKED_BYTES:
        raise _Rejected(Problem(_("The workbook is too large when unpacked.")))
    try:
        workbook = openpyxl.load_workbook(io.BytesIO(data), read_only=False, data_only=False)
    except Exception as exc:  # openpyxl raises many kinds on a damaged file
        raise _Rejected(not_xlsx) from exc
    sheet = workbook.active
    if not isinstance(sheet, Worksheet):
        raise _Rejected(Problem(_("The workbook's first sheet holds no table.")))
    problems = [
        Problem(
            _("cells %(range)s are merged; unmerge them so that every cell holds its own value.")
            % {"range": merged.coord},
            row=merged.min_row,
        )
        for merged in sorted(sheet.merged_cells.ranges, key=lambda r: (r.min_row, r.min_col))
    ]
    # Only the cells the file holds: iter_rows() would create every cell up to
    # max_row x max_column, and one stray cell at XFD1048576 makes that billions.
    by_row = {}
    for (row, column), cell in sheet._cells.items():
        by_row.setdefault(row, {})[column - 1] = _xlsx_value(cell)
    rows = [(number, by_row[number]) for number in sorted(by_row)]
    return _Sheet(rows=rows, from_csv=False, problems=problems)


def _xlsx_value(cell):
    from openpyxl.worksheet.formula import ArrayFormula, DataTableFormula

    if cell.data_type == "f" or isinstance(cell.value, ArrayFormula | DataTableFormula):
        formula = cell.value if isinstance(cell.value, str) else "="
        formula = formula if len(formula) <= 40 else formula[:39] + "…"
        return _Bad(
            _(
                "the cell holds a formula (%(formula)s); copy the column and "
                "paste it back as values."
            )
            % {"formula": formula}
        )
    if cell.data_type == "e":
        return _Bad(_("the cell shows an error (%(error)s).") % {"error": cell.value})
    return cell.value


def _text(value) -> str:
    """A cell's value as the text the secretary sees."""
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


def _is_empty(value) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _read(data: bytes, filename: str) -> _Sheet:
    if not data:
        raise _Rejected(Problem(_("The file is empty.")))
    if len(data) > MAX_UPLOAD_BYTES:
        raise _Rejected(size_problem(len(data)))
    if data.startswith(b"PK\x03\x04"):
        return _read_xlsx(data)
    if data.startswith(b"\xd0\xcf\x11\xe0"):
        raise _Rejected(
            Problem(
                _(
                    "This is an old Excel file (.xls) or a workbook with a password. "
                    "Save it as .xlsx without a password, or as CSV UTF-8."
                )
            )
        )
    if filename.lower().endswith((".xlsx", ".xlsm")):
        raise _Rejected(Problem(_("The file is not an Excel workbook (.xlsx) that can be read.")))
    return _read_csv(data)


def size_problem(size) -> Problem:
    return Problem(
        _("The file is too large (%(size)s); files up to %(limit)s can be imported.")
        % {"size": filesizeformat(size), "limit": filesizeformat(MAX_UPLOAD_BYTES)}
    )


def _header(sheet: _Sheet, preview: Preview) -> dict[int, str]:
    """Map the first row's titles to fields; column index -> field name."""
    titles = sheet.rows[0][1] if sheet.rows and sheet.rows[0][0] == 1 else {}
    if all(_is_empty(value) for value in titles.values()):
        preview.problems.append(
            Problem(_("The first row must hold the column titles, such as “naam” or “name”."))
        )
        return {}
    aliases = _aliases()
    fields, unknown = {}, []
    for index, title in sorted(titles.items()):
        if isinstance(title, _Bad):
            preview.problems.append(Problem(title.message, row=1, column=_column_letter(index)))
            continue
        text = _text(title).strip()
        if not text:
            continue
        name = aliases.get(_normalise(text))
        if name is None:
            unknown.append(text)
        elif name in preview.columns:
            preview.problems.append(
                Problem(
                    _("means the same as column %(other)s; keep one of them.")
                    % {"other": preview.columns[name]},
                    row=1,
                    column=text,
                )
            )
        else:
            preview.columns[name] = text
            fields[index] = name
    if "name" not in preview.columns:
        preview.problems.append(
            Problem(
                _(
                    "there is no column for the names. The first row must hold the "
                    "column titles, one of them “naam” or “name”."
                ),
                row=1,
            )
        )
        return {}
    if unknown:
        preview.warnings.append(
            _("These columns are not imported: %(columns)s.")
            % {"columns": ", ".join(f"“{title}”" for title in unknown)}
        )
    return fields


def _rows(sheet: _Sheet, preview: Preview) -> None:
    """Fill the preview's columns, warnings, problems and rows from the grid."""
    preview.problems.extend(sheet.problems)
    fields = _header(sheet, preview)
    if not fields:
        return
    titled = {index for index, value in sheet.rows[0][1].items() if not _is_empty(value)}
    untitled = set()
    true_words, false_words = _bool_words()
    count = 0
    for number, cells in sheet.rows[1:]:
        untitled.update(i for i, v in cells.items() if i not in titled and not _is_empty(v))
        values = {name: cells.get(index) for index, name in fields.items()}
        if all(_is_empty(value) for value in values.values()):
            continue
        count += 1
        if count > MAX_ROWS:
            preview.problems.append(
                Problem(
                    _("The file has more than %(max)s members; import it in parts.")
                    % {"max": MAX_ROWS}
                )
            )
            return
        row_problems, row = [], {}
        for name, value in values.items():
            column = preview.columns[name]
            if isinstance(value, _Bad):
                row_problems.append(Problem(value.message, row=number, column=column))
            elif name in BOOL_FIELDS:
                word = _text(value).strip().casefold()
                if isinstance(value, bool):
                    row[name] = value
                elif not word:
                    row[name] = BOOL_DEFAULTS[name]
                elif word in true_words or word in false_words:
                    row[name] = word in true_words
                else:
                    row_problems.append(
                        Problem(
                            _("“%(value)s” is not yes or no; write ja or nee.")
                            % {"value": _text(value).strip()},
                            row=number,
                            column=column,
                        )
                    )
            else:
                text = _text(value).strip()
                if sheet.from_csv:
                    text = unguard(text)  # the guard our CSV export puts before = + - @
                if has_control_character(text):
                    row_problems.append(
                        Problem(
                            _(
                                "the value holds a line break, tab or other control "
                                "character; keep it on one line."
                            ),
                            row=number,
                            column=column,
                        )
                    )
                else:
                    row[name] = text
        if row.get("name") == "":
            row_problems.append(
                Problem(_("the name is empty."), row=number, column=preview.columns["name"])
            )
        elif row.get("name"):
            try:
                validate_member_name(row["name"])  # the one name check: form, admin, import
            except ValidationError as exc:
                column = preview.columns["name"]
                row_problems += [Problem(m, row=number, column=column) for m in exc.messages]
        preview.problems.extend(row_problems)
        if not row_problems:
            preview.rows.append(ImportRow(row=number, **row))
    for index in sorted(untitled):
        preview.warnings.append(
            _("Column %(column)s has values but no title; it is not imported.")
            % {"column": _column_letter(index)}
        )
    if count == 0:
        preview.problems.append(Problem(_("The file has column titles but no members.")))


# ---------------------------------------------------------------- checking


def _name_key(name: str) -> str:
    return " ".join(unicodedata.normalize("NFC", name).casefold().split())


def _check(club, rows, columns):
    """Classify rows against each other and the club: (to add, skipped, problems)."""
    labels = column_titles() | dict(columns or {})
    existing_numbers, existing_names = {}, {}
    for name, number in Member.objects.filter(club=club).values_list("name", "membership_number"):
        if number:
            existing_numbers.setdefault(number, name)
        existing_names.setdefault(_name_key(name), name)
    to_add, skipped, problems = [], [], []
    seen_numbers, seen_names = {}, {}
    for row in rows:
        try:
            row.member(club).full_clean(
                exclude=["club"], validate_unique=False, validate_constraints=False
            )
        except ValidationError as exc:
            for name, messages in exc.message_dict.items():
                column = None if name == NON_FIELD_ERRORS else labels.get(name, name)
                problems.extend(Problem(m, row=row.row, column=column) for m in messages)
            continue
        duplicate = False
        number, key = row.membership_number, _name_key(row.name)
        if number:
            first = seen_numbers.setdefault(number, row.row)
            if first != row.row:
                duplicate = True
                problems.append(
                    Problem(
                        _("membership number %(number)s is also on row %(other)s.")
                        % {"number": number, "other": first},
                        row=row.row,
                        column=labels["membership_number"],
                    )
                )
        first = seen_names.setdefault(key, row.row)
        if first != row.row:
            duplicate = True
            problems.append(
                Problem(
                    _(
                        "the same name is on row %(other)s. If these are two people, "
                        "tell them apart, for example with an initial."
                    )
                    % {"other": first},
                    row=row.row,
                    column=labels["name"],
                )
            )
        if duplicate:
            continue
        if number and number in existing_numbers:
            reason = _("already a member: %(name)s has membership number %(number)s.") % {
                "number": number,
                "name": existing_numbers[number],
            }
            skipped.append(Skipped(row=row, reason=reason))
        elif key in existing_names:
            reason = _("already a member: %(name)s.") % {"name": existing_names[key]}
            skipped.append(Skipped(row=row, reason=reason))
        else:
            to_add.append(row)
    return to_add, skipped, problems


def member_import_preview(*, club: Club, data: bytes, filename: str = "") -> Preview:
    """Read and check a member file; changes nothing."""
    preview = Preview(filename=filename)
    try:
        sheet = _read(data, filename)
    except _Rejected as exc:
        preview.problems.extend(exc.problems)
        return preview
    _rows(sheet, preview)
    if "name" not in preview.columns:
        return preview
    to_add, skipped, problems = _check(club, preview.rows, preview.columns)
    preview.to_add, preview.skipped = to_add, skipped
    preview.problems.extend(problems)
    preview.problems.sort(key=lambda p: (p.row is not None, p.row or 0))
    return preview


# ---------------------------------------------------------------- carrying a preview


def _salt(club, by):
    return f"{_SALT}:{club.pk}:{by.pk}"


def preview_token(preview: Preview, *, club: Club, by) -> str:
    """The preview's checked rows, signed for this club and user."""
    payload = {
        "file": preview.filename,
        "columns": preview.columns,
        "rows": [asdict(row) for row in preview.rows],
    }
    return signing.dumps(payload, salt=_salt(club, by), compress=True)


def rows_from_token(token: str, *, club: Club, by):
    """(rows, filename, columns) from :func:`preview_token`; ImportRejected if unusable."""
    try:
        payload = signing.loads(token, salt=_salt(club, by), max_age=TOKEN_MAX_AGE)
    except signing.SignatureExpired as exc:
        raise ImportRejected(
            [Problem(_("The preview is more than an hour old; upload the file again."))]
        ) from exc
    except signing.BadSignature as exc:
        raise ImportRejected(
            [Problem(_("The preview could not be read; upload the file again."))]
        ) from exc
    rows = [ImportRow.from_dict(row) for row in payload["rows"]]
    return rows, payload["file"], payload["columns"]


# ---------------------------------------------------------------- the service


@transaction.atomic
def member_import_apply(*, club: Club, rows, by, filename: str = "", columns=None) -> ImportResult:
    """Add the rows that are not members yet: all of them, or none.

    Checks everything again against the database as it is now; a row that has
    become a member since the preview is skipped, a row in error rejects the
    whole import with :class:`ImportRejected`.
    """
    require_role(by, club, Role.ADMIN)
    Club.objects.select_for_update().get(pk=club.pk)  # one import per club at a time
    rows = list(rows)
    to_add, skipped, problems = _check(club, rows, columns)
    members = []
    if not problems:
        for row in to_add:
            member = row.member(club)
            try:
                # Not "club": it is locked above (no query per row to prove it
                # exists); the number's uniqueness was checked by _check under
                # that lock, and the database's constraint still guards it.
                member.full_clean(exclude=["club"])
            except ValidationError as exc:
                problems.extend(Problem(m, row=row.row) for m in exc.messages)
            members.append(member)
    if problems:
        raise ImportRejected(problems)
    if not members:
        return ImportResult(added=[], skipped=skipped)
    try:
        members = Member.objects.bulk_create(members)
    except IntegrityError as exc:
        raise ImportRejected(
            [
                Problem(
                    _(
                        "The member list changed while importing; nothing was imported. "
                        "Upload the file again."
                    )
                )
            ]
        ) from exc
    short_name = filename if len(filename) <= 100 else filename[:99] + "…"
    ClubLog.objects.create(
        club=club,
        user=by if by.is_authenticated else None,
        action=ClubLog.Action.MEMBER_IMPORT,
        summary=ngettext(
            "%(count)s member imported from %(file)s",
            "%(count)s members imported from %(file)s",
            len(members),
        )
        % {"count": len(members), "file": short_name},
        detail={
            "file": filename,
            "added": [
                {"pk": member.pk, "row": row.row, "name": member.name}
                for member, row in zip(members, to_add, strict=True)
            ],
            "skipped": [
                {"row": item.row.row, "name": item.row.name, "reason": item.reason}
                for item in skipped
            ],
        },
    )
    return ImportResult(added=members, skipped=skipped)
