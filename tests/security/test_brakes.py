"""The brakes on repeated requests: sign-ups, new clubs, password resets and PINs.

One limiter counts them all (``clubs.auth.throttle_allowed``), in the throttle
cache the site really runs with: the file cache of ``config/settings/base.py``
(the test settings' own is in memory, whose ``incr`` keeps a key's timeout; the
file cache's does not). Time is moved by a clock patched into ``time.time``, which
both the limiter and the file cache read: nobody sleeps.
"""

import contextlib
import threading
from unittest import mock

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.core.cache import caches
from django.core.cache.backends.filebased import FileBasedCache
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from clubs import auth
from clubs.models import Club
from clubs.services import PIN_LOCK_SECONDS, PIN_TRIES, member_pin_check, member_pin_set
from config.settings import base as base_settings
from tests import factories

pytestmark = pytest.mark.django_db
ENGLISH = {"HTTP_ACCEPT_LANGUAGE": "en"}
MINUTE = 60


@pytest.fixture(autouse=True)
def file_throttle(settings, tmp_path):
    """The site's throttle cache: a file cache (in a folder of this test's own)."""
    site = base_settings.CACHES["throttle"]
    assert site["BACKEND"].endswith("FileBasedCache")
    settings.CACHES = {
        **settings.CACHES,
        "throttle": {**site, "LOCATION": str(tmp_path / "throttle")},
    }
    assert isinstance(caches["throttle"], FileBasedCache)
    yield
    caches["throttle"].clear()


class Clock:
    """``time.time`` under the test's control."""

    def __init__(self):
        self.now = 1_800_000_000.0

    def __call__(self):
        return self.now

    def advance(self, seconds):
        self.now += seconds


@pytest.fixture
def clock():
    clock = Clock()
    with mock.patch("time.time", clock):
        yield clock


# --- Sign-up ---------------------------------------------------------------------------------


def sign_up(client, username, address="10.1.1.1", password="Klaverjas-2026!", **headers):
    return client.post(
        reverse("signup"),
        {
            "username": username,
            "email": f"{username}@example.org",
            "password1": password,
            "password2": password,
        },
        REMOTE_ADDR=address,
        **ENGLISH,
        **headers,
    )


@pytest.fixture
def open_site(settings):
    settings.CLUB_CREATION = "anyone"


def test_sign_ups_from_one_address_stop_at_the_limit(client, open_site, clock):
    limit = django_settings.SIGNUP_LIMITS["ip_address"]
    for n in range(limit):
        assert sign_up(client, f"speler{n}").status_code == 302
        client.logout()
    refused = sign_up(client, "nog-een")
    assert refused.status_code == 429
    assert "Too many new accounts from this address. Try again in 1\xa0hour." in refused.text
    assert 'name="username"' in refused.text  # the form again, with its error
    assert get_user_model().objects.count() == limit
    assert "_auth_user_id" not in client.session
    # Another address is not held back; this one is again after the hour.
    assert sign_up(client, "elders", address="10.2.2.2").status_code == 302
    client.logout()
    clock.advance(59 * MINUTE)
    assert sign_up(client, "nog-een").status_code == 429
    clock.advance(2 * MINUTE)
    assert sign_up(client, "nog-een").status_code == 302


def test_a_sign_up_refused_for_its_password_is_not_counted(client, open_site):
    limit = django_settings.SIGNUP_LIMITS["ip_address"]
    for n in range(limit + 2):
        weak = sign_up(client, f"zwak{n}", password="1234")
        assert weak.status_code == 200 and "Too many" not in weak.text
    assert get_user_model().objects.count() == 0
    assert sign_up(client, "sterk").status_code == 302


def test_sign_ups_behind_a_trusted_proxy_count_per_client(client, open_site, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    limit = django_settings.SIGNUP_LIMITS["ip_address"]
    for n in range(limit):
        assert sign_up(client, f"speler{n}", HTTP_X_FORWARDED_FOR="198.51.100.7").status_code == 302
        client.logout()
    assert sign_up(client, "nog-een", HTTP_X_FORWARDED_FOR="198.51.100.7").status_code == 429
    assert sign_up(client, "ander", HTTP_X_FORWARDED_FOR="198.51.100.8").status_code == 302


# --- Starting a club -------------------------------------------------------------------------


def start_club(client, name, address="10.1.1.1"):
    return client.post(
        reverse("clubs:club-create"),
        {"name": name, "slug": "", "ruleset_preset": "rotterdam"},
        REMOTE_ADDR=address,
        **ENGLISH,
    )


def test_one_account_starts_only_so_many_clubs_a_day(client, open_site, clock):
    limit = django_settings.CLUB_START_LIMITS["user"]
    client.force_login(factories.user("oprichter"))
    for n in range(limit):
        assert start_club(client, f"Club {n}", address=f"10.0.0.{n}").status_code == 302
    refused = start_club(client, "Nog een club", address="10.9.9.9")
    assert refused.status_code == 429
    assert "Too many new clubs from this account or address. Try again in 1\xa0day." in refused.text
    assert Club.objects.count() == limit
    clock.advance(24 * 60 * MINUTE + 1)
    assert start_club(client, "Nog een club").status_code == 302


def test_one_address_starts_only_so_many_clubs_a_day(client, open_site):
    limit = django_settings.CLUB_START_LIMITS["ip_address"]
    for n in range(limit):
        client.force_login(factories.user(f"oprichter{n}"))
        assert start_club(client, f"Club {n}").status_code == 302
    client.force_login(factories.user("nog-een"))
    assert start_club(client, "Nog een club").status_code == 429
    assert Club.objects.count() == limit
    assert start_club(client, "Nog een club", address="10.2.2.2").status_code == 302


def test_a_club_refused_for_its_name_is_not_counted(client, open_site):
    factories.club(name="Bestaat", slug="bestaat")
    client.force_login(factories.user("oprichter"))
    for _ in range(django_settings.CLUB_START_LIMITS["user"] + 1):
        taken = client.post(
            reverse("clubs:club-create"),
            {"name": "Bestaat", "slug": "bestaat", "ruleset_preset": "rotterdam"},
        )
        assert taken.status_code == 200
    assert start_club(client, "Eigen club").status_code == 302


def test_the_sites_operators_start_clubs_without_a_limit(client):
    client.force_login(factories.user("beheerder", is_staff=True))
    for n in range(django_settings.CLUB_START_LIMITS["ip_address"] + 2):
        assert start_club(client, f"Club {n}").status_code == 302


# --- The window lasts what it says, with the cache the site runs ------------------------------


@pytest.fixture
def member_with_pin(club):
    member = factories.member(club)
    return member_pin_set(member=member, pin="4711", by=factories.role(club, "admin"))


def pin_refused(member, pin):
    try:
        member_pin_check(member=member, pin=pin)
    except ValidationError as exc:
        return " ".join(exc.message_dict["pin"])
    return None


def test_the_pin_lock_lasts_ten_minutes_from_the_last_wrong_pin(member_with_pin, clock):
    """It lasted five: ``cache.incr`` on the file cache re-set the count with the
    cache's default timeout (300 s)."""
    assert PIN_LOCK_SECONDS == 10 * MINUTE
    member = member_with_pin
    for _ in range(PIN_TRIES - 1):
        assert pin_refused(member, "0000")
    clock.advance(4 * MINUTE)
    assert pin_refused(member, "0000")  # the last wrong PIN the lock allows
    assert "Te vaak een verkeerde pincode" in pin_refused(member, "4711")
    clock.advance(9 * MINUTE)
    assert "Te vaak een verkeerde pincode" in pin_refused(member, "4711")
    clock.advance(MINUTE + 1)
    assert pin_refused(member, "4711") is None


def test_a_right_pin_clears_the_wrong_ones(member_with_pin):
    member = member_with_pin
    for _ in range(PIN_TRIES - 1):
        pin_refused(member, "0000")
    assert pin_refused(member, "4711") is None
    for _ in range(PIN_TRIES - 1):
        pin_refused(member, "0000")
    assert pin_refused(member, "4711") is None


def test_reset_requests_stay_refused_for_the_whole_hour(client, settings, clock):
    settings.EMAIL_CONFIGURED = True
    factories.user("secretaris", email="secretaris@example.org")
    url, data = reverse("password_reset"), {"email": "secretaris@example.org"}
    for _ in range(django_settings.PASSWORD_RESET_LIMITS["email"]):
        assert client.post(url, data).status_code == 302
    clock.advance(30 * MINUTE)
    assert "Wait an hour" in client.post(url, data, **ENGLISH).text
    clock.advance(29 * MINUTE)
    assert "Wait an hour" in client.post(url, data, **ENGLISH).text
    clock.advance(2 * MINUTE)
    assert client.post(url, data).status_code == 302


def test_concurrent_tries_get_no_more_than_the_limit(clock):
    """Counting is read, add one, write: two tries reading the same count at once
    would both be let through. Here every reader waits for the others (a barrier
    in the cache's ``get``), so without turns they all read the same count."""
    tries, limit = 6, 2
    barrier = threading.Barrier(tries)
    real_get = FileBasedCache.get

    def get_together(self, *args, **kwargs):
        # Taking turns, the others are not reading now: the wait breaks.
        with contextlib.suppress(threading.BrokenBarrierError):
            barrier.wait(timeout=0.5)
        return real_get(self, *args, **kwargs)

    answers = []

    def attempt():
        answers.append(auth.throttle_allowed([("samen", limit)], window=MINUTE))

    with mock.patch.object(FileBasedCache, "get", get_together):
        threads = [threading.Thread(target=attempt) for _ in range(tries)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)
    assert sorted(answers) == [False] * (tries - limit) + [True] * limit


def test_a_club_archive_starts_a_club_under_the_same_brake(client, open_site):
    """An archive's import starts a club as "Start a club" does: it counts against the
    same limits, so a fresh sign-up cannot start clubs in bulk that way either."""
    from scoring.exports.archive import club_archive_json

    source = factories.club(name="Bronclub", slug="bronclub")
    factories.member(source, "Archief Lid")
    data = club_archive_json(source)
    client.force_login(factories.user("archivaris"))
    limit = django_settings.CLUB_START_LIMITS["user"]
    for n in range(limit):
        assert start_club(client, f"Club {n}", address=f"10.0.1.{n}").status_code == 302
    before = Club.objects.count()
    upload = SimpleUploadedFile("club.json", data, content_type="application/json")
    refused = client.post(
        reverse("exports:club-archive-import"),
        {"slug": "uit-archief", "file": upload},
        REMOTE_ADDR="10.7.7.7",
        **ENGLISH,
    )
    assert refused.status_code == 429
    assert "Too many new clubs from this account or address" in refused.text
    assert Club.objects.count() == before


def test_club_archives_read_are_braked_refused_or_not(client, open_site):
    """Each upload costs the reading and checking of up to 20,000 rows, even when its
    last row is refused: the reads themselves are counted, per account and address."""
    client.force_login(factories.user("archiefstorm"))
    limit = django_settings.ARCHIVE_IMPORT_LIMITS["user"]
    bad = b'{"format": "klaverjas-club-archive", "version": 2, "club": {}, "rows": []}'

    def upload(slug):
        upload = SimpleUploadedFile("club.json", bad, content_type="application/json")
        return client.post(
            reverse("exports:club-archive-import"),
            {"slug": slug, "file": upload},
            REMOTE_ADDR="10.8.8.8",
            **ENGLISH,
        )

    for n in range(limit):
        refused = upload(f"poging-{n}")
        assert refused.status_code == 200  # the file's own refusal
        assert "Too many club archives" not in refused.text
    braked = upload("nog-een-poging")
    assert braked.status_code == 429
    assert "Too many club archives from this account or address" in braked.text
    assert not Club.objects.exists()
