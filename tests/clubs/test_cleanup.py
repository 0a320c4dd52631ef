"""``manage.py cleanup``, the daily job: expired sessions, old login-log lines and the
throttle cache's expired counts go; everything still valid stays."""

import io
import time
from datetime import timedelta
from unittest import mock

import pytest
from axes.models import AccessLog
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.core.cache import caches
from django.core.cache.backends.filebased import FileBasedCache
from django.core.management import call_command
from django.utils import timezone

from clubs import auth
from config.settings import base as base_settings

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def file_throttle(settings, tmp_path):
    """The site's own throttle cache: the file cache, in a folder of this test's own."""
    site = base_settings.CACHES["throttle"]
    settings.CACHES = {**settings.CACHES, "throttle": {**site, "LOCATION": str(tmp_path / "t")}}
    assert isinstance(caches["throttle"], FileBasedCache)
    yield
    caches["throttle"].clear()


def session(expires_in: timedelta) -> str:
    store = SessionStore()
    store["visit"] = 1
    store.create()
    Session.objects.filter(pk=store.session_key).update(expire_date=timezone.now() + expires_in)
    return store.session_key


def cleanup() -> str:
    out = io.StringIO()
    call_command("cleanup", stdout=out)
    return out.getvalue()


def test_expired_sessions_and_old_login_lines_go_the_rest_stays():
    gone, kept = session(-timedelta(minutes=1)), session(timedelta(days=1))
    old = AccessLog.objects.create(username="oud", ip_address="192.0.2.7", user_agent="B/1")
    AccessLog.objects.filter(pk=old.pk).update(attempt_time=timezone.now() - timedelta(days=40))
    recent = AccessLog.objects.create(username="nieuw", ip_address="192.0.2.8", user_agent="B/1")
    out = cleanup()
    assert set(Session.objects.values_list("pk", flat=True)) == {kept} and gone != kept
    assert list(AccessLog.objects.values_list("pk", flat=True)) == [recent.pk]
    assert "1 expired sessions dropped." in out and "1 login-log rows" in out


def test_the_throttle_cache_keeps_live_counts_and_drops_expired_ones():
    start = time.time()
    assert auth.throttle_allowed([("kort", 5)], window=60)
    assert auth.throttle_allowed([("lang", 5)], window=3600)
    with mock.patch("time.time", return_value=start + 120):
        assert "1 expired brake counts dropped." in cleanup()
        cache = caches["throttle"]
        assert cache.get("lang") is not None and cache.get("kort") is None
        assert len(cache._list_cache_files()) == 1  # the expired file itself is gone
        # the live count still counts: four more tries, then the fifth is refused
        for _ in range(4):
            assert auth.throttle_allowed([("lang", 5)], window=3600)
        assert not auth.throttle_allowed([("lang", 5)], window=3600)


def test_running_it_twice_drops_nothing_more():
    session(-timedelta(minutes=1))
    cleanup()
    out = cleanup()
    assert "0 expired sessions dropped." in out and "0 expired brake counts dropped." in out
