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
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

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
