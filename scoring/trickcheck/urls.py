"""The trick checker's pages: public, no account needed (see ``scoring.trickcheck.views``)."""

from django.urls import path

from . import club_views as club_trickcheck_views
from . import views

app_name = "trickcheck"

urlpatterns = [
    path("trickcheck/", club_trickcheck_views.check, name="check"),
    path("trickcheck/clubs/<slug:club>/", club_trickcheck_views.club_check, name="club-check"),
    path("trickcheck/sw.js", views.service_worker, name="service-worker"),
]
