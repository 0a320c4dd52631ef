"""Member import: the list a secretary keeps in a spreadsheet, as CSV, .xlsx or .ods.

Bytes in, checked rows out; nothing here knows about requests. The file is
read by the site's one reader, :mod:`common.tabular` (encodings, separators,
workbooks, limits, cell checks, the formula guard and how the first row's titles
map to columns, as in the results import, are decided there). Two steps:

1. :func:`member_import_preview` reads the file and checks every row against
   the club as it is, writing nothing. The :class:`Preview` lists the members
   that will be added, the members whose details will change (field: old ->
   new), the rows that are already members as they are, the columns that are
   not imported, and every problem as (row, column, what is wrong).
2. :func:`member_import_apply` (the service) checks the rows again against the
   database as it is *then* and adds and changes them all, or none: one row in
   error rejects the whole file, in one transaction. One ``ClubLog`` entry
   records what was added, changed (with the old and new values) and skipped.

Between the two steps the page carries the checked rows and the changes shown
in a token signed with the site's key (:func:`preview_token`,
:func:`rows_from_token`): nothing is stored on the server, and a token only
works for the same club and user within an hour.

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
    an error of its row. ``actief`` and ``gast`` take ja/nee, yes/no, j/n, y/n,
    1/0, waar/onwaar, true/false, x (a tick) and true/false cells (also the
    ``=TRUE()`` formulas LibreOffice and Excel save them as); empty means
    active, not a guest. Numbers become text ("1234", not "1234.0"). A value
    whose letters a program could not write ("?ukasz W?sowski" in a CSV saved
    in Windows-1252, or U+FFFD in any file) is refused by the reader
    (:mod:`common.tabular`): its row is an error, saying how to save as UTF-8,
    so it never renames a member or adds one. Rows whose imported columns are
    all empty are skipped.
Leading zeros (membership numbers and phones are text)
    A spreadsheet that reads a CSV with its "Standard" columns (LibreOffice's
    default, Excel's too) makes 0045 the number 45 and saves it so, in CSV as
    in a workbook. So the import never turns a stored 0045 into 45: a number
    without leading zeros that is no member's number, but is one member's
    number without its zeros, is that member (two such members, 045 and 0045,
    are an error unless the name tells which); a phone that is a member's
    phone without its zeros keeps the member's. A new member's phone of nine
    digits (698765432) is a Dutch number without its 0, the way a spreadsheet
    leaves 0698765432: it is imported with the 0 (a secretary expects the
    number they typed, and no Dutch number has nine digits). The preview says
    each of these, by column with the rows, and warns of a new member's
    number without a zero where the club's numbers start with 0, and of the
    number cells of other rows. The member export formats both columns as
    text down the whole sheet, so a number typed there keeps its zeros.
Members already in the club
    A row is that member when its membership number is the member's, or else
    when its name is (ignoring case and spacing; two members of that name
    cannot be told apart, so the row is skipped), or else when its e-mail
    address is one member's (ignoring case): a member renamed in a list
    without numbers. The e-mail address does not find a member that another
    row of the file is by number or name (a family shares an address), a
    member two members share it with, or a member with another number than the
    row's; the preview says "found by the e-mail address". Its name differs, so it
    is only a proposal: a family shares an address, and "Piet Bakker" on a list of
    new members is not Marie Bakker renamed. The secretary ticks it per row on the
    preview (:func:`renames_from_post`); a row not ticked is added as a new member.
    The columns the file has are the truth: each value that differs is a change (an
    empty cell clears the field; an empty ``actief``/``gast`` means ja/nee as for a new
    member), shown in the preview as field: old -> new and applied when confirmed.
    Columns the file does not have are left alone. A row without differences is skipped
    as already a member. A change that would give a member another member's number or
    name is an error.
Duplicates in the file
    The same membership number twice, the same name twice (ignoring case and
    spacing), or two rows that are one member, is an error on the later row.
Between preview and apply
    A member changed by someone else since the preview, in a field the import
    changes, rejects the import ("upload the file again"); a row to be added
    that has meanwhile become a member is skipped, never doubled or changed.
Limits
    Files up to 5 MB and 2,000 member rows (a club has hundreds; more means the
    wrong file, and keeps the signed token small).
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field, replace

from django.conf import settings
from django.core import signing
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import IntegrityError, transaction
from django.utils import translation
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from common.params import parse_id
from common.tabular import (
    FORMULA_TRIGGERS,
    Bad,
    ImportRejected,
    Limits,
    Problem,
    Rejected,
    cell_text,
    column_letter,
    is_empty,
    read_table,
    title_aliases,
)
from common.text import name_key, validate_member_name

from .models import Club, ClubLog, Member
from .permissions import Capability, require
from .services import club_log_add
from .versions import clubs_touch

__all__ = [
    "FORMULA_TRIGGERS",
    "ImportRejected",
    "Problem",
    "member_import_apply",
    "member_import_preview",
]

LIMITS = Limits(max_bytes=5 * 1024 * 1024, max_rows=2000, max_unpacked_bytes=50 * 1024 * 1024)
MAX_UPLOAD_BYTES = LIMITS.max_bytes
MAX_ROWS = LIMITS.max_rows
TOKEN_MAX_AGE = 60 * 60

TEXT_FIELDS = ("name", "membership_number", "email", "phone")
BOOL_FIELDS = ("is_active", "is_guest")
FIELDS = TEXT_FIELDS + BOOL_FIELDS
BOOL_DEFAULTS = {"is_active": True, "is_guest": False}
NUMBER_FIELDS = ("membership_number", "phone")  # texts of digits: a number cell loses a 0

# Column titles a secretary writes, compared after normalise_title().
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
    """A row that is already a member of the club as it is: reported, not added."""

    row: ImportRow
    reason: str


@dataclass(frozen=True)
class FieldChange:
    """One field of a member that the import changes."""

    field: str
    label: str
    old: str | bool
    new: str | bool

    @staticmethod
    def _shown(value):
        if isinstance(value, bool):
            return _("yes") if value else _("no")
        return value if value != "" else "–"

    @property
    def old_text(self):
        return self._shown(self.old)

    @property
    def new_text(self):
        return self._shown(self.new)

    def __str__(self):
        return f"{self.label}: {self.old_text} → {self.new_text}"


@dataclass(frozen=True)
class Change:
    """A member of the club whose details the row changes."""

    row: ImportRow
    member_id: int
    name: str  # the member's name before the import
    fields: tuple[FieldChange, ...]
    found_by: str = ""  # how the row was found when not by number or name, for the preview

    @property
    def proposed(self) -> bool:
        """Found by the e-mail address only: applied when the secretary confirms it."""
        return bool(self.found_by)

    @property
    def choice(self) -> str:
        """The value of the preview's box that confirms this change (:func:`renames_from_post`)."""
        return f"{self.row.row}-{self.member_id}"

    @property
    def old(self) -> dict:
        return {change.field: change.old for change in self.fields}


@dataclass
class Preview:
    """What importing a file would do.

    ``rows`` are the rows as read from the file (before the checks against each
    other and the club); ``to_add``, ``to_change`` and ``skipped`` are what the
    checks made of them.
    """

    filename: str
    columns: dict[str, str] = field(default_factory=dict)
    rows: list[ImportRow] = field(default_factory=list)
    to_add: list[ImportRow] = field(default_factory=list)
    to_change: list[Change] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    zeros: list[Zeros] = field(default_factory=list)  # values read with their zeros back
    number_cells: dict[str, list[int]] = field(default_factory=dict)  # field -> rows

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def can_apply(self) -> bool:
        return self.ok and bool(self.to_add or self.to_change)

    @property
    def planned_changes(self) -> dict[int, tuple[int, dict]]:
        """Row number -> (member id, the old values shown), as the token carries them."""
        return {change.row.row: (change.member_id, change.old) for change in self.to_change}


@dataclass(frozen=True)
class ImportResult:
    added: list[Member]
    skipped: list[Skipped]
    changed: list[Change] = field(default_factory=list)


# ---------------------------------------------------------------- columns


def _field_label(name) -> str:
    return capfirst(Member._meta.get_field(name).verbose_name)


def column_titles() -> dict[str, str]:
    """The column title of each field in the current language (used by the export)."""
    return {name: str(_field_label(name)) for name in FIELDS}


def _aliases() -> dict[str, str]:
    """Normalised column title -> field, including our export's titles in every language."""
    return title_aliases(ALIASES, {name: _field_label(name) for name in FIELDS})


def _bool_words():
    true, false = set(TRUE_WORDS), set(FALSE_WORDS)
    for code, _language in settings.LANGUAGES:
        with translation.override(code):
            true.add(_("yes").casefold())
            false.add(_("no").casefold())
    return true, false


# ---------------------------------------------------------------- reading


def size_problem(size) -> Problem:
    return LIMITS.size_problem(size)


def _header(number, titles, table, preview: Preview) -> dict[int, str]:
    """Map the first row's titles to fields; column index -> field name."""
    if number != 1:
        preview.problems.append(
            Problem(_("The first row must hold the column titles, such as “naam” or “name”."))
        )
        return {}
    header = table.header(number, titles, _aliases())
    preview.problems.extend(header.problems)
    preview.columns.update(header.columns)
    if header.missing(("name",)):
        preview.problems.extend(
            header.refused(
                _(
                    "there is no column for the names. The first row must hold the "
                    "column titles, one of them “naam” or “name”."
                )
            )
        )
        return {}
    preview.warnings.extend(header.warnings)
    return header.fields


def _rows(table, preview: Preview) -> None:
    """Fill the preview's columns, warnings, problems and rows from the table."""
    records = table.rows()
    first = next(records, None)
    if first is None:
        preview.problems.append(Problem(_("The file has no rows.")))
        return
    fields = _header(*first, table, preview)
    if not fields:
        return
    titled = {index for index, value in enumerate(first[1]) if not is_empty(value)}
    untitled = set()
    numbers = {name: [] for name in NUMBER_FIELDS}
    true_words, false_words = _bool_words()
    count = 0
    for number, cells in records:
        untitled.update(i for i, v in enumerate(cells) if v is not None and i not in titled)
        values = {name: cells[i] if i < len(cells) else None for i, name in fields.items()}
        if all(is_empty(value) for value in values.values()):
            continue
        count += 1
        row_problems, row = [], {}
        for name, value in values.items():
            column = preview.columns[name]
            if isinstance(value, Bad):
                row_problems.append(Problem(value.message, row=number, column=column))
            elif name in BOOL_FIELDS:
                word = cell_text(value).strip().casefold()
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
                            % {"value": cell_text(value).strip()},
                            row=number,
                            column=column,
                        )
                    )
            else:
                if name in numbers and type(value) in (int, float):
                    numbers[name].append(number)
                row[name] = cell_text(value).strip()
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
    preview.problems.extend(table.problems)
    preview.warnings.extend(table.warnings)
    preview.number_cells = numbers
    for index in sorted(untitled):
        preview.warnings.append(
            _("Column %(column)s has values but no title; it is not imported.")
            % {"column": column_letter(index)}
        )
    if count == 0:
        preview.problems.append(Problem(_("The file has column titles but no members.")))


def _zeros_warnings(preview) -> list[str]:
    """What the preview says of values that lost their leading zeros: the ones read back
    (by column and kind), then the number cells of other rows, which may have lost one."""
    warnings = []
    for name in NUMBER_FIELDS:
        column = preview.columns.get(name, "")
        for how in (Zeros.MEMBER, Zeros.UNKNOWN, Zeros.DUTCH):
            found = [z for z in preview.zeros if z.field == name and z.how == how]
            if found:
                warnings.append(_zeros_warning(column, how, found))
        noted = {z.row for z in preview.zeros if z.field == name}
        rows = [row for row in preview.number_cells.get(name, []) if row not in noted]
        if rows:
            warnings.append(_number_warning(column, rows))
    return warnings


def _rows_text(rows) -> str:
    return ", ".join(str(row) for row in rows[:10]) + (" …" if len(rows) > 10 else "")


def _zeros_warning(column, how, found) -> str:
    values = {"column": column, "rows": _rows_text([z.row for z in found])}
    values |= {"given": found[0].given, "value": found[0].value}
    if how == Zeros.UNKNOWN:
        return (
            ngettext(
                "Column “%(column)s”, row %(rows)s: the new member's number %(given)s may have "
                "lost its leading zeros in the spreadsheet, as the club's numbers start with 0 "
                "(%(value)s). Check it before you import.",
                "Column “%(column)s”, rows %(rows)s: the new members' numbers (%(given)s) may "
                "have lost their leading zeros in the spreadsheet, as the club's numbers start "
                "with 0 (%(value)s). Check them before you import.",
                len(found),
            )
            % values
        )
    if how == Zeros.DUTCH:
        return (
            ngettext(
                "Column “%(column)s”, row %(rows)s: %(given)s has nine digits, a Dutch phone "
                "number without its leading 0, so it is imported as %(value)s. Check it "
                "before you import.",
                "Column “%(column)s”, rows %(rows)s: these phone numbers have nine digits, "
                "Dutch numbers without their leading 0 (%(given)s), so they are imported with "
                "the 0 (%(value)s). Check them before you import.",
                len(found),
            )
            % values
        )
    return (
        ngettext(
            "Column “%(column)s”, row %(rows)s: the spreadsheet dropped the leading zeros "
            "(%(given)s is the member's %(value)s); the member keeps %(value)s. Format the "
            "column as text in the spreadsheet, as in the site's .xlsx export.",
            "Column “%(column)s”, rows %(rows)s: the spreadsheet dropped the leading zeros "
            "(%(given)s is the member's %(value)s, for example); the members keep theirs. "
            "Format the column as text in the spreadsheet, as in the site's .xlsx export.",
            len(found),
        )
        % values
    )


def _number_warning(column, rows) -> str:
    shown = _rows_text(rows)
    return ngettext(
        "Column “%(column)s” holds a number instead of text in row %(rows)s: a "
        "leading zero is lost that way (0612345678 becomes 612345678). Check the "
        "value, and format the column as text in the spreadsheet.",
        "Column “%(column)s” holds numbers instead of text in rows %(rows)s: a "
        "leading zero is lost that way (0612345678 becomes 612345678). Check the "
        "values, and format the column as text in the spreadsheet.",
        len(rows),
    ) % {"column": column, "rows": shown}


# ---------------------------------------------------------------- checking


@dataclass(frozen=True)
class Zeros:
    """A number or phone of the file without its leading zeros, read as what it was."""

    MEMBER = "member"  # the member's own value, which the file shows without its zeros
    DUTCH = "dutch"  # nine digits: a Dutch phone number without its 0, which is put back
    UNKNOWN = "unknown"  # a new member's number, where the club's start with 0: ``value``
    # is one of those, and the number is imported as the file has it

    row: int
    field: str
    given: str
    value: str
    how: str


@dataclass
class _Plan:
    to_add: list[ImportRow] = field(default_factory=list)
    to_change: list[Change] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    zeros: list[Zeros] = field(default_factory=list)


#: Digits as a spreadsheet leaves them of a number it read: no leading zero.
_WITHOUT_ZEROS = re.compile("[1-9][0-9]*")
_WITH_ZEROS = re.compile("0[0-9]*")
DUTCH_DIGITS_WITHOUT_ZERO = 9  # 06 12345678 and 010 1234567 are ten digits with the 0


def _lost_zeros(stored: str, given: str) -> bool:
    """Whether ``given`` is ``stored`` (a number, or a phone's digits) without its leading
    zeros, as a spreadsheet leaves a number it read."""
    digits = "".join(ch for ch in stored if ch in "0123456789")
    return (
        _WITHOUT_ZEROS.fullmatch(given) is not None
        and _WITH_ZEROS.fullmatch(digits) is not None
        and digits.lstrip("0") == given
    )


class _Index:
    """The club's members, as a row of a file finds them."""

    def __init__(self, members):
        self.by_number, self.by_key, self.by_short_number, self.by_email = {}, {}, {}, {}
        for member in members:
            number = member.membership_number
            if number:
                self.by_number.setdefault(number, member)
                if _WITH_ZEROS.fullmatch(number):
                    self.by_short_number.setdefault(number.lstrip("0"), []).append(member)
            self.by_key.setdefault(name_key(member.name), []).append(member)
            if member.email:
                self.by_email.setdefault(member.email.casefold(), []).append(member)
        #: The lowest of the club's numbers that start with 0, "" when none does.
        self.zero_example = min(
            (m.membership_number for held in self.by_short_number.values() for m in held),
            default="",
        )

    def named(self, row) -> list[Member]:
        return self.by_key.get(name_key(row.name), [])

    def claimed(self, row) -> Member | None:
        """The member the row is by its number or its name (not by its e-mail address)."""
        if row.membership_number in self.by_number:
            return self.by_number[row.membership_number]
        named = self.named(row)
        return named[0] if len(named) == 1 else None

    def by_email_of(self, row, claimed) -> Member | None:
        """The one member with the row's e-mail address, when no other row is that member
        and its number does not say otherwise (a family shares an address)."""
        found = self.by_email.get(row.email.casefold(), []) if row.email else []
        if len(found) != 1 or found[0].pk in claimed:
            return None
        member = found[0]
        numbers = (row.membership_number, member.membership_number)
        return None if all(numbers) and numbers[0] != numbers[1] else member


def _restore_number(row, index, plan, labels):
    """The row with the member's own number when the file dropped its leading zeros
    (45 for 0045); None when that cannot be told (045 and 0045 are both members)."""
    number = row.membership_number
    if number in index.by_number or not _WITHOUT_ZEROS.fullmatch(number):
        return row
    held = index.by_short_number.get(number, [])
    if len(held) > 1:
        held = [member for member in held if member in index.named(row)]
        if len(held) != 1:
            numbers = sorted(m.membership_number for m in index.by_short_number[number])
            plan.problems.append(
                Problem(
                    _(
                        "%(number)s may be %(numbers)s: the spreadsheet dropped the leading "
                        "zeros. Write the number with its zeros, in a column formatted as "
                        "text."
                    )
                    % {"number": number, "numbers": ", ".join(numbers)},
                    row=row.row,
                    column=labels["membership_number"],
                )
            )
            return None
    if not held:
        return row
    kept = held[0].membership_number
    plan.zeros.append(Zeros(row.row, "membership_number", number, kept, Zeros.MEMBER))
    return replace(row, membership_number=kept)


def _restore_phone(row, member, plan):
    """The row with the phone's leading zero back: the member's own phone when the file
    shows it without its zeros, else a 0 before nine digits (a Dutch number)."""
    phone = row.phone
    if not _WITHOUT_ZEROS.fullmatch(phone):
        return row
    if member is not None and _lost_zeros(member.phone, phone):
        kept, how = member.phone, Zeros.MEMBER
    elif len(phone) == DUTCH_DIGITS_WITHOUT_ZERO:
        kept, how = "0" + phone, Zeros.DUTCH
    else:
        return row
    plan.zeros.append(Zeros(row.row, "phone", phone, kept, how))
    return replace(row, phone=kept)


def _check(club, rows, columns, renames=None) -> _Plan:
    """Classify rows against each other and the club: add, change, skip, or a problem.

    A row found by its e-mail address only (another name) is a proposed change: on
    the preview (``renames`` None) it is shown as one, to be confirmed; when applying,
    it is a change when ``renames`` (row number -> member id) holds it, else the row is
    a new member."""
    labels = column_titles() | dict(columns or {})
    present = [name for name in FIELDS if not columns or name in columns]
    index = _Index(Member.objects.filter(club=club))
    plan = _Plan()
    valid = []
    for row in rows:
        try:
            row.member(club).full_clean(
                exclude=["club"], validate_unique=False, validate_constraints=False
            )
        except ValidationError as exc:
            for name, messages in exc.message_dict.items():
                column = None if name == NON_FIELD_ERRORS else labels.get(name, name)
                plan.problems.extend(Problem(m, row=row.row, column=column) for m in messages)
            continue
        row = _restore_number(row, index, plan, labels)
        if row is not None:
            valid.append(row)
    claimed = {member.pk for member in map(index.claimed, valid) if member is not None}
    seen_numbers, seen_names, seen_members = {}, {}, {}
    for row in valid:
        duplicate = False
        number, key = row.membership_number, name_key(row.name)
        if number:
            first = seen_numbers.setdefault(number, row.row)
            if first != row.row:
                duplicate = True
                plan.problems.append(
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
            plan.problems.append(
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
        named = index.named(row)
        found_by = ""
        if number and number in index.by_number:
            member = index.by_number[number]
        elif len(named) == 1:
            member = named[0]
        elif named:
            reason = _(
                "%(count)s members are called %(name)s; give them membership numbers "
                "to tell them apart."
            ) % {"count": len(named), "name": named[0].name}
            plan.skipped.append(Skipped(row=row, reason=reason))
            continue
        elif (member := index.by_email_of(row, claimed)) is not None and (
            renames is None or renames.get(row.row) == member.pk
        ):
            found_by = _("found by the e-mail address %(email)s") % {"email": member.email}
        else:
            if _WITHOUT_ZEROS.fullmatch(number) and index.zero_example:
                plan.zeros.append(
                    Zeros(row.row, "membership_number", number, index.zero_example, Zeros.UNKNOWN)
                )
            plan.to_add.append(_restore_phone(row, None, plan))
            continue
        other = seen_members.setdefault(member.pk, row.row)
        if other != row.row:
            plan.problems.append(
                Problem(
                    _("row %(other)s is the same member (%(name)s).")
                    % {"other": other, "name": member.name},
                    row=row.row,
                )
            )
            continue
        row = _restore_phone(row, member, plan)
        fields = tuple(
            FieldChange(name, labels[name], getattr(member, name), getattr(row, name))
            for name in present
            if getattr(member, name) != getattr(row, name)
        )
        if not fields:
            reason = _("already a member: %(name)s, nothing differs.") % {"name": member.name}
            plan.skipped.append(Skipped(row=row, reason=reason))
            continue
        problems = _change_problems(row, member, fields, index.by_number, index.by_key, labels)
        if problems:
            plan.problems.extend(problems)
        else:
            plan.to_change.append(Change(row, member.pk, member.name, fields, found_by))
    plan.zeros.sort(key=lambda zeros: (zeros.row, FIELDS.index(zeros.field)))
    return plan


def _change_problems(row, member, fields, by_number, by_key, labels):
    """A change may not give the member another member's number or name."""
    problems = []
    changed = {change.field for change in fields}
    if "membership_number" in changed and row.membership_number:
        holder = by_number.get(row.membership_number)
        if holder is not None and holder.pk != member.pk:
            problems.append(
                Problem(
                    _("membership number %(number)s belongs to %(name)s.")
                    % {"number": row.membership_number, "name": holder.name},
                    row=row.row,
                    column=labels["membership_number"],
                )
            )
    if "name" in changed:
        others = [m for m in by_key.get(name_key(row.name), []) if m.pk != member.pk]
        if others:
            problems.append(
                Problem(
                    _(
                        "%(old)s would be renamed %(new)s, but another member is called "
                        "that; tell them apart, for example with an initial."
                    )
                    % {"old": member.name, "new": row.name},
                    row=row.row,
                    column=labels["name"],
                )
            )
    return problems


def member_import_preview(*, club: Club, data: bytes, filename: str = "") -> Preview:
    """Read and check a member file; changes nothing."""
    preview = Preview(filename=filename)
    try:
        table = read_table(data, filename, limits=LIMITS, known_titles=_aliases())
        _rows(table, preview)
    except Rejected as exc:
        preview.problems = list(exc.problems)
        preview.rows = []
        return preview
    if "name" not in preview.columns:
        return preview
    plan = _check(club, preview.rows, preview.columns)
    preview.to_add, preview.to_change, preview.skipped = plan.to_add, plan.to_change, plan.skipped
    preview.problems.extend(plan.problems)
    preview.zeros = plan.zeros
    preview.warnings.extend(_zeros_warnings(preview))
    preview.problems.sort(key=lambda p: (p.row is not None, p.row or 0))
    return preview


# ---------------------------------------------------------------- carrying a preview


def _salt(club, by):
    return f"{_SALT}:{club.pk}:{by.pk}"


def preview_token(preview: Preview, *, club: Club, by) -> str:
    """The preview's checked rows and the changes it showed, signed for this club and user."""
    payload = {
        "file": preview.filename,
        "columns": preview.columns,
        "rows": [asdict(row) for row in preview.rows],
        "changes": [
            [row, member_id, old] for row, (member_id, old) in preview.planned_changes.items()
        ],
    }
    return signing.dumps(payload, salt=_salt(club, by), compress=True)


def rows_from_token(token: str, *, club: Club, by):
    """(rows, filename, columns, planned changes) from :func:`preview_token`.

    Raises ImportRejected if the token is unusable.
    """
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
    planned = {row: (member_id, old) for row, member_id, old in payload.get("changes", [])}
    return rows, payload["file"], payload["columns"], planned


# ---------------------------------------------------------------- the service


def renames_from_post(values) -> dict[int, int]:
    """Row number -> member id of the proposed changes the secretary confirmed on the
    preview (the values of its boxes, :attr:`Change.choice`); the rest is left out."""
    renames = {}
    for value in values:
        row, _sep, member_id = str(value).partition("-")
        row, member_id = parse_id(row), parse_id(member_id)  # ASCII digits only
        if row is not None and member_id is not None:
            renames[row] = member_id
    return renames


def _changed_since(change: Change, planned, member: Member) -> bool:
    """Whether the member is no longer as the preview showed it."""
    member_id, old = planned.get(change.row.row, (None, None))
    if member_id != change.member_id or old is None:
        return True
    return any(getattr(member, name) != value for name, value in old.items()) or set(old) != {
        f.field for f in change.fields
    }


@transaction.atomic
def member_import_apply(
    *, club: Club, rows, by, filename: str = "", columns=None, planned=None, renames=None
) -> ImportResult:
    """Add the new members and change the existing ones: all of it, or nothing.

    Checks everything again against the database as it is now. ``planned`` is
    what the preview showed (:attr:`Preview.planned_changes`): a member changed
    since then rejects the import, and a row to be added that has become a
    member meanwhile is skipped. Without ``planned`` (a caller that showed no
    preview) the changes are made as found now. ``renames`` (row number -> member
    id, :func:`renames_from_post`) are the proposed changes the secretary confirmed: a
    row found by its e-mail address only is added as a new member without one. A row
    in error rejects the whole import with :class:`ImportRejected`.
    """
    require(by, club, Capability.IMPORT_MEMBERS)
    Club.objects.select_for_update().get(pk=club.pk)  # one import per club at a time
    rows = list(rows)
    plan = _check(club, rows, columns, renames=dict(renames or {}))
    problems, skipped, changes = list(plan.problems), list(plan.skipped), []
    current = Member.objects.select_for_update().in_bulk([c.member_id for c in plan.to_change])
    for change in plan.to_change:
        if planned is None:
            changes.append(change)
        elif change.row.row not in planned:
            reason = _("already a member since the preview: %(name)s.") % {"name": change.name}
            skipped.append(Skipped(row=change.row, reason=reason))
        elif _changed_since(change, planned, current[change.member_id]):
            problems.append(
                Problem(
                    _(
                        "%(name)s was changed by someone else since the preview; upload "
                        "the file again to see the changes as they are now."
                    )
                    % {"name": change.name},
                    row=change.row.row,
                )
            )
        else:
            changes.append(change)
    members = []
    if not problems:
        for row in plan.to_add:
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
    if not members and not changes:
        return ImportResult(added=[], skipped=skipped)
    try:
        with transaction.atomic():
            for change in changes:
                member = current[change.member_id]
                for item in change.fields:
                    setattr(member, item.field, item.new)
                member.full_clean(exclude=["club", "user"], validate_unique=False)
                member.save(update_fields=[item.field for item in change.fields])
            members = Member.objects.bulk_create(members)
            clubs_touch([club.pk])  # a bulk insert sends no signal
    except (IntegrityError, ValidationError) as exc:
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
    _log(club, by, filename, members, plan.to_add, changes, skipped)
    return ImportResult(added=members, skipped=skipped, changed=changes)


def _log(club, by, filename, members, rows, changes, skipped):
    short_name = filename if len(filename) <= 100 else filename[:99] + "…"
    params = {"file": short_name, "count": len(members), "added": len(members)}
    if changes:
        params["changed"] = len(changes)
    club_log_add(
        club=club,
        by=by,
        action=ClubLog.Action.MEMBER_IMPORT,
        params=params,
        detail={
            "file": filename,
            "added": [
                {"pk": member.pk, "row": row.row, "name": member.name}
                for member, row in zip(members, rows, strict=True)
            ],
            "changed": [
                {
                    "pk": change.member_id,
                    "row": change.row.row,
                    "name": change.name,
                    "changes": {f.field: [f.old, f.new] for f in change.fields},
                }
                for change in changes
            ],
            "skipped": [
                {"row": item.row.row, "name": item.row.name, "reason": item.reason}
                for item in skipped
            ],
        },
    )
