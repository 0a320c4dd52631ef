"""A whole club in one zip, and the club archive read back into a new club.

:func:`club_archive_zip` writes, through the existing writers only:

- ``members.xlsx`` / ``members.csv`` (``clubs.exports``);
- per competition: the standings as .xlsx, CSV and PDF, every hand as .xlsx
  and CSV (the hand-log import format), and each played evening's result as
  .xlsx and CSV (``scoring.exports``);
- ``adjustments`` and ``log`` (the club's log) as .xlsx and CSV, as reports;
- ``club.json``: the machine-readable archive (:data:`FORMAT`, :data:`VERSION`).

``club.json`` is written and read against the archive's own schema,
:data:`SCHEMA`: per carried model, in the order the rows are made, the exact
fields it carries and the kind of each (text, whole number, yes/no, date, date
and time, decimal, JSON, choice, or a relation to a row of a carried model).
Layout (version 2)::

    {"format": "klaverjas-club-archive", "version": 2, "exported_at": "...",
     "club": {<CLUB_SCHEMA>},
     "rows": {"clubs.member": [{"id": 7, "name": "...", ...}, ...], ...}}

``id`` is the row's number in the archive; a relation holds the ``id`` of a row
of its model in the same file. The club relation is implicit (every row is the
club's) and is never written.

What never travels (:data:`LEFT_OUT`): site accounts and everything that
points at one (a member's account, who wrote a log line, entered a hand or made
an adjustment), roles and invitations (they belong to accounts), PIN hashes,
table links (made fresh), the club log's ``detail`` (it may hold phone numbers
and old numbers of rows), leagues (shared with other clubs; their competitions
and evenings travel as plain competitions), and whatever the site computes:
a hand's banked scores, a game's totals and counts, the stored evening totals.
The person importing becomes the new club's administrator.

:func:`club_archive_import` reads the file into a new club, all or nothing:

1. The bytes are bounded before anything is parsed (:class:`ArchiveLimits`: the
   zip's members, their unpacked sizes and packing ratio, club.json's size read
   at most one byte past the limit, the number of rows; nesting is bounded
   while the JSON values are checked).
2. Every row is checked against the schema: a model, a field, a spelling
   (``club_id``), a type or a relation to a row the file does not hold refuses
   the whole file with one message naming the first problem (model, row,
   field). Each row is built as its model and goes through its validation
   (``full_clean``; the database's constraints are checked by the database,
   and a row it refuses is named the same way). Each game's hands are scored by
   the rules core and its totals counted by ``scoring.services``
   (:func:`~scoring.services.game_hands_build`), so a hand's points and the
   game's totals cannot disagree; the standings are the same line for line.
3. Only then one transaction makes the club and its rows, with new primary keys.
"""

import datetime
import decimal
import io
import json
import zipfile
import zlib
from dataclasses import dataclass

from django.apps import apps
from django.conf import settings
from django.core.exceptions import NON_FIELD_ERRORS, PermissionDenied, ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import DatabaseError, connections, router, transaction
from django.template.defaultfilters import filesizeformat
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.text import slugify
from django.utils.translation import gettext as _

from clubs import exports as member_exports
from clubs.auth import archive_import_allowed, wait_text
from clubs.models import Club, ClubLog
from clubs.services import club_data_models, club_rows, club_start, may_create_club
from common.columns import TEXT as TEXT_COLUMN
from common.columns import Column
from scoring.models import Adjustment
from scoring.results.services import evening_totals_store
from scoring.services import HAND_INPUTS, HandInput, game_hands_build
from tournaments.models import Competition, Evening

from . import csv, handlog, pdf, reports, xlsx

FORMAT = "klaverjas-club-archive"
#: 2: the archive's own schema (rows per model, exactly :data:`SCHEMA`'s fields).
#: 1 was Django's serializer output (``{"model", "pk", "fields"}``, accounts and
#: PIN hashes included); it is refused, naming the version this site reads.
VERSION = 2

# --- The schema -------------------------------------------------------------------------------

TEXT, INT, BOOL, DATE, DATETIME, DECIMAL, JSON, CHOICE = (
    "text",
    "int",
    "bool",
    "date",
    "datetime",
    "decimal",
    "json",
    "choice",
)


@dataclass(frozen=True)
class To:
    """A relation to a row of the carried model ``label`` in the same archive."""

    label: str


#: The club's own settings (``clubs.services.CLUB_FIELDS``).
CLUB_SCHEMA = {
    "name": TEXT,
    "town": TEXT,
    "ruleset_preset": CHOICE,
    "ruleset_overrides": JSON,
    "results_public": BOOL,
    "confirm_with_pin": BOOL,
    "sheet_marks": CHOICE,
    "contact_name": TEXT,
    "contact_email": TEXT,
}

MEMBER, COMPETITION, EVENING, ROUND, TABLE, GAME = (
    To("clubs.member"),
    To("tournaments.competition"),
    To("tournaments.evening"),
    To("tournaments.round"),
    To("tournaments.table"),
    To("scoring.game"),
)

#: Per carried model, in the order its rows are made (each after those it points
#: at), the fields the archive carries. Every other field is in :data:`LEFT_OUT`.
SCHEMA = {
    "clubs.member": {
        "name": TEXT,
        "membership_number": TEXT,
        "is_active": BOOL,
        "is_guest": BOOL,
        "email": TEXT,
        "phone": TEXT,
        "created_at": DATETIME,
    },
    "clubs.clublog": {"action": CHOICE, "summary": TEXT, "created_at": DATETIME},
    "tournaments.competition": {
        "name": TEXT,
        "format": CHOICE,
        "kind": CHOICE,
        "start_date": DATE,
        "end_date": DATE,
        "ruleset_preset": CHOICE,
        "ruleset_overrides": JSON,
        "rounds_per_evening": INT,
        "odd_players": CHOICE,
        "movement": CHOICE,
        "sitout_score": INT,
        "absence_policy": CHOICE,
        "absence_score": INT,
        "absence_unit": CHOICE,
        "substitute_strikes_lowest": BOOL,
        "finished_may_substitute": BOOL,
        "sitout_mars": BOOL,
        "late_score": INT,
        "left_over": CHOICE,
        "leaving_policy": CHOICE,
        "leaving_score": INT,
        "prize_rule": CHOICE,
        "prize_places": INT,
        "ranking_basis": CHOICE,
        "best_of": INT,
        "best_periods": INT,
        "average_unit": CHOICE,
        "min_attendance": INT,
        "tie_breaks": JSON,
        "side_rankings": JSON,
        "created_at": DATETIME,
    },
    "tournaments.period": {
        "competition": COMPETITION,
        "name": TEXT,
        "start_date": DATE,
        "end_date": DATE,
    },
    "tournaments.pair": {
        "competition": COMPETITION,
        "number": INT,
        "first": MEMBER,
        "second": MEMBER,
    },
    "tournaments.evening": {
        "competition": COMPETITION,
        "date": DATE,
        "status": CHOICE,
        "counts_for_ranking": BOOL,
        "note": TEXT,
        "created_at": DATETIME,
    },
    "tournaments.attendance": {
        "evening": EVENING,
        "member": MEMBER,
        "status": CHOICE,
        "left_after": INT,
        "checked_in_at": DATETIME,
    },
    "tournaments.round": {
        "evening": EVENING,
        "number": INT,
        "drawn_at": DATETIME,
        "partner_repeats": INT,
        "opponent_repeats": INT,
    },
    "tournaments.eveninglog": {"evening": EVENING, "summary": TEXT, "created_at": DATETIME},
    "tournaments.table": {"round": ROUND, "number": INT},
    "scoring.game": {
        "table": TABLE,
        "ruleset": JSON,
        "status": CHOICE,
        "scorer_team": CHOICE,
        "confirmed_by": TEXT,
        "confirmed_at": DATETIME,
        "updated_at": DATETIME,
    },
    "tournaments.seat": {
        "round": ROUND,
        "table": TABLE,
        "position": CHOICE,
        "member": MEMBER,
        "substitute": TEXT,
        "substitute_member": MEMBER,
    },
    "scoring.hand": {
        "game": GAME,
        "number": INT,
        "playing": CHOICE,
        "trump": CHOICE,
        "points_a": INT,
        "points_b": INT,
        "roem_a": INT,
        "roem_b": INT,
        "declared_a": TEXT,
        "declared_b": TEXT,
        "pit": CHOICE,
        "verzaakt": CHOICE,
        "entered_via": TEXT,
        "created_at": DATETIME,
        "updated_at": DATETIME,
    },
    "scoring.adjustment": {
        "evening": EVENING,
        "round": ROUND,
        "kind": CHOICE,
        "member": MEMBER,
        "game": GAME,
        "team": CHOICE,
        "points": INT,
        "marsen": INT,
        "games": INT,
        "reason": TEXT,
        "created_at": DATETIME,
    },
    "scoring.auditentry": {
        "game": GAME,
        "hand_number": INT,
        "action": CHOICE,
        "actor": TEXT,
        "before": JSON,
        "after": JSON,
        "reason": TEXT,
        "created_at": DATETIME,
    },
}

#: The fields of the carried models that never travel, and why. ``id`` is the
#: archive's own row number; the club relation is implicit.
LEFT_OUT = {
    "clubs.member": {"club": "implicit", "pin": "PIN hash", "user": "account"},
    "clubs.clublog": {
        "club": "implicit",
        "user": "account",
        "detail": "personal data",
        "params": "carried as its summary",
    },
    "tournaments.competition": {"club": "implicit", "version": "made fresh"},
    "tournaments.evening": {"version": "made fresh"},
    "tournaments.eveninglog": {"user": "account"},
    "tournaments.table": {"token": "made fresh"},
    "scoring.game": {
        **dict.fromkeys(
            (
                "hands_entered",
                "total_a",
                "total_b",
                "winner",
                "marsen_a",
                "marsen_b",
                "tegenpit_a",
                "tegenpit_b",
                "nat_a",
                "nat_b",
                "roem_a",
                "roem_b",
                "verzaken_a",
                "verzaken_b",
            ),
            "counted from the hands",
        ),
        "version": "starts again",
    },
    "scoring.hand": {
        "score_a": "scored by the rules core",
        "score_b": "scored by the rules core",
        "nat": "scored by the rules core",
        "client_id": "a device's entry id",
        "entered_by": "account",
        # Archive version 2 has no such columns (a file without them must still read);
        # the penalty itself travels as its adjustment.
        "offender": "the seat that reneged: not in version 2 of the archive",
        "penalty": "the hand's link to its penalty: not in version 2 of the archive",
    },
    "scoring.adjustment": {"created_by": "account"},
    "scoring.auditentry": {"user": "account"},
}
#: Relations of one row that must meet at the same row, each a chain of relations
#: from the row: a seat's table is one of its round's, an adjustment's round and
#: game are of its evening. The services make them so; a file is checked.
AGREE = {
    "tournaments.seat": [("table.round", "round")],
    "scoring.adjustment": [("round.evening", "evening"), ("game.table.round.evening", "evening")],
}
#: Models of a club that never travel: roles and invitations belong to accounts,
#: the stored evening totals are made again on reading, leagues are shared, and an
#: upload awaiting its confirmation is one person's, for an hour.
NOT_CARRIED = ("clubs.clubrole", "clubs.invitation", "clubs.pendingupload", "scoring.eveningtotals")
NOT_CARRIED_APPS = ("leagues",)
#: How deep a JSON value (a rule set, an audit snapshot) may nest.
MAX_JSON_DEPTH = 20


@dataclass(frozen=True)
class ArchiveLimits:
    """What one import reads at most, checked before the JSON is parsed."""

    #: Rows of all models together.
    max_rows: int
    #: club.json's bytes (unpacked); a zip member that unpacks to more is not read.
    max_json_bytes: int
    #: The file as uploaded (a zip also holds the spreadsheets and PDFs).
    max_file_bytes: int
    #: Files in the zip (a big club's ten seasons have a few thousand).
    max_zip_members: int = 20_000
    #: Any one file of the zip, unpacked.
    max_member_bytes: int = 1024 * 1024 * 1024
    #: Unpacked size over packed size, for files of more than a megabyte (club.json
    #: packs about 20 times, the spreadsheets and PDFs hardly).
    max_ratio: int = 100
    #: Where bigger archives go (a translated sentence), for the too-many-rows message.
    more: str = ""

    @classmethod
    def for_rows(cls, max_rows, *, more="", max_file_bytes=None):
        json_bytes = max_rows * BYTES_PER_ROW
        return cls(
            max_rows=max_rows,
            max_json_bytes=json_bytes,
            max_file_bytes=max_file_bytes or json_bytes + 256 * 1024 * 1024,
            more=more,
        )

    @property
    def max_values(self):
        """JSON values (counted as commas and opening brackets) club.json may hold: a
        bound on the memory parsing takes, whatever the file holds."""
        return self.max_rows * VALUES_PER_ROW + 10_000

    def file_problem(self, size):
        """The message for an upload of ``size`` bytes, or None when it may be read."""
        if size <= self.max_file_bytes:
            return None
        return _("This file is larger than %(max)s; a club archive is not.") % {
            "max": filesizeformat(self.max_file_bytes)
        }


#: club.json's bytes per row at most: three times the average (about 500, the audit
#: entries that hold a whole score sheet up to 4,400).
BYTES_PER_ROW = 1_500
#: JSON values per row at most: three times the average (about 23).
VALUES_PER_ROW = 64
#: The rows an upload on the page may carry (about a season of a club of 25 players;
#: the results import's page takes as many): imported in 6 s on SQLite and 8 s on
#: PostgreSQL here (two cores shared with other work, ``python -m bench.archive``;
#: 30,000 rows took 13 and 16 s), well inside a request's time.
WEB_MAX_ROWS = 20_000
#: The rows ``import_club`` reads unless told otherwise (``--max-rows``).
COMMAND_MAX_ROWS = 2_000_000


def web_limits():
    """The upload page's limits."""
    return ArchiveLimits.for_rows(
        WEB_MAX_ROWS,
        max_file_bytes=200 * 1024 * 1024,
        more=_("Import a bigger archive with the command manage.py import_club."),
    )


def command_limits(max_rows=COMMAND_MAX_ROWS):
    """``import_club``'s limits."""
    return ArchiveLimits.for_rows(
        max_rows, more=_("Give a higher --max-rows to import a bigger archive.")
    )


def _model(label):
    return apps.get_model(label)


def _relations(fields):
    return {name: kind for name, kind in fields.items() if isinstance(kind, To)}


def archive_models():
    """(model, paths to the club) of the carried models, in :data:`SCHEMA`'s order."""
    paths = {m._meta.label_lower: p for m, p in club_data_models()}
    return [(_model(label), paths[label]) for label in SCHEMA]


# --- Writing ----------------------------------------------------------------------------------


def _written(value):
    if isinstance(value, datetime.datetime | datetime.date | decimal.Decimal):
        return json.loads(json.dumps(value, cls=DjangoJSONEncoder))
    return value


def club_archive_data(club: Club) -> dict:
    """The machine-readable archive of ``club`` as a JSON-ready dict: exactly :data:`SCHEMA`."""
    rows = {}
    for model, paths in archive_models():
        fields = SCHEMA[model._meta.label_lower]
        names = list(fields)
        columns = [model._meta.get_field(name).attname for name in names]
        query = club_rows(model, paths, club.pk).order_by("pk").values_list("pk", *columns)
        rows[model._meta.label_lower] = [
            {"id": pk, **{name: _written(v) for name, v in zip(names, values, strict=True)}}
            for pk, *values in query.iterator(chunk_size=5000)
        ]
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": _written(timezone.now()),
        "club": {name: getattr(club, name) for name in CLUB_SCHEMA},
        "rows": rows,
    }


def club_archive_json(club: Club) -> bytes:
    data = club_archive_data(club)
    return json.dumps(data, cls=DjangoJSONEncoder, ensure_ascii=False, indent=1).encode()


def _simple_report(club, title, columns, rows, stem):
    return reports.Report(
        club=club.name,
        title=title,
        subtitle=club.name,
        columns=columns,
        rows=rows,
        sheet=title,
        stem=stem,
        printed=timezone.localdate(),
    )


def adjustments_report(club: Club) -> reports.Report:
    C, T = Column, TEXT_COLUMN
    adjustments = (
        Adjustment.objects.filter(evening__competition__club=club)
        .select_related("evening__competition", "member", "round")
        .order_by("evening__date", "pk")
    )
    rows = [
        {
            "competition": a.evening.competition.name,
            "date": a.evening.date.isoformat(),
            "round": a.round.number if a.round else "",
            "kind": a.get_kind_display(),
            "member": a.member.name if a.member else "",
            "team": a.team,
            "points": a.points,
            "reason": a.reason,
        }
        for a in adjustments
    ]
    columns = [
        C("competition", _("Competition"), T, 24),
        C("date", _("Date"), T, 11),
        C("round", _("Round"), T, 6),
        C("kind", _("Kind"), T, 18),
        C("member", _("Player"), T, 24),
        C("team", _("Team"), T, 5),
        C("points", _("Points")),
        C("reason", _("Reason"), T, 40),
    ]
    return _simple_report(club, _("Adjustments"), columns, rows, _("adjustments"))


def log_report(club: Club) -> reports.Report:
    C, T = Column, TEXT_COLUMN
    rows = [
        {
            "when": timezone.localtime(entry.created_at).strftime("%Y-%m-%d %H:%M"),
            "by": entry.user.get_username() if entry.user else "",
            "action": entry.get_action_display(),
            "summary": entry.text,
        }
        for entry in ClubLog.objects.filter(club=club).select_related("user").order_by("pk")
    ]
    columns = [
        C("when", _("When"), T, 17),
        C("by", _("By"), T, 16),
        C("action", _("Action"), T, 24),
        C("summary", _("Summary"), T, 60),
    ]
    return _simple_report(club, _("Log"), columns, rows, _("log"))


def _name(text):
    return slugify(str(text)) or "export"


def club_archive_zip(club: Club) -> bytes:
    """Everything of ``club`` in one zip (see the module's docstring)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        members = list(club.members.order_by("name", "pk"))
        archive.writestr(f"{_name(_('members'))}.xlsx", member_exports.members_xlsx(members))
        archive.writestr(f"{_name(_('members'))}.csv", member_exports.members_csv(members))
        for report in (adjustments_report(club), log_report(club)):
            archive.writestr(f"{_name(report.stem)}.xlsx", xlsx.report_xlsx(report))
            archive.writestr(f"{_name(report.stem)}.csv", csv.report_csv(report))
        for competition in Competition.objects.filter(club=club).order_by("start_date", "pk"):
            folder = f"{_name(competition.name)}-{competition.pk}"
            report = reports.standings_report(competition=competition)
            stem = f"{folder}/{_name(report.stem)}"
            archive.writestr(f"{stem}.xlsx", xlsx.report_xlsx(report))
            archive.writestr(f"{stem}.csv", csv.report_csv(report))
            archive.writestr(f"{stem}.pdf", pdf.report_pdf(report))
            names = handlog.seat_names(competition)
            hands = f"{folder}/{_name(_('hands'))}"
            width = handlog.name_width(names)
            archive.writestr(
                f"{hands}.xlsx",
                xlsx.hand_log_xlsx(
                    handlog.hand_log_rows(competition, names=names), name_width=width
                ),
            )
            archive.writestr(
                f"{hands}.csv", csv.hand_log_csv(handlog.hand_log_rows(competition, names=names))
            )
            evenings = Evening.objects.filter(competition=competition).exclude(
                status=Evening.Status.PLANNED
            )
            for evening in evenings.order_by("date", "pk"):
                report = reports.evening_report(evening=evening)
                stem = f"{folder}/{evening.date.isoformat()}-{evening.pk}"
                archive.writestr(f"{stem}.xlsx", xlsx.report_xlsx(report))
                archive.writestr(f"{stem}.csv", csv.report_csv(report))
        archive.writestr("club.json", club_archive_json(club))
    return buffer.getvalue()


# --- Reading an archive back ----------------------------------------------------------------


def _rejected(reason=None):
    message = _("This file is not a club archive this site can read.")
    return ValidationError(f"{message} {reason}" if reason else message, code="archive")


class _Bad(Exception):
    """A value that is not of its field's kind; ``problem`` says why."""

    def __init__(self, problem):
        super().__init__(problem)
        self.problem = problem


def _refused(label, row, field, problem):
    if field is None:
        where = _("%(model)s, row %(row)s") % {"model": label, "row": row}
    else:
        where = _("%(model)s, row %(row)s, field “%(field)s”") % {
            "model": label,
            "row": row,
            "field": field,
        }
    return _rejected(f"{where}: {problem}")


def _too_big(limits, message):
    """A refusal for a file over a limit that grows with the rows: says where bigger go."""
    return _rejected(f"{message} {limits.more}".strip())


def _json_too_big(limits):
    return _too_big(
        limits,
        _("club.json is larger than %(max)s.") % {"max": filesizeformat(limits.max_json_bytes)},
    )


def _club_json(data: bytes, limits: ArchiveLimits) -> bytes:
    """club.json's bytes from a zip or a bare upload, bounded before reading."""
    if limits.file_problem(len(data)):
        raise _rejected(limits.file_problem(len(data)))
    if data[:2] != b"PK":
        if len(data) > limits.max_json_bytes:
            raise _json_too_big(limits)
        return data
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError, EOFError) as exc:
        raise _rejected(_("The zip cannot be read.")) from exc
    if len(infos) > limits.max_zip_members:
        raise _rejected(
            _("The zip holds more than %(max)s files.")
            % {"max": number_format(limits.max_zip_members, force_grouping=True)}
        )
    for info in infos:
        if info.file_size > limits.max_member_bytes:
            raise _rejected(
                _("“%(name)s” in the zip is larger than %(max)s unpacked.")
                % {"name": info.filename[:80], "max": filesizeformat(limits.max_member_bytes)}
            )
        if info.file_size > 1024 * 1024 and (
            info.file_size > limits.max_ratio * max(info.compress_size, 1)
        ):
            raise _rejected(
                _("“%(name)s” in the zip unpacks to more than %(ratio)s times its packed size.")
                % {"name": info.filename[:80], "ratio": limits.max_ratio}
            )
    try:
        info = archive.getinfo("club.json")
    except KeyError as exc:
        raise _rejected(_("The zip has no club.json.")) from exc
    if info.file_size > limits.max_json_bytes:
        raise _json_too_big(limits)
    try:
        with archive.open(info) as member:
            data = member.read(limits.max_json_bytes + 1)  # the header may lie
    except (
        zipfile.BadZipFile,
        zlib.error,
        NotImplementedError,  # a packing method zipfile does not know
        RuntimeError,  # encrypted
        ValueError,
        OSError,
        EOFError,
    ) as exc:
        raise _rejected(_("The zip cannot be read.")) from exc
    if len(data) > limits.max_json_bytes:
        raise _json_too_big(limits)
    return data


def read_archive(data: bytes, limits: ArchiveLimits | None = None) -> dict:
    """The archive's dict from a zip made by :func:`club_archive_zip` or a bare club.json:
    its layout checked, its rows counted, their values not yet (see :func:`archive_plan`)."""
    limits = limits or web_limits()
    data = _club_json(data, limits)
    if data.count(b",") + data.count(b"{") + data.count(b"[") > limits.max_values:
        raise _too_big(
            limits,
            _("club.json holds more values than %(rows)s rows have.")
            % {"rows": number_format(limits.max_rows, force_grouping=True)},
        )
    try:
        parsed = json.loads(data)
    except RecursionError as exc:
        raise _rejected(_("Its JSON is nested too deeply.")) from exc
    except (ValueError, UnicodeDecodeError) as exc:
        raise _rejected() from exc
    if not isinstance(parsed, dict) or parsed.get("format") != FORMAT:
        raise _rejected()
    version = parsed.get("version")
    if type(version) is not int or version != VERSION:
        shown = version if type(version) is int and abs(version) < 10**6 else "?"
        raise _rejected(
            _("It has version %(version)s; this site reads version %(ours)s.")
            % {"version": shown, "ours": VERSION}
        )
    for key in parsed:
        if key not in ("format", "version", "exported_at", "club", "rows"):
            raise _rejected(_("It holds an unknown part “%(key)s”.") % {"key": str(key)[:80]})
    if not isinstance(parsed.get("club"), dict) or not isinstance(parsed.get("rows"), dict):
        raise _rejected()
    total = 0
    for label, rows in parsed["rows"].items():
        if label not in SCHEMA:
            raise _rejected(
                _("It holds “%(model)s”, which a club archive does not carry.")
                % {"model": str(label)[:80]}
            )
        if not isinstance(rows, list):
            raise _rejected(_("%(model)s: expected a list of rows.") % {"model": label})
        total += len(rows)
    if total > limits.max_rows:
        message = _("It holds %(rows)s rows; this import reads at most %(max)s.") % {
            "rows": number_format(total, force_grouping=True),
            "max": number_format(limits.max_rows, force_grouping=True),
        }
        raise _too_big(limits, message)
    return parsed


def _json_depth_ok(value, limit):
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth > limit:
                return False
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return True


def _value(kind, value, field):
    """``value`` read as ``kind`` for the model field ``field``; raises :class:`_Bad`."""
    if value is None:
        if field.null:
            return None
        raise _Bad(_("it may not be empty."))
    if isinstance(kind, To) or kind == INT:
        if type(value) is not int or not -(2**63) < value < 2**63:
            raise _Bad(_("expected a whole number."))
        return value
    if kind in (TEXT, CHOICE):
        if not isinstance(value, str) or "\x00" in value:
            raise _Bad(_("expected text."))
        return value
    if kind == BOOL:
        if not isinstance(value, bool):
            raise _Bad(_("expected true or false."))
        return value
    if kind == DATE:
        try:
            return datetime.date.fromisoformat(value)
        except (TypeError, ValueError) as exc:
            raise _Bad(_("expected a date (2026-09-08).")) from exc
    if kind == DATETIME:
        try:
            moment = datetime.datetime.fromisoformat(value)
        except (TypeError, ValueError) as exc:
            raise _Bad(_("expected a date and time with its time zone.")) from exc
        if timezone.is_naive(moment):
            raise _Bad(_("expected a date and time with its time zone."))
        return moment
    if kind == DECIMAL:
        try:
            number = decimal.Decimal(value if isinstance(value, str) else str(int(value)))
        except (TypeError, ValueError, ArithmeticError) as exc:
            raise _Bad(_("expected a decimal number.")) from exc
        if not number.is_finite():
            raise _Bad(_("expected a decimal number."))
        return number
    if kind == JSON:
        if not _json_depth_ok(value, MAX_JSON_DEPTH):
            raise _Bad(_("it is nested more than %(max)s deep.") % {"max": MAX_JSON_DEPTH})
        return value
    raise AssertionError(f"unknown kind {kind}")


def _first_error(exc: ValidationError):
    """(field or None, message) of the first error of a model's validation."""
    if hasattr(exc, "error_dict"):
        field, errors = next(iter(exc.error_dict.items()))
        return (None if field == "__all__" else field), errors[0].messages[0]
    return None, exc.messages[0]


@dataclass
class _Row:
    number: int  # the row's place in its model's list, from 1
    old: int  # its ``id`` in the archive
    obj: object  # the model instance, not saved
    links: dict  # relation field name -> the archive id it points at


@dataclass
class ArchivePlan:
    """An archive read and checked, every row built and validated; nothing saved."""

    club: dict
    rows: dict  # label -> [_Row]

    @property
    def count(self):
        return sum(len(rows) for rows in self.rows.values())


def _club_settings(data):
    for key in data:
        if key not in CLUB_SCHEMA:
            raise _rejected(
                _("The club's settings hold an unknown field “%(field)s”.")
                % {"field": str(key)[:80]}
            )
    values = {}
    for name, kind in CLUB_SCHEMA.items():
        if name not in data and name in ADDED["clubs.club"]:
            continue  # the model's default (Club(**values) below)
        if name not in data:
            raise _rejected(_("The club's settings have no field “%(field)s”.") % {"field": name})
        try:
            values[name] = _value(kind, data[name], Club._meta.get_field(name))
        except _Bad as bad:
            raise _rejected(
                _("The club's settings, field “%(field)s”: %(problem)s")
                % {"field": name, "problem": bad.problem}
            ) from None
    try:
        Club(**values).full_clean(exclude=["slug"], validate_unique=False)
    except ValidationError as exc:
        field, message = _first_error(exc)
        raise _rejected(
            _("The club's settings, field “%(field)s”: %(problem)s")
            % {"field": field or "-", "problem": message}
        ) from None
    return values


#: Fields added to :data:`SCHEMA` after version 2 was first written: an archive made
#: before has no such field, and its row takes the model field's default (what a
#: competition made then has after the migration). Every other field must be there.
ADDED = {
    "clubs.club": {"sheet_marks"},  # the club's settings (CLUB_SCHEMA): today's marks
    "tournaments.competition": {
        "finished_may_substitute",
        "left_over",
        "leaving_policy",
        "leaving_score",
        "best_periods",
        "average_unit",
    },
    "tournaments.attendance": {"left_after"},
    "scoring.adjustment": {"games"},
}


def _read_rows(label, rows, ids):
    model, fields = _model(label), SCHEMA[label]
    found, read = {}, []
    for number, row in enumerate(rows, start=1):
        if not isinstance(row, dict) or type(row.get("id")) is not int:
            raise _refused(label, number, None, _("expected an object with a whole-number “id”."))
        if row["id"] in found:
            raise _refused(label, number, "id", _("another row has the same id."))
        for key in row:
            if key != "id" and key not in fields:
                raise _refused(label, number, str(key)[:80], _("a club archive has no such field."))
        values, links = {}, {}
        for name, kind in fields.items():
            if name not in row and name in ADDED.get(label, ()):
                values[name] = model._meta.get_field(name).get_default()
                continue
            if name not in row:
                raise _refused(label, number, name, _("the field is missing."))
            try:
                value = _value(kind, row[name], model._meta.get_field(name))
            except _Bad as bad:
                raise _refused(label, number, name, bad.problem) from None
            if not isinstance(kind, To):
                values[name] = value
            elif value is not None:
                if value not in ids[kind.label]:
                    raise _refused(
                        label,
                        number,
                        name,
                        _("it points at %(model)s %(id)s, which is not in this archive.")
                        % {"model": kind.label, "id": value},
                    )
                links[name] = value
        found[row["id"]] = number
        read.append(_Row(number=number, old=row["id"], obj=model(**values), links=links))
    ids[label] = found
    return read


def _score_games(games, hands):
    """Each game's hands scored by the rules core, its totals counted by the services."""
    of_game = {}
    for row in hands:
        of_game.setdefault(row.links["game"], []).append(row)
    for game_row in games:
        game = game_row.obj
        rows = sorted(of_game.get(game_row.old, ()), key=lambda r: r.obj.number)
        for expected, row in enumerate(rows, start=1):
            if row.obj.number != expected:
                raise _refused(
                    "scoring.hand",
                    row.number,
                    "number",
                    _("the hands of a game are numbered 1, 2, 3 … without gaps."),
                )
        inputs = [HandInput(**{k: getattr(r.obj, k) for k in HAND_INPUTS}) for r in rows]
        try:
            built, summary = game_hands_build(game=game, rows=inputs)
        except ValidationError as exc:
            index = getattr(exc, "hand_index", None)
            field, message = _first_error(exc)
            if index is None:
                raise _refused("scoring.game", game_row.number, "ruleset", message) from None
            raise _refused("scoring.hand", rows[index].number, field, message) from None
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            problem = _("the rule set cannot be read (%(error)s).") % {"error": str(exc)[:80]}
            raise _refused("scoring.game", game_row.number, "ruleset", problem) from None
        for row, hand in zip(rows, built, strict=True):
            for name in ("entered_via", "created_at", "updated_at"):
                setattr(hand, name, getattr(row.obj, name))
            row.obj = hand
        # As the services store a game: a game not confirmed is complete or in play as
        # its hands say; a confirmed one stays confirmed (an imported paper sheet may
        # stop before the end).
        if game.status != game.Status.CONFIRMED:
            game.status = game.Status.COMPLETE if summary.complete else game.Status.OPEN
            game.confirmed_by, game.confirmed_at = "", None


def _check_agreement(rows):
    """Refuse a row whose relations in :data:`AGREE` lead to different rows."""
    links = {label: {row.old: row.links for row in read} for label, read in rows.items()}

    def follow(label, row_links, path):
        for name in path.split("."):
            old = row_links.get(name)
            if old is None:
                return None
            label = SCHEMA[label][name].label
            row_links = links[label][old]
        return label, old

    for label, pairs in AGREE.items():
        for row in rows[label]:
            for path, other in pairs:
                ends = follow(label, row.links, path), follow(label, row.links, other)
                if None not in ends and ends[0] != ends[1]:
                    problem = _(
                        "it leads to %(model)s %(one)s, but “%(other)s” is %(model)s %(two)s."
                    ) % {"model": ends[0][0], "one": ends[0][1], "other": other, "two": ends[1][1]}
                    raise _refused(label, row.number, path.split(".")[0], problem)


def archive_plan(archive: dict) -> ArchivePlan:
    """Every row of ``archive`` (from :func:`read_archive`) read against :data:`SCHEMA`,
    built as its model and validated; raises the ValidationError naming the first problem."""
    club = _club_settings(archive["club"])
    ids, rows = {}, {}
    for label in SCHEMA:
        rows[label] = _read_rows(label, archive["rows"].get(label, []), ids)
    _check_agreement(rows)
    _score_games(rows["scoring.game"], rows["scoring.hand"])
    for label, read in rows.items():
        model = _model(label)
        # Relations point at rows of this archive (checked above) and are set when
        # those have their new keys; the constraints are the database's to check.
        excluded = [f.name for f in model._meta.concrete_fields if f.is_relation or f.primary_key]
        for row in read:
            try:
                row.obj.full_clean(
                    exclude=excluded, validate_unique=False, validate_constraints=False
                )
            except ValidationError as exc:
                field, message = _first_error(exc)
                raise _refused(label, row.number, field, message) from None
    return ArchivePlan(club=club, rows=rows)


def _insert(label, read, club, new_pk):
    """Insert the rows of ``label`` with their relations set; their new primary keys.

    Inserted as they are (``raw``, as ``loaddata`` saves), so the dates the archive
    carries stay; in batches, each in a savepoint, so that a row the database refuses
    is found and named.
    """
    model = _model(label)
    db = router.db_for_write(model)
    fields = [f for f in model._meta.local_concrete_fields if not f.primary_key]
    stamped = [
        f for f in fields if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
    ]
    now = timezone.now()
    for row in read:
        obj = row.obj
        for field in fields:
            if field.is_relation and field.related_model is Club:
                setattr(obj, field.attname, club.pk)
        for name, old in row.links.items():
            field = model._meta.get_field(name)
            setattr(obj, field.attname, new_pk[SCHEMA[label][name].label][old])
        for field in stamped:
            if getattr(obj, field.attname) is None:
                setattr(obj, field.attname, now)
    manager = model._base_manager
    size = max(1, connections[db].ops.bulk_batch_size(fields, [r.obj for r in read]) or 1)
    keys = []
    for start in range(0, len(read), size):
        chunk = read[start : start + size]
        try:
            with transaction.atomic(using=db):
                returned = manager._insert(
                    [r.obj for r in chunk],
                    fields=fields,
                    returning_fields=[model._meta.pk],
                    raw=True,
                    using=db,
                )
        except DatabaseError as exc:
            _name_refused(label, manager, chunk, fields, db)
            problem = _("the database refuses it (%(error)s).") % {"error": _first_line(exc)}
            raise _rejected(f"{label}: {problem}") from exc
        keys += [values[0] for values in returned]
    return {row.old: key for row, key in zip(read, keys, strict=True)}


def _first_line(exc):
    text = str(exc).strip()
    return text.splitlines()[0][:200] if text else type(exc).__name__


def _name_refused(label, manager, chunk, fields, db):
    """Insert ``chunk`` row by row to find the row the database refuses, and name it."""
    for row in chunk:
        try:
            with transaction.atomic(using=db):
                manager._insert(
                    [row.obj],
                    fields=fields,
                    returning_fields=[manager.model._meta.pk],
                    raw=True,
                    using=db,
                )
        except DatabaseError as exc:
            field = None
            message = _("the database refuses it (%(error)s).") % {"error": _first_line(exc)}
            try:
                row.obj.validate_constraints()
            except ValidationError as error:
                field, message = _first_error(error)
            except DatabaseError:
                pass
            raise _refused(label, row.number, field, message) from exc


def club_archive_import(
    *,
    data: bytes,
    by,
    name: str = "",
    slug: str,
    limits: ArchiveLimits | None = None,
    address=None,
    braked: bool = True,
) -> Club:
    """A new club from an archive, with ``by`` as its administrator; all or nothing.

    The file is read and every row checked before the transaction starts (the site
    goes on writing meanwhile); ``limits`` default to the page's (:func:`web_limits`).
    The club is started as "Start a club" starts one (``clubs.services.club_start``:
    the same brake per account and client ``address``, the same short-name check),
    and each archive read counts against a brake of its own first, refused or not
    (``clubs.auth.archive_import_allowed``). ``braked=False`` is for the operator's
    ``import_club`` command.
    """
    if not may_create_club(by):
        raise PermissionDenied(_("This site does not let you start a club."))
    if braked and not archive_import_allowed(user=by, address=address):
        message = _("Too many club archives from this account or address. Try again in %(wait)s.")
        message %= {"wait": wait_text(settings.ARCHIVE_IMPORT_WINDOW_SECONDS)}
        raise ValidationError({NON_FIELD_ERRORS: ValidationError(message, code="throttled")})
    plan = archive_plan(read_archive(data, limits))
    with transaction.atomic():
        club = Club(**plan.club, slug=slug.strip().lower())
        if name.strip():
            club.name = name.strip()
        club = club_start(
            club=club,
            by=by,
            address=address,
            braked=braked,
            from_archive=True,
            detail={"rows": plan.count},
        )
        new_pk = {}  # label -> {id in the archive: new primary key}
        for label, read in plan.rows.items():
            new_pk[label] = _insert(label, read, club, new_pk)
        # Raw rows send no signal: the finished evenings' totals are stored here.
        evening_totals_store(Evening.objects.filter(competition__club=club).values("pk"))
    return club
