"""The replica router (``config.routers``): a public page's reads for an anonymous
visitor without a session go to the replica, everything else to the primary.

In the test settings the replica is a mirror of the test database, so the pages read
through the replica's own connection and must show what the primary shows.
"""

import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.db import connections, router, transaction
from django.http import HttpResponse
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubs.models import Club
from common.replica import replica_reads
from config.settings import base as base_settings
from tests import factories
from tournaments import services

ROOT = Path(__file__).resolve().parents[2]


@replica_reads
def where_reads_go(request):
    """A page marked as the public pages are: where its reads and writes would go."""
    return HttpResponse(f"{router.db_for_read(Club)} {router.db_for_write(Club)}")


def answered(method="get", *, cookies=None, user=None):
    request = getattr(RequestFactory(), method)("/page/")
    request.COOKIES.update(cookies or {})
    request.user = user or AnonymousUser()
    return where_reads_go(request).content.decode()


def test_an_anonymous_get_or_head_without_a_session_reads_from_the_replica():
    assert answered("get") == "replica default"
    assert answered("head") == "replica default"


def test_a_post_a_session_or_a_logged_in_visitor_reads_from_the_primary():
    assert answered("post") == "default default"
    assert answered("get", cookies={"sessionid": "abc"}) == "default default"
    signed_in = get_user_model()(username="someone")  # is_authenticated, never saved
    assert answered("get", user=signed_in) == "default default"


def test_outside_a_marked_page_everything_is_the_primary():
    assert router.db_for_read(Club) == "default"
    assert router.db_for_read(Club, instance=Club(name="x")) == "default"


@pytest.mark.django_db
def test_inside_a_transaction_everything_is_the_primary():
    with transaction.atomic():  # a read inside a transaction must see its writes
        assert answered("get") == "default default"


def test_a_write_of_an_object_read_from_the_replica_goes_to_the_primary():
    club = Club(name="Van de replica")
    club._state.db = "replica"
    assert router.db_for_write(Club, instance=club) == "default"
    assert router.allow_migrate("replica", "clubs") is False
    assert router.allow_migrate("default", "clubs") is not False


@pytest.mark.filterwarnings("ignore:Overriding setting DATABASES")
def test_without_a_replica_url_every_read_is_the_primary(settings):
    assert "replica" not in base_settings.DATABASES  # the environment names none here
    settings.DATABASES = {"default": settings.DATABASES["default"]}
    assert answered("get") == "default default"


def _without_tokens(page):
    return re.sub(rb'name="csrfmiddlewaretoken" value="[^"]+"', b"", page.content)


@pytest.mark.django_db(transaction=True)
def test_the_public_pages_read_from_the_replica_and_show_what_the_primary_holds(client):
    club = factories.club(results_public=True)
    director = factories.role(club, "director")
    played = factories.drawn_round(club, director)
    factories.round_played(played.round, by=director, rng=random.Random(4))
    services.evening_set_status(evening=played.evening, status="finished", by=director)
    pages = {
        "standings": reverse(
            "results:standings", kwargs={"club": club.slug, "pk": played.season.pk}
        ),
        "evening": reverse("results:evening", kwargs={"club": club.slug, "pk": played.evening.pk}),
        "player": reverse("results:player", kwargs={"club": club.slug, "pk": played.members[0].pk})
        + f"?competition={played.season.pk}",
    }
    pages["board"] = pages["evening"] + "?board=1"
    for name, url in pages.items():
        with (
            CaptureQueriesContext(connections["replica"]) as on_replica,
            CaptureQueriesContext(connections["default"]) as on_primary,
        ):
            page = client.get(url)
        assert page.status_code == 200, name
        assert on_replica.captured_queries and not on_primary.captured_queries, name
        with transaction.atomic(), CaptureQueriesContext(connections["replica"]) as replica:
            from_primary = client.get(url)  # in a transaction: the primary
        assert not replica.captured_queries
        assert _without_tokens(page) == _without_tokens(from_primary), name
        assert played.members[0].name.encode() in page.content, name
    client.force_login(director)
    with CaptureQueriesContext(connections["replica"]) as on_replica:
        assert client.get(pages["standings"]).status_code == 200
    assert not on_replica.captured_queries  # the director's view is never behind


def _base_settings(**env):
    """What ``config.settings.base`` makes of ``env``: (its replica or None, the error)."""
    code = (
        "from config.settings import base\n"
        "replica = base.DATABASES.get('replica')\n"
        "print(replica and (replica['NAME'], replica['HOST'], base.DATABASE_ROUTERS))\n"
    )
    environment = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL",)}
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**environment, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )
    return done.stdout.strip(), done.stderr


def test_the_replica_url_names_the_replica_and_needs_the_primary_s_url():
    replica, _ = _base_settings(
        DATABASE_URL="postgres://k@db.example.org/klaverjas",
        DJANGO_DATABASE_REPLICA_URL="postgres://k@standby.example.org/klaverjas",
    )
    assert replica == "('klaverjas', 'standby.example.org', ['config.routers.ReplicaRouter'])"
    _, refused = _base_settings(DJANGO_DATABASE_REPLICA_URL="postgres://k@standby/klaverjas")
    assert "DJANGO_DATABASE_REPLICA_URL is set but DATABASE_URL is not" in refused
