"""The trick checker's pages: public, no account needed (see ``trickcheck_views``)."""

from django.urls import path

from . import club_views as club_trickcheck_views
from . import views

app_name = "trickcheck"

urlpatterns = [
    path("trickcheck/", views.check, name="check"),
    path("trickcheck/clubs/<slug:club>/", club_trickcheck_views.club_check, name="club-check"),
    path("trickcheck/sw.js", views.service_worker, name="service-worker"),
]
