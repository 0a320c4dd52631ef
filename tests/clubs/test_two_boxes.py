"""Two boxes serve one club night: two gunicorns with the production settings, each on a
port of its own on 127.0.0.1, on one PostgreSQL (the suite's test database) and one
Redis (127.0.0.1:6379, under a key prefix of this run's own), each with a data folder of
its own. A device's requests go to either box, as a load balancer sends them, and every
brake and lock holds for the two together:

- wrong confirmation PINs sent to the two boxes in turn are counted together;
- the password-reset limit holds across the boxes;
- one hand sent to both boxes at once is stored once;
- a results import previewed on one box is confirmed on the other;
- a public page rendered on one box is the other's too (one ETag, one cached copy in
  Redis), and a hand saved on either box gives both a new one at once.

The boxes are started with the load test's own server helpers (``bench/load.py``), once
for the module. PostgreSQL only (the PostgreSQL leg of ``make test``); without a Redis
on 127.0.0.1:6379 the module is skipped, under CI=true it fails.
"""

import datetime
import http.client
import os
import random
import re
import threading
import time
import uuid
from types import SimpleNamespace
from urllib.parse import urlsplit, urlunsplit

import pytest
import redis
from django.core.management import call_command
from django.db import connection
from django.test import Client, override_settings
from django.urls import reverse

from bench import load
from bench.load import (
    CONFIRMER,
    CSRF_FIELD,
    HIDDEN,
    HOST,
    Browser,
    Stats,
    free_port,
    start_server,
    stop_server,
    wait_until_up,
)
from clubs.auth import pin_hash
from clubs.models import PendingUpload
from scoring.demo import play_game
from scoring.models import AuditEntry, Game
from tests import factories
from tests.needs import REDIS_URL, missing, redis_answers, redis_forget
from tournaments.models import Evening

# ``django_db``: the suite's test database is made for this module too (each test reads
# in a transaction of its own, which sees what the boxes commit).
pytestmark = [pytest.mark.slow, pytest.mark.database, pytest.mark.django_db]

#: The boxes' own secret key (production refuses a short one): the PINs, the sessions
#: and the CSRF tokens made here are keyed with it, as a box would key them.
SECRET_KEY = "two-boxes-" + "0123456789abcdef" * 3
PIN, WRONG_PIN = "2468", "1357"
SETTINGS_MODULE = "klaverjas_two_boxes_settings"
#: The production settings as the load test runs a box (static files from the apps'
#: folders, no collectstatic; quiet logs), with the cache keys under this run's prefix
#: and e-mail that goes nowhere.
SETTINGS = load.SETTINGS.replace("config.settings.lan", "config.settings.production") + (
    """
import os

from config.settings.production import CACHES

CACHES = {
    name: {**cache, "KEY_PREFIX": cache["KEY_PREFIX"] + os.environ["TWO_BOXES_RUN"]}
    for name, cache in CACHES.items()
}
EMAIL_CONFIGURED = True
EMAIL_BACKEND = "django.core.mail.backends.dummy.EmailBackend"
"""
)


def _build_the_night():
    """A club that confirms with PINs: one evening of four tables (two played to the
    end, their players with a PIN; two still open), a director, and a competition with
    the members a sheet of totals names."""
    club = factories.club(confirm_with_pin=True)
    director = factories.role(club, "director")
    drawn = factories.drawn_round(club, director, players=16)
    ruleset = drawn.season.ruleset()
    rng = random.Random(28)
    for game in drawn.games[:2]:
        factories.game_played(game, play_game(ruleset, rng), by=director, confirmed_by=None)
    with override_settings(SECRET_KEY=SECRET_KEY):
        for member in drawn.members:
            member.pin = pin_hash(PIN)
            member.save(update_fields=["pin"])
        signed_in = Client()
        signed_in.force_login(director)
    for name in ("Anna", "Bert"):
        factories.member(club, name)
    return SimpleNamespace(
        club=club,
        evening=drawn.evening,
        tables=drawn.tables,
        imports_into=factories.competition(club, name="Zomeravonden", rounds_per_evening=1),
        director_session=signed_in.cookies["sessionid"].value,
    )


def _database_url(name):
    url = urlsplit(os.environ["DATABASE_URL"])
    return urlunsplit(url._replace(path=f"/{name}"))


def _forget_the_run(run):
    """Every cache key this run's boxes left in Redis."""
    redis_forget(f"klaverjas*{run}:*")


@pytest.fixture(scope="module")
def night(django_db_setup, django_db_blocker, tmp_path_factory):
    """The two boxes, started once: their ports and what ``_build_the_night`` made.

    The night is committed in the suite's test database (the boxes see only what is
    committed) and flushed at the end, as after a ``transactional_db`` test."""
    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        pytest.skip("two boxes share one PostgreSQL: runs on the PostgreSQL leg")
    if not redis_answers():
        missing("no Redis answers on 127.0.0.1:6379 (apt-get install redis-server)")
    assert "from config.settings.production import *" in SETTINGS  # the load test's box
    run = uuid.uuid4().hex[:12]
    boxes = []
    with django_db_blocker.unblock():
        database = connection.settings_dict["NAME"]
        assert database.startswith("test_"), database  # never the real database
        try:
            world = _build_the_night()
            env = {
                **{
                    k: v
                    for k, v in os.environ.items()
                    if not k.startswith(("DJANGO_", "DATABASE_URL", "KLAVERJAS_"))
                },
                "DJANGO_SETTINGS_MODULE": SETTINGS_MODULE,
                "DATABASE_URL": _database_url(database),
                "DJANGO_CACHE_URL": REDIS_URL,
                "DJANGO_SECRET_KEY": SECRET_KEY,
                "DJANGO_ALLOWED_HOSTS": HOST,
                "DJANGO_SECURE_SSL_REDIRECT": "0",  # plain http on 127.0.0.1
                "TWO_BOXES_RUN": run,
            }
            for name in ("a", "b"):
                folder = tmp_path_factory.mktemp(f"box-{name}")
                (folder / f"{SETTINGS_MODULE}.py").write_text(SETTINGS)
                port = free_port()
                box_env = {**env, "KLAVERJAS_DATA_DIR": str(folder / "data")}
                boxes.append((port, folder, start_server(folder, port, 1, box_env)))
            deadline = time.monotonic() + 60
            for port, folder, server in boxes:
                try:
                    wait_until_up(server, port, deadline)
                except RuntimeError as exc:
                    log = (folder / "gunicorn.log").read_text(errors="replace")
                    raise AssertionError(f"{exc}\n{log[-3000:]}") from None
            yield SimpleNamespace(ports=[port for port, _f, _s in boxes], run=run, **vars(world))
        finally:
            for _port, _folder, server in boxes:
                stop_server(server)
            _forget_the_run(run)
            call_command("flush", interactive=False, verbosity=0)


class Device:
    """One phone or laptop: one set of cookies, its requests sent to box 0 or box 1."""

    def __init__(self, night, cookies=None):
        self.stats = Stats()
        deadline = time.monotonic() + 120
        self.boxes = [Browser(port, self.stats, deadline) for port in night.ports]
        shared = dict(cookies or {})
        for box in self.boxes:
            box.cookies = shared

    def send(self, box, method, path, fields=None, expect=200):
        answer = self.boxes[box].request("two boxes", method, path, fields, expect)
        assert answer is not None, self.stats.samples
        return answer[2]

    def upload(self, box, path, fields, filename, data):
        """A form with a file (multipart), as a browser posts it; (status, page)."""
        boundary = uuid.uuid4().hex
        parts = [
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'
            for name, value in fields.items()
        ]
        body = (
            "".join(parts).encode()
            + (
                f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
                f'filename="{filename}"\r\nContent-Type: text/csv\r\n\r\n'
            ).encode()
        )
        body += data + f"\r\n--{boundary}--\r\n".encode()
        cookies = "; ".join(f"{k}={v}" for k, v in self.boxes[box].cookies.items())
        headers = {"Content-Type": f"multipart/form-data; boundary={boundary}", "Cookie": cookies}
        connection_ = http.client.HTTPConnection(HOST, self.boxes[box].port, timeout=30)
        try:
            connection_.request("POST", path, body=body, headers=headers)
            response = connection_.getresponse()
            return response.status, response.read().decode()
        finally:
            connection_.close()


def _confirm_fields(page, pin):
    names = CONFIRMER.findall(page)
    return {
        "csrfmiddlewaretoken": CSRF_FIELD.search(page).group(1),
        "name": names[0],
        "version": dict(HIDDEN.findall(page))["version"],
        "pin": pin,
    }


def test_wrong_pins_sent_to_both_boxes_are_braked_together(night):
    device = Device(night)
    braked, control = night.tables[0], night.tables[1]
    path = f"/t/{braked.token}/"
    fields = _confirm_fields(device.send(0, "GET", path), WRONG_PIN)
    for attempt in range(5):  # the limit: 5 wrong PINs, sent to box a, b, a, b, a
        device.send(attempt % 2, "POST", path + "confirm/", fields, expect=422)
    # Box b saw two of them; together they are five, so even the right PIN is refused.
    device.send(1, "POST", path + "confirm/", {**fields, "pin": PIN}, expect=422)
    assert Game.objects.get(table=braked).status == Game.Status.COMPLETE
    # The same right PIN at a table whose player guessed nothing confirms (so the refusal
    # above is the brake's, not a PIN the boxes cannot read).
    path = f"/t/{control.token}/"
    fields = _confirm_fields(device.send(1, "GET", path), PIN)
    device.send(1, "POST", path + "confirm/", fields, expect=302)
    assert Game.objects.get(table=control).status == Game.Status.CONFIRMED


def test_the_password_reset_limit_holds_across_boxes(night):
    device = Device(night)
    page = device.send(0, "GET", "/accounts/password_reset/")
    fields = {
        "csrfmiddlewaretoken": CSRF_FIELD.search(page).group(1),
        "email": f"vergeten-{uuid.uuid4().hex[:8]}@example.org",
    }
    for box in (0, 1, 0):  # the limit: 3 an hour per address
        device.send(box, "POST", "/accounts/password_reset/", fields, expect=302)
    refused = device.send(1, "POST", "/accounts/password_reset/", fields, expect=200)
    assert 'name="email"' in refused and "errorlist" in refused


def _at_once(*sends):
    """Each of ``sends`` (a request to make) in a thread of its own, all at one moment."""
    start = threading.Barrier(len(sends))

    def send(request):
        start.wait(timeout=30)
        request()

    threads = [threading.Thread(target=send, args=(request,)) for request in sends]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)


#: A hand as the table's form sends it: team A plays and makes 100.
HAND = {"keeper": "A", "playing": "A", "points_a": "100", "points_b": "", "roem_a": ""}
HAND |= {"roem_b": "", "pit": "", "trump": "H"}


def form(page):
    """The hand form of a table's ``page``, filled with ``HAND``."""
    return {**HAND, "csrfmiddlewaretoken": CSRF_FIELD.search(page).group(1)} | dict(
        HIDDEN.findall(page)
    )


def test_one_hand_sent_to_both_boxes_at_once_is_stored_once(night):
    table = night.tables[2]
    path = f"/t/{table.token}/"

    def save(device, box, fields):
        return lambda: device.boxes[box].request("save", "POST", path + "hand/", fields, 302)

    # A phone that sends its form again (the same entry id) to the other box, at once:
    # both are told it is saved, and it is saved once.
    phone = Device(night)
    again = form(phone.send(0, "GET", path))
    _at_once(save(phone, 0, again), save(phone, 1, again))
    assert phone.stats.samples == [] and phone.stats.requests == 3
    game = Game.objects.get(table=table)
    assert game.hands.count() == 1
    assert AuditEntry.objects.filter(game=game, action="create").count() == 1

    # Two phones at the table enter hand 2 at once, each on its own box: one is stored,
    # the other is told that hand is there already (409), as on one box.
    phones = [Device(night), Device(night)]
    forms = [form(phones[box].send(box, "GET", path)) for box in (0, 1)]
    assert forms[0]["client_id"] != forms[1]["client_id"]
    assert forms[0]["number"] == forms[1]["number"] == "2"
    _at_once(save(phones[0], 0, forms[0]), save(phones[1], 1, forms[1]))
    refused = phones[0].stats.samples + phones[1].stats.samples
    assert len(refused) == 1 and ": 409, expected 302" in refused[0], refused
    assert list(game.hands.order_by("number").values_list("number", flat=True)) == [1, 2]
    assert AuditEntry.objects.filter(game=game, action="create").count() == 2


def test_a_results_import_previewed_on_one_box_is_confirmed_on_the_other(night):
    device = Device(night, cookies={"sessionid": night.director_session})
    url = reverse(
        "exports:results-import", kwargs={"club": night.club.slug, "pk": night.imports_into.pk}
    )
    page = device.send(0, "GET", url)
    csrf = CSRF_FIELD.search(page).group(1)
    sheet = b"Datum;Naam;Punten;Marsen;Plaats\r\n2026-09-08;Anna;4210;1;1\r\n"
    sheet += b"2026-09-08;Bert;3000;0;2\r\n"
    status, preview = device.upload(0, url, {"csrfmiddlewaretoken": csrf}, "totalen.csv", sheet)
    assert status == 200, preview[-2000:]
    token = re.search(r'name="token" value="([^"]+)"', preview)
    assert token, preview[-2000:]
    assert PendingUpload.objects.filter(club=night.club).count() == 1
    # The other box takes the confirmation: the file waited in the database, not on box a.
    fields = {"csrfmiddlewaretoken": csrf, "token": token.group(1)}
    device.send(1, "POST", url, fields, expect=302)
    evening = Evening.objects.get(competition=night.imports_into)
    assert evening.date == datetime.date(2026, 9, 8)
    assert not PendingUpload.objects.filter(club=night.club).exists()


def _public_page(device, box, path, etag=None, expect=200):
    """An anonymous visitor's GET of ``path`` from ``box``, as a load balancer forwards it
    (the site's one host name, whichever box): (status, headers, page)."""
    headers = {"Host": HOST, **({"If-None-Match": etag} if etag else {})}
    answer = device.boxes[box].request("page", "GET", path, expect=expect, headers=headers)
    assert answer is not None, device.stats.samples
    return answer


def _kept_pages(run):
    """The rendered pages this run's boxes keep in Redis (``common.pagecache``)."""
    cache = redis.Redis.from_url(REDIS_URL)
    try:
        return set(cache.scan_iter(match=f"klaverjas*{run}:*page:*"))
    finally:
        cache.close()


def test_a_public_page_is_one_on_both_boxes_and_new_on_both_after_a_hand(night):
    path = reverse("results:evening", kwargs={"club": night.club.slug, "pk": night.evening.pk})
    visitor = Device(night)
    before = _kept_pages(night.run)
    _status, headers, page = _public_page(visitor, 0, path)
    assert headers["ETag"] and "public" in headers["Cache-Control"]
    assert not headers.get_all("Set-Cookie") and visitor.boxes[0].cookies == {}
    kept = _kept_pages(night.run)
    assert len(kept - before) == 1, kept - before  # rendered once, kept in the shared cache
    # Box b knows box a's copy: the same version, the same tag, the same page.
    _public_page(visitor, 1, path, headers["ETag"], expect=304)
    _status, again, page_b = _public_page(visitor, 1, path)
    assert (again["ETag"], page_b) == (headers["ETag"], page)
    assert _kept_pages(night.run) == kept

    # A hand saved on box b: both boxes answer the old tag with the new page.
    table_page = f"/t/{night.tables[3].token}/"
    phone = Device(night)
    phone.send(1, "POST", table_page + "hand/", form(phone.send(1, "GET", table_page)), expect=302)
    _status, new, page_new = _public_page(visitor, 0, path, headers["ETag"])
    assert new["ETag"] != headers["ETag"] and page_new != page
    _status, new_b, page_new_b = _public_page(visitor, 1, path, headers["ETag"])
    assert (new_b["ETag"], page_new_b) == (new["ETag"], page_new)
    _public_page(visitor, 1, path, new["ETag"], expect=304)
    assert len(_kept_pages(night.run) - kept) == 1  # the new page, kept beside the old
