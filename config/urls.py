"""The site's URLs: each app brings its own modules."""

from django.contrib import admin
from django.contrib.auth.views import LoginView
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from clubs import views_access, views_account
from clubs.auth import LoginForm, ResetPasswordConfirmView, ResetPasswordView

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
    path(
        "accounts/reset/<uidb64>/<token>/",
        ResetPasswordConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("admin/", admin.site.urls),
]

handler500 = "config.errors.server_error"
