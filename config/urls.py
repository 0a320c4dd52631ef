"""The site's URLs: each app brings its own modules."""

from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

urlpatterns = [
    path("", include("clubs.urls")),
    path("", include("tournaments.urls")),
    path("", include("scoring.urls")),
    path("", include("scoring.results_urls")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("admin/", admin.site.urls),
]
