"""Downloads and the results import page: parse the request, call ``scoring.exports``, answer.

Who may download what:

- standings and an evening's result: the public rule (anyone when the club's
  results are public, otherwise its people);
- the table plan: the same (it is the round page's plan, on paper);
- the hand log: members of the club (every hand, with names);
- score sheets, blank or filled: scorers (their QR codes are the tables'
  private entry links);
- the import: tournament directors.

Another club's objects answer 404.

The import is two posts to one address, like the member import: the first
carries the file and answers with the preview; the file is kept in the database
(``clubs.PendingUpload``, so whichever box gets the second post finds it) for at most
an hour, and the preview page posts back a token signed for this club, competition
and user, holding the kept file's number and its SHA-256. The second post checks everything
again and imports all or nothing. The hand log of a season is too large to
carry in the page itself, as the member import does.
"""

import dataclasses
import hashlib

from django import forms
from django.contrib import messages
from django.core import signing
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.cache import patch_cache_control
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from clubs.permissions import Capability, club_required
from clubs.services import PENDING_UPLOAD_SECONDS, pending_upload_keep, pending_upload_take
from common import qr
from common.downloads import FILE_WORDS, download, file_stem
from common.params import id_or_404
from common.tabular import ACCEPT
from tournaments.models import Competition, Evening, Round

from . import (
    csv,
    handlog,
    importers,
    pdf,
    reports,
    table_entry_path,
    totalsheet,
    xlsx,
)

_UPLOAD_KIND = "results"
_SALT = "scoring.exports.results_import"


def _competition(club, pk):
    return get_object_or_404(Competition.objects.select_related("club"), club=club, pk=pk)


def _report(report, fmt, club):
    stem = f"{club.slug} {report.stem}"
    if fmt == "xlsx":
        return download(xlsx.report_xlsx(report), stem, "xlsx")
    if fmt == "csv":
        return download(csv.report_csv(report), stem, "csv")
    if fmt == "pdf":
        return download(pdf.report_pdf(report), stem, "pdf", inline=True)
    raise Http404


@club_required()
def standings_download(request, club, pk, fmt):
    competition = _competition(club, pk)
    period = None
    if request.GET.get("period"):
        period = get_object_or_404(competition.periods, pk=id_or_404(request.GET["period"]))
    report = reports.standings_report(competition=competition, period=period)
    return _report(report, fmt, club)


@club_required()
def evening_result_download(request, club, pk, fmt):
    evening = get_object_or_404(
        Evening.objects.select_related("competition__club"), competition__club=club, pk=pk
    )
    return _report(reports.evening_report(evening=evening), fmt, club)


@club_required(Capability.VIEW)
def hand_log_download(request, club, pk, fmt):
    competition = _competition(club, pk)
    names = handlog.seat_names(competition)
    rows = handlog.hand_log_rows(competition, names=names)
    stem = file_stem(club.slug, "hands", competition.name)
    if fmt == "xlsx":
        width = handlog.name_width(names)
        return download(xlsx.hand_log_xlsx(rows, name_width=width), stem, "xlsx")
    if fmt == "csv":
        return download(csv.hand_log_csv(rows), stem, "csv")
    raise Http404


def _round(club, pk):
    return get_object_or_404(
        Round.objects.select_related("evening__competition__club"),
        evening__competition__club=club,
        pk=pk,
    )


def _sheets(request, round_, *, filled):
    def entry_url(token):
        return request.build_absolute_uri(table_entry_path(token))

    sheets = reports.round_sheets(round_=round_, entry_url=entry_url, filled=filled)
    if qr.is_loopback_host(request.get_host()):
        sheets = dataclasses.replace(sheets, warning=str(qr.LOOPBACK_WARNING))
    return sheets


def _round_stem(club, round_, what):
    date = f"{round_.evening.date:%Y-%m-%d}"
    return file_stem(club.slug, what, date, FILE_WORDS["round"], round_.number)


@club_required(Capability.SCORE)
def scoresheets_download(request, club, pk, filled=False):
    round_ = _round(club, pk)
    data = pdf.scoresheets_pdf(_sheets(request, round_, filled=filled))
    what = "score_sheets_filled" if filled else "score_sheets"
    response = download(data, _round_stem(club, round_, what), "pdf", inline=True)
    patch_cache_control(response, no_store=True)  # the QR codes are the tables' links
    return response


@club_required()
def table_plan_download(request, club, pk):
    round_ = _round(club, pk)
    # No entry links on the plan: it goes on the wall.
    sheets = reports.round_sheets(round_=round_, entry_url=lambda token: "", filled=False)
    data = pdf.table_plan_pdf(sheets)
    return download(data, _round_stem(club, round_, "table_plan"), "pdf", inline=True)


# ---------------------------------------------------------------- import


class ResultsImportForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("Hand log or sheet of evening totals"),
        help_text=gettext_lazy(
            "A CSV file (UTF-8), an Excel workbook (.xlsx) or a LibreOffice spreadsheet "
            "(.ods), at most 20 MB."
        ),
        widget=forms.FileInput(attrs={"accept": ACCEPT}),
    )
    create_members = forms.BooleanField(
        label=gettext_lazy("Add players who are not members yet as members"),
        required=False,
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > importers.PAGE_LIMITS.max_bytes:
            raise forms.ValidationError(
                str(importers.size_problem(upload.size, importers.PAGE_LIMITS))
            )
        return upload


def _salt(club, competition, user):
    return f"{_SALT}:{club.pk}:{competition.pk}:{user.pk}"


def _token(club, competition, user, *, upload, create_members):
    payload = {
        "upload": upload.pk,
        "sha256": hashlib.sha256(bytes(upload.data)).hexdigest(),
        "create_members": create_members,
    }
    return signing.dumps(payload, salt=_salt(club, competition, user))


def _unstash(token, club, competition, user):
    """(upload, create_members) from a preview's token: the file kept in the database
    (:func:`clubs.services.pending_upload_keep`, so any box may confirm); ImportRejected
    if it cannot be used."""
    again = _("upload the file again.")
    try:
        payload = signing.loads(
            token, salt=_salt(club, competition, user), max_age=PENDING_UPLOAD_SECONDS
        )
    except signing.SignatureExpired as exc:
        raise importers.ImportRejected(
            [importers.Problem(_("The preview is more than an hour old; ") + again)]
        ) from exc
    except signing.BadSignature as exc:
        raise importers.ImportRejected(
            [importers.Problem(_("The preview could not be read; ") + again)]
        ) from exc
    upload = pending_upload_take(pk=payload.get("upload"), club=club, by=user, kind=_UPLOAD_KIND)
    if upload is None:
        raise importers.ImportRejected(
            [importers.Problem(_("The uploaded file is no longer there; ") + again)]
        )
    if hashlib.sha256(upload.data).hexdigest() != payload.get("sha256"):
        raise importers.ImportRejected(
            [importers.Problem(_("The uploaded file has changed; ") + again)]
        )
    return upload, bool(payload.get("create_members"))


@club_required(Capability.IMPORT_RESULTS)
def results_import(request, club, pk):
    competition = _competition(club, pk)
    context = {
        "club": club,
        "competition": competition,
        "columns": _column_help(),
        "totals_columns": _totals_column_help(),
        "max_rows": number_format(importers.PAGE_LIMITS.max_rows, force_grouping=True),
    }
    if request.method == "POST" and "token" in request.POST:
        return _results_import_apply(request, club, competition, context)
    preview, token = None, ""
    if request.method == "POST":
        form = ResultsImportForm(request.POST, request.FILES)
        if form.is_valid():
            upload = form.cleaned_data["file"]
            data = upload.read()
            create_members = form.cleaned_data["create_members"]
            preview, token = _preview_kept(
                request, club, competition, data, upload.name, create_members
            )
            form = ResultsImportForm(initial={"create_members": create_members})
    else:
        form = ResultsImportForm()
    context.update({"form": form, "preview": preview, "token": token})
    return render(request, "scoring/exports/results_import.html", context)


def _preview_kept(request, club, competition, data, filename, create_members):
    """The preview of a file and, when it can be imported, the token that keeps it for
    the confirmation (``""`` otherwise)."""
    preview = importers.results_import_preview(
        club=club,
        competition=competition,
        data=data,
        filename=filename,
        create_members=create_members,
        limits=importers.PAGE_LIMITS,
    )
    if not preview.can_apply:
        return preview, ""
    kept = pending_upload_keep(
        club=club, by=request.user, kind=_UPLOAD_KIND, data=data, filename=filename
    )
    return preview, _token(
        club, competition, request.user, upload=kept, create_members=create_members
    )


def _results_import_apply(request, club, competition, context):
    upload = None
    try:
        upload, create_members = _unstash(request.POST["token"], club, competition, request.user)
        data, filename = upload.data, upload.filename
        result = importers.results_import_apply(
            club=club,
            competition=competition,
            data=data,
            filename=filename,
            by=request.user,
            create_members=create_members,
            limits=importers.PAGE_LIMITS,
            # The preview's answers for names close to members' (NearName.field).
            name_choices={
                key: value[:40] for key, value in request.POST.items() if key.startswith("near-")
            },
        )
    except importers.ImportRejected as exc:
        context.update({"form": ResultsImportForm(), "rejected": exc.problems})
        if upload is not None:
            # Refused for its answers (a close name answered as a player already on
            # that evening), the file can still be imported: the same preview again,
            # with its questions, keeping the file for the next answers.
            preview, token = _preview_kept(
                request, club, competition, data, filename, create_members
            )
            if token:
                context.update({"preview": preview, "token": token})
        return render(request, "scoring/exports/results_import.html", context)
    evenings = len(result.evenings)
    if result.totals:
        messages.success(
            request,
            ngettext(
                "%(count)s evening imported: %(totals)s players' totals.",
                "%(count)s evenings imported: %(totals)s players' totals.",
                evenings,
            )
            % {"count": evenings, "totals": result.totals},
        )
    else:
        messages.success(
            request,
            ngettext(
                "%(count)s evening imported: %(games)s games, %(hands)s hands.",
                "%(count)s evenings imported: %(games)s games, %(hands)s hands.",
                evenings,
            )
            % {"count": evenings, "games": result.games, "hands": result.hands},
        )
    if result.new_members:
        messages.info(
            request,
            ngettext(
                "%(count)s new member added.",
                "%(count)s new members added.",
                len(result.new_members),
            )
            % {"count": len(result.new_members)},
        )
    if result.skipped:
        messages.info(
            request,
            ngettext(
                "%(count)s evening was already there and was skipped.",
                "%(count)s evenings were already there and were skipped.",
                len(result.skipped),
            )
            % {"count": len(result.skipped)},
        )
    return redirect(competition)


def _totals_column_help():
    """The columns of a sheet of evening totals with their meaning, for the upload page."""
    meaning = {
        "date": _("the evening, as YYYY-MM-DD"),
        "round": _(
            "optional: the round, when the sheet has a row per player per round; "
            "without it a row is the player's evening"
        ),
        "name": _("the player, as a member of the club"),
        "points": _("the player's points of the evening (or of the round)"),
        "marsen": _("optional: the player's marsen; empty is 0"),
        "place": _("optional, checked: the player's place of the evening"),
    }
    return [
        {"name": key, "title": totalsheet.TITLES[key], "meaning": meaning[key]}
        for key in totalsheet.COLUMNS
    ]


def _column_help():
    """The hand-log columns with their meaning, for the upload page."""
    meaning = {
        "date": _("the evening, as YYYY-MM-DD"),
        "round": _("the round of the evening: 1, 2, 3 …"),
        "table": _("the table number"),
        "hand": _("the hand of the game: 1 to 16 for a boompje"),
        "north": _("the players: north and south are wij (team A) …"),
        "south": "",
        "east": _("… east and west are zij (team B)"),
        "west": "",
        "playing": _("the team that played: A or B"),
        "trump": _("C, D, H, S or empty"),
        "points_a": _("card points of wij and zij: together 162"),
        "points_b": "",
        "roem_a": _(
            "roem of wij and zij as the score sheet writes it; empty is 0. A pit's is the "
            "pit's 100 plus the roem (100 without roem, 120 with 20); after verzaken the "
            "other team's is the penalty of 100 plus all roem"
        ),
        "roem_b": "",
        "declared_a": _(
            "declared roem only (match to 1500): what wij and zij declared, e.g. 50+20+stuk"
        ),
        "declared_b": "",
        "pit": _("the team that took every trick: A, B or empty"),
        "verzaakt": _(
            "the team that reneged (verzaken), A, B or empty: the other team gets 162 + all "
            "roem + the penalty; card points may be left empty"
        ),
        "nat": _("optional, checked: the team that was nat"),
        "score_a": _("optional, checked: what each team banked"),
        "score_b": "",
        "sitout": _("optional: a player who sat out the round, name under north, this score here"),
        "sitout_marsen": _(
            "optional: the marsen a sit-out counts (1 where a sit-out scores a mars)"
        ),
    }
    return [
        {"name": key, "title": handlog.TITLES[key], "meaning": meaning[key]}
        for key in handlog.COLUMNS
    ]
