"""Member import and export pages (being written)."""

from django.http import HttpResponse

from .permissions import Role, club_required


@club_required(Role.ADMIN)
def member_import(request, club):
    return HttpResponse(status=501)


@club_required(Role.DIRECTOR)
def member_export_xlsx(request, club):
    return HttpResponse(status=501)


@club_required(Role.DIRECTOR)
def member_export_csv(request, club):
    return HttpResponse(status=501)
