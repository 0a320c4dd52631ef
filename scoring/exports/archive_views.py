"""The club archive: download everything of a club, and start a club from an archive."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs.auth import client_address
from clubs.forms import ClubCreateForm
from clubs.permissions import Capability, club_required
from clubs.services import may_create_club
from common.downloads import download, file_stem
from common.forms import apply_validation_error, form_status

from .archive import WEB_MAX_ROWS, club_archive_import, club_archive_zip, web_limits


@club_required(Capability.EXPORT_ARCHIVE)
def club_archive_download(request, club):
    return download(club_archive_zip(club), file_stem(club.slug, "archive"), "zip")


class ArchiveImportForm(ClubCreateForm):
    file = forms.FileField(
        label=gettext_lazy("Club archive"),
        help_text=gettext_lazy("The zip downloaded from a club's page, or its club.json."),
    )

    class Meta(ClubCreateForm.Meta):
        fields = ["name", "slug"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["name"].required = False
        self.fields["name"].help_text = gettext_lazy("Leave empty to keep the archive's name.")

    def clean_slug(self):
        if not self.data.get("slug") and not self.data.get("name"):
            raise forms.ValidationError(_("Give the club a short name for its links."))
        return super().clean_slug()

    def clean_file(self):
        upload = self.cleaned_data["file"]
        problem = web_limits().file_problem(upload.size)
        if problem:
            raise forms.ValidationError(problem)
        return upload


@login_required
def club_archive_upload(request):
    if not may_create_club(request.user):
        raise PermissionDenied(_("This site does not let you start a club."))
    form = ArchiveImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            club = club_archive_import(
                data=form.cleaned_data["file"].read(),
                by=request.user,
                name=form.cleaned_data["name"],
                slug=form.cleaned_data["slug"],
                limits=web_limits(),
                address=client_address(request),
            )
        except ValidationError as exc:
            apply_validation_error(form, exc)
        else:
            messages.success(request, _("%(name)s is imported.") % {"name": club.name})
            return redirect(club)
    context = {"form": form, "max_rows": WEB_MAX_ROWS}
    return render(request, "scoring/club_archive_import.html", context, status=form_status(form))
