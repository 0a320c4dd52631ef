"""Nothing of a private club answers anyone who is not one of its people.

Every URL of the site (the URL conf walked, ``conftest.site_routes``), filled
with every object of club A its parameters name and every kind's primary key,
requested with GET and POST by three outsiders:

- anonymous;
- the table link of another club's table (the cookies of club B's table page,
  after entering a hand there);
- club B's admin, also with club B's slug in front of club A's objects.

A URL of club A must answer 302 to the login page, 403, 404 or 405 (a GET on a
POST-only address: the method is refused before anything is looked up). Pages
that are nobody's in particular (home, league list, login, the trick checker,
the table link of club B itself) may answer 200. No answer, whatever its
status, may contain a name of club A (:data:`MARKER`).
"""

import uuid

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.security.conftest import (
    MARKER,
    WRONG_TOKEN,
    candidate_values,
    fill,
    names_club_a_object,
    natural_objects,
    representatives,
    send,
    site_routes,
)

pytestmark = [pytest.mark.django_db, pytest.mark.any_database]

REFUSED = {403, 404, 405}


def _login_redirect(response):
    if response.status_code != 302:
        return False
    return response["Location"].startswith(reverse(settings.LOGIN_URL))


def _leaks(response):
    """Whether the answer shows a name of club A (in text; a compressed download
    cannot be searched this way, which is why club A's must not answer 200)."""
    if getattr(response, "streaming", False):
        body = b"".join(response.streaming_content)
    else:
        body = response.content
    return MARKER.lower().encode() in body.lower()


def table_link_client(world_b):
    """A phone holding club B's table link, after entering a hand there."""
    client = Client()
    path = reverse("scoring:table-entry", kwargs={"token": world_b.token()})
    assert client.get(path).status_code == 200
    data = {
        "keeper": "A",
        "playing": "A",
        "points_a": "100",
        "client_id": uuid.uuid4().hex,
        "number": "1",
        "version": "0",
    }
    response = client.post(reverse("scoring:table-hand", kwargs={"token": world_b.token()}), data)
    assert response.status_code == 302, response.status_code
    return client


def outsider_requests(world, *, other_club_slug=False):
    """(method, path, is club A's) for every URL of the site as an outsider tries it."""
    a, b = world
    natural = natural_objects(a)
    pks = representatives(a)
    for route in site_routes():
        names = [name for _segment, name in route.params]
        if "token" in names and route.params[0] == ("t", "token"):
            # A table link opens its own table only: club B's link is B's page,
            # a made-up one is nothing.
            yield "GET", fill(route, {"token": b.token()}), False
            yield "POST", fill(route, {"token": b.token()}), False
            yield "GET", fill(route, {"token": WRONG_TOKEN}), True
            yield "POST", fill(route, {"token": WRONG_TOKEN}), True
            continue
        fillings = candidate_values(route, natural, pks)
        ours = bool(route.params) and not route.route.startswith("accounts/")
        for index, values in enumerate(fillings):
            path = fill(route, values)
            yield "GET", path, ours
            if index == 0:
                yield "POST", path, ours
            if other_club_slug and "club" in names and len(names) > 1:
                # Club B's address with club A's object in it.
                path = fill(route, {**values, "club": b.club.slug})
                yield "GET", path, names_club_a_object(route, values, natural)


def check_outsider(client, world, **options):
    problems, seen = [], 0
    for method, path, ours in outsider_requests(world, **options):
        response = send(client, method, path)
        seen += 1
        status = response.status_code
        if status >= 500:
            problems.append(f"{method} {path}: {status} {response!r}")
        elif _leaks(response):
            problems.append(f"{method} {path}: {status} shows club A's names")
        elif ours and not (status in REFUSED or _login_redirect(response)):
            where = response.headers.get("Location", "")
            problems.append(f"{method} {path}: {status} {where}".rstrip())
    return problems, seen


def test_anonymous_sees_nothing_of_a_private_club(world):
    problems, seen = check_outsider(Client(), world)
    assert problems == [], "\n".join(problems)
    assert seen > 400


def test_another_tables_link_opens_nothing_of_a_private_club(world):
    client = table_link_client(world[1])
    problems, _seen = check_outsider(client, world)
    assert problems == [], "\n".join(problems)


def test_another_clubs_admin_sees_nothing_of_a_private_club(world):
    client = Client()
    client.force_login(world[1].admin)
    problems, seen = check_outsider(client, world, other_club_slug=True)
    assert problems == [], "\n".join(problems)
    assert seen > 500


def test_club_a_itself_reaches_its_pages(world):
    """The check above means something: club A's admin gets 200 and the names."""
    a, _b = world
    client = Client()
    client.force_login(a.admin)
    for name, kwargs in [
        ("clubs:member-list", {"club": a.club.slug}),
        ("results:evening", {"club": a.club.slug, "pk": a.evening.pk}),
        ("leagues:league-detail", {"pk": a.extra["league"].pk}),
    ]:
        response = client.get(reverse(name, kwargs=kwargs))
        assert response.status_code == 200, name
        assert _leaks(response), name


def test_another_clubs_admin_cannot_reach_club_a_through_query_parameters(world):
    """Club B's own pages with club A's objects in the query string: 404, no names."""
    a, b = world
    client = Client()
    client.force_login(b.admin)
    member_b = b.members[0].pk
    asks = [
        ("results:standings", {"pk": b.season.pk}, {"period": a.extra["period"].pk}),
        ("exports:standings-xlsx", {"pk": b.season.pk}, {"period": a.extra["period"].pk}),
        ("exports:standings-csv", {"pk": b.season.pk}, {"period": a.extra["period"].pk}),
        ("results:player", {"pk": member_b}, {"competition": a.season.pk}),
        ("scoring:evening-audit", {"pk": b.evening.pk}, {"table": a.tables[0].pk}),
    ]
    answers = {}
    for name, kwargs, query in asks:
        response = send(client, "GET", reverse(name, kwargs={"club": b.club.slug, **kwargs}), query)
        answers[name] = (response.status_code, _leaks(response))
    assert answers == dict.fromkeys(answers, (404, False))
    trick = send(client, "GET", reverse("trickcheck:check"), {"table": WRONG_TOKEN})
    assert trick.status_code == 404
