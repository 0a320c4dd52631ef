"""A busy database: while another process holds SQLite's write lock (a backup, a
long import, a second server), a save waits for the busy timeout and is then
answered 503 with ``Retry-After``, stored nowhere; sent again after the lock is
gone, the hand arrives once. Static files never wait for the database."""

import http.client
import json
import sqlite3
import time
from urllib.parse import urlsplit

import pytest
from django.db import OperationalError, connection
from django.test import Client
from django.urls import reverse

from scoring.models import Game, Hand
from tests import factories
from tests.scoring.test_offline import hand as first_hand
from tests.scoring.test_table_entry import entry_url

ON_SQLITE = connection.vendor == "sqlite"
BUSY_TIMEOUT = 1  # seconds, instead of the site's 20, to keep the test short


@pytest.fixture
def short_busy_timeout(monkeypatch):
    """New connections (one per request in the live server) wait one second for a lock."""
    options = connection.settings_dict["OPTIONS"]
    monkeypatch.setitem(options, "timeout", BUSY_TIMEOUT)
    monkeypatch.setitem(
        options,
        "init_command",
        options["init_command"].replace(
            "PRAGMA busy_timeout=20000;", f"PRAGMA busy_timeout={BUSY_TIMEOUT * 1000};"
        ),
    )


class Phone:
    """A table's phone over real HTTP: the page (for the CSRF cookie), then JSON posts."""

    def __init__(self, port, table):
        self.port = port
        self.page = entry_url(table)
        self.hands = entry_url(table, "table-hands-json")
        self.cookies = {}
        status, _headers, _body = self.request("GET", self.page)
        assert status == 200

    def request(self, method, path, body=None, headers=None):
        connection_ = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())} | (
            headers or {}
        )
        try:
            connection_.request(method, path, body=body, headers=headers)
            response = connection_.getresponse()
            data = response.read()
        finally:
            connection_.close()
        for header in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = header.partition("=")
            self.cookies[name] = rest.split(";", 1)[0]
        return response.status, response.headers, data

    def send(self, hand):
        headers = {
            "Content-Type": "application/json",
            "Accept": "application/json",
            "X-CSRFToken": self.cookies["csrftoken"],
        }
        status, response_headers, body = self.request("POST", self.hands, json.dumps(hand), headers)
        return status, response_headers, json.loads(body)


@pytest.mark.skipif(not ON_SQLITE, reason="SQLite's one-writer lock")
@pytest.mark.django_db(transaction=True)
def test_a_hand_sent_while_the_database_is_locked_is_503_then_arrives_once(
    live_server, club, short_busy_timeout, drawn_evening
):
    table = drawn_evening(club, factories.role(club, "director")).tables[0]
    phone = Phone(urlsplit(live_server.url).port, table)
    hand = first_hand()

    other_process = sqlite3.connect(connection.settings_dict["NAME"], timeout=5)
    other_process.execute("BEGIN EXCLUSIVE")  # holds the write lock past the busy timeout
    try:
        started = time.monotonic()
        status, headers, body = phone.send(hand)
        waited = time.monotonic() - started
    finally:
        other_process.rollback()
        other_process.close()

    assert status == 503
    assert headers["Retry-After"] == "5"
    assert body["ok"] is False and body["busy"] is True
    assert waited >= BUSY_TIMEOUT * 0.9
    assert not Hand.objects.exists()

    status, _headers, body = phone.send(hand)  # what the phone's queue does next
    assert (status, body["ok"], body["created"]) == (201, True, True)
    status, _headers, body = phone.send(hand)  # and the answer to that was lost
    assert (status, body["created"]) == (200, False)
    assert Hand.objects.count() == 1
    assert Game.objects.get(pk=table.game.pk).hands_entered == 1


def locked(*args, **kwargs):
    raise OperationalError("database is locked")


@pytest.mark.django_db
def test_a_locked_save_from_the_phone_is_503_with_retry_after(club, monkeypatch, drawn_evening):
    table = drawn_evening(club, factories.role(club, "director")).tables[0]
    client = Client(raise_request_exception=False)
    monkeypatch.setattr("scoring.services.hand_record_or_get", locked)
    response = client.post(
        entry_url(table, "table-hands-json"),
        json.dumps(first_hand()),
        content_type="application/json",
        headers={"Accept": "application/json"},
    )
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert response.json()["busy"] is True


@pytest.mark.django_db
def test_a_locked_page_or_middleware_is_a_503_page_that_needs_no_database(monkeypatch):
    """The busy page itself must not read the session or the user: the database is locked."""
    client = Client(raise_request_exception=False)
    monkeypatch.setattr(
        "django.contrib.sessions.backends.db.SessionStore.load", locked, raising=True
    )
    client.cookies["sessionid"] = "k" * 32
    response = client.get(reverse("clubs:home"))
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert "Even druk" in response.text and "The site is busy" in response.text


def test_other_database_errors_stay_500(monkeypatch):
    from config.errors import database_is_busy

    assert database_is_busy(OperationalError("database is locked"))
    assert not database_is_busy(OperationalError("no such table: clubs_club"))
    assert not database_is_busy(ValueError("database is locked"))


@pytest.mark.django_db(transaction=True)
def test_static_files_are_served_before_anything_touches_the_database(
    settings, django_assert_num_queries
):
    settings.WHITENOISE_USE_FINDERS = True
    settings.WHITENOISE_AUTOREFRESH = True
    client = Client()
    with django_assert_num_queries(0):
        response = client.get(f"{settings.STATIC_URL}css/site.css")
    assert response.status_code == 200
    first_db_middleware = settings.MIDDLEWARE.index(
        "django.contrib.sessions.middleware.SessionMiddleware"
    )
    assert settings.MIDDLEWARE.index("whitenoise.middleware.WhiteNoiseMiddleware") == 1
    assert first_db_middleware > 1


@pytest.mark.skipif(not ON_SQLITE, reason="SQLite's one-writer lock")
@pytest.mark.django_db(transaction=True)
def test_standings_read_while_the_database_is_locked_are_whole_and_store_nothing(
    live_server, club, short_busy_timeout, play_season
):
    """A player opens the standings while a backup holds the write lock: a read takes
    no write lock, so the page is whole (the evenings without stored totals summed in
    memory) and stores nothing; after the lock it shows the same and stores nothing
    either (the evenings' changes store their totals)."""
    from scoring.models import EveningTotals
    from tests.scoring.results.test_standings import without_token

    competition, *_ = play_season(club, evenings=2, players=8, rounds=1, seed=4)
    EveningTotals.objects.all().delete()
    path = reverse("results:standings", kwargs={"club": club.slug, "pk": competition.pk})
    port = urlsplit(live_server.url).port

    def get():
        reader = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        try:
            reader.request("GET", path)
            response = reader.getresponse()
            return response.status, response.read().decode()
        finally:
            reader.close()

    other_process = sqlite3.connect(connection.settings_dict["NAME"], timeout=5)
    other_process.execute("BEGIN EXCLUSIVE")
    try:
        locked_status, locked_page = get()
    finally:
        other_process.rollback()
        other_process.close()
    assert locked_status == 200
    assert not EveningTotals.objects.exists()
    status, page = get()
    assert status == 200
    assert not EveningTotals.objects.exists()
    assert without_token(page) == without_token(locked_page)
