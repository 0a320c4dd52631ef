"""Every form needs its CSRF token: a POST without one is refused with 403.

Club A's admin (who may do everything in club A) posts to every URL of the
site, filled with club A's objects, once without a CSRF cookie and once with
the cookie but without the token in the form or a header. Both must answer
403, before any view runs. A table link is a form too: the same holds there.
"""

import pytest
from django.test import Client
from django.urls import reverse

from tests.security.conftest import fill, natural_objects, natural_values, send, site_routes

pytestmark = pytest.mark.django_db

#: Addresses that take a POST without a CSRF token, and why. Empty: none may.
CSRF_EXEMPT: dict[str, str] = {}


def _club_a_admin(world):
    client = Client(enforce_csrf_checks=True)
    client.force_login(world[0].admin)
    return client


def _posts(world):
    natural = natural_objects(world[0])
    for route in site_routes():
        if route.name in CSRF_EXEMPT:
            continue
        yield route.name, fill(route, natural_values(route, natural))


def test_a_post_without_csrf_cookie_or_token_is_refused_everywhere(world):
    client = _club_a_admin(world)
    refused = {}
    for name, path in _posts(world):
        refused[f"{name} {path}"] = send(client, "POST", path, {"status": "finished"}).status_code
    wrong = {where: status for where, status in refused.items() if status != 403}
    assert wrong == {}
    assert len(refused) > 80


def test_a_post_with_the_cookie_but_no_token_is_refused_everywhere(world):
    client = _club_a_admin(world)
    client.get(reverse("clubs:home"))
    page = client.get(reverse("scoring:table-entry", kwargs={"token": world[0].token(2)}))
    assert page.status_code == 200
    assert client.cookies.get("csrftoken"), "the table page sets the CSRF cookie"
    wrong = {}
    for name, path in _posts(world):
        status = send(client, "POST", path, {"status": "finished"}).status_code
        if status != 403:
            wrong[f"{name} {path}"] = status
    assert wrong == {}


def test_a_post_with_the_token_gets_through(world):
    """The refusals above are the CSRF check's: with the token the same post works."""
    client = _club_a_admin(world)
    token = world[0].token(2)
    page = client.get(reverse("scoring:table-entry", kwargs={"token": token}))
    csrf = client.cookies["csrftoken"].value
    data = {"csrfmiddlewaretoken": csrf, "playing": "A", "points_a": "90", "number": "4"}
    response = client.post(reverse("scoring:table-hand", kwargs={"token": token}), data)
    assert page.status_code == 200
    assert response.status_code == 302
