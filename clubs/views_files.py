"""Member import and export pages: parse the request, call ``imports``/``exports``, answer.

Import is two posts to one address. The first carries the file and answers
with the preview; when the file can be imported the preview page holds a
signed token of the checked rows (``imports.preview_token``) and a button that
posts it back. The second post checks the rows again and applies them, all or
none. Nothing is stored between the two.
"""

from django import forms
from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from common.downloads import download, file_stem
from common.tabular import ACCEPT

from . import exports, imports, selectors
from .permissions import Capability, club_required


class MemberImportForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("Member list"),
        help_text=gettext_lazy(
            "A CSV file, an Excel workbook (.xlsx) or a LibreOffice spreadsheet (.ods), "
            "at most 5 MB."
        ),
        widget=forms.FileInput(attrs={"accept": ACCEPT}),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > imports.MAX_UPLOAD_BYTES:
            raise forms.ValidationError(str(imports.size_problem(upload.size)))
        return upload


@club_required(Capability.IMPORT_MEMBERS)
def member_import(request, club):
    if request.method == "POST" and "token" in request.POST:
        return _member_import_apply(request, club)
    preview, token = None, ""
    if request.method == "POST":
        form = MemberImportForm(request.POST, request.FILES)
        if form.is_valid():
            upload = form.cleaned_data["file"]
            preview = imports.member_import_preview(
                club=club, data=upload.read(), filename=upload.name
            )
            if preview.can_apply:
                token = imports.preview_token(preview, club=club, by=request.user)
            form = MemberImportForm()
    else:
        form = MemberImportForm()
    context = {"club": club, "form": form, "preview": preview, "token": token}
    return render(request, "clubs/member_import.html", context)


def _member_import_apply(request, club):
    try:
        rows, filename, columns, planned = imports.rows_from_token(
            request.POST["token"], club=club, by=request.user
        )
        result = imports.member_import_apply(
            club=club,
            rows=rows,
            by=request.user,
            filename=filename,
            columns=columns,
            planned=planned,
            renames=imports.renames_from_post(request.POST.getlist("rename")),
        )
    except imports.ImportRejected as exc:
        context = {"club": club, "form": MemberImportForm(), "rejected": exc.problems}
        return render(request, "clubs/member_import.html", context)
    added, skipped, changed = len(result.added), len(result.skipped), len(result.changed)
    if added:
        messages.success(
            request,
            ngettext("%(count)s member imported.", "%(count)s members imported.", added)
            % {"count": added},
        )
    if changed:
        messages.success(
            request,
            ngettext("%(count)s member changed.", "%(count)s members changed.", changed)
            % {"count": changed},
        )
    if not added and not changed:
        messages.info(request, _("Nothing was imported: every row is already a member."))
    if skipped:
        messages.info(
            request,
            ngettext(
                "%(count)s row was already a member and was skipped.",
                "%(count)s rows were already members and were skipped.",
                skipped,
            )
            % {"count": skipped},
        )
    return redirect("clubs:member-list", club=club.slug)


def _members_file(data, club, extension):
    day = timezone.localdate().isoformat()
    return download(data, file_stem(club.slug, "members", day), extension)


@club_required(Capability.EDIT_MEMBERS)
def member_export_xlsx(request, club):
    data = exports.members_xlsx(selectors.member_list(club=club))
    return _members_file(data, club, "xlsx")


@club_required(Capability.EDIT_MEMBERS)
def member_export_csv(request, club):
    data = exports.members_csv(selectors.member_list(club=club))
    return _members_file(data, club, "csv")
