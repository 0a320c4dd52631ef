"""One's own account: what the site stores about the logged-in person, a download
of it, and deleting the account.

Views parse the request, call one service or selector, render.
"""

import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponseRedirect
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import check_for_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from common.downloads import download, file_stem
from common.forms import apply_validation_error, form_status

from . import selectors, services
from .forms import AccountDeleteForm, AccountEmailForm


def _context(request, form, email_form=None):
    user = request.user
    return {
        "person": user,
        "roles": selectors.account_roles(user=user),
        "memberships": selectors.my_memberships(user=user),
        "logins": selectors.account_logins(user=user),
        "password_links": selectors.password_links_for(user=user),
        "login_log_days": settings.LOGIN_LOG_DAYS,
        "form": form,
        "email_form": email_form or AccountEmailForm(initial={"email": user.email}),
    }


@login_required
def account(request):
    return render(request, "clubs/account.html", _context(request, AccountDeleteForm()))


@require_POST
@login_required
def account_email(request):
    """Set or change one's own e-mail address (with the password again)."""
    form = AccountEmailForm(request.POST)
    if form.is_valid():
        try:
            services.account_email_set(
                user=request.user,
                by=request.user,
                email=form.cleaned_data["email"],
                password=form.cleaned_data["password"],
            )
        except ValidationError as exc:
            apply_validation_error(form, exc)
        else:
            messages.success(request, _("Your e-mail address is saved."))
            return redirect("account")
    context = _context(request, AccountDeleteForm(), email_form=form)
    return render(request, "clubs/account.html", context, status=form_status(form))


@login_required
def account_export(request):
    """The account page's data as one JSON file."""
    data = selectors.account_data(user=request.user)
    body = json.dumps(data, ensure_ascii=False, indent=2).encode()
    day = timezone.localdate().isoformat()
    return download(body, file_stem(request.user.get_username(), "my_data", day), "json")


@login_required
def account_delete(request):
    form = AccountDeleteForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            services.account_delete(
                user=request.user, by=request.user, password=form.cleaned_data["password"]
            )
        except ValidationError as exc:
            apply_validation_error(form, exc)
        except PermissionDenied as exc:
            form.add_error(None, str(exc))
        else:
            logout(request)
            messages.success(request, _("Your account is deleted."))
            return redirect("clubs:home")
    return render(request, "clubs/account.html", _context(request, form), status=form_status(form))


@require_GET
def language_choose(request):
    """The language switch of an anonymous visitor's page (``templates/base.html``).

    A GET, so that a public page carries no CSRF token and sets no cookie (a proxy may
    then keep one copy for every visitor); it sets only the language cookie, as
    Django's ``set_language`` does, and changes nothing on the server. A logged-in
    viewer's switch posts to ``set_language`` with their token: here their language
    stays as it is (a link from another site cannot change it).
    """
    next_url = request.GET.get("next", "")
    if not url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        next_url = "/"
    response = HttpResponseRedirect(next_url)
    language = request.GET.get("language", "")
    known = language in dict(settings.LANGUAGES) and check_for_language(language)
    if known and not request.user.is_authenticated:
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            language,
            max_age=settings.LANGUAGE_COOKIE_AGE,
            path=settings.LANGUAGE_COOKIE_PATH,
            domain=settings.LANGUAGE_COOKIE_DOMAIN,
            secure=settings.LANGUAGE_COOKIE_SECURE,
            httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        )
    return response
