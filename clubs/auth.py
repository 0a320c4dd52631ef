"""Login with a brake on guessing: after too many failures, wait.

Failures are counted per username and per address over a window, in the
database (so every server process sees the same count). A successful login
clears the username's failures.
"""

from datetime import timedelta

from django import forms
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import LoginView
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .models import LoginFailure

WINDOW = timedelta(minutes=15)
MAX_PER_USERNAME = 5
MAX_PER_ADDRESS = 20


def client_address(request):
    return request.META.get("REMOTE_ADDR") or None


def too_many_failures(username, ip):
    since = timezone.now() - WINDOW
    recent = LoginFailure.objects.filter(created_at__gte=since)
    if username and recent.filter(username=username).count() >= MAX_PER_USERNAME:
        return True
    return bool(ip) and recent.filter(ip=ip).count() >= MAX_PER_ADDRESS


class ThrottledAuthenticationForm(AuthenticationForm):
    error_messages = {
        **AuthenticationForm.error_messages,
        "invalid_login": _("Your username and password did not match. Please try again."),
        "throttled": _("Too many failed attempts. Wait a quarter of an hour and try again."),
    }

    def clean(self):
        # A NUL byte cannot be stored (PostgreSQL refuses it): it is no username anyway.
        username = (self.data.get("username") or "").replace("\x00", "")[:150]
        ip = client_address(self.request) if self.request else None
        if too_many_failures(username, ip):
            raise forms.ValidationError(self.error_messages["throttled"], code="throttled")
        try:
            return super().clean()
        except forms.ValidationError:
            LoginFailure.objects.create(username=username, ip=ip)
            LoginFailure.objects.filter(created_at__lt=timezone.now() - WINDOW).delete()
            raise

    def confirm_login_allowed(self, user):
        super().confirm_login_allowed(user)
        LoginFailure.objects.filter(username=user.get_username()).delete()


class ThrottledLoginView(LoginView):
    form_class = ThrottledAuthenticationForm
