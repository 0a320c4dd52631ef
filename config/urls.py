"""The site's URLs: each app brings its own modules."""

from django.conf import settings
from django.contrib import admin
from django.contrib.auth.views import LoginView
from django.urls import include, path
from django.utils import translation
from django.utils.cache import patch_cache_control
from django.views.i18n import JavaScriptCatalog

from clubs import views_access, views_account
from clubs.auth import LoginForm, ResetPasswordConfirmView, ResetPasswordView
from common.catalog import CATALOG_SECONDS, catalog_version


class VersionedCatalog(JavaScriptCatalog):
    """Django's JavaScript catalog; at the address ``common.catalog.catalog_url`` gives
    (the language and the catalog's hash) kept for a year by browsers and proxies. Any
    other address (an old hash after a deploy, none) is the current language's catalog,
    asked again each time."""

    def get(self, request, *args, **kwargs):
        language = request.GET.get("l", "")
        if language in dict(settings.LANGUAGES) and request.GET.get("v") == catalog_version(
            language
        ):
            with translation.override(language):
                response = super().get(request, *args, **kwargs)
            patch_cache_control(response, public=True, max_age=CATALOG_SECONDS, immutable=True)
            response["Content-Language"] = language
            return response
        response = super().get(request, *args, **kwargs)
        patch_cache_control(response, no_cache=True)
        return response


urlpatterns = [
    path("", include("clubs.urls")),
    path("", include("tournaments.urls")),
    path("", include("scoring.urls")),
    path("", include("scoring.results.urls")),
    path("", include("leagues.urls")),
    path("", include("scoring.exports.urls")),
    path("", include("scoring.trickcheck.urls")),
    path("accounts/login/", LoginView.as_view(form_class=LoginForm), name="login"),
    path("accounts/password_reset/", ResetPasswordView.as_view(), name="password_reset"),
    path("accounts/signup/", views_access.signup, name="signup"),
    path(
        "accounts/invitation/<str:token>/",
        views_access.invitation_accept,
        name="invitation-accept",
    ),
    path("accounts/me/", views_account.account, name="account"),
    path("accounts/me/email/", views_account.account_email, name="account-email"),
    path("accounts/me/export.json", views_account.account_export, name="account-export"),
    path("accounts/me/delete/", views_account.account_delete, name="account-delete"),
    path("accounts/language/", views_account.language_choose, name="language"),
    path(
        "accounts/reset/<uidb64>/<token>/",
        ResetPasswordConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/", VersionedCatalog.as_view(), name="javascript-catalog"),
    path("admin/", admin.site.urls),
]

handler500 = "config.errors.server_error"
