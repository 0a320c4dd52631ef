"""A whole club in one zip, and the club archive read back into a new club.

:func:`club_archive_zip` writes, through the existing writers only:

- ``members.xlsx`` / ``members.csv`` (``clubs.exports``);
- per competition: the standings as .xlsx, CSV and PDF, every hand as .xlsx
  and CSV (the hand-log import format), and each played evening's result as
  .xlsx and CSV (``scoring.exports``);
- ``adjustments`` and ``log`` (the club's log) as .xlsx and CSV, as reports;
- ``club.json``: the machine-readable archive (:data:`FORMAT`, :data:`VERSION`).

``club.json`` holds every row of the club's own models (found from the
models, as ``clubs.services.club_data_models`` finds them for deletion) in an
order where each row comes after the rows it points to. What does not travel:
site accounts (links to users become empty; the person importing becomes the
new club's administrator), roles and invitations (they belong to accounts),
and leagues (shared with other clubs; their competitions and evenings travel
as plain competitions). :func:`club_archive_import` reads the file into a new
club with new primary keys and fresh table links, all or nothing; the stored
totals come along as they are, so the standings are the same line for line.
"""

import io
import json
import zipfile

from django.core import serializers
from django.core.exceptions import ValidationError
from django.core.serializers.base import DeserializationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import DatabaseError, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from clubs import exports as member_exports
from clubs.models import Club, ClubLog, ClubRole
from clubs.services import CLUB_FIELDS, club_data_models, club_rows
from common.columns import TEXT, Column
from scoring.models import Adjustment
from tournaments.models import Competition, Evening

from . import csv, handlog, pdf, reports, xlsx

FORMAT = "klaverjas-club-archive"
VERSION = 1
#: Roles and invitations are accounts'; stored evening totals are made again on reading.
NOT_CARRIED = ("clubs.clubrole", "clubs.invitation", "scoring.eveningtotals")
#: The most rows one archive may hold (a big club's ten seasons fit many times).
MAX_OBJECTS = 2_000_000


def _label(model):
    return model._meta.label_lower


def _carried(model):
    return _label(model) not in NOT_CARRIED and model._meta.app_label != "leagues"


def archive_models():
    """(model, paths) of the club's models the archive carries, each after those it needs."""
    found = [(m, p) for m, p in club_data_models() if _carried(m)]
    carried = {m for m, _p in found} | {Club}
    ordered, placed = [], {Club}
    while found:
        ready = [
            (m, p)
            for m, p in found
            if all(
                f.related_model in placed
                for f in m._meta.fields
                if f.is_relation and f.related_model in carried and f.related_model is not m
            )
        ]
        if not ready:
            raise RuntimeError(f"archive models point at each other: {found}")
        for item in ready:
            ordered.append(item)
            placed.add(item[0])
            found.remove(item)
    return ordered


def club_archive_data(club: Club) -> dict:
    """The machine-readable archive of ``club`` as a JSON-ready dict."""
    objects = []
    for model, paths in archive_models():
        rows = club_rows(model, paths, club.pk).order_by("pk")
        objects += serializers.serialize("python", rows)
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now(),
        "club": {name: getattr(club, name) for name in CLUB_FIELDS},
        "objects": objects,
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
    C, T = Column, TEXT
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
    C, T = Column, TEXT
    rows = [
        {
            "when": timezone.localtime(entry.created_at).strftime("%Y-%m-%d %H:%M"),
            "by": entry.user.get_username() if entry.user else "",
            "action": entry.get_action_display(),
            "summary": entry.summary,
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
    return ValidationError(f"{message} {reason}" if reason else message)


def read_archive(data: bytes) -> dict:
    """The archive's dict from a zip made by :func:`club_archive_zip` or a bare club.json."""
    if data[:2] == b"PK":
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                data = archive.read("club.json")
        except (zipfile.BadZipFile, KeyError) as exc:
            raise _rejected(_("The zip has no club.json.")) from exc
    try:
        parsed = json.loads(data)
    except (ValueError, UnicodeDecodeError) as exc:
        raise _rejected() from exc
    if not isinstance(parsed, dict) or parsed.get("format") != FORMAT:
        raise _rejected()
    if parsed.get("version") != VERSION:
        raise _rejected(
            _("It has version %(version)s; this site reads version %(ours)s.")
            % {"version": parsed.get("version"), "ours": VERSION}
        )
    if not isinstance(parsed.get("objects"), list) or not isinstance(parsed.get("club"), dict):
        raise _rejected()
    if len(parsed["objects"]) > MAX_OBJECTS:
        raise _rejected()
    return parsed


@transaction.atomic
def club_archive_import(*, data: bytes, by, name: str = "", slug: str) -> Club:
    """A new club from an archive, with ``by`` as its administrator; all or nothing."""
    from clubs.services import may_create_club

    if not may_create_club(by):
        from django.core.exceptions import PermissionDenied

        raise PermissionDenied(_("This site does not let you start a club."))
    archive = read_archive(data)
    fields = {k: v for k, v in archive["club"].items() if k in CLUB_FIELDS}
    club = Club(**fields, slug=slug)
    if name.strip():
        club.name = name.strip()
    club.full_clean()
    club.save()
    ClubRole.objects.create(club=club, user=by, role=ClubRole.Role.ADMIN)
    allowed = {_label(m): m for m, _p in archive_models()}
    carried = set(allowed.values()) | {Club}
    new_pk = {}
    try:
        for item in archive["objects"]:
            _import_object(item, allowed, carried, new_pk, club)
    except (DeserializationError, DatabaseError, ValueError, TypeError, KeyError) as exc:
        raise _rejected() from exc
    ClubLog.objects.create(
        club=club,
        user=by,
        action=ClubLog.Action.CLUB_CREATE,
        summary=_("Club started from an archive"),
        detail={"objects": len(archive["objects"])},
    )
    return club


def _import_object(item, allowed, carried, new_pk, club):
    if not isinstance(item, dict) or item.get("model") not in allowed:
        raise ValueError("unknown model")
    model = allowed[item["model"]]
    fields = dict(item["fields"])
    for field in model._meta.fields:
        if field.name not in fields or not field.is_relation:
            continue
        old = fields[field.name]
        target = field.related_model
        if old is None:
            continue
        if target is Club:
            fields[field.name] = club.pk
        elif target in carried:
            key = (_label(target), old)
            if key not in new_pk:
                raise ValueError(f"{item['model']}.{field.name} points at a missing row")
            fields[field.name] = new_pk[key]
        else:  # an account of the other site: does not travel
            fields[field.name] = None
    for field in model._meta.many_to_many:
        fields.pop(field.name, None)
    for field in model._meta.fields:
        if field.unique and field.has_default() and callable(field.default):
            fields[field.name] = field.default()
    (obj,) = serializers.deserialize("python", [{"model": item["model"], "fields": fields}])
    obj.object.pk = None
    obj.save()
    new_pk[(item["model"], item.get("pk"))] = obj.object.pk
