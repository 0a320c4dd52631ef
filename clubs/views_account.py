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
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.utils.text import slugify
from django.utils.translation import gettext as _

from common.forms import apply_validation_error

from . import selectors, services
from .forms import AccountDeleteForm


def _context(request, form):
    user = request.user
    return {
        "person": user,
        "roles": selectors.account_roles(user=user),
        "memberships": selectors.my_memberships(user=user),
        "logins": selectors.account_logins(user=user),
        "password_links": selectors.password_links_for(user=user),
        "login_log_days": settings.LOGIN_LOG_DAYS,
        "form": form,
    }


@login_required
def account(request):
    return render(request, "clubs/account.html", _context(request, AccountDeleteForm()))


@login_required
def account_export(request):
    """The account page's data as one JSON file (the project's download helpers live
    in view modules of other apps; this one writes its own, private and uncached)."""
    data = selectors.account_data(user=request.user)
    body = json.dumps(data, ensure_ascii=False, indent=2).encode()
    day = timezone.localdate().isoformat()
    name = slugify(request.user.get_username()) or "account"
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}-{day}.json"'
    patch_cache_control(response, private=True, no_cache=True, no_store=True)
    return response


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
    return render(request, "clubs/account.html", _context(request, form))
