"""Issue 24: the login log (username, address, browser) is kept LOGIN_LOG_DAYS days."""

from datetime import timedelta

import pytest
from axes.models import AccessAttempt, AccessLog
from django.core.management import call_command
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from tests import factories

pytestmark = pytest.mark.django_db


def _line(username, age, address="192.0.2.7"):
    line = AccessLog.objects.create(
        username=username, ip_address=address, user_agent="Browser/1", http_accept="*/*"
    )
    AccessLog.objects.filter(pk=line.pk).update(attempt_time=timezone.now() - age)
    return line.pk


def _attempt(username, age):
    attempt = AccessAttempt.objects.create(
        username=username,
        ip_address="192.0.2.8",
        user_agent="Browser/1",
        http_accept="*/*",
        get_data="",
        post_data="",
        failures_since_start=1,
    )
    AccessAttempt.objects.filter(pk=attempt.pk).update(attempt_time=timezone.now() - age)
    return attempt.pk


def test_the_command_drops_old_logins_and_expired_failures_and_keeps_the_recent(settings):
    assert settings.LOGIN_LOG_DAYS == 30
    old = _line("oud", timedelta(days=31))
    recent = _line("recent", timedelta(days=29))
    stale_failure = _attempt("gokker", timedelta(hours=2))
    live_failure = _attempt("gokker2", timedelta(minutes=5))
    call_command("prune_login_log", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert list(AccessLog.objects.values_list("pk", flat=True)) == [recent]
    assert list(AccessAttempt.objects.values_list("pk", flat=True)) == [live_failure]
    assert old != recent and stale_failure != live_failure


@override_settings(LOGIN_LOG_DAYS=7)
def test_the_period_is_the_setting():
    _line("a", timedelta(days=8))
    kept = _line("b", timedelta(days=6))
    call_command("prune_login_log", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert list(AccessLog.objects.values_list("pk", flat=True)) == [kept]


def test_a_successful_login_drops_old_lines_of_everyone():
    old = _line("iemand-anders", timedelta(days=40))
    recent = _line("iemand-anders", timedelta(days=2))
    factories.user("speler", password="Klaver-Boer-9")
    response = Client().post(reverse("login"), {"username": "speler", "password": "Klaver-Boer-9"})
    assert response.status_code == 302
    left = set(AccessLog.objects.values_list("pk", flat=True))
    assert old not in left and recent in left
    assert AccessLog.objects.filter(username="speler").count() == 1
