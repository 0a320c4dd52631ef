"""The site's URLs: each app brings its own modules."""

from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from clubs.auth import ThrottledLoginView

urlpatterns = [
    path("", include("clubs.urls")),
    path("", include("tournaments.urls")),
    path("", include("scoring.urls")),
    path("", include("scoring.results_urls")),
    path("", include("tournaments.league_urls")),
    path("", include("scoring.export_urls")),
    path("", include("scoring.trickcheck_urls")),
    path("accounts/login/", ThrottledLoginView.as_view(), name="login"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("admin/", admin.site.urls),
]
